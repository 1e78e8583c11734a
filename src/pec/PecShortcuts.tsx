// The PEC list from the keyboard (issue 28, WCAG 2.1.1): rows take the focus and open with Enter (the list frame);
// here, the page's own keys — '/' to search, Alt+↓ / Alt+↑ (or j / k outside a field) for the next / previous file
// of the page without closing the drawer, '?' for the list of shortcuts. Esc closes the drawer (MUI's Drawer).
import { Dialog, DialogActions, DialogContent, DialogTitle, Button, Table, TableBody, TableCell, TableRow } from '@mui/material';
import { useEffect, useEffectEvent, useState } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { pecNumericId } from '../dataProvider/pec';

/** The shortcuts as the '?' dialog lists them: keys, then the translation key of what they do. */
const SHORTCUTS = [
  ['/', 'search'],
  ['Tab, Entrée', 'open'],
  ['Alt + ↓ ou j', 'next'],
  ['Alt + ↑ ou k', 'previous'],
  ['Échap', 'escape'],
  ['?', 'help'],
] as const;

/** Typing in a field (or a list box open) keeps its keys: the plain-letter shortcuts stay out of the way. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || !!target.closest('[role="listbox"]');
}

interface Props {
  /** The file open in the drawer, if any. */
  current: number | 'create' | undefined;
  view: (id: number) => void;
}

export function PecShortcuts({ current, view }: Props) {
  const translate = useTranslate();
  const { data } = useListContext();
  const [help, setHelp] = useState(false);

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey) return;
    const inField = typing(event.target);
    const step = event.altKey && event.key === 'ArrowDown' ? 1 : event.altKey && event.key === 'ArrowUp' ? -1 : 0;
    const letter = !inField && !event.altKey ? event.key : '';
    const move = step || (letter === 'j' ? 1 : letter === 'k' ? -1 : 0);
    if (move && typeof current === 'number') {
      const ids = (data ?? []).map((record) => pecNumericId(record)!);
      const next = ids[ids.indexOf(current) + move];
      if (next !== undefined) {
        event.preventDefault();
        view(next);
      }
      return;
    }
    if (letter === '/' && current === undefined) {
      const search = document.querySelector<HTMLInputElement>('[data-testid="pec-page"] input[type="search"]');
      if (search) {
        event.preventDefault();
        search.focus();
      }
    } else if (letter === '?') {
      event.preventDefault();
      setHelp(true);
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  return (
    <Dialog open={help} onClose={() => setHelp(false)} aria-labelledby="pec-shortcuts-title">
      <DialogTitle id="pec-shortcuts-title">{translate('pecflow.pec.shortcuts.title')}</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableBody>
            {SHORTCUTS.map(([keys, action]) => (
              <TableRow key={action}>
                <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                  {keys}
                </TableCell>
                <TableCell>{translate(`pecflow.pec.shortcuts.${action}`)}</TableCell>
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
