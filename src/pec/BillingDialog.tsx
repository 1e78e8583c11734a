// The billing dialog (spec sections 2 and 5): the software's invoice number and date, Confirm disabled until both are
// filled; then the PATCH (merge-patch) and, once saved, the billing run.
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { pecApi, type PecDossierRecord } from '../dataProvider/pec';
import { pecBillingSchema } from '../domain/pec';
import { useToast } from '../layout/Toasts';
import { useErrorText, useZodForm } from './shared';

interface Props {
  open: boolean;
  record: PecDossierRecord;
  id: number;
  onClose: () => void;
  /** The invoice is saved: start the run. */
  onSaved: () => void;
}

export function BillingDialog({ open, record, id, onClose, onSaved }: Props) {
  const translate = useTranslate();
  const toast = useToast();
  const errorText = useErrorText();
  const form = useZodForm(pecBillingSchema, { numBilling: record.numBilling ?? '', dateBilling: record.dateBilling ?? '' });
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) form.reset({ numBilling: record.numBilling ?? '', dateBilling: record.dateBilling ?? '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const filled = String(form.values.numBilling ?? '').trim() !== '' && String(form.values.dateBilling ?? '').trim() !== '';

  const confirm = async () => {
    const data = form.data;
    if (!data) return;
    setSaving(true);
    try {
      await pecApi.saveBilling(id, { numBilling: data.numBilling, dateBilling: data.dateBilling });
      toast.success(translate('pecflow.pec.toast.billingSaved'));
      onSaved();
    } catch (error) {
      toast.error(translate('pecflow.pec.toast.billingSaveError'), errorText(error));
    } finally {
      setSaving(false);
    }
  };

  const field = (key: 'numBilling' | 'dateBilling', type: 'text' | 'date') => (
    <TextField
      label={translate(`pecflow.pec.billing.${key}`)}
      type={type}
      required
      fullWidth
      value={form.values[key] ?? ''}
      onChange={(event) => form.set(key, event.target.value)}
      onBlur={() => form.touch(key)}
      error={!!form.errorOf(key)}
      helperText={form.errorOf(key)}
      slotProps={{ inputLabel: { shrink: true } }}
      autoFocus={key === 'numBilling'}
    />
  );

  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="pec-billing-title">
      <DialogTitle id="pec-billing-title">{translate('pecflow.pec.billing.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.pec.billing.text', { numero: record.numeroDossier })}</DialogContentText>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {field('numBilling', 'text')}
          {field('dateBilling', 'date')}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          {translate('pecflow.pec.billing.cancel')}
        </Button>
        <Button variant="contained" onClick={confirm} disabled={!filled || !form.valid || saving} data-testid="billing-confirm">
          {translate('pecflow.pec.billing.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
