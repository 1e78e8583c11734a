// The deletion confirmation (spec section 2): "Cette action est irréversible."
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';

interface Props {
  open: boolean;
  /** How many records; one when absent. */
  count?: number;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDelete({ open, count, busy, onConfirm, onCancel }: Props) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="confirm-delete-title">
      <DialogTitle id="confirm-delete-title">
        {count === undefined ? translate('pecflow.settings.confirm.title') : translate('pecflow.settings.confirm.titleMany', { smart_count: count })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('pecflow.settings.confirm.text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {translate('pecflow.settings.confirm.cancel')}
        </Button>
        <Button onClick={onConfirm} color="error" variant="contained" disabled={busy}>
          {translate('pecflow.settings.confirm.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
