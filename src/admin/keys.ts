// The keyboard's keys, declared once: the handlers test them (`pressed`) and the '?' dialog names them (`keyNames`).

/** A key as KeyboardEvent.key reads it, with Alt when the shortcut takes it. */
export interface KeyStroke {
  key: string;
  alt?: boolean;
}

/** A list's rows (src/admin/ListFrame.tsx, WAI-ARIA grid practice): one Tab stop for the rows, the arrows between them. */
export const ROW_KEYS = {
  open: [{ key: 'Enter' }],
  toggle: [{ key: ' ' }, { key: 'x' }],
  down: [{ key: 'ArrowDown' }],
  up: [{ key: 'ArrowUp' }],
  first: [{ key: 'Home' }],
  last: [{ key: 'End' }],
} satisfies Record<string, KeyStroke[]>;

/** A page's own keys, outside a field: '/' goes to its search, '?' lists its shortcuts (src/admin/ShortcutsHelp.tsx). */
export const PAGE_KEYS = {
  search: [{ key: '/' }],
  help: [{ key: '?' }],
} satisfies Record<string, KeyStroke[]>;

/** A layer open inside a drawer (a document's preview): Échap closes it, not the drawer around it, which reads the
 * same key further up (MUI's Modal): the layer stops the key on its way. */
export const LAYER_KEYS = {
  close: [{ key: 'Escape' }],
} satisfies Record<string, KeyStroke[]>;

/** The keys with a French name (pecflow.keys.*); the others show as typed ('/', 'j'). */
export const KEY_NAMES: Record<string, string> = {
  ' ': 'space',
  Enter: 'enter',
  Escape: 'escape',
  Tab: 'tab',
  ArrowDown: 'down',
  ArrowUp: 'up',
  Home: 'home',
  End: 'end',
};

/** Is this event one of these keys (no Ctrl or ⌘; Alt only where the stroke asks for it)? */
export const pressed = (event: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean }, strokes: readonly KeyStroke[]) =>
  !event.ctrlKey && !event.metaKey && strokes.some((stroke) => stroke.key === event.key && !!stroke.alt === event.altKey);

/** The strokes as the '?' dialog shows them ('Alt + ↓ ou j'); `name` gives a key's French name. */
export const keyNames = (strokes: readonly KeyStroke[], name: (key: string) => string | undefined, or: string) =>
  strokes.map((stroke) => `${stroke.alt ? 'Alt + ' : ''}${name(stroke.key) ?? stroke.key}`).join(` ${or} `);

/** Typing in a field (or a list box open) keeps its keys: the plain-letter shortcuts stay out of the way. */
export function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || !!target.closest('[role="listbox"]');
}

/** '/': the search box of the page whose root carries this test id, focused; false when the page shows none. */
export function focusSearch(pageTestId: string): boolean {
  const search = document.querySelector<HTMLInputElement>(`[data-testid="${pageTestId}"] input[type="search"]`);
  search?.focus();
  return !!search;
}
