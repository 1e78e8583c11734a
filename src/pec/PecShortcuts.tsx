// The PEC list from the keyboard (issue 28, WCAG 2.1.1): the rows' keys (src/admin/keys.ts: one Tab stop, the arrows,
// Enter opens, Space or x selects) and here the page's own — '/' to search, 'a' to select the page's files, Alt+↓ / Alt+↑
// (or j / k outside a field) for the next / previous file of the page without closing the drawer, '?' for the list of
// shortcuts, which these declarations fill. Esc closes the drawer (MUI's Drawer); the focus then goes to the row of the
// file it showed (the drawer does not give it back to the row first opened: j / k may have moved on since).
import { Dialog, DialogActions, DialogContent, DialogTitle, Button, Table, TableBody, TableCell, TableRow } from '@mui/material';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { pecNumericId } from '../dataProvider/pec';
import { KEY_NAMES, keyNames, pressed, ROW_KEYS, type KeyStroke } from '../admin/keys';

/** The page's keys (outside a field, but Alt + an arrow). */
const PEC_KEYS = {
  search: [{ key: '/' }],
  selectPage: [{ key: 'a' }],
  next: [{ key: 'ArrowDown', alt: true }, { key: 'j' }],
  previous: [{ key: 'ArrowUp', alt: true }, { key: 'k' }],
  help: [{ key: '?' }],
} satisfies Record<string, KeyStroke[]>;

/** The '?' dialog's lines, in a morning's order: the keys, what they do (pecflow.pec.shortcuts.*), selection's lines marked. */
const SHORTCUTS: { keys: KeyStroke[]; action: string; selection?: true }[] = [
  { keys: PEC_KEYS.search, action: 'search' },
  { keys: [{ key: 'Tab' }], action: 'tab' },
  { keys: [...ROW_KEYS.up, ...ROW_KEYS.down], action: 'rows' },
  { keys: [...ROW_KEYS.first, ...ROW_KEYS.last], action: 'ends' },
  { keys: ROW_KEYS.open, action: 'open' },
  { keys: ROW_KEYS.toggle, action: 'toggle', selection: true },
  { keys: PEC_KEYS.selectPage, action: 'selectPage', selection: true },
  { keys: [{ key: 'Tab' }], action: 'bulk', selection: true },
  { keys: PEC_KEYS.next, action: 'next' },
  { keys: PEC_KEYS.previous, action: 'previous' },
  { keys: [{ key: 'Escape' }], action: 'escape' },
  { keys: PEC_KEYS.help, action: 'help' },
];

/** Typing in a field (or a list box open) keeps its keys: the plain-letter shortcuts stay out of the way. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || !!target.closest('[role="listbox"]');
}

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
  const translate = useTranslate();
  const { data, selectedIds, onSelect } = useListContext();
  const [help, setHelp] = useState(false);
  const ids = (data ?? []).map((record) => pecNumericId(record)!);

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    // The plain keys stay the field's; Alt + an arrow works everywhere.
    const keys = (strokes: KeyStroke[]) => pressed(event, typing(event.target) ? strokes.filter((stroke) => stroke.alt) : strokes);
    const move = keys(PEC_KEYS.next) ? 1 : keys(PEC_KEYS.previous) ? -1 : 0;
    if (move && typeof current === 'number') {
      const next = ids[ids.indexOf(current) + move];
      if (next !== undefined) {
        event.preventDefault();
        view(next);
      }
      return;
    }
    if (keys(PEC_KEYS.search) && current === undefined) {
      const search = document.querySelector<HTMLInputElement>('[data-testid="pec-page"] input[type="search"]');
      if (search) {
        event.preventDefault();
        search.focus();
      }
    } else if (keys(PEC_KEYS.selectPage) && current === undefined && selectable && data?.length) {
      // All the page's files, or none of them once all are.
      event.preventDefault();
      const page = data.map((record) => record.id);
      onSelect(page.every((id) => selectedIds.includes(id)) ? [] : page);
    } else if (keys(PEC_KEYS.help)) {
      event.preventDefault();
      setHelp(true);
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

  return (
    <Dialog open={help} onClose={() => setHelp(false)} aria-labelledby="pec-shortcuts-title">
      <DialogTitle id="pec-shortcuts-title">{translate('pecflow.pec.shortcuts.title')}</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableBody>
            {SHORTCUTS.filter((line) => selectable || !line.selection).map(({ keys, action }) => (
              <TableRow key={action}>
                <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                  {keyNames(keys, (key) => KEY_NAMES[key] && translate(`pecflow.keys.${KEY_NAMES[key]}`), translate('pecflow.keys.or'))}
                </TableCell>
                <TableCell>{translate(`pecflow.pec.shortcuts.${action}`, { skip: translate('ra.navigation.skip_nav') })}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setHelp(false)} autoFocus>
          {translate('pecflow.pec.shortcuts.dismiss')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
