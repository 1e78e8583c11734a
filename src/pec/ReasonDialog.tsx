// A dialog that asks why before an action that is never silent (a payment cancelled, a statement undone, a statement
// line set aside): the reason is typed at once (its field has the focus), checked by the action's shared zod schema.
// Enter sends it (refused under the field while it is not valid), Shift+Enter goes to a new line, as its hint says
// where a physical keyboard is likely (not on a touch screen, which would be told of keys it has not got).
// Its other button leaves without acting: 'Annuler', or 'Fermer' beside an action itself named « Annuler … ». An action
// the server refused for good says why inside the dialog, focused, with only 'Fermer' left.
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, useMediaQuery } from '@mui/material';
import type { KeyboardEvent, ReactNode } from 'react';
import { useFormState } from 'react-hook-form';
import { focusOnShow } from '../admin/focusOnShow';
import { TextInput, useTranslate } from 'react-admin';
import type { z } from 'zod';
import { AdminForm, SubmitButton } from '../admin/AdminForm';

interface ReasonDialogProps {
  /** The title's element id (the dialog's accessible name). */
  id: string;
  title: string;
  text: ReactNode;
  /** The reason field's label. */
  label: string;
  /** The submit button's label: the action itself ('Annuler le relevé'). */
  submit: string;
  /** The label of the button that leaves without acting: 'Annuler', 'Fermer' beside 'Annuler le relevé'. */
  cancel: string;
  schema: z.ZodType<{ motif: string }>;
  busy: boolean;
  onSave: (motif: string) => Promise<unknown>;
  onClose: () => void;
  closeTestId?: string;
  /** The server's reason for refusing the action for good (a 409): nothing more to send. */
  refusal?: string;
}

export function ReasonDialog({ id, title, text, label, submit, cancel, schema, busy, onSave, onClose, closeTestId, refusal }: ReasonDialogProps) {
  const translate = useTranslate();
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby={id}>
      <AdminForm record={{ motif: '' }} schema={schema} onSave={(values) => onSave(schema.parse(values).motif)}>
        <DialogTitle id={id}>{title}</DialogTitle>
        <DialogContent>
          {/* Refused, the action's consequences no longer apply: the refusal alone says what happened. */}
          {refusal ? (
            <Alert ref={focusOnShow} severity="error" tabIndex={-1} data-testid="reason-dialog-refusal">
              {refusal}
            </Alert>
          ) : (
            <>
              <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>
              <ReasonInput label={label} />
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy} data-testid={closeTestId}>
            {refusal ? translate('pecflow.toast.close') : cancel}
          </Button>
          {!refusal && <SubmitButton label={submit} />}
        </DialogActions>
      </AdminForm>
    </Dialog>
  );
}

/** A mouse or a trackpad, which a physical keyboard goes with; a touch screen's pointer is coarse and does not hover. */
const KEYBOARD_LIKELY = '(hover: hover) and (pointer: fine)';

/** The reason: Enter submits its form (once, not while it is being sent), Shift+Enter adds a line. */
function ReasonInput({ label }: { label: string }) {
  const translate = useTranslate();
  const { isSubmitting } = useFormState();
  const keyboard = useMediaQuery(KEYBOARD_LIKELY);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!isSubmitting) (event.target as HTMLTextAreaElement).form?.requestSubmit();
  };
  return (
    <TextInput
      source="motif"
      label={label}
      helperText={keyboard ? translate('pecflow.payments.reasonHint') : undefined}
      onKeyDown={onKeyDown}
      fullWidth
      multiline
      minRows={2}
      margin="none"
      required
      autoFocus
    />
  );
}
