// The forms of the bulk actions (src/pec/BulkActions.tsx), loaded with their dialog: 'Facturer' (one invoice date, the
// numbers from a pattern and a first number, previewed), 'Archiver' (one reason) and 'Assigner à…' (one colleague,
// or nobody). The one form system (AdminForm
// with the shared zod schemas).
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, Typography } from '@mui/material';
import type { ComponentType } from 'react';
import { useWatch } from 'react-hook-form';
import { NumberInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { AdminForm } from '../admin/AdminForm';
import { ArchiveMark, AssignMark, BillMark } from '../admin/ConfirmDialog';
import { ARCHIVE_REASON_LABELS, ARCHIVE_REASONS } from '#domain/archive';
import { invoiceNumbersFor, type BulkAction } from '#domain/bulk';
import { pecArchiveSchema, pecBulkAssignSchema, pecBulkBillingSchema } from '#domain/pecSchemas';
import { OWNER_FILTER_NOBODY } from '#domain/followUps';
import { todayInFrance } from '#domain/pec';
import { DateInput } from './DateInput';
import type { BulkFormName } from './BulkActions';
import type { PecColleague } from '../dataProvider/pec';
import { useMyColleagues } from './shared';

const REASON_CHOICES = ARCHIVE_REASONS.map((id) => ({ id, name: ARCHIVE_REASON_LABELS[id] }));

interface Props {
  form: BulkFormName;
  count: number;
  /** For each selected file, in order, whether it may be billed (its DPEC granted): only those take a number. */
  billable: boolean[];
  /** For each selected file, its centre when this page read it (a colleague offered must see every one). */
  shopIds: (number | undefined)[];
  busy: boolean;
  onClose: () => void;
  onSubmit: (data: { action: BulkAction } & Record<string, unknown>) => Promise<unknown>;
}

export default function BulkForms({ form, count, billable, shopIds, busy, onClose, onSubmit }: Props) {
  const translate = useTranslate();
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="bulk-form-title" data-testid={`bulk-${form}-dialog`}>
      {form === 'assign' ? (
        <AssignForm count={count} shopIds={shopIds} busy={busy} onClose={onClose} onSubmit={onSubmit} />
      ) : form === 'billing' ? (
        <AdminForm
          record={{ dateBilling: todayInFrance(), pattern: 'FAC-{n}', start: 1 }}
          schema={pecBulkBillingSchema}
          onSave={(values) => {
            const { dateBilling, pattern, start } = pecBulkBillingSchema.parse(values);
            return onSubmit({ action: 'billing', dateBilling, numbers: invoiceNumbersFor(pattern, start, billable) });
          }}
        >
          <DialogTitle id="bulk-form-title">{translate('pecflow.pec.bulk.billingTitle', { smart_count: count })}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.pec.bulk.billingText')}</DialogContentText>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <DateInput source="dateBilling" label={translate('pecflow.pec.billing.dateBilling')} required />
              <TextInput source="pattern" label={translate('pecflow.pec.bulk.pattern')} fullWidth margin="none" required autoFocus />
              <NumberInput source="start" label={translate('pecflow.pec.bulk.start')} fullWidth margin="none" required step={1} min={0} />
              <Preview billable={billable} />
            </Stack>
          </DialogContent>
          <Actions busy={busy} onClose={onClose} Mark={BillMark} />
        </AdminForm>
      ) : (
        <AdminForm
          record={{ archiveReason: '', archiveNote: '' }}
          schema={pecArchiveSchema}
          onSave={(values) => onSubmit({ action: 'archive', ...pecArchiveSchema.parse(values) })}
        >
          <DialogTitle id="bulk-form-title">{translate('pecflow.pec.bulk.archiveTitle', { smart_count: count })}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.pec.bulk.archiveText', { smart_count: count })}</DialogContentText>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <SelectInput
                source="archiveReason"
                label={translate('pecflow.pec.archive.reason')}
                choices={REASON_CHOICES}
                emptyText=""
                fullWidth
                margin="none"
                required
                autoFocus
              />
              <NoteInput />
            </Stack>
          </DialogContent>
          <Actions busy={busy} onClose={onClose} Mark={ArchiveMark} />
        </AdminForm>
      )}
    </Dialog>
  );
}

/** 'Assigner à…': the colleague who follows every selected file from now on ('Suivi par'), or nobody. */
function AssignForm({ count, shopIds, busy, onClose, onSubmit }: Omit<Props, 'form' | 'billable'>) {
  const translate = useTranslate();
  const colleagues = useMyColleagues();
  // Only who sees every selected file read here (a file of another page is the server's to judge, in the summary).
  const seesAll = (c: PecColleague) => !c.shopIds || shopIds.every((shopId) => shopId === undefined || c.shopIds!.includes(shopId));
  const choices = [
    { id: OWNER_FILTER_NOBODY, name: translate('pecflow.pec.followUp.nobody') },
    ...colleagues.filter((c) => c.mayFollow && seesAll(c)).map((c) => ({ id: c['@id'], name: `${c.firstName} ${c.lastName}`.trim() })),
  ];
  return (
    <AdminForm record={{ owner: '' }} schema={pecBulkAssignSchema} onSave={(values) => onSubmit({ action: 'assign', ...pecBulkAssignSchema.parse(values) })}>
      <DialogTitle id="bulk-form-title">{translate('pecflow.pec.bulk.assignTitle', { smart_count: count })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.pec.bulk.assignText')}</DialogContentText>
        {/* Required: no blank choice above 'Personne' (nobody is a choice of its own). */}
        <SelectInput source="owner" label={translate('pecflow.pec.followUp.owner')} choices={choices} fullWidth margin="none" isRequired autoFocus />
      </DialogContent>
      <Actions busy={busy} onClose={onClose} Mark={AssignMark} />
    </AdminForm>
  );
}

/** The numbers the pattern gives, first and last. */
/** The numbers the billable files will take, and how many selected files cannot be billed (left unchanged). */
function Preview({ billable }: { billable: boolean[] }) {
  const translate = useTranslate();
  const [pattern, start] = useWatch({ name: ['pattern', 'start'] });
  const first = Number(start);
  const refused = billable.filter((ok) => !ok).length;
  const numbers = String(pattern ?? '').trim() && Number.isInteger(first) ? invoiceNumbersFor(String(pattern).trim(), first, billable).filter(Boolean) : [];
  const shown = numbers.length > 2 ? `${numbers[0]} … ${numbers[numbers.length - 1]}` : numbers.join(', ');
  return (
    <>
      {numbers.length > 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="bulk-numbers">
          {translate('pecflow.pec.bulk.preview', { numbers: shown })}
        </Typography>
      )}
      {refused > 0 && (
        <Typography variant="body2" color="warning.main" data-testid="bulk-not-billable">
          {translate('pecflow.pec.bulk.billingNotReady', { smart_count: refused })}
        </Typography>
      )}
    </>
  );
}

function NoteInput() {
  const translate = useTranslate();
  const reason = useWatch({ name: 'archiveReason' });
  if (reason !== 'other') return null;
  return <TextInput source="archiveNote" label={translate('pecflow.pec.archive.note')} fullWidth multiline margin="none" required />;
}

/** « Annuler » and « Confirmer », with the mark of the action confirmed. */
function Actions({ busy, onClose, Mark }: { busy: boolean; onClose: () => void; Mark: ComponentType }) {
  const translate = useTranslate();
  return (
    <DialogActions>
      <Button onClick={onClose} disabled={busy}>
        {translate('pecflow.pec.bulk.cancel')}
      </Button>
      <Button type="submit" variant="contained" startIcon={<Mark />} disabled={busy} data-testid="bulk-confirm">
        {translate('pecflow.pec.bulk.confirm')}
      </Button>
    </DialogActions>
  );
}
