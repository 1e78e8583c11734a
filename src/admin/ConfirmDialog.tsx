// The ONE confirmation dialog of the screens: react-admin's Confirm (its title, text, two buttons), whose cancel button
// carries a close mark instead of react-admin's default (!) icon, which read as a warning on the harmless choice
// ('Annuler', 'Fermer'), and whose confirm button carries the mark of what it does (`ConfirmIcon`, required: one of the
// marks below), never react-admin's default check mark, which reads as « valider » on « Supprimer ». A destructive one
// (a deletion, an undo, a reset) shows its confirm button in the warning colour and opens on the cancel button, so
// that Enter, Enter never destroys; the others open on the confirm button (react-admin's autoFocus). ESLint keeps
// react-admin's Confirm out of the other files. The form dialogs' confirm buttons carry the same marks (startIcon).
import ArchiveIcon from '@mui/icons-material/Inventory2Outlined';
import AssignIcon from '@mui/icons-material/AssignmentInd';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditOffIcon from '@mui/icons-material/EditOffOutlined';
import LockResetIcon from '@mui/icons-material/LockReset';
import PriceCheckIcon from '@mui/icons-material/PriceCheck';
import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import RestoreIcon from '@mui/icons-material/Restore';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import SendIcon from '@mui/icons-material/Send';
import UndoIcon from '@mui/icons-material/Undo';
import { useEffect, useRef, type ComponentType } from 'react';
import { Confirm, type ConfirmProps } from 'react-admin';

export type ConfirmDialogProps = Omit<ConfirmProps, 'CancelIcon' | 'ConfirmIcon' | 'confirmColor' | 'slotProps'> & {
  /** The confirm button's mark, what it does: `DeleteMark` for « Supprimer »… */
  ConfirmIcon: ComponentType;
  /**
   * It deletes or undoes something, or records what the office was told to check: the confirm button in the warning
   * colour, the focus first on the cancel button.
   */
  destructive?: boolean;
};

const CancelMark = () => <CloseIcon data-testid="confirm-cancel-mark" />;

// The confirm buttons' marks, each named for the tests (MUI's icons carry no data-testid in the production build).
/** « Supprimer »: a record, a document, a note, a saved view. */
export const DeleteMark = () => <DeleteIcon data-testid="confirm-delete-mark" />;
/** « Abandonner » (the drawer's question): what was typed goes. */
export const DiscardMark = () => <EditOffIcon data-testid="discard-mark" />;
/** An undo: a statement's line put back to be handled. */
export const UndoMark = () => <UndoIcon data-testid="confirm-undo-mark" />;
/** A reset of a user's double authentication. */
export const ResetMark = () => <LockResetIcon data-testid="confirm-reset-mark" />;
/** An archived file restored. */
export const RestoreMark = () => <RestoreIcon data-testid="confirm-restore-mark" />;
/** Files sent to the robot (« Envoyer au robot », a DPEC « Envoyer quand même »). */
export const SendMark = () => <SendIcon data-testid="confirm-send-mark" />;
/** An invoice given to files, the billing started (« Confirmer » of the billing dialogs). */
export const BillMark = () => <ReceiptIcon data-testid="confirm-bill-mark" />;
/** Files archived. */
export const ArchiveMark = () => <ArchiveIcon data-testid="confirm-archive-mark" />;
/** Files given to a colleague to follow. */
export const AssignMark = () => <AssignIcon data-testid="confirm-assign-mark" />;
/** A payment statement applied with the amounts its preview flagged confirmed (« Appliquer quand même »). */
export const ApplyMark = () => <PriceCheckIcon data-testid="confirm-apply-mark" />;
/** Something typed saved: a payment, a view. */
export const SaveMark = () => <SaveIcon data-testid="confirm-save-mark" />;

/**
 * Called as the dialog mounts, once react-admin's autoFocus has focused the confirm button: the focus moves to the
 * other one before a key can reach it. The dialog still gives the focus back to what opened it (MUI's focus trap keeps
 * the element focused before the first focus inside).
 */
const focusCancel = (node: HTMLElement) => node.querySelector<HTMLButtonElement>('.MuiDialogActions-root button:not(.ra-confirm)')?.focus();

export function ConfirmDialog({ destructive = false, onConfirm, ...props }: ConfirmDialogProps) {
  // A dialog whose action shows its `loading` confirms once per try: a double click's second click came before the
  // busy button was drawn (react-query tells of a mutation's start a tick later) and sent the action twice. Another
  // try opens when the first has ended (a refusal leaves the dialog open) or when the dialog opens again.
  const confirming = useRef(false);
  const guarded = props.loading !== undefined;
  useEffect(() => {
    if (!props.loading) confirming.current = false;
  }, [props.loading, props.isOpen]);
  return (
    <Confirm
      {...props}
      onConfirm={(event) => {
        if (guarded && confirming.current) return;
        confirming.current = true;
        onConfirm(event);
      }}
      CancelIcon={CancelMark}
      confirmColor={destructive ? 'warning' : 'primary'}
      slotProps={destructive ? { transition: { onEnter: focusCancel } } : undefined}
    />
  );
}
