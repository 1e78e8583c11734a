// The file's payment in the drawer's actions tab (issues 15 and 25): what the insurer owes (its complementary part),
// what it paid and when, the 'Paiement partiel' flag with the amount still due, 'Trop-perçu' with the excess, the
// payment history (PaymentHistory), and 'Enregistrer un paiement' (billing.payment, a billed file) in a dialog of the
// one form system with the shared zod schema, pre-filled with the amount due and today, saying before it is sent when
// the amount typed exceeds what is due, sent with useMutation.
import PaymentsIcon from '@mui/icons-material/Payments';
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { focusOnShow } from '../admin/focusOnShow';
import { useWatch } from 'react-hook-form';
import { TextInput, useTranslate } from 'react-admin';
import type { z } from 'zod';
import { AdminForm, SubmitButton } from '../admin/AdminForm';
import { SaveMark } from '../admin/ConfirmDialog';
import type { PecDossierRecord } from '../dataProvider/pec';
import { formatDate, formatEuros } from '#domain/format';
import { amountDue, expectedAmount, overpaymentOf } from '#domain/payments';
import { newMoneyRefusal } from '#domain/archive';
import { decimalComma } from '#domain/format';
import { invoiceDay, parseDateInput, parsePrice, todayInFrance } from '#domain/pec';
import { manualPaymentSchemaFor, type manualPaymentSchema } from '#domain/pecSchemas';
import { DateInput } from './DateInput';
import { AmountChecked, DistinctReasonInput, paymentRefusalOf, WhileRefused, type PaymentRefusal } from './PaymentDistinct';
import { PaymentHistory } from './PaymentHistory';
import { Facts, Section } from './RobotResults';
import { statusOf, usePecMutation, usePecRights } from './shared';

export function PaymentPanel({ record, id }: { record: PecDossierRecord; id: number }) {
  const translate = useTranslate();
  const rights = usePecRights();
  const [open, setOpen] = useState(false);
  // Where the focus goes when the dialog has gone: what the file has been paid now once a payment is recorded (not back
  // to « Enregistrer un paiement », where an Enter pressed once too often, a key held or an impatient hand, opened the
  // dialog again on the amount still due, and the next one recorded it), else the button that opened it.
  const summary = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  if (record.status !== 'billed' && record.status !== 'paid') return null;
  const none = translate('pecflow.pec.fallback.value');
  // An archived file takes no new payment (the server's rule, said here before anyone tries): restored first.
  const refusal = newMoneyRefusal(record);
  const excess = overpaymentOf({ montantPaye: record.montantPaye, partComplementaire: record.partComplementaire });
  return (
    <Section title={translate('pecflow.payments.panel.title')} testId="pec-payment">
      <Stack spacing={1.5}>
        {record.paiementPartiel && (
          <Box>
            <Chip color="warning" size="small" label={translate('pecflow.payments.panel.partial')} data-testid="pec-payment-partial" />
          </Box>
        )}
        {excess !== null && (
          <Box>
            <Chip
              color="info"
              size="small"
              label={translate('pecflow.payments.panel.overpaid', { amount: formatEuros(excess) })}
              data-testid="pec-payment-overpaid"
            />
          </Box>
        )}
        <Box ref={summary} tabIndex={-1} data-testid="pec-payment-summary">
          <Facts
            items={[
              [translate('pecflow.payments.panel.expected'), formatEuros(expectedAmount({ partComplementaire: record.partComplementaire }), none)],
              [translate('pecflow.payments.panel.paid'), formatEuros(record.montantPaye ?? null, translate('pecflow.payments.panel.nothingYet'))],
              // « Non définie » when there is none, as every empty date.
              [translate('pecflow.payments.panel.date'), formatDate(record.datePaiement)],
              // What is still due on every billed file, paid in part or not at all (also once a statement is undone).
              ...(record.status === 'billed' ? [[translate('pecflow.payments.panel.due'), formatEuros(amountDue(record), none)] as [string, string]] : []),
            ]}
          />
        </Box>
        <PaymentHistory record={record} />
        {rights.pay && record.status === 'billed' && (
          <Box>
            <Button
              ref={opener}
              variant="outlined"
              startIcon={<PaymentsIcon />}
              onClick={() => setOpen(true)}
              disabled={!!refusal}
              aria-describedby={refusal ? 'pec-payment-refusal' : undefined}
              data-testid="pec-payment-record"
            >
              {translate('pecflow.payments.panel.record')}
            </Button>
            {refusal && (
              <Alert severity="info" id="pec-payment-refusal" sx={{ mt: 1 }} data-testid="pec-payment-refusal">
                {refusal}
              </Alert>
            )}
          </Box>
        )}
      </Stack>
      <PaymentDialog open={open} record={record} id={id} onClose={() => setOpen(false)} returnFocus={(saved) => (saved ? summary : opener).current?.focus()} />
    </Section>
  );
}

/** A payment refused in the dialog (409): what the server said (PaymentRefusal), and the date and amount it refused. */
interface Refusal extends PaymentRefusal {
  date: string;
  amount: number;
}

function PaymentDialog({
  open,
  record,
  id,
  onClose,
  returnFocus,
}: {
  open: boolean;
  record: PecDossierRecord;
  id: number;
  onClose: () => void;
  /** Once the dialog has gone (MUI's own return of the focus, decided as it opens, is off): whether it recorded. */
  returnFocus: (saved: boolean) => void;
}) {
  const { translate, dataProvider, refresh, success, failure, errorText } = usePecMutation();
  // The server's rule, checked before sending: not dated before the file's invoice.
  const schema = manualPaymentSchemaFor(invoiceDay(record));
  // A payment refused (409: one the file holds already, the same amount on the same day; an amount far above what the
  // file was to receive): said in the dialog, where the date or the amount is corrected, and focused; other failures
  // in the toast. The same payment can then be recorded in addition, with what distinguishes it, or as typed, once
  // confirmed (WhileRefused).
  const [refusal, setRefusal] = useState<Refusal>();
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (data: z.output<typeof manualPaymentSchema>) => dataProvider.pecPayment({ id, data }),
    onMutate: () => setRefusal(undefined),
    onSuccess: () => {
      success(translate('pecflow.payments.panel.saved'));
      setSaved(true);
      onClose();
      void refresh.now();
    },
    onError: (error, data) => {
      if (statusOf(error) !== 409) return failure(translate('pecflow.payments.panel.saveError'), error);
      setRefusal({ ...paymentRefusalOf(error, errorText(error), data), date: data.datePaiement, amount: data.montant });
    },
  });
  // The date or amount changed since the payment was refused: the refusal no longer applies.
  const dropRefusal = useCallback(() => setRefusal(undefined), []);
  const close = () => {
    setRefusal(undefined);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={save.isPending ? undefined : close}
      maxWidth="xs"
      fullWidth
      aria-labelledby="pec-payment-title"
      disableRestoreFocus
      slotProps={{
        transition: {
          onExited: () => {
            returnFocus(saved);
            setSaved(false);
          },
        },
      }}
    >
      {open && (
        <AdminForm
          record={{ datePaiement: todayInFrance(), montant: decimalComma(amountDue(record)), libelle: '' }}
          schema={schema}
          onSave={(values) => save.mutateAsync(schema.parse(values))}
        >
          <DialogTitle id="pec-payment-title">{translate('pecflow.payments.panel.record')}</DialogTitle>
          {/* While the date and amount are those refused: what distinguishes the payment, and the button that says so. */}
          <WhileRefused
            refusal={refusal}
            names={PAYMENT_DAY_FIELDS}
            refused={([date, amount]) => parseDateInput(date) === refusal?.date && parsePrice(amount) === refusal?.amount}
            onStale={dropRefusal}
          >
            {(refused) => (
              <>
                <DialogContent>
                  <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.payments.panel.text', { numero: record.numeroDossier })}</DialogContentText>
                  <Stack spacing={2} sx={{ pt: 1 }}>
                    {refused && (
                      <Alert ref={focusOnShow} severity="error" tabIndex={-1} data-testid="pec-payment-refusal">
                        {refused.text}
                      </Alert>
                    )}
                    <DateInput source="datePaiement" label={translate('pecflow.payments.panel.date')} required />
                    {/* Focused on opening: the amount is what the user checks or types (date and amount come pre-filled). */}
                    <TextInput source="montant" label={translate('pecflow.payments.panel.amount')} fullWidth margin="none" required autoFocus />
                    <OverpaymentNotice due={amountDue(record)} />
                    <TextInput source="libelle" label={translate('pecflow.payments.panel.label')} fullWidth margin="none" />
                    <DistinctReasonInput count={refused?.sameDay} help="distinctHelp" />
                    <AmountChecked refusal={refused} />
                  </Stack>
                </DialogContent>
                <DialogActions>
                  <Button onClick={close} disabled={save.isPending}>
                    {translate('pecflow.pec.billing.cancel')}
                  </Button>
                  <SubmitButton
                    label={translate(
                      refused?.amountToCheck
                        ? 'pecflow.payments.panel.saveAnyway'
                        : refused?.sameDay
                          ? 'pecflow.payments.panel.saveDistinct'
                          : 'pecflow.payments.panel.save',
                    )}
                    Mark={SaveMark}
                  />
                </DialogActions>
              </>
            )}
          </WhileRefused>
        </AdminForm>
      )}
    </Dialog>
  );
}

const PAYMENT_DAY_FIELDS = ['datePaiement', 'montant'];

/** Said before the payment is recorded: an amount above what is still due makes an over-payment ('Trop-perçu'). */
function OverpaymentNotice({ due }: { due: number | null }) {
  const translate = useTranslate();
  const amount = parsePrice(useWatch({ name: 'montant' }));
  if (due === null || typeof amount !== 'number' || amount <= due) return null;
  return (
    <Alert severity="warning" data-testid="pec-payment-excess">
      {translate('pecflow.payments.panel.excess', { due: formatEuros(due), excess: formatEuros(Math.round((amount - due) * 100) / 100) })}
    </Alert>
  );
}
