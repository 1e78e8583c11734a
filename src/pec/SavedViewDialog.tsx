// The editor of a saved view of the PEC list (src/pec/SavedViews.tsx), loaded when first opened. Its buttons that act
// carry their mark, as the confirmation dialogs' (src/admin/ConfirmDialog.tsx).
import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, TextField } from '@mui/material';
import { useState } from 'react';
import { useCreate, useDelete, useTranslate, useUpdate } from 'react-admin';
import { ConfirmDialog, DeleteMark, SaveMark } from '../admin/ConfirmDialog';
import { extractErrorMessage } from '#domain/errors';
import { SAVED_VIEW_NAME_MAX, type SavedViewQuery } from '#domain/savedViews';
import { useMutationToasts, WRITE_RETRY } from '../admin/mutations';
import { violationsOf } from '../admin/violations';
import { PEC_VIEWS_RESOURCE, type SavedView } from './SavedViews';
import { usePecRights } from './shared';

/**
 * 'Enregistrer la vue' (the current filters, sort and columns) or the author's rename, share and delete of one, which
 * may also take the list's current filters, sort and columns.
 */
export interface ViewDialogProps {
  view?: SavedView;
  current: { query: SavedViewQuery; columns: string[] };
  onClose: () => void;
}

export function ViewDialog({ view, current, onClose }: ViewDialogProps) {
  const translate = useTranslate();
  const toasts = useMutationToasts();
  const [name, setName] = useState(view?.name ?? '');
  const [shared, setShared] = useState(view?.shared ?? false);
  // 'Modifier la vue' keeps the view's filters, sort and columns unless asked to take the list's current ones.
  const [takeCurrent, setTakeCurrent] = useState(false);
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const rights = usePecRights();
  const [create, creating] = useCreate();
  const [update, updating] = useUpdate();
  const [remove, removing] = useDelete();
  const busy = creating.isPending || updating.isPending || removing.isPending;

  // A refused name (taken, too long) is said under the field; anything else in a toast. The Hydra client's error body
  // is expanded JSON-LD: violationsOf reads it.
  const failed = (failure: unknown) => {
    const message = violationsOf(failure)?.name;
    if (message) setError(message);
    else toasts.failure(failure, undefined, extractErrorMessage(failure));
  };
  const done = (key: string, saved: string) => () => {
    toasts.success(translate(`pecflow.pec.views.${key}`, { name: saved }));
    onClose();
  };

  const submit = () => {
    const trimmed = name.trim();
    if (view) {
      update(
        PEC_VIEWS_RESOURCE,
        { id: view.id, data: { name: trimmed, shared, ...(takeCurrent ? current : { query: view.query, columns: view.columns }) }, previousData: view },
        { ...WRITE_RETRY, onSuccess: done('updated', trimmed), onError: failed },
      );
    } else {
      create(PEC_VIEWS_RESOURCE, { data: { name: trimmed, shared, ...current } }, { ...WRITE_RETRY, onSuccess: done('created', trimmed), onError: failed });
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogTitle>{translate(view ? 'pecflow.pec.views.editTitle' : 'pecflow.pec.views.saveTitle')}</DialogTitle>
        <DialogContent>
          {!view && <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.pec.views.saveText')}</DialogContentText>}
          <TextField
            autoFocus
            fullWidth
            required
            label={translate('pecflow.pec.views.name')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
            }}
            error={!!error}
            helperText={error}
            slotProps={{ htmlInput: { maxLength: SAVED_VIEW_NAME_MAX } }}
            sx={{ mt: 1 }}
          />
          {(rights.edit || shared) && (
            <FormControlLabel
              control={<Checkbox checked={shared} onChange={(event) => setShared(event.target.checked)} />}
              label={translate('pecflow.pec.views.share')}
            />
          )}
          {view && (
            <FormControlLabel
              control={<Checkbox checked={takeCurrent} onChange={(event) => setTakeCurrent(event.target.checked)} />}
              label={translate('pecflow.pec.views.takeCurrent')}
            />
          )}
        </DialogContent>
        <DialogActions>
          {view && (
            <Button color="error" startIcon={<DeleteMark />} onClick={() => setConfirming(true)} disabled={busy} sx={{ mr: 'auto' }}>
              {translate('pecflow.pec.views.delete')}
            </Button>
          )}
          <Button onClick={onClose}>{translate('pecflow.pec.views.cancel')}</Button>
          <Button type="submit" variant="contained" startIcon={<SaveMark />} disabled={busy || !name.trim()}>
            {translate('pecflow.pec.views.submit')}
          </Button>
        </DialogActions>
      </form>
      {view && (
        <ConfirmDialog
          isOpen={confirming}
          title={translate('pecflow.pec.views.deleteTitle')}
          content={translate('pecflow.pec.views.deleteText', { name: view.name })}
          confirm={translate('pecflow.pec.views.delete')}
          cancel={translate('pecflow.pec.views.cancel')}
          ConfirmIcon={DeleteMark}
          destructive
          onConfirm={() =>
            remove(PEC_VIEWS_RESOURCE, { id: view.id, previousData: view }, { ...WRITE_RETRY, onSuccess: done('deleted', view.name), onError: failed })
          }
          onClose={() => setConfirming(false)}
        />
      )}
    </Dialog>
  );
}
