// /payment_statements, 'Relevés de paiement' (issue 15): the one list frame (react-admin List + DataTable) of the
// statements an organisation applied, and a statement in the one drawer frame at /payment_statements/{id} with its
// totals, its lines and their outcomes, and 'Annuler le relevé'. Importing one is /payment_statements/create.
import UndoIcon from '@mui/icons-material/Undo';
import { Alert, Box, Button, Skeleton, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { Confirm, DataTable, Title, useGetOne, useTranslate } from 'react-admin';
import { useState } from 'react';
import { DrawerFrame } from '../admin/DrawerFrame';
import { ListFrame } from '../admin/ListFrame';
import { StatusBadge } from '../admin/StatusBadge';
import { PAYMENT_STATEMENTS_RESOURCE, PEC_QUERY_KEYS, pecNumericId, type PaymentStatementRecord } from '../dataProvider/pec';
import { formatDate, formatDateTime, formatEuros } from '#domain/format';
import { iriOf } from '#domain/iri';
import { PAGE_SIZE } from '#domain/limits';
import { PAYMENT_STATEMENT_STATUS_LABELS, STATEMENT_MESSAGES, type PaymentStatementStatus } from '#domain/payments';
import { statementPath, STATEMENTS_PATH } from './filters';
import { PaymentLines, PaymentTotalsView } from './PaymentLines';
import { useErrorText, usePecMutation } from './shared';

export function StatementStatusBadge({ status }: { status: string }) {
  const known = status in PAYMENT_STATEMENT_STATUS_LABELS;
  return (
    <StatusBadge
      status={status}
      label={known ? PAYMENT_STATEMENT_STATUS_LABELS[status as PaymentStatementStatus] : status}
      color={status === 'applied' ? 'success' : 'default'}
      variant={status === 'applied' ? 'filled' : 'outlined'}
    />
  );
}

/** After an import or an undo: the statements and everything PEC (files, list, dashboard, payment histories). */
export function useRefreshPayments() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: [PAYMENT_STATEMENTS_RESOURCE] });
    for (const queryKey of PEC_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey });
  };
}

export default function PaymentStatementsPage() {
  const translate = useTranslate();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const idParam = Number(useParams()['*']);
  const open = Number.isInteger(idParam) && idParam > 0;
  const label = (key: string) => translate(`pecflow.payments.list.columns.${key}`);
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }} data-testid="payments-page">
      <Title title={translate('pecflow.payments.list.title')} />
      <ListFrame
        resource={PAYMENT_STATEMENTS_RESOURCE}
        title={translate('pecflow.payments.list.title')}
        countText={(n) => translate('pecflow.payments.list.count', { smart_count: n })}
        createLabel={translate('pecflow.payments.list.import')}
        onCreate={() => navigate(`${STATEMENTS_PATH}/create`)}
        emptyText={translate('pecflow.payments.list.empty')}
        searchPlaceholder={translate('pecflow.payments.list.search')}
        sort={{ field: 'createdAt', order: 'DESC' }}
        perPage={PAGE_SIZE}
        listProps={{ storeKey: false }}
        rowClick={(_id, record) => statementPath(pecNumericId(record)!)}
        errorText={errorText}
        testId="payments-list"
        rowTestId="payments-row"
      >
        <DataTable.Col source="createdAt" label={label('createdAt')} render={(r: PaymentStatementRecord) => formatDateTime(r.createdAt)} />
        <DataTable.Col source="payer" label={label('payer')} disableSort />
        <DataTable.Col source="reference" label={label('reference')} disableSort render={(r: PaymentStatementRecord) => r.reference ?? '—'} />
        <DataTable.Col source="linesCount" label={label('linesCount')} disableSort align="right" />
        <DataTable.Col source="totalAmount" label={label('totalAmount')} align="right" render={(r: PaymentStatementRecord) => formatEuros(r.totalAmount)} />
        <DataTable.Col
          source="appliedAmount"
          label={label('appliedAmount')}
          disableSort
          align="right"
          // An undone statement's payments left its files: the amount it had applied is shown struck through.
          render={(r: PaymentStatementRecord) => (r.undoneAt ? <s>{formatEuros(r.appliedAmount)}</s> : formatEuros(r.appliedAmount))}
        />
        <DataTable.Col source="status" label={label('status')} disableSort render={(r: PaymentStatementRecord) => <StatementStatusBadge status={r.status} />} />
      </ListFrame>
      {open && <StatementDrawer key={idParam} id={idParam} onClose={() => navigate(STATEMENTS_PATH, { replace: true })} />}
    </Box>
  );
}

function StatementDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const translate = useTranslate();
  const errorText = useErrorText();
  const {
    data: record,
    error,
    isPending,
  } = useGetOne<PaymentStatementRecord & { id: string }>(PAYMENT_STATEMENTS_RESOURCE, {
    id: iriOf(PAYMENT_STATEMENTS_RESOURCE, id),
    meta: { view: 'item' },
  });
  return (
    <DrawerFrame
      open
      onClose={onClose}
      width={960}
      testId="payment-statement-drawer"
      title={record ? translate('pecflow.payments.show.title', { id, date: formatDate(record.createdAt) }) : translate('pecflow.pec.drawer.loading')}
      subtitle={
        record &&
        [record.payer, record.reference && translate('pecflow.payments.show.reference', { reference: record.reference }), record.period, record.fileName]
          .filter(Boolean)
          .join(' · ')
      }
      actions={
        record && (
          <>
            <StatementStatusBadge status={record.status} />
            {record.undoable && <UndoAction id={id} />}
          </>
        )
      }
    >
      {error ? (
        <Alert severity="error">{errorText(error)}</Alert>
      ) : isPending || !record?.lines ? (
        Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={48} />)
      ) : (
        <Stack spacing={2}>
          {record.undoneAt && <Alert severity="info">{translate('pecflow.payments.show.undoneAt', { date: formatDateTime(record.undoneAt) })}</Alert>}
          {record.status === 'applied' && !record.undoable && <Alert severity="info">{STATEMENT_MESSAGES.undoOutOfScope}</Alert>}
          {record.totals && <PaymentTotalsView totals={record.totals} />}
          <PaymentLines lines={record.lines} />
        </Stack>
      )}
    </DrawerFrame>
  );
}

/** 'Annuler le relevé', behind a confirmation: every file it changed goes back to its state before it. */
function UndoAction({ id }: { id: number }) {
  const { translate, dataProvider, success, failure } = usePecMutation();
  const refresh = useRefreshPayments();
  const [confirming, setConfirming] = useState(false);
  const undo = useMutation({
    mutationFn: () => dataProvider.paymentUndo({ id }),
    onSuccess: () => {
      setConfirming(false);
      success(translate('pecflow.payments.show.undone'));
      refresh();
    },
    onError: (error) => {
      setConfirming(false);
      failure(translate('pecflow.payments.show.undoError'), error);
    },
  });
  return (
    <>
      <Button color="warning" startIcon={<UndoIcon />} onClick={() => setConfirming(true)} data-testid="payment-undo">
        {translate('pecflow.payments.show.undo')}
      </Button>
      <Confirm
        isOpen={confirming}
        loading={undo.isPending}
        title="pecflow.payments.show.undoTitle"
        content="pecflow.payments.show.undoText"
        confirm="pecflow.payments.show.undo"
        cancel="pecflow.payments.show.close"
        confirmColor="warning"
        onConfirm={() => undo.mutate()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
