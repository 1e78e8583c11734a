// The ONE confirmation dialog of the screens: react-admin's Confirm (its title, text, two buttons, the confirm button
// focused), whose cancel button carries a close mark instead of react-admin's default (!) icon, which read as a warning
// on the harmless choice ('Annuler', 'Fermer'). ESLint keeps react-admin's Confirm out of the other files.
import CloseIcon from '@mui/icons-material/Close';
import { Confirm, type ConfirmProps } from 'react-admin';

export type ConfirmDialogProps = Omit<ConfirmProps, 'CancelIcon'>;

const CancelMark = () => <CloseIcon data-testid="confirm-cancel-mark" />;

export function ConfirmDialog(props: ConfirmDialogProps) {
  return <Confirm {...props} CancelIcon={CancelMark} />;
}
