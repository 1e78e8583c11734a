// The ONE confirmation dialog of the screens: a title, a text, two buttons, as react-admin's Confirm draws them (ESLint
// keeps react-admin's Confirm out of the other files; this one draws its own so that its confirm button can be held).
// Its cancel button carries a close mark (react-admin's default (!) icon read as a warning on the harmless choice:
// 'Annuler', 'Fermer'), and its confirm button the mark of what it does (`ConfirmIcon`, required: one of the marks
// below), never a check mark, which reads as « valider » on « Supprimer ». A destructive one (a deletion, an undo, a
// reset) shows its confirm button in the warning colour and opens on the cancel button, so that Enter, Enter never
// destroys; the others open on the confirm button. One whose action cannot be done (`blocked`: nothing of the
// selection may be sent) says why under its text, its confirm button held (aria-disabled, the reason as its
// description) and the focus on the cancel button. The form dialogs' confirm buttons carry the same marks (startIcon).
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
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import { useEffect, useId, useRef, type ComponentType, type MouseEvent, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';

export interface ConfirmDialogProps {
  isOpen: boolean;
  /** The action is under way: both buttons wait, and a confirmation counts once (see below). */
  loading?: boolean;
  /** A translation key (or the text itself), or what to draw. */
  title: ReactNode;
  content: ReactNode;
  /** The keys of the buttons' labels (react-admin's « Confirmer » / « Annuler » by default). */
  confirm?: string;
  cancel?: string;
  translateOptions?: object;
  titleTranslateOptions?: object;
  contentTranslateOptions?: object;
  /** The confirm button's mark, what it does: `DeleteMark` for « Supprimer »… */
  ConfirmIcon: ComponentType;
  /**
   * It deletes or undoes something, or records what the office was told to check: the confirm button in the warning
   * colour, the focus first on the cancel button.
   */
  destructive?: boolean;
  /** Why the action cannot be done now: said under the text, the confirm button held, the focus on « Annuler ». */
  blocked?: ReactNode;
  onConfirm: (event: MouseEvent) => void;
  onClose: () => void;
}

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
 * Called as the dialog mounts, once the confirm button's autoFocus has focused it: the focus moves to the other one
 * before a key can reach it. The dialog still gives the focus back to what opened it (MUI's focus trap keeps the
 * element focused before the first focus inside).
 */
const focusCancel = (node: HTMLElement) => node.querySelector<HTMLButtonElement>('[data-confirm-cancel]')?.focus();

export function ConfirmDialog({
  isOpen,
  loading,
  title,
  content,
  confirm = 'ra.action.confirm',
  cancel = 'ra.action.cancel',
  translateOptions = {},
  titleTranslateOptions = translateOptions,
  contentTranslateOptions = translateOptions,
  ConfirmIcon,
  destructive = false,
  blocked,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const translate = useTranslate();
  const id = useId();
  // A dialog whose action shows its `loading` confirms once per try: a double click's second click came before the
  // busy button was drawn (react-query tells of a mutation's start a tick later) and sent the action twice. Another
  // try opens when the first has ended (a refusal leaves the dialog open) or when the dialog opens again.
  const confirming = useRef(false);
  const guarded = loading !== undefined;
  useEffect(() => {
    if (!loading) confirming.current = false;
  }, [loading, isOpen]);
  const held = blocked !== undefined && blocked !== null && blocked !== false;
  const text = (key: string, options?: object) => translate(key, { _: key, ...options });
  return (
    <Dialog
      open={isOpen}
      onClose={onClose}
      // Clicks inside stay inside: the dialog is rendered in a portal, but React bubbles its events to the row under it.
      onClick={(event) => event.stopPropagation()}
      aria-labelledby={`${id}-title`}
      slotProps={destructive || held ? { transition: { onEnter: focusCancel } } : undefined}
    >
      <DialogTitle id={`${id}-title`}>{typeof title === 'string' ? text(title, titleTranslateOptions) : title}</DialogTitle>
      <DialogContent>
        {typeof content === 'string' ? <DialogContentText>{text(content, contentTranslateOptions)}</DialogContentText> : content}
        {held && (
          <Typography id={`${id}-blocked`} role="status" color="warning.main" sx={{ mt: 1.5 }} data-testid="confirm-blocked">
            {blocked}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button disabled={loading} onClick={onClose} startIcon={<CancelMark />} data-confirm-cancel>
          {text(cancel)}
        </Button>
        <Button
          disabled={loading}
          // Held, not disabled: a disabled button is skipped by the keyboard and its reason is never read.
          aria-disabled={held || undefined}
          aria-describedby={held ? `${id}-blocked` : undefined}
          onClick={(event) => {
            event.stopPropagation();
            if (held || (guarded && confirming.current)) return;
            confirming.current = true;
            onConfirm(event);
          }}
          color={destructive ? 'warning' : 'primary'}
          autoFocus={!held}
          startIcon={<ConfirmIcon />}
        >
          {text(confirm)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
