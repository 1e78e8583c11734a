// The payments' pages from the keyboard (issue 28, WCAG 2.1.1), as the PEC list (src/pec/PecShortcuts.tsx): on the
// statements' list '/' goes to its search, its rows take the list's keys (src/admin/ListFrame.tsx: the arrows, Enter
// opens a statement) and Esc closes the statement's drawer; on the import page, Tab and its buttons. '?' lists the
// keys true on each page.
import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { focusSearch, PAGE_KEYS, pressed, ROW_KEYS, typing } from '../admin/keys';
import { ShortcutsHelp, type ShortcutLine } from '../admin/ShortcutsHelp';

const LIST_SHORTCUTS: ShortcutLine[] = [
  { keys: PAGE_KEYS.search, action: 'pecflow.shortcuts.search' },
  { keys: [{ key: 'Tab' }], action: 'pecflow.shortcuts.tab' },
  { keys: [...ROW_KEYS.up, ...ROW_KEYS.down], action: 'pecflow.payments.shortcuts.rows' },
  { keys: [...ROW_KEYS.first, ...ROW_KEYS.last], action: 'pecflow.payments.shortcuts.ends' },
  { keys: ROW_KEYS.open, action: 'pecflow.payments.shortcuts.open' },
  { keys: [{ key: 'Escape' }], action: 'pecflow.shortcuts.escape' },
  { keys: PAGE_KEYS.help, action: 'pecflow.shortcuts.help' },
];

/** The statements' list; `drawerOpen`: a statement is shown over it (the search is then out of reach). */
export function StatementsShortcuts({ drawerOpen }: { drawerOpen: boolean }) {
  useEffect(() => {
    if (drawerOpen) return;
    const listener = (event: KeyboardEvent) => {
      if (pressed(event, PAGE_KEYS.search) && !typing(event.target) && focusSearch('payments-page')) event.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [drawerOpen]);
  return <ShortcutsHelp lines={LIST_SHORTCUTS} />;
}

/** The import page: Tab, and Enter or Space on its buttons ('Choisir le fichier', 'Appliquer'). */
export function ImportShortcuts() {
  const translate = useTranslate();
  const buttons = { choose: translate('pecflow.payments.import.choose'), apply: translate('pecflow.payments.import.apply') };
  return (
    <ShortcutsHelp
      lines={[
        { keys: [{ key: 'Tab' }], action: 'pecflow.shortcuts.tabPage' },
        { keys: [{ key: 'Enter' }, { key: ' ' }], action: 'pecflow.payments.shortcuts.buttons', options: buttons },
        { keys: PAGE_KEYS.help, action: 'pecflow.shortcuts.help' },
      ]}
    />
  );
}
