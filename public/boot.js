// Paint the stored theme before React starts, so a light-mode user never sees a dark flash.
document.documentElement.dataset.theme = localStorage.getItem('theme') === 'light' ? 'light' : 'dark';

// A signed-in visitor (the tokens of src/authProvider/session.ts) needs, besides the application's entry, the API docs
// and the code of the page they open: both start now, beside the entry, instead of once the entry has run. The docs
// are asked for with the ETag of the parse the browser keeps (src/dataProvider/adminSchema.ts, which takes this
// request over): a 304 while they are unchanged. The page's files (named in the built page by vite.config.ts,
// pageChunks) are preloaded at low priority: they do not hold the first paint, nor the entry.
if (localStorage.getItem('access_token')) {
  const tag = localStorage.getItem('pecflow.apiDocs.etag');
  window.pecflowDocs = fetch('/api/docs.jsonld', {
    headers: tag ? { Accept: 'application/ld+json', 'If-None-Match': tag } : { Accept: 'application/ld+json' },
  });
  window.pecflowDocs.catch(() => undefined);
  const pages = JSON.parse(document.getElementById('pecflow-pages')?.textContent ?? '{}');
  const path = location.pathname;
  const route = Object.keys(pages).find((prefix) => path === prefix || (prefix !== '/' && path.startsWith(`${prefix}/`)));
  for (const href of pages[route] ?? []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    link.crossOrigin = '';
    link.fetchPriority = 'low';
    document.head.append(link);
  }
}

// The frame this page had when last drawn here (src/keptFrame.ts): painted over the page at once, before any
// script has run, hidden from assistive technologies (the wait beneath it says "Chargement...") and inert; the page
// removes it when it draws its own frame. Only for the build, theme and window width it was drawn with.
const FRAME_PREFIX = 'pecflow.frame.';
window.pecflowFrame = {
  prefix: FRAME_PREFIX,
  stylesKey: 'pecflow.styles',
  key: (path) => FRAME_PREFIX + path,
  remove() {
    document.getElementById('pecflow-frame')?.remove();
    document.getElementById('pecflow-frame-style')?.remove();
  },
};
const paintKeptFrame = () => {
  if (!localStorage.getItem('access_token')) return;
  let kept;
  try {
    kept = JSON.parse(localStorage.getItem(window.pecflowFrame.key(location.pathname + location.search)) ?? 'null');
  } catch {
    return;
  }
  const build = document.querySelector('meta[name="pecflow-app"]')?.content;
  if (!kept || kept.build !== build || kept.theme !== document.documentElement.dataset.theme || kept.width !== window.innerWidth) return;
  const style = document.createElement('style');
  style.id = 'pecflow-frame-style';
  style.textContent = kept.css;
  document.head.append(style);
  const frame = document.createElement('div');
  frame.id = 'pecflow-frame';
  frame.setAttribute('aria-hidden', 'true');
  frame.inert = true;
  // Parsed in a template (an inert document: nothing in it runs or loads), then cleared of anything that could run:
  // the markup is the application's own, this keeps it so even if the stored text were not.
  const template = document.createElement('template');
  template.innerHTML = kept.html;
  for (const element of template.content.querySelectorAll('*')) {
    if (/^(script|iframe|object|embed|link|meta|base|form)$/i.test(element.tagName)) element.remove();
    else for (const { name } of [...element.attributes]) if (/^(on|href$|src$|action$|formaction$)/i.test(name)) element.removeAttribute(name);
  }
  frame.append(template.content);
  document.body.append(frame);
  // A page that never draws its frame (an error, a redirection) is not left under a picture of it.
  setTimeout(() => window.pecflowFrame.remove(), 20_000);
};

// Emotion's rules kept from an earlier page load of this build and theme (src/keptFrame.ts, keepStyles), written as
// emotion finds a server-rendered page's (`data-emotion="css <names>"`): it takes them as already inserted and inserts
// none of them again as the page first draws. After the first paint: that paint needs none of them.
const writeKeptStyles = () => {
  let kept;
  try {
    kept = JSON.parse(localStorage.getItem(window.pecflowFrame.stylesKey) ?? 'null');
  } catch {
    return;
  }
  const build = document.querySelector('meta[name="pecflow-app"]')?.content;
  if (!kept || kept.build !== build || kept.theme !== document.documentElement.dataset.theme) return;
  const style = document.createElement('style');
  style.dataset.emotion = ['css', ...kept.names].join(' ');
  style.textContent = kept.css;
  document.head.append(style);
};

// The built page names its application instead of running it (vite.config.ts, startAfterFirstPaint): it is started
// once the page's wait ("Chargement...") has been painted. Run at once, its scripts (downloaded with the page) hold the
// first paint on a fast connection, and a phone shows nothing until they have run. A hidden tab does not paint: it
// starts at once. The <meta> comes after this script: it is read once the page is parsed.
const startAfterFirstPaint = () => {
  const app = document.querySelector('meta[name="pecflow-app"]');
  if (!app) return;
  paintKeptFrame();
  const start = () => {
    writeKeptStyles();
    return import(app.content).catch(() => {
      window.pecflowFrame.remove();
      const wait = document.querySelector('.boot p');
      if (wait) wait.textContent = 'Pecflow n’a pas pu se charger : vérifiez votre connexion, puis rechargez la page.';
    });
  };
  if (document.visibilityState === 'hidden') start();
  else requestAnimationFrame(() => setTimeout(start));
};
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startAfterFirstPaint, { once: true });
else startAfterFirstPaint();
