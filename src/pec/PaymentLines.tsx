// A payment statement's lines (the import's preview and a kept statement alike) in react-admin's DataTable over the
// lines in memory (useList), each outcome as a coloured chip (its colour chosen by its code) with the line's French
// label, a line already applied linking to the statement that applied it, a preview's line to be checked (far above
// what its file was to receive) marked with why; and the totals.
import WarningIcon from '@mui/icons-material/WarningAmber';
import { alpha, Box, Chip, keyframes, Link, Paper, Stack, Typography, type ChipProps } from '@mui/material';
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
 * The columns a phone leaves out: the line, its reference, amount, outcome and actions stay side by side, so that the
 * line handled is the one seen (its date, payer, gap and label, and beside actions its file, are on a wider screen).
 */
const wideOnly = WIDE_ONLY_COLUMN;
/** The actions' column (header and cells). */
const ACTIONS = 'payment-lines-actions';

/**
 * The pinned actions' shadow over the columns scrolled beneath them, gone once the table is scrolled to its end (where
 * nothing is beneath): a scroll-driven animation over the table's own scroll, held on its first frame until the end.
 * Where the table does not scroll (or the browser has no such animations) the divider alone stays.
 */
const pinnedShadow = (divider: string, shadow: string) =>
  keyframes({ from: { boxShadow: `inset 1px 0 0 ${divider}, -6px 0 6px -4px ${shadow}` }, to: { boxShadow: `inset 1px 0 0 ${divider}` } });

/**
 * `handle`: what a kept statement's line offers ('Rattacher' and 'Classer', 'Remettre à traiter', 'Détacher'), in a column of its
 * own; `undone`: the statement was cancelled, none of its lines is in force.
 */
export function PaymentLines({ lines, handle, undone = false }: { lines: PaymentLine[]; handle?: (line: PaymentLine) => ReactNode; undone?: boolean }) {
  const translate = useTranslate();
  const label = (key: string) => translate(`pecflow.payments.lines.${key}`);
  const list = useList({ data: lines.map((line) => ({ ...line, id: line.line })), perPage: lines.length || 1, resource: 'payment_statement_lines' });
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
            // On a phone the actions stay at the right edge, over the columns scrolled beneath them (a shadow says so
            // while any are), on the drawer's own surface (its dark mode's overlay too), their header included.
            // Only the header and the cells that hold actions: an empty one would hide the outcome scrolled beneath it.
            // Beside actions the outcome keeps a readable width: scrolled into view, its chip is read whole beside them.
            [theme.breakpoints.down('sm')]: {
              ...(handle && { '& .column-outcome': { minWidth: '8rem' } }),
              [`& .${ACTIONS}.MuiTableCell-head, & .${ACTIONS}:not(:empty)`]: {
                position: 'sticky',
                right: 0,
                zIndex: 1,
                // Its header over the others, which react-admin keeps at the top of the table (sticky, z-index 2).
                '&.MuiTableCell-head': { zIndex: 3 },
                backgroundColor: theme.palette.background.paper,
                backgroundImage: 'var(--Paper-overlay)',
                boxShadow: `inset 1px 0 0 ${theme.palette.divider}`,
                animation: `${pinnedShadow(theme.palette.divider, alpha(theme.palette.common.black, 0.6))} step-end both`,
                animationTimeline: 'scroll(nearest inline)',
              },
            },
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
            // On a phone the table scrolls beneath the actions: the reference stays whole.
            cellSx={() => ({ overflowWrap: { xs: 'normal', sm: 'anywhere' } })}
          />
          <DataTable.Col
            source="dossier"
            label={label('dossier')}
            // A preview's files are what it is checked for: kept on a phone where no actions need the room.
            {...(handle ? wideOnly : {})}
            disableSort
            cellSx={oneLine}
            render={(l: PaymentLine) =>
              l.dossier ? (
                <Link component={RouterLink} to={pecFilePath(l.dossier.id)}>
                  {l.dossier.numeroDossier}
                </Link>
              ) : (
                '—'
              )
            }
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
          {handle && (
            <DataTable.Col
              source="pending"
              label={label('handle')}
              disableSort
              headerClassName={ACTIONS}
              cellClassName={ACTIONS}
              cellSx={oneLine}
              render={handle}
            />
          )}
        </DataTable>
      </Box>
    </ListContextProvider>
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
