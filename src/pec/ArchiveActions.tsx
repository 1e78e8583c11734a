// Archiving and restoring a file (issue 25; rules in domain/archive.ts) from the drawer's header: 'Archiver' (its
// author or delete.pec) asks for the reason in a dialog; 'Restaurer' (delete.pec) asks to confirm. Both are
// react-admin's useUpdate: a merge-patch of the archive's fields alone. An archived file shows why and since when.
import RestoreIcon from '@mui/icons-material/Unarchive';
import ArchiveIcon from '@mui/icons-material/Inventory2Outlined';
import { Alert, AlertTitle, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useState } from 'react';
import { useFormState, useWatch } from 'react-hook-form';
import { SelectInput, TextInput, useGetIdentity, usePermissions, useTranslate, useUpdate } from 'react-admin';
import { ConfirmDialog, RestoreMark } from '../admin/ConfirmDialog';
import { AdminForm } from '../admin/AdminForm';
import { PEC_RESOURCE, pecIri, type PecDossierRecord } from '../dataProvider/pec';
import { ARCHIVE_REASON_LABELS, ARCHIVE_REASONS, archiveReasonText, canArchive, canRestore } from '#domain/archive';
import { formatDate } from '#domain/format';
import { idFromReference } from '#domain/iri';
import { pecArchiveSchema } from '#domain/pecSchemas';
import { usePecMutation } from './shared';

const REASON_CHOICES = ARCHIVE_REASONS.map((id) => ({ id, name: ARCHIVE_REASON_LABELS[id] }));

/** Who the signed-in user is, as the archive's rules read it. */
function useActor() {
  const { permissions = [] } = usePermissions<string[]>();
  const { identity } = useGetIdentity();
  return identity ? { id: Number(identity.id), permissions } : undefined;
}

/** 'Archiver' or 'Restaurer', as the user may. */
export function ArchiveActions({ record, id }: { record: PecDossierRecord; id: number }) {
  const actor = useActor();
  if (!actor) return null;
  if (record.archived) return canRestore(actor) ? <RestoreAction record={record} id={id} /> : null;
  const createdById = idFromReference(record.createdBy, 'users') ?? null;
  return canArchive(actor, { createdById }) ? <ArchiveAction record={record} id={id} /> : null;
}

/** The archive's merge-patch, with its toasts and the one refresh of everything PEC. */
function useArchiveUpdate(record: PecDossierRecord, id: number, messages: { done: string; doneText: string; error: string }, onDone: () => void) {
  const { translate, refresh, success, failure } = usePecMutation();
  const [update, { isPending }] = useUpdate();
  const save = async (data: Record<string, unknown>) => {
    try {
      await update(PEC_RESOURCE, { id: pecIri(id), data, previousData: record }, { returnPromise: true });
      success(translate(messages.done), translate(messages.doneText, { numero: record.numeroDossier }));
      onDone();
      void refresh.now();
    } catch (error) {
      failure(translate(messages.error), error);
      throw error;
    }
  };
  return { save, isPending };
}

function ArchiveAction({ record, id }: { record: PecDossierRecord; id: number }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const { save, isPending } = useArchiveUpdate(
    record,
    id,
    { done: 'pecflow.pec.archive.done', doneText: 'pecflow.pec.archive.doneText', error: 'pecflow.pec.archive.error' },
    () => setOpen(false),
  );
  return (
    <>
      <Button color="warning" startIcon={<ArchiveIcon />} onClick={() => setOpen(true)} disabled={!!record.runInProgress}>
        {translate('pecflow.pec.drawer.archive')}
      </Button>
      <Dialog open={open} onClose={isPending ? undefined : () => setOpen(false)} maxWidth="xs" fullWidth aria-labelledby="pec-archive-title">
        {/* Mounted with the dialog: each opening starts empty. */}
        {open && (
          <AdminForm
            record={{ archiveReason: '', archiveNote: '' }}
            schema={pecArchiveSchema}
            onSave={(values) => save({ archived: true, ...pecArchiveSchema.parse(values) })}
          >
            <DialogTitle id="pec-archive-title">{translate('pecflow.pec.archive.title', { numero: record.numeroDossier })}</DialogTitle>
            <DialogContent>
              <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.pec.archive.text')}</DialogContentText>
              <Stack spacing={2} sx={{ pt: 1 }}>
                <SelectInput
                  source="archiveReason"
                  label={translate('pecflow.pec.archive.reason')}
                  choices={REASON_CHOICES}
                  fullWidth
                  margin="none"
                  isRequired
                />
                <NoteInput />
              </Stack>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpen(false)} disabled={isPending}>
                {translate('pecflow.pec.archive.cancel')}
              </Button>
              <ConfirmArchive busy={isPending} />
            </DialogActions>
          </AdminForm>
        )}
      </Dialog>
    </>
  );
}

/** The reason's text, asked for 'Autre' only. */
function NoteInput() {
  const translate = useTranslate();
  const reason = useWatch({ name: 'archiveReason' });
  if (reason !== 'other') return null;
  return <TextInput source="archiveNote" label={translate('pecflow.pec.archive.note')} fullWidth multiline margin="none" required autoFocus />;
}

function ConfirmArchive({ busy }: { busy: boolean }) {
  const translate = useTranslate();
  const { isValid } = useFormState();
  return (
    <Button type="submit" variant="contained" color="warning" startIcon={<ArchiveIcon />} disabled={!isValid || busy} data-testid="archive-confirm">
      {translate('pecflow.pec.archive.confirm')}
    </Button>
  );
}

function RestoreAction({ record, id }: { record: PecDossierRecord; id: number }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const { save, isPending } = useArchiveUpdate(
    record,
    id,
    { done: 'pecflow.pec.archive.restored', doneText: 'pecflow.pec.archive.restoredText', error: 'pecflow.pec.archive.restoreError' },
    () => setOpen(false),
  );
  return (
    <>
      <Button startIcon={<RestoreIcon />} onClick={() => setOpen(true)}>
        {translate('pecflow.pec.drawer.restore')}
      </Button>
      <ConfirmDialog
        isOpen={open}
        loading={isPending}
        title="pecflow.pec.archive.restoreTitle"
        translateOptions={{ numero: record.numeroDossier }}
        content="pecflow.pec.archive.restoreText"
        confirm="pecflow.pec.archive.restoreConfirm"
        cancel="pecflow.pec.archive.cancel"
        ConfirmIcon={RestoreMark}
        onConfirm={() => save({ archived: false }).catch(() => undefined)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** At the top of an archived file: since when and why; it can no longer be changed or sent. */
export function ArchivedNotice({ record }: { record: PecDossierRecord }) {
  const translate = useTranslate();
  if (!record.archived) return null;
  return (
    <Alert severity="warning" icon={<ArchiveIcon />} sx={{ mb: 2 }} data-testid="archived-notice">
      <AlertTitle>
        {translate('pecflow.pec.archive.notice', { date: formatDate(record.archivedAt) })} — {archiveReasonText(record.archiveReason, record.archiveNote)}
      </AlertTitle>
      {translate('pecflow.pec.archive.noticeText')}
    </Alert>
  );
}
