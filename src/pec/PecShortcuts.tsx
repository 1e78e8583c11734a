// The PEC list from the keyboard (issue 28, WCAG 2.1.1): the rows' keys (src/admin/keys.ts: one Tab stop, the arrows,
// Enter opens, Space or x selects) and here the page's own — '/' to search, 'a' to select the page's files, Alt+↓ / Alt+↑
// (or j / k outside a field) for the next / previous file of the page without closing the drawer, '?' for the list of
// shortcuts, which these declarations fill. Esc closes the drawer (MUI's Drawer); the focus then goes to the row of the
// file it showed (the drawer does not give it back to the row first opened: j / k may have moved on since).
import { useEffect, useEffectEvent, useMemo, useRef } from 'react';
import { useListContext } from 'react-admin';
import { pecNumericId } from '../dataProvider/pec';
import { focusSearch, PAGE_KEYS, pressed, ROW_KEYS, typing, type KeyStroke } from '../admin/keys';
import { ShortcutsHelp, type ShortcutLine } from '../admin/ShortcutsHelp';
import { confirmDiscardInOpenDrawer } from '../admin/unsavedChanges';

/** The page's keys (outside a field, but Alt + an arrow). */
const PEC_KEYS = {
  selectPage: [{ key: 'a' }],
  next: [{ key: 'ArrowDown', alt: true }, { key: 'j' }],
  previous: [{ key: 'ArrowUp', alt: true }, { key: 'k' }],
} satisfies Record<string, KeyStroke[]>;

/** The '?' dialog's lines, in a morning's order: the keys, what they do, selection's lines marked. */
const SHORTCUTS: (ShortcutLine & { selection?: true })[] = [
  { keys: PAGE_KEYS.search, action: 'pecflow.shortcuts.search' },
  { keys: [{ key: 'Tab' }], action: 'pecflow.shortcuts.tab' },
  { keys: [...ROW_KEYS.up, ...ROW_KEYS.down], action: 'pecflow.pec.shortcuts.rows' },
  { keys: [...ROW_KEYS.first, ...ROW_KEYS.last], action: 'pecflow.pec.shortcuts.ends' },
  { keys: ROW_KEYS.open, action: 'pecflow.pec.shortcuts.open' },
  { keys: ROW_KEYS.toggle, action: 'pecflow.pec.shortcuts.toggle', selection: true },
  { keys: PEC_KEYS.selectPage, action: 'pecflow.pec.shortcuts.selectPage', selection: true },
  { keys: [{ key: 'Tab' }], action: 'pecflow.pec.shortcuts.bulk', selection: true },
  { keys: PEC_KEYS.next, action: 'pecflow.pec.shortcuts.next' },
  { keys: PEC_KEYS.previous, action: 'pecflow.pec.shortcuts.previous' },
  { keys: [{ key: 'Escape' }], action: 'pecflow.shortcuts.escape' },
  { keys: PAGE_KEYS.help, action: 'pecflow.shortcuts.help' },
];

/** The list's rows, in the page's order. */
const rowElements = () => [...document.querySelectorAll<HTMLElement>('[data-testid="pec-row"]')];

interface Props {
  /** The file open in the drawer, if any. */
  current: number | 'create' | undefined;
  view: (id: number) => void;
  /** May the user select files (bulk actions)? */
  selectable: boolean;
}

export function PecShortcuts({ current, view, selectable }: Props) {
  const { data, selectedIds, onSelect } = useListContext();
  const ids = (data ?? []).map((record) => pecNumericId(record)!);

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    // The plain keys stay the field's; Alt + an arrow works everywhere.
    const keys = (strokes: KeyStroke[]) => pressed(event, typing(event.target) ? strokes.filter((stroke) => stroke.alt) : strokes);
    const move = keys(PEC_KEYS.next) ? 1 : keys(PEC_KEYS.previous) ? -1 : 0;
    if (move && typeof current === 'number') {
      const next = ids[ids.indexOf(current) + move];
      if (next !== undefined) {
        event.preventDefault();
        // The drawer shows the next file instead: what was typed in this one is asked about first.
        confirmDiscardInOpenDrawer(() => view(next));
      }
      return;
    }
    if (keys(PAGE_KEYS.search) && current === undefined) {
      if (focusSearch('pec-page')) event.preventDefault();
    } else if (keys(PEC_KEYS.selectPage) && current === undefined && selectable && data?.length) {
      // All the page's files, or none of them once all are.
      event.preventDefault();
      const page = data.map((record) => record.id);
      onSelect(page.every((id) => selectedIds.includes(id)) ? [] : page);
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  // The drawer closed: the focus goes to the row of the file it showed last, else to the list's Tab stop.
  const shown = useRef<number>(undefined);
  const focusRow = useEffectEvent((file: number) => {
    const rows = rowElements();
    (rows[ids.indexOf(file)] ?? rows.find((row) => row.tabIndex === 0))?.focus();
  });
  useEffect(() => {
    const file = shown.current;
    shown.current = typeof current === 'number' ? current : undefined;
    if (current === undefined && file !== undefined) focusRow(file);
  }, [current]);

  // Kept while the rights stay: the list's answers, which this component follows for j / k, leave the help (its
  // button and closed dialog) as it is instead of drawing it again.
  return useMemo(() => <ShortcutsHelp lines={SHORTCUTS.filter((line) => selectable || !line.selection)} />, [selectable]);
}
