// A file's payment history in its drawer (issue 25): every payment that touched it, from a statement (with a link to
// it) or entered by hand, in react-admin's ReferenceManyField + DataTable over /api/pec_payments?dossier=…; a
// cancelled payment stays, struck through, with who cancelled it and why; a second payment of the same amount and day,
// recorded as such, says why under its label. 'Annuler' on a manual payment (billing.payment)
// asks for the reason in a dialog of the one form system (the shared zod schema) and is sent with useMutation. A
// payment the server says cannot be cancelled (`cancelRefusal`: a statement applied since) keeps its 'Annuler' inert,
// with the reason beside it; a refusal that still comes (a statement applied while the dialog was open) says why inside
// the dialog. Once cancelled, the payment's new state takes the focus (its 'Annuler' is gone).
import UndoIcon from '@mui/icons-material/Undo';
import { Box, Button, Chip, Link, Stack, Typography, type Theme } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { DataTable, ReferenceManyField, useListContext, useTranslate, type Identifier } from 'react-admin';
import { focusOnShow } from '../admin/focusOnShow';
import { WRITE_RETRY } from '../admin/mutations';
import { ReasonDialog } from './ReasonDialog';
import { PEC_PAYMENTS_RESOURCE, pecIri, pecNumericId, type PecDossierRecord, type PecPaymentRecord } from '../dataProvider/pec';
import { formatDate, formatDateTime, formatEuros } from '#domain/format';
import { cancelRefusalMessage, isCancellable, PAYMENT_SOURCE_LABELS, paidAmount, type PaymentSource } from '#domain/payments';
import { paymentCancelSchema } from '#domain/pecSchemas';
import { statementPath } from './filters';
import { statusOf, usePecMutation, usePecRights } from './shared';

const SORT = { field: 'paymentDate', order: 'ASC' } as const;
const oneLine = () => ({ whiteSpace: 'nowrap' }) as const;
/**
 * On a phone its six columns scrolled sideways inside their box, 'Annuler' last and out of sight: there each payment
 * wraps onto as many lines as it needs, every value and action within the screen, the headers hidden.
 */
const PHONE_ROWS = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    '& thead': { display: 'none' },
    '& tbody tr': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, py: 0.5, borderBottom: 1, borderColor: 'divider' },
    '& tbody td': { display: 'block', borderBottom: 0, px: 0 },
  },
});

const personOf = (value: PecPaymentRecord['createdBy']) =>
  value && typeof value === 'object' ? [value.firstName, value.lastName].filter(Boolean).join(' ') || null : null;

export function PaymentHistory({ record }: { record: PecDossierRecord }) {
  const translate = useTranslate();
  const rights = usePecRights();
  const [cancelling, setCancelling] = useState<PecPaymentRecord | undefined>();
  const [cancelled, setCancelled] = useState<Identifier | undefined>();
  const label = (key: string) => translate(`pecflow.payments.history.${key}`);
  return (
    <Box data-testid="pec-payment-history">
      <Typography variant="body2" color="text.secondary" fontWeight={700} sx={{ mb: 0.5 }}>
        {label('title')}
      </Typography>
      <ReferenceManyField
        reference={PEC_PAYMENTS_RESOURCE}
        target="dossier"
        record={{ ...record, id: pecIri(pecNumericId(record)!) }}
        sort={SORT}
        perPage={100}
        empty={
          <Typography variant="body2" color="text.secondary" data-testid="pec-payment-history-empty">
            {label('empty')}
          </Typography>
        }
      >
        <Box sx={{ overflowX: 'auto' }}>
          <DataTable
            bulkActionButtons={false}
            rowClick={false}
            size="small"
            sx={PHONE_ROWS}
            rowSx={(p: PecPaymentRecord) => ({ opacity: p.reversedAt ? 0.6 : 1 })}
          >
            <DataTable.Col
              source="paymentDate"
              label={label('date')}
              disableSort
              cellSx={oneLine}
              render={(p: PecPaymentRecord) => formatDate(p.paymentDate)}
            />
            <DataTable.Col
              source="amount"
              label={label('amount')}
              disableSort
              align="right"
              cellSx={oneLine}
              render={(p: PecPaymentRecord) => (
                <Box component="span" sx={p.reversedAt ? { textDecoration: 'line-through' } : undefined} data-testid="pec-payment-amount">
                  {formatEuros(p.amount)}
                </Box>
              )}
            />
            <DataTable.Col source="source" label={label('source')} disableSort render={(p: PecPaymentRecord) => <Source payment={p} linked={rights.pay} />} />
            <DataTable.Col
              source="label"
              label={label('label')}
              disableSort
              render={(p: PecPaymentRecord) => (
                <>
                  {p.label}
                  {p.distinctReason && (
                    <Typography variant="caption" color="text.secondary" display="block" data-testid="pec-payment-distinct">
                      {translate('pecflow.payments.history.distinct', { reason: p.distinctReason })}
                    </Typography>
                  )}
                </>
              )}
            />
            <DataTable.Col
              source="createdAt"
              label={label('recorded')}
              disableSort
              render={(p: PecPaymentRecord) => (
                <Stack spacing={0}>
                  <span>{personOf(p.createdBy) ?? label('nobody')}</span>
                  <Typography variant="caption" color="text.secondary" sx={oneLine()}>
                    {formatDateTime(p.createdAt)}
                  </Typography>
                </Stack>
              )}
            />
            <DataTable.Col
              source="reversedAt"
              label={label('state')}
              disableSort
              render={(p: PecPaymentRecord) =>
                p.reversedAt ? (
                  <Stack ref={p.id === cancelled ? focusOnShow : undefined} tabIndex={-1} spacing={0.25} data-testid="pec-payment-cancelled">
                    <Chip size="small" variant="outlined" label={label('cancelled')} sx={{ alignSelf: 'flex-start' }} />
                    <Typography variant="caption" color="text.secondary">
                      {translate('pecflow.payments.history.cancelledText', {
                        date: formatDateTime(p.reversedAt),
                        who: personOf(p.reversedBy) ?? label('nobody'),
                        reason: p.reversalReason ?? '',
                      })}
                    </Typography>
                  </Stack>
                ) : rights.pay && isCancellable(p) ? (
                  // Cancelled a moment ago and not read again yet: inert, so that an Enter pressed once too often on
                  // the button the focus returns to does not open the dialog again.
                  <CancelAction payment={p} onCancel={p.id === cancelled ? undefined : () => setCancelling(p)} />
                ) : null
              }
            />
          </DataTable>
        </Box>
        <Total />
      </ReferenceManyField>
      {cancelling && <CancelDialog payment={cancelling} onClose={() => setCancelling(undefined)} onCancelled={() => setCancelled(cancelling.id)} />}
    </Box>
  );
}

/** The sum of the payments that count: the file's amount paid, by the server's rule (domain/payments.ts). */
function Total() {
  const translate = useTranslate();
  const { data } = useListContext<PecPaymentRecord>();
  if (!data?.length) return null;
  return (
    <Typography variant="body2" sx={{ mt: 1, textAlign: 'right' }} data-testid="pec-payment-history-total">
      {translate('pecflow.payments.history.total', { amount: formatEuros(paidAmount(data) ?? 0) })}
    </Typography>
  );
}

/** Where a payment comes from: its statement (a link to it for those who see statements) or a manual entry. */
function Source({ payment, linked }: { payment: PecPaymentRecord; linked: boolean }) {
  const translate = useTranslate();
  const source = payment.source as PaymentSource;
  const name = PAYMENT_SOURCE_LABELS[source] ?? payment.source;
  const statement = pecNumericId({ id: payment.paymentStatement ?? undefined });
  if (source !== 'statement' || !statement) return <span>{name}</span>;
  const text = translate('pecflow.payments.history.statement', { id: statement });
  return linked ? (
    <Link component={RouterLink} to={statementPath(statement)} data-testid="pec-payment-statement">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

/**
 * 'Annuler' on a manual payment, named for screen readers by the payment it cancels ('Annuler le paiement de 200,50 €
 * du 30/11/2026': among several, a bare 'Annuler' said not which), its name starting with the text seen. One the
 * server says can only be refused keeps its button, inert (aria-disabled, so still a Tab stop) and described by the
 * reason written beside it: a keyboard or screen reader user who looks for the action hears why it is not there, and
 * the focus a refused dialog gives back on closing lands on it. A button removed would say nothing to whoever looks
 * for it, and drop that focus to the page.
 */
function CancelAction({ payment, onCancel }: { payment: PecPaymentRecord; onCancel?: () => void }) {
  const translate = useTranslate();
  const refusal = payment.cancelRefusal ? cancelRefusalMessage(payment.cancelRefusal) : null;
  const reasonId = `pec-payment-refusal-${pecNumericId(payment)}`;
  return (
    <Stack spacing={0.25} alignItems="flex-start">
      <Button
        size="small"
        color="warning"
        startIcon={<UndoIcon />}
        onClick={refusal ? undefined : onCancel}
        aria-label={translate('pecflow.payments.history.cancelNamed', { amount: formatEuros(payment.amount), date: formatDate(payment.paymentDate) })}
        aria-disabled={refusal ? true : undefined}
        aria-describedby={refusal ? reasonId : undefined}
        data-testid="pec-payment-cancel"
      >
        {translate('pecflow.payments.history.cancel')}
      </Button>
      {refusal && (
        <Typography id={reasonId} variant="caption" color="text.secondary" data-testid="pec-payment-cancel-refusal">
          {refusal}
        </Typography>
      )}
    </Stack>
  );
}

function CancelDialog({ payment, onClose, onCancelled }: { payment: PecPaymentRecord; onClose: () => void; onCancelled: () => void }) {
  const { translate, dataProvider, refresh, success, failure, errorText } = usePecMutation();
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string | undefined>();
  const cancel = useMutation({
    ...WRITE_RETRY,
    mutationFn: (motif: string) => dataProvider.pecPaymentCancel({ id: pecNumericId(payment)!, motif }),
    onSuccess: () => {
      success(translate('pecflow.payments.history.cancelledTitle'), translate('pecflow.payments.history.cancelledToast'));
      onCancelled();
      onClose();
      void queryClient.invalidateQueries({ queryKey: [PEC_PAYMENTS_RESOURCE] });
      void refresh.now();
    },
    onError: (error) => {
      // Refused for good (a statement applied to the file since the history was read): said in the dialog, focused (a
      // toast beside it would say it twice), and the history read again says it beside the payment.
      if (statusOf(error) === 409) {
        setRefusal(errorText(error));
        void refresh.now();
      } else failure(translate('pecflow.payments.history.cancelError'), error);
    },
  });
  return (
    <ReasonDialog
      id="pec-payment-cancel-title"
      title={translate('pecflow.payments.history.cancelTitle')}
      text={translate('pecflow.payments.history.cancelText', { amount: formatEuros(payment.amount), date: formatDate(payment.paymentDate) })}
      label={translate('pecflow.payments.history.reason')}
      submit={translate('pecflow.payments.history.confirmCancel')}
      cancel={translate('pecflow.payments.history.close')}
      schema={paymentCancelSchema}
      busy={cancel.isPending}
      onSave={(motif) => cancel.mutateAsync(motif)}
      onClose={onClose}
      closeTestId="pec-payment-cancel-close"
      refusal={refusal}
    />
  );
}
