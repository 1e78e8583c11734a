// Paint the stored theme before React starts, so a light-mode user never sees a dark flash.
document.documentElement.dataset.theme = localStorage.getItem('theme') === 'light' ? 'light' : 'dark';

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
