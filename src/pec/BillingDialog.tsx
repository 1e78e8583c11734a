// The billing dialog (spec sections 2 and 5): the software's invoice number and date (French date picker, neither after
// today nor before the DPEC's day), Confirm disabled until both are filled and valid; then the PATCH (merge-patch)
// and, once saved, the billing run. The one form system (src/admin/AdminForm.tsx) with the shared zod schema.
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useFormState, useWatch } from 'react-hook-form';
import { TextInput, useTranslate } from 'react-admin';
import type { z } from 'zod';
import { AdminForm } from '../admin/AdminForm';
import { BillMark } from '../admin/ConfirmDialog';
import type { PecDossierRecord } from '../dataProvider/pec';
import { dpecDay } from '#domain/pec';
import { pecBillingSchemaFor, type pecBillingSchema } from '#domain/pecSchemas';
import { DateInput } from './DateInput';
import { usePecMutation } from './shared';

interface Props {
  open: boolean;
  record: PecDossierRecord;
  id: number;
  onClose: () => void;
  /** The invoice is saved: start the run. */
  onSaved: () => void;
}

export function BillingDialog({ open, record, id, onClose, onSaved }: Props) {
  const { translate, dataProvider, success, failure } = usePecMutation();
  // The invoice is dated between the DPEC's day and today (the server's rule, domain/pec.ts).
  const dpec = dpecDay(record);
  const schema = useMemo(() => pecBillingSchemaFor(dpec), [dpec]);
  const save = useMutation({
    mutationFn: (data: z.output<typeof pecBillingSchema>) => dataProvider.pecSaveBilling({ id, data }),
    onSuccess: () => {
      success(translate('pecflow.pec.toast.billingSaved'));
      onSaved();
    },
    onError: (error) => failure(translate('pecflow.pec.toast.billingSaveError'), error),
  });

  return (
    <Dialog open={open} onClose={save.isPending ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="pec-billing-title">
      {/* Mounted with the dialog: each opening starts from the file's own invoice. */}
      {open && (
        <AdminForm
          record={{ numBilling: record.numBilling ?? '', dateBilling: record.dateBilling ?? '' }}
          schema={schema}
          onSave={(values) => save.mutateAsync(schema.parse(values))}
        >
          <DialogTitle id="pec-billing-title">{translate('pecflow.pec.billing.title')}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.pec.billing.text', { numero: record.numeroDossier })}</DialogContentText>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <TextInput source="numBilling" label={translate('pecflow.pec.billing.numBilling')} fullWidth autoFocus margin="none" required />
              <DateInput source="dateBilling" label={translate('pecflow.pec.billing.dateBilling')} required />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={save.isPending}>
              {translate('pecflow.pec.billing.cancel')}
            </Button>
            <ConfirmButton busy={save.isPending} />
          </DialogActions>
        </AdminForm>
      )}
    </Dialog>
  );
}

/** "Confirmer", with the billing's mark: disabled until both fields are filled and valid. */
function ConfirmButton({ busy }: { busy: boolean }) {
  const translate = useTranslate();
  const [numBilling, dateBilling] = useWatch({ name: ['numBilling', 'dateBilling'] });
  const { isValid } = useFormState();
  const filled = String(numBilling ?? '').trim() !== '' && String(dateBilling ?? '').trim() !== '';
  return (
    <Button type="submit" variant="contained" startIcon={<BillMark />} disabled={!filled || !isValid || busy} data-testid="billing-confirm">
      {translate('pecflow.pec.billing.confirm')}
    </Button>
  );
}
