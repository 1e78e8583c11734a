// The ONE confirmation dialog of the screens: react-admin's Confirm (its title, text, two buttons), whose cancel button
// carries a close mark instead of react-admin's default (!) icon, which read as a warning on the harmless choice
// ('Annuler', 'Fermer'). A destructive one (a deletion, an undo, a reset) shows its confirm button in the warning colour
// and opens on the cancel button, so that Enter, Enter never destroys; the others open on the confirm button
// (react-admin's autoFocus). ESLint keeps react-admin's Confirm out of the other files.
import CloseIcon from '@mui/icons-material/Close';
import { Confirm, type ConfirmProps } from 'react-admin';

export type ConfirmDialogProps = Omit<ConfirmProps, 'CancelIcon' | 'confirmColor' | 'slotProps'> & {
  /** It deletes or undoes something: the confirm button in the warning colour, the focus first on the cancel button. */
  destructive?: boolean;
};

const CancelMark = () => <CloseIcon data-testid="confirm-cancel-mark" />;

/**
 * Called as the dialog mounts, once react-admin's autoFocus has focused the confirm button: the focus moves to the
 * other one before a key can reach it. The dialog still gives the focus back to what opened it (MUI's focus trap keeps
 * the element focused before the first focus inside).
 */
const focusCancel = (node: HTMLElement) => node.querySelector<HTMLButtonElement>('.MuiDialogActions-root button:not(.ra-confirm)')?.focus();

export function ConfirmDialog({ destructive = false, ...props }: ConfirmDialogProps) {
  return (
    <Confirm
      {...props}
      CancelIcon={CancelMark}
      confirmColor={destructive ? 'warning' : 'primary'}
      slotProps={destructive ? { transition: { onEnter: focusCancel } } : undefined}
    />
  );
}
