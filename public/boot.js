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

// The built page names its application instead of running it (vite.config.ts, startAfterFirstPaint): it is started
// once the page's wait ("Chargement...") has been painted. Run at once, its scripts (downloaded with the page) hold the
// first paint on a fast connection, and a phone shows nothing until they have run. A hidden tab does not paint: it
// starts at once. The <meta> comes after this script: it is read once the page is parsed.
const startAfterFirstPaint = () => {
  const app = document.querySelector('meta[name="pecflow-app"]');
  if (!app) return;
  const start = () =>
    import(app.content).catch(() => {
      const wait = document.querySelector('.boot p');
      if (wait) wait.textContent = 'Pecflow n’a pas pu se charger : vérifiez votre connexion, puis rechargez la page.';
    });
  if (document.visibilityState === 'hidden') start();
  else requestAnimationFrame(() => setTimeout(start));
};
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startAfterFirstPaint, { once: true });
else startAfterFirstPaint();
