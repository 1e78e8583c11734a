// A payment statement's lines (the import's preview and a kept statement alike) in react-admin's DataTable over the
// lines in memory (useList), each outcome as a coloured chip (its colour chosen by its code) with the line's French
// label, a line already applied linking to the statement that applied it, a preview's line to be checked (far above
// what its file was to receive) marked with why; and the totals.
import WarningIcon from '@mui/icons-material/WarningAmber';
import { alpha, Box, Chip, Link, Paper, Stack, Typography, useMediaQuery, type ChipProps, type Theme } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { DataTable, ListContextProvider, useList, useTranslate } from 'react-admin';
import type { ReactNode } from 'react';
import type { PaymentLine, PaymentTotals } from '#domain/payments';
import { formatDate, formatEuros } from '#domain/format';
import { PAYMENT_OUTCOME_LABELS, PAYMENT_OUTCOMES, type PaymentOutcome } from '#domain/payments';
import { WIDE_ONLY_COLUMN } from '../layout/rowStyles';
import { pecFilePath, statementPath } from './filters';

const OUTCOME_COLORS: Record<PaymentOutcome, ChipProps['color']> = {
  paid: 'success',
  partial: 'warning',
  overpaid: 'info',
  unknown: 'error',
  ambiguous: 'error',
  already_paid: 'default',
  already_applied: 'default',
  not_billed: 'secondary',
  before_invoice: 'secondary',
  archived: 'secondary',
};

/**
 * An outcome as a chip: its label, or a line's own ("Déjà appliquée (relevé n° 12 du …)"), linking to `to` when given;
 * a line no longer in force (set aside, "Classée : …", or of a cancelled statement) is grey, whatever its outcome.
 */
export function OutcomeChip({ outcome, label, to, inactive = false }: { outcome: PaymentOutcome; label?: string; to?: string; inactive?: boolean }) {
  const common = {
    size: 'small',
    color: inactive ? 'default' : (OUTCOME_COLORS[outcome] ?? 'default'),
    label: label ?? PAYMENT_OUTCOME_LABELS[outcome] ?? outcome,
    'data-testid': 'payment-outcome',
    'data-outcome': outcome,
    // A long label ("Classée : <its reason>") wraps inside its chip rather than widening the table, never narrower than
    // its longest word: MUI's label hides what overflows it, and a squeezed column cut each line to its first letters.
    sx: { fontWeight: 600, height: 'auto', minHeight: 24, '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25, minWidth: 'min-content' } },
  } as const;
  return to ? <Chip {...common} component={RouterLink} to={to} clickable /> : <Chip {...common} />;
}

const oneLine = () => ({ whiteSpace: 'nowrap' }) as const;

/**
 * The columns a phone leaves out: the line, its reference, amount and outcome stay side by side, so that the line
 * handled is the one seen (its date, payer, gap and label are on a wider screen; beside actions its file, and the
 * actions themselves, go under its outcome: `stacked`).
 */
const wideOnly = WIDE_ONLY_COLUMN;

/** The file a line reached, opened from its number. */
const FileLink = ({ dossier }: { dossier: NonNullable<PaymentLine['dossier']> }) => (
  <Link component={RouterLink} to={pecFilePath(dossier.id)}>
    {dossier.numeroDossier}
  </Link>
);

/**
 * `handle`: what a kept statement's line offers ('Rattacher' and 'Classer', 'Remettre à traiter', 'Détacher'), in a column of its
 * own (on a phone, under its outcome); `undone`: the statement was cancelled, none of its lines is in force.
 */
export function PaymentLines({ lines, handle, undone = false }: { lines: PaymentLine[]; handle?: (line: PaymentLine) => ReactNode; undone?: boolean }) {
  const translate = useTranslate();
  const label = (key: string) => translate(`pecflow.payments.lines.${key}`);
  const list = useList({ data: lines.map((line) => ({ ...line, id: line.line })), perPage: lines.length || 1, resource: 'payment_statement_lines' });
  // On a phone a kept statement's line says its outcome, then its file and its actions beneath, in one cell: beside
  // them in columns of their own, the table scrolled sideways and its actions, pinned at its edge, hid the outcomes.
  const stacked = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm')) && !!handle;
  return (
    <ListContextProvider value={list}>
      <Box sx={{ overflowX: 'auto' }} data-testid="payment-lines">
        {/* Narrow cell padding: the ten columns of a statement's drawer fit it, its actions in view at 1280 px. A line to
            be checked (its warning, data-warning) is tinted as a whole. */}
        <DataTable
          bulkActionButtons={false}
          rowClick={false}
          size="small"
          sx={(theme) => ({
            '& .MuiTableCell-root': { px: { xs: 0.5, sm: 1 } },
            '& .MuiTableRow-root:has([data-warning])': { backgroundColor: alpha(theme.palette.warning.main, 0.08) },
          })}
        >
          <DataTable.Col source="line" label={label('line')} disableSort />
          <DataTable.Col
            source="paymentDate"
            label={label('paymentDate')}
            {...wideOnly}
            disableSort
            cellSx={oneLine}
            render={(l: PaymentLine) => formatDate(l.paymentDate)}
          />
          <DataTable.Col source="payer" label={label('payer')} disableSort {...wideOnly} />
          {/* A portal's long reference breaks rather than push the actions out of the drawer. */}
          <DataTable.Col
            source="reference"
            label={label('reference')}
            disableSort
            // On a phone it breaks at its hyphens only, never mid-word in its narrow column.
            cellSx={() => ({ overflowWrap: { xs: 'normal', sm: 'anywhere' } })}
            render={(l: PaymentLine) => (
              <>
                {l.reference}
                {/* On a phone, under it: the day, the payer and the label the columns give on a wider screen, by
                    which the office tells what the money is for before « Rattacher » or « Classer ». */}
                <Typography
                  variant="caption"
                  component="span"
                  color="text.secondary"
                  sx={{ display: { xs: 'block', sm: 'none' }, overflowWrap: 'anywhere' }}
                  data-testid="payment-line-details"
                >
                  {[formatDate(l.paymentDate), l.payer, l.label].filter(Boolean).join(' · ')}
                </Typography>
              </>
            )}
          />
          <DataTable.Col
            source="dossier"
            label={label('dossier')}
            // A preview's files are what it is checked for: kept on a phone where no actions need the room (beside
            // actions, under the outcome).
            {...(handle ? wideOnly : {})}
            disableSort
            cellSx={oneLine}
            render={(l: PaymentLine) => (l.dossier ? <FileLink dossier={l.dossier} /> : '—')}
          />
          <DataTable.Col
            source="amount"
            label={label('amount')}
            disableSort
            align="right"
            cellSx={oneLine}
            render={(l: PaymentLine) => formatEuros(l.amount)}
          />
          <DataTable.Col
            source="outcome"
            label={label('outcome')}
            disableSort
            render={(l: PaymentLine) => (
              <>
                <OutcomeChip
                  outcome={l.outcome}
                  label={l.outcomeLabel}
                  to={l.appliedIn ? statementPath(l.appliedIn.id) : undefined}
                  inactive={undone || l.resolution === 'dismissed'}
                />
                {l.warning && (
                  <Typography
                    variant="caption"
                    component="p"
                    sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5, fontWeight: 600 }}
                    data-testid="payment-line-warning"
                    data-warning={l.warning}
                  >
                    <WarningIcon fontSize="inherit" color="warning" aria-hidden />
                    {l.warningText}
                  </Typography>
                )}
                {stacked && <StackedLineEnd dossier={l.dossier} actions={handle?.(l)} />}
              </>
            )}
          />
          <DataTable.Col
            source="difference"
            label={label('difference')}
            {...wideOnly}
            disableSort
            align="right"
            cellSx={oneLine}
            render={(l: PaymentLine) => (l.difference === null ? '' : formatEuros(l.difference))}
          />
          <DataTable.Col source="label" label={label('label')} disableSort {...wideOnly} />
          {handle && !stacked && <DataTable.Col source="pending" label={label('handle')} disableSort cellSx={oneLine} render={handle} />}
        </DataTable>
      </Box>
    </ListContextProvider>
  );
}

/**
 * Under a line's outcome on a phone: the file it reached, by its number alone ('Dossier' before it took the width of the
 * line's reference), then its actions.
 */
function StackedLineEnd({ dossier, actions }: { dossier: PaymentLine['dossier']; actions: ReactNode }) {
  return (
    <>
      {dossier && (
        <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'nowrap' }}>
          <FileLink dossier={dossier} />
        </Typography>
      )}
      {actions && <Box sx={{ mt: 0.5 }}>{actions}</Box>}
    </>
  );
}

const countAndAmount = (figure: { count: number; amount: number }) => `${figure.count} · ${formatEuros(figure.amount)}`;

/**
 * The statement's totals: lines, amount, the part that goes to files (none any more once the statement is `undone`:
 * what it had applied is named as cancelled), the lines to be handled and those set aside, and each outcome's count
 * and amount.
 */
export function PaymentTotalsView({ totals, undone = false }: { totals: PaymentTotals; undone?: boolean }) {
  const translate = useTranslate();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="payment-totals">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ mb: 1.5 }}>
        <Figure label={translate('pecflow.payments.totals.lines')} value={String(totals.lines)} testId="payment-total-lines" />
        <Figure label={translate('pecflow.payments.totals.amount')} value={formatEuros(totals.amount)} testId="payment-total-amount" />
        {undone ? (
          <Figure
            label={translate('pecflow.payments.totals.appliedUndone')}
            value={formatEuros(0)}
            detail={translate('pecflow.payments.totals.appliedBeforeUndo', { amount: formatEuros(totals.applied) })}
            testId="payment-total-applied"
          />
        ) : (
          <Figure label={translate('pecflow.payments.totals.applied')} value={formatEuros(totals.applied)} testId="payment-total-applied" />
        )}
        {totals.pending.count > 0 && (
          <Figure label={translate('pecflow.payments.totals.pending')} value={countAndAmount(totals.pending)} testId="payment-total-pending" />
        )}
        {totals.dismissed.count > 0 && (
          <Figure label={translate('pecflow.payments.totals.dismissed')} value={countAndAmount(totals.dismissed)} testId="payment-total-dismissed" />
        )}
      </Stack>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        {PAYMENT_OUTCOMES.filter((o) => totals.byOutcome[o]?.count).map((o) => (
          <Stack key={o} direction="row" spacing={0.75} alignItems="center" data-testid={`payment-total-${o}`}>
            <OutcomeChip outcome={o} inactive={undone} />
            <Typography variant="body2">
              {totals.byOutcome[o].count} · {formatEuros(totals.byOutcome[o].amount)}
            </Typography>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

function Figure({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" fontWeight={700} data-testid={testId}>
        {value}
      </Typography>
      {detail && (
        <Typography variant="caption" color="text.secondary" data-testid={`${testId}-detail`}>
          {detail}
        </Typography>
      )}
    </Box>
  );
}
