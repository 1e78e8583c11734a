// react-admin's skip link ('Aller au contenu', the first Tab stop of every page of its Layout) focuses the content, then
// blurs it: the focus fell to <body>, a screen reader said nothing and the next Tab started again from the top. Given
// to the link by the theme (src/layout/theme.ts, RaSkipNavigationButton's onClick, which replaces react-admin's), this
// one leaves the focus on the page's title, else on the content itself: where it landed is read, the next Tab goes on.
export function skipToContent() {
  // The content's element in react-admin's Layout (what its own link looks for).
  const content = document.getElementById('main-content');
  if (!content) return;
  const target = content.querySelector<HTMLElement>('h1') ?? content;
  // Focusable by script, not a Tab stop.
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}
