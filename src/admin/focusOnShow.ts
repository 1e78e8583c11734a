// A ref callback that focuses its element as it appears: a result, a refusal or a heading that replaces what had the
// focus (a button disabled while sending lost it to the dialog or the page). Module-level, so React calls it once per
// element, never again at a re-render.
export const focusOnShow = (node: HTMLElement | null) => {
  node?.focus();
};
