// /payment_statements, 'Relevés de paiement' (issue 15): the one list frame (react-admin List + DataTable) of the
// statements an organisation applied, and a statement in the one drawer frame at /payment_statements/{id} with its
// totals, its lines and their outcomes, and 'Annuler le relevé'; its lines to be handled ('À traiter') attached to a
// billed file or set aside in a dialog, a line taken for a payment already counted counted in addition (a second payment
// of the same day), and a line attached or counted by hand by mistake detached. Importing one is /payment_statements/create.
import AddIcon from '@mui/icons-material/Add';
import LinkIcon from '@mui/icons-material/Link';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import UndoIcon from '@mui/icons-material/Undo';
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { AutocompleteInput, DataTable, ReferenceInput, useGetOne, useTranslate } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { ConfirmDialog, UndoMark } from '../admin/ConfirmDialog';
import { useCallback, useRef, useState } from 'react';
import type { z } from 'zod';
import { AdminForm, SubmitButton } from '../admin/AdminForm';
import { ReasonDialog } from './ReasonDialog';
import { DrawerFrame } from '../admin/DrawerFrame';
import { SelectFilter } from '../admin/filters';
import { WRITE_RETRY } from '../admin/mutations';
import { ListFrame } from '../admin/ListFrame';
import { StatusBadge } from '../admin/StatusBadge';
import {
  PAYMENT_STATEMENTS_RESOURCE,
  PEC_QUERY_KEYS,
  PEC_RESOURCE,
  pecNumericId,
  type PaymentStatementRecord,
  type PecDossierRecord,
} from '../dataProvider/pec';
import { newMoneyRefusal } from '#domain/archive';
import { formatDate, formatDateTime, formatEuros } from '#domain/format';
import { iriOf } from '#domain/iri';
import { invoiceDay, paymentBeforeInvoiceError } from '#domain/pec';
import { PAGE_SIZE } from '#domain/limits';
import {
  amountDue,
  isCountableLine,
  isDetachableLine,
  PAYMENT_STATEMENT_STATUS_LABELS,
  PENDING_STATEMENT_FILTER,
  STATEMENT_MESSAGES,
  statementPeriodText,
  type PaymentLine,
  type PaymentStatementStatus,
} from '#domain/payments';
import {
  statementLineAttachSchema,
  statementLineCountSchema,
  statementLineDetachSchema,
  statementLineDismissSchema,
  statementUndoSchema,
} from '#domain/pecSchemas';
import { statementPath, STATEMENTS_PATH } from './filters';
import { PaymentLines, PaymentTotalsView } from './PaymentLines';
import { StatementsShortcuts } from './PaymentShortcuts';
import { statusOf, useErrorText, usePecMutation } from './shared';
import { AmountChecked, DistinctReasonInput, isAmountToCheck, paymentRefusalOf, sameDayPaymentsOf, WhileRefused, type PaymentRefusal } from './PaymentDistinct';
import { WIDE_ONLY_COLUMN } from '../layout/rowStyles';
import { focusOnShow } from '../admin/focusOnShow';

/** Its status, and beside an applied one its lines still to be handled ('À traiter (2)'). */
export function StatementStatusBadge({ status, pendingLines = 0 }: { status: string; pendingLines?: number }) {
  const translate = useTranslate();
  const known = status in PAYMENT_STATEMENT_STATUS_LABELS;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      <StatusBadge
        status={status}
        label={known ? PAYMENT_STATEMENT_STATUS_LABELS[status as PaymentStatementStatus] : status}
        color={status === 'applied' ? 'success' : 'default'}
        variant={status === 'applied' ? 'filled' : 'outlined'}
      />
      {status === 'applied' && pendingLines > 0 && (
        <Chip
          size="small"
          color="warning"
          label={translate('pecflow.payments.list.pendingBadge', { count: pendingLines })}
          data-testid="statement-pending"
          sx={{ fontWeight: 600 }}
        />
      )}
    </Stack>
  );
}

/**
 * How the import page opens the statement it applied: the drawer's title takes the focus as it is drawn, the import
 * page that had it gone (not the page's body while the statement loads).
 */
export const JUST_APPLIED = { justApplied: true } as const;

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
      <PageTitle title={translate('pecflow.payments.list.title')} />
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
        filters={
          <SelectFilter
            source={PENDING_STATEMENT_FILTER}
            label={translate('pecflow.payments.list.pendingFilter')}
            options={[
              { value: 'true', label: translate('pecflow.payments.list.pendingYes') },
              { value: 'false', label: translate('pecflow.payments.list.pendingNo') },
            ]}
          />
        }
      >
        {/* Pecflow's number of the import, as every message names a statement ('relevé n° 12 du …'). */}
        <DataTable.Col source="id" label={label('id')} disableSort render={(r: PaymentStatementRecord) => pecNumericId(r)} />
        <DataTable.Col source="createdAt" label={label('createdAt')} render={(r: PaymentStatementRecord) => formatDateTime(r.createdAt)} />
        <DataTable.Col source="payer" label={label('payer')} disableSort />
        {/* On a phone: the statement, when and whose, and its state (« À traiter (2) »), without swiping. */}
        <DataTable.Col
          source="reference"
          label={label('reference')}
          disableSort
          {...WIDE_ONLY_COLUMN}
          render={(r: PaymentStatementRecord) => r.reference ?? '—'}
        />
        <DataTable.Col source="linesCount" label={label('linesCount')} disableSort align="right" {...WIDE_ONLY_COLUMN} />
        <DataTable.Col
          source="totalAmount"
          label={label('totalAmount')}
          align="right"
          {...WIDE_ONLY_COLUMN}
          render={(r: PaymentStatementRecord) => formatEuros(r.totalAmount)}
        />
        <DataTable.Col
          source="appliedAmount"
          label={label('appliedAmount')}
          disableSort
          align="right"
          {...WIDE_ONLY_COLUMN}
          // An undone statement's payments left its files: it reaches nothing (0,00 €, as its page says, so that the
          // column adds up to what files received), what it had applied said beneath.
          render={(r: PaymentStatementRecord) =>
            r.undoneAt ? (
              <>
                {formatEuros(0)}
                <Box component="span" data-testid="payments-row-applied-before" sx={{ display: 'block', color: 'text.secondary', typography: 'caption' }}>
                  {translate('pecflow.payments.totals.appliedBeforeUndo', { amount: formatEuros(r.appliedAmount) })}
                </Box>
              </>
            ) : (
              formatEuros(r.appliedAmount)
            )
          }
        />
        <DataTable.Col
          source="status"
          label={label('status')}
          disableSort
          render={(r: PaymentStatementRecord) => <StatementStatusBadge status={r.status} pendingLines={r.pendingLines} />}
        />
      </ListFrame>
      {open && <StatementDrawer key={idParam} id={idParam} onClose={() => navigate(STATEMENTS_PATH, { replace: true })} />}
      <StatementsShortcuts drawerOpen={open} />
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
  // The line just set aside, put back or detached: its button goes with the statement read again, the line's new action
  // takes the focus as it appears (never left to the drawer).
  const [moved, setMoved] = useState<number>();
  // The line just attached: once the statement read again shows it handled, the next line to handle (after it, else
  // the first) takes the focus, its « Rattacher » drawn anew for it: a keyboard goes on from there, not from the top.
  const [attached, setAttached] = useState<number>();
  const [undone, setUndone] = useState(false);
  const justApplied = (useLocation().state as Partial<typeof JUST_APPLIED> | null)?.justApplied === true;
  const lines = record?.lines;
  const next =
    attached !== undefined && lines && !lines.find((l) => l.line === attached)?.pending
      ? (lines.find((l) => l.pending && l.line > attached) ?? lines.find((l) => l.pending))?.line
      : undefined;
  return (
    <DrawerFrame
      open
      onClose={onClose}
      // Ten columns and their actions: wide enough for them at 1280 px, the list still showing beside it.
      width={1120}
      testId="payment-statement-drawer"
      focusTitle={justApplied}
      title={record ? translate('pecflow.payments.show.title', { id, date: formatDate(record.createdAt) }) : translate('pecflow.pec.drawer.loading')}
      subtitle={
        record &&
        [
          record.payer,
          record.reference && translate('pecflow.payments.show.reference', { reference: record.reference }),
          record.period && statementPeriodText(record.period),
          record.fileName,
        ]
          .filter(Boolean)
          .join(' · ')
      }
      actions={
        record && (
          <>
            <StatementStatusBadge status={record.status} pendingLines={record.pendingLines} />
            {record.undoable && <UndoAction id={id} onUndone={() => setUndone(true)} />}
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
          {record.undoneAt && (
            // Undone here: its « Annuler le relevé » gone, the focus goes to what says it is (not the page's body).
            <Alert ref={undone ? focusOnShow : undefined} tabIndex={-1} severity="info" data-testid="statement-undone">
              {translate('pecflow.payments.show.undoneAt', { date: formatDateTime(record.undoneAt) })}
              {record.undoReason && ` ${translate('pecflow.payments.show.undoneReason', { reason: record.undoReason })}`}
            </Alert>
          )}
          {record.status === 'applied' && !record.undoable && <Alert severity="info">{STATEMENT_MESSAGES.undoOutOfScope}</Alert>}
          {record.totals && record.totals.pending.count > 0 && (
            <Alert severity="warning" data-testid="statement-pending-alert">
              {translate('pecflow.payments.show.pending', { smart_count: record.totals.pending.count, amount: formatEuros(record.totals.pending.amount) })}
            </Alert>
          )}
          {record.totals && <PaymentTotalsView totals={record.totals} undone={!!record.undoneAt} />}
          <PaymentLines
            lines={record.lines}
            undone={!!record.undoneAt}
            // A column of actions only where a line has one: a cancelled statement's lines have none.
            handle={
              record.status === 'applied' && record.lines.some(hasLineAction)
                ? (line) =>
                    line.pending ? (
                      <PendingLineActions
                        key={line.line === next ? `next-after-${attached}` : 'line'}
                        statementId={id}
                        line={line}
                        focus={moved === line.line || next === line.line}
                        onDismissed={() => setMoved(line.line)}
                        onAttached={() => {
                          // The next line's « Rattacher » takes the focus, not this one's new « Détacher ».
                          setMoved(undefined);
                          setAttached(line.line);
                        }}
                      />
                    ) : line.resolution === 'dismissed' ? (
                      <ReopenLineAction statementId={id} line={line} focus={moved === line.line} onReopened={() => setMoved(line.line)} />
                    ) : isCountableLine(line) ? (
                      <CountLineAction statementId={id} line={line} focus={moved === line.line} onCounted={() => setMoved(line.line)} />
                    ) : isDetachableLine(line) ? (
                      <DetachLineAction statementId={id} line={line} focus={moved === line.line} onDetached={() => setMoved(line.line)} />
                    ) : null
                : undefined
            }
          />
        </Stack>
      )}
    </DrawerFrame>
  );
}

/** What a line of an applied statement offers: to be handled, put back, counted in addition, or detached. */
const hasLineAction = (line: PaymentLine) => line.pending || line.resolution === 'dismissed' || isCountableLine(line) || isDetachableLine(line);

/** 'Annuler le relevé', with its reason: every file it changed goes back to its state before it. */
function UndoAction({ id, onUndone }: { id: number; onUndone: () => void }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button color="warning" startIcon={<UndoIcon />} onClick={() => setOpen(true)} data-testid="payment-undo">
        {translate('pecflow.payments.show.undo')}
      </Button>
      {open && <UndoDialog id={id} onUndone={onUndone} onClose={() => setOpen(false)} />}
    </>
  );
}

function UndoDialog({ id, onUndone, onClose }: { id: number; onUndone: () => void; onClose: () => void }) {
  const { translate, dataProvider } = usePecMutation();
  const undo = useLineMutation(
    (motif: string) => dataProvider.paymentUndo({ id, motif }),
    { title: 'pecflow.payments.show.undone', error: 'pecflow.payments.show.undoError' },
    () => {
      onUndone();
      onClose();
    },
  );
  return (
    <ReasonDialog
      id="statement-undo-title"
      title={translate('pecflow.payments.show.undoTitle')}
      text={translate('pecflow.payments.show.undoText')}
      label={translate('pecflow.payments.show.undoReason')}
      submit={translate('pecflow.payments.show.undo')}
      cancel={translate('pecflow.payments.show.close')}
      schema={statementUndoSchema}
      busy={undo.isPending}
      onSave={(motif) => undo.mutateAsync(motif)}
      onClose={onClose}
    />
  );
}

/**
 * A line to be handled: 'Rattacher' (to a billed file of the organisation the user picks) or 'Classer' (set aside with
 * its reason), each in a dialog of the one form system; the statement is read again after. Stacked, the two buttons
 * keep the lines' table within the drawer.
 */
function PendingLineActions({
  statementId,
  line,
  focus,
  onDismissed,
  onAttached,
}: {
  statementId: number;
  line: PaymentLine;
  /** Put back to be handled: 'Rattacher' takes the focus as it appears. */
  focus: boolean;
  onDismissed: () => void;
  onAttached: () => void;
}) {
  const translate = useTranslate();
  const [open, setOpen] = useState<'attach' | 'dismiss'>();
  // As the line was when these buttons appeared: not again at a later render.
  const [focused] = useState(focus);
  return (
    <Stack spacing={0.5} alignItems="stretch">
      <Button
        ref={focused ? focusOnShow : undefined}
        size="small"
        variant="outlined"
        startIcon={<LinkIcon />}
        onClick={() => setOpen('attach')}
        aria-label={translate('pecflow.payments.handle.attachLabel', { line: line.line })}
        data-testid="line-attach"
      >
        {translate('pecflow.payments.handle.attach')}
      </Button>
      <Button
        size="small"
        onClick={() => setOpen('dismiss')}
        aria-label={translate('pecflow.payments.handle.dismissLabel', { line: line.line })}
        data-testid="line-dismiss"
      >
        {translate('pecflow.payments.handle.dismiss')}
      </Button>
      {open === 'attach' && <AttachDialog statementId={statementId} line={line} onAttached={onAttached} onClose={() => setOpen(undefined)} />}
      {open === 'dismiss' && <DismissDialog statementId={statementId} line={line} onDismissed={onDismissed} onClose={() => setOpen(undefined)} />}
    </Stack>
  );
}

/**
 * A line taken for a payment its file already counts (the same amount on the same day): 'Compter en plus' counts it as a
 * distinct payment of that file (the other ear paid the same day), with what distinguishes it, in the reason dialog.
 */
function CountLineAction({
  statementId,
  line,
  focus = false,
  onCounted,
}: {
  statementId: number;
  line: PaymentLine;
  /** Just detached: 'Compter en plus' takes the focus as it appears. */
  focus?: boolean;
  onCounted: () => void;
}) {
  const { translate, dataProvider } = usePecMutation();
  const [open, setOpen] = useState(false);
  const [focused] = useState(focus);
  const count = useLineMutation(
    (motif: string) => dataProvider.paymentLineCount({ id: statementId, line: line.line, motif }),
    { title: 'pecflow.payments.handle.counted', text: 'pecflow.payments.handle.countedText', error: 'pecflow.payments.handle.countError' },
    () => {
      onCounted();
      setOpen(false);
    },
  );
  // Its file archived takes no new money (the server's rule, said here before anyone tries): the button stays, inert and
  // described by why (as a payment's « Annuler » that can only be refused), so it still takes the focus after a « Détacher ».
  const refusal = line.dossier ? newMoneyRefusal(line.dossier) : undefined;
  const reasonId = `line-count-refusal-${line.line}`;
  return (
    <Stack spacing={0.25} alignItems="flex-start">
      <Button
        ref={focused ? focusOnShow : undefined}
        size="small"
        startIcon={<AddIcon />}
        onClick={refusal ? undefined : () => setOpen(true)}
        aria-label={translate('pecflow.payments.handle.countLabel', { line: line.line })}
        aria-disabled={refusal ? true : undefined}
        aria-describedby={refusal ? reasonId : undefined}
        data-testid="line-count"
      >
        {translate('pecflow.payments.handle.count')}
      </Button>
      {refusal && (
        // Wrapped under the button: the actions' column is kept on one line, which the whole reason would widen past the drawer.
        <Typography id={reasonId} variant="caption" color="text.secondary" sx={{ whiteSpace: 'normal', maxWidth: 240 }} data-testid="line-count-refusal">
          {refusal}
        </Typography>
      )}
      {open && (
        <ReasonDialog
          id="line-count-title"
          title={translate('pecflow.payments.handle.countTitle', { line: line.line })}
          text={translate('pecflow.payments.handle.countText', {
            amount: formatEuros(line.amount),
            date: formatDate(line.paymentDate),
            numero: line.dossier?.numeroDossier ?? '',
            label: line.outcomeLabel,
          })}
          label={translate('pecflow.payments.panel.distinctReason')}
          submit={translate('pecflow.payments.handle.count')}
          cancel={translate('pecflow.payments.handle.cancel')}
          schema={statementLineCountSchema}
          busy={count.isPending}
          onSave={(motif) => count.mutateAsync(motif)}
          onClose={() => setOpen(false)}
        />
      )}
    </Stack>
  );
}

/**
 * A line attached (or counted) by hand to the wrong file: 'Détacher', with its reason; its payment is cancelled and the
 * line is what it was before (to be handled again, or a payment already counted), its new action then focused. Refused
 * (409: its file changed since, a later statement took its payment…), the dialog says why, focused, and stays.
 */
function DetachLineAction({
  statementId,
  line,
  focus = false,
  onDetached,
}: {
  statementId: number;
  line: PaymentLine;
  /** Just attached or counted: 'Détacher' takes the focus as it appears. */
  focus?: boolean;
  onDetached: () => void;
}) {
  const { translate, dataProvider, errorText } = usePecMutation();
  const refresh = useRefreshPayments();
  const [open, setOpen] = useState(false);
  const [focused] = useState(focus);
  const [refusal, setRefusal] = useState<string>();
  const counted = line.resolution === 'counted';
  const detach = useLineMutation(
    (motif: string) => dataProvider.paymentLineDetach({ id: statementId, line: line.line, motif }),
    {
      title: 'pecflow.payments.handle.detached',
      text: counted ? 'pecflow.payments.handle.detachedCountedText' : 'pecflow.payments.handle.detachedText',
      error: 'pecflow.payments.handle.detachError',
    },
    () => {
      onDetached();
      setOpen(false);
    },
    (error) => {
      if (statusOf(error) !== 409) return false;
      setRefusal(errorText(error));
      refresh();
      return true;
    },
  );
  const numero = line.dossier?.numeroDossier ?? '';
  return (
    <>
      <Button
        ref={focused ? focusOnShow : undefined}
        size="small"
        startIcon={<LinkOffIcon />}
        onClick={() => {
          setRefusal(undefined);
          setOpen(true);
        }}
        aria-label={translate('pecflow.payments.handle.detachLabel', { line: line.line, numero })}
        data-testid="line-detach"
      >
        {translate('pecflow.payments.handle.detach')}
      </Button>
      {open && (
        <ReasonDialog
          id="line-detach-title"
          title={translate('pecflow.payments.handle.detachTitle', { line: line.line, numero })}
          text={translate(counted ? 'pecflow.payments.handle.detachCountedText' : 'pecflow.payments.handle.detachText', {
            amount: formatEuros(line.amount),
            date: formatDate(line.paymentDate),
            numero,
          })}
          label={translate('pecflow.payments.handle.detachReason')}
          submit={translate('pecflow.payments.handle.detach')}
          cancel={translate('pecflow.payments.handle.cancel')}
          schema={statementLineDetachSchema}
          busy={detach.isPending}
          onSave={(motif) => detach.mutateAsync(motif)}
          onClose={() => setOpen(false)}
          refusal={refusal}
        />
      )}
    </>
  );
}

/** A line set aside by mistake: 'Remettre à traiter', once confirmed; it is to be handled again. */
function ReopenLineAction({
  statementId,
  line,
  focus,
  onReopened,
}: {
  statementId: number;
  line: PaymentLine;
  /** Just set aside: 'Remettre à traiter' takes the focus as it appears. */
  focus: boolean;
  onReopened: () => void;
}) {
  const { translate, dataProvider } = usePecMutation();
  const [open, setOpen] = useState(false);
  const [focused] = useState(focus);
  const reopen = useLineMutation(
    () => dataProvider.paymentLineReopen({ id: statementId, line: line.line }),
    { title: 'pecflow.payments.handle.reopened', error: 'pecflow.payments.handle.reopenError' },
    () => {
      onReopened();
      setOpen(false);
    },
  );
  return (
    <>
      <Button
        ref={focused ? focusOnShow : undefined}
        size="small"
        startIcon={<UndoIcon />}
        onClick={() => setOpen(true)}
        aria-label={translate('pecflow.payments.handle.reopenLabel', { line: line.line })}
        data-testid="line-reopen"
      >
        {translate('pecflow.payments.handle.reopen')}
      </Button>
      <ConfirmDialog
        isOpen={open}
        loading={reopen.isPending}
        title={translate('pecflow.payments.handle.reopenTitle', { line: line.line })}
        content={translate('pecflow.payments.handle.reopenText', {
          amount: formatEuros(line.amount),
          date: formatDate(line.paymentDate),
          label: line.outcomeLabel,
        })}
        confirm="pecflow.payments.handle.reopen"
        cancel="pecflow.payments.handle.cancel"
        ConfirmIcon={UndoMark}
        destructive
        onConfirm={() => reopen.mutate(undefined)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** A billed file in the attach dialog's choices: its number, invoice number (what statements name), centre, mutual and what it still owes. */
const billedFileText = (file: PecDossierRecord) =>
  [file.numeroDossier, file.numBilling, file.shop?.name, file.mutual?.name, formatEuros(amountDue(file))].filter(Boolean).join(' · ');

/** A file invoiced after the line's payment cannot take it (the server's rule): offered greyed, saying why. */
const invoicedAfter = (file: PecDossierRecord, line: PaymentLine) => !!paymentBeforeInvoiceError(line.paymentDate, invoiceDay(file));

/** `refused`: an error the dialog says itself (true), not in a toast. */
function useLineMutation<T>(
  send: (values: T) => Promise<unknown>,
  done: { title: string; text?: string; error: string },
  onClose: () => void,
  refused: (error: unknown, values: T) => boolean = () => false,
) {
  const { translate, success, failure } = usePecMutation();
  const refresh = useRefreshPayments();
  return useMutation({
    ...WRITE_RETRY,
    mutationFn: send,
    onSuccess: () => {
      success(translate(done.title), done.text && translate(done.text));
      refresh();
      onClose();
    },
    onError: (error, values) => {
      if (refused(error, values)) return;
      failure(translate(done.error), error);
      // Handled meanwhile (another tab, a colleague): the dialog goes, the statement is read again as it now is.
      if ((error as { status?: number }).status === 409) {
        refresh();
        onClose();
      }
    },
  });
}

type AttachValues = z.input<typeof statementLineAttachSchema>;

function AttachDialog({ statementId, line, onAttached, onClose }: { statementId: number; line: PaymentLine; onAttached: () => void; onClose: () => void }) {
  const { translate, dataProvider, errorText } = usePecMutation();
  // The file chosen holds that payment already, or was to receive far less (409): said in the dialog, focused, with
  // what would distinguish the payment or the confirmation asked for.
  const [refusal, setRefusal] = useState<PaymentRefusal & { dossier: unknown }>();
  // Another file chosen since: the refusal no longer applies.
  const dropRefusal = useCallback(() => setRefusal(undefined), []);
  const attach = useLineMutation(
    (values: AttachValues) => dataProvider.paymentLineAttach({ id: statementId, line: line.line, ...values }),
    { title: 'pecflow.payments.handle.attached', text: 'pecflow.payments.handle.attachedText', error: 'pecflow.payments.handle.attachError' },
    // Attached, or handled meanwhile (409): either way the next line to handle comes next.
    () => {
      onAttached();
      onClose();
    },
    (error, values) => {
      const said = sameDayPaymentsOf(error) !== undefined || isAmountToCheck(error);
      if (said) setRefusal({ ...paymentRefusalOf(error, errorText(error), values), dossier: values.dossier });
      return said;
    },
  );
  // The dialog opens in the field, focused once shown: an autoFocus focuses it while React is still committing, and
  // the Autocomplete's opening on focus then calls react-admin's handler before it exists ("Cannot call an event
  // handler while rendering").
  const field = useRef<HTMLInputElement>(null);
  return (
    <Dialog
      open
      onClose={attach.isPending ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      aria-labelledby="line-attach-title"
      slotProps={{ transition: { onEntered: () => field.current?.focus() } }}
    >
      {/* Empty: the file a line named could not take the payment (not billed, paid, invoiced after it); the user picks a billed one. */}
      <AdminForm
        record={{ dossier: null }}
        schema={statementLineAttachSchema}
        onSave={(values) => {
          setRefusal(undefined);
          return attach.mutateAsync({
            dossier: values.dossier,
            motifDistinct: values.motifDistinct,
            paiementsDuJour: values.paiementsDuJour as number | undefined,
            montantVerifie: values.montantVerifie as boolean | undefined,
          });
        }}
      >
        <DialogTitle id="line-attach-title">{translate('pecflow.payments.handle.attachTitle', { line: line.line })}</DialogTitle>
        {/* While the file refused is chosen: what distinguishes the payment, and the button that says so. */}
        <WhileRefused refusal={refusal} names={ATTACH_FIELDS} refused={([dossier]) => dossier === refusal?.dossier} onStale={dropRefusal}>
          {(refused) => (
            <>
              <DialogContent>
                <DialogContentText sx={{ mb: 2 }}>
                  {translate('pecflow.payments.handle.attachText', {
                    amount: formatEuros(line.amount),
                    date: formatDate(line.paymentDate),
                    reference: line.reference,
                  })}
                </DialogContentText>
                {/* The line names an archived file: why it was not counted there (restore it first), said where the file is chosen. */}
                {line.outcome === 'archived' && (
                  <Alert severity="info" sx={{ mb: 2 }} data-testid="line-attach-archived">
                    {line.outcomeLabel}
                  </Alert>
                )}
                {refused && (
                  <Alert ref={focusOnShow} severity="error" tabIndex={-1} sx={{ mb: 2 }} data-testid="line-attach-refusal">
                    {refused.text}
                  </Alert>
                )}
                {/* Archived files take no new money (takesNewMoney, domain/archive.ts): not offered. */}
                <ReferenceInput
                  source="dossier"
                  reference={PEC_RESOURCE}
                  filter={{ status: 'billed', archived: 'false' }}
                  sort={{ field: 'createdAt', order: 'DESC' }}
                >
                  <AutocompleteInput
                    label={translate('pecflow.payments.handle.file')}
                    optionText={(file: PecDossierRecord) =>
                      invoicedAfter(file, line)
                        ? `${billedFileText(file)} · ${translate('pecflow.payments.handle.invoicedAfter', { date: formatDate(invoiceDay(file)) })}`
                        : billedFileText(file)
                    }
                    getOptionDisabled={(file: PecDossierRecord) => invoicedAfter(file, line)}
                    filterToQuery={(search: string) => ({ search })}
                    noOptionsText={translate('pecflow.payments.handle.noFile')}
                    fullWidth
                    TextFieldProps={{ inputRef: field }}
                  />
                </ReferenceInput>
                <DistinctReasonInput count={refused?.sameDay} help="attachDistinctHelp" />
                <AmountChecked refusal={refused} />
              </DialogContent>
              <DialogActions>
                <Button onClick={onClose} disabled={attach.isPending}>
                  {translate('pecflow.payments.handle.cancel')}
                </Button>
                <SubmitButton
                  label={translate(
                    refused?.amountToCheck
                      ? 'pecflow.payments.handle.attachAnyway'
                      : refused?.sameDay
                        ? 'pecflow.payments.handle.attachDistinct'
                        : 'pecflow.payments.handle.attach',
                  )}
                />
              </DialogActions>
            </>
          )}
        </WhileRefused>
      </AdminForm>
    </Dialog>
  );
}

const ATTACH_FIELDS = ['dossier'];

function DismissDialog({ statementId, line, onDismissed, onClose }: { statementId: number; line: PaymentLine; onDismissed: () => void; onClose: () => void }) {
  const { translate, dataProvider } = usePecMutation();
  const dismiss = useLineMutation(
    (motif: string) => dataProvider.paymentLineDismiss({ id: statementId, line: line.line, motif }),
    { title: 'pecflow.payments.handle.dismissed', error: 'pecflow.payments.handle.dismissError' },
    () => {
      onDismissed();
      onClose();
    },
  );
  return (
    <ReasonDialog
      id="line-dismiss-title"
      title={translate('pecflow.payments.handle.dismissTitle', { line: line.line })}
      text={translate('pecflow.payments.handle.dismissText', { amount: formatEuros(line.amount), date: formatDate(line.paymentDate) })}
      label={translate('pecflow.payments.handle.reason')}
      submit={translate('pecflow.payments.handle.dismiss')}
      cancel={translate('pecflow.payments.handle.cancel')}
      schema={statementLineDismissSchema}
      busy={dismiss.isPending}
      onSave={(motif) => dismiss.mutateAsync(motif)}
      onClose={onClose}
    />
  );
}
