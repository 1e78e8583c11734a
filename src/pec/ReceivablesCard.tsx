// The dashboard's receivables (issues 15 and 25): what the insurers still owe on billed files, by days since billing
// (under 30, 30–60, 60–90, over 90), and the payment discrepancies (partial, over-paid). Each figure opens the PEC list
// filtered the way the stats count it (src/pec/filters.ts), so the list shows as many files as the figure says; the
// payments received and placed nowhere yet open the statements that hold them ('À traiter').
// 'Exporter les créances' downloads them for the accountant, one line per file (export.pec).
import AccountBalanceIcon from '@mui/icons-material/AccountBalanceWallet';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, Divider, Link, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import type { PecStats } from '../dataProvider/pec';
import { formatEuros } from '#domain/format';
import { PAYMENT_FILTER_LABELS, PENDING_STATEMENT_FILTER, RECEIVABLE_AGES } from '#domain/payments';
import { dashboardFilters, DRILL_DOWN_COLUMNS, pecListLink, statementsListLink } from './filters';
import { usePecMutation, usePecRights } from './shared';

type Figures = { count: number; amount: number };

function Row({
  label,
  figures,
  to,
  testId,
  unit = 'files',
}: {
  label: string;
  figures: Figures | undefined;
  to: string;
  testId: string;
  /** What the count counts: files, or a statement's lines. */
  unit?: 'files' | 'lines';
}) {
  const translate = useTranslate();
  return (
    <Link component={RouterLink} to={to} underline="hover" color="inherit" data-testid={testId} data-count={figures?.count}>
      <Stack direction="row" justifyContent="space-between" spacing={2} sx={{ py: 0.5 }}>
        <Typography variant="body2">{label}</Typography>
        <Typography variant="body2" fontWeight={600} sx={{ whiteSpace: 'nowrap' }}>
          {figures ? `${translate(`pecflow.dashboard.receivables.${unit}`, { smart_count: figures.count })} · ${formatEuros(figures.amount)}` : '…'}
        </Typography>
      </Stack>
    </Link>
  );
}

export function ReceivablesCard({ stats }: { stats: PecStats | undefined }) {
  const { translate, dataProvider, success, failure } = usePecMutation();
  const filters = dashboardFilters();
  const r = stats?.receivables;
  const rights = usePecRights();
  const exportCsv = useMutation({
    mutationFn: () => dataProvider.receivablesExport(),
    onSuccess: (filename) => success(translate('pecflow.pec.export.done'), translate('pecflow.pec.export.doneText', { filename })),
    onError: (error) => failure(translate('pecflow.pec.export.error'), error),
  });
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="dashboard-receivables">
      <Stack direction="row" spacing={1} alignItems="center">
        <AccountBalanceIcon color="primary" />
        <Typography variant="subtitle1" component="h2" fontWeight={700} sx={{ flexGrow: 1 }}>
          {translate('pecflow.dashboard.receivables.title')}
        </Typography>
        {rights.export && (
          <Button
            size="small"
            variant="outlined"
            startIcon={<DownloadIcon />}
            // Inert while the file is written, not disabled: the focus stays on it (disabled, it fell to the page).
            onClick={exportCsv.isPending ? undefined : () => exportCsv.mutate()}
            aria-disabled={exportCsv.isPending || undefined}
            data-testid="dashboard-receivables-export"
          >
            {translate('pecflow.dashboard.receivables.export')}
          </Button>
        )}
      </Stack>
      <Link
        component={RouterLink}
        to={pecListLink(filters.receivables, undefined, DRILL_DOWN_COLUMNS.receivables)}
        underline="hover"
        color="inherit"
        data-testid="dashboard-receivables-total"
        data-count={r?.count}
      >
        <Typography variant="h4" component="p" fontWeight={700} sx={{ mt: 1 }} data-testid="figure">
          {r ? formatEuros(r.amount) : <Skeleton width={120} />}
        </Typography>
      </Link>
      <Typography variant="body2" color="text.secondary">
        {translate('pecflow.dashboard.receivables.caption', { smart_count: r?.count ?? 0 })}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' }, columnGap: 4, mt: 1.5 }}>
        <Box>
          <Typography variant="body2" color="text.secondary" fontWeight={700}>
            {translate('pecflow.dashboard.receivables.byAge')}
          </Typography>
          <Divider sx={{ my: 0.5 }} />
          {RECEIVABLE_AGES.map((age) => (
            <Row
              key={age.key}
              label={age.label}
              figures={r?.byAge.find((a) => a.key === age.key)}
              to={pecListLink(filters.receivableAge(age.key), { field: 'createdAt', order: 'DESC' }, DRILL_DOWN_COLUMNS.receivables)}
              testId={`dashboard-receivables-${age.key}`}
            />
          ))}
        </Box>
        <Box>
          <Typography variant="body2" color="text.secondary" fontWeight={700}>
            {translate('pecflow.dashboard.receivables.discrepancies')}
          </Typography>
          <Divider sx={{ my: 0.5 }} />
          <Row
            label={PAYMENT_FILTER_LABELS.partial}
            figures={r?.partial}
            to={pecListLink(filters.payment('partial'), undefined, DRILL_DOWN_COLUMNS.receivables)}
            testId="dashboard-receivables-partial"
          />
          <Row
            label={PAYMENT_FILTER_LABELS.overpaid}
            figures={r?.overpaid}
            to={pecListLink(filters.payment('overpaid'), undefined, DRILL_DOWN_COLUMNS.receivables)}
            testId="dashboard-receivables-overpaid"
          />
          {stats?.unplacedPayments && (
            <Row
              label={translate('pecflow.dashboard.receivables.unplaced')}
              figures={stats.unplacedPayments}
              to={statementsListLink({ [PENDING_STATEMENT_FILTER]: 'true' })}
              testId="dashboard-receivables-unplaced"
              unit="lines"
            />
          )}
        </Box>
      </Box>
    </Paper>
  );
}
