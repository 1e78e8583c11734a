// The list of a page's keyboard shortcuts (issue 28, WCAG 2.1.1), opened by '?' outside a field and closed by Échap or
// 'Fermer': each line the keys, named as src/admin/keys.ts names them, and what they do on that page. A page gives only
// the lines true there (the PEC list, the payments' pages).
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableRow } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { KEY_NAMES, keyNames, PAGE_KEYS, pressed, typing, type KeyStroke } from './keys';

export interface ShortcutLine {
  keys: readonly KeyStroke[];
  /** What they do: a translation key (its text may name the skip link, %{skip}), with its options. */
  action: string;
  options?: Record<string, string>;
}

export function ShortcutsHelp({ lines }: { lines: ShortcutLine[] }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!pressed(event, PAGE_KEYS.help) || typing(event.target)) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
  const name = (key: string) => KEY_NAMES[key] && translate(`pecflow.keys.${KEY_NAMES[key]}`);

  return (
    <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="shortcuts-title">
      <DialogTitle id="shortcuts-title">{translate('pecflow.shortcuts.title')}</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableBody>
            {lines.map(({ keys, action, options }) => (
              <TableRow key={action}>
                <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                  {keyNames(keys, name, translate('pecflow.keys.or'))}
                </TableCell>
                <TableCell>{translate(action, { skip: translate('ra.navigation.skip_nav'), ...options })}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setOpen(false)} autoFocus>
          {translate('pecflow.shortcuts.dismiss')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
