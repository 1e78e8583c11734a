// /dashboard, the page after login: what needs attention. Counts per status, files whose agreement expires within
// 15 days and are not billed, recent robot failures, amounts approved and billed this month; each opens the PEC list
// filtered the same way the figure is counted (GET /api/pec_dossiers/stats), so the numbers match the list.
import ErrorIcon from '@mui/icons-material/ErrorOutline';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Divider,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Paper,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useGetList, useTranslate } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { PEC_RESOURCE, PEC_STATS_QUERY_KEY, pecNumericId, type PecDossierRecord, type PecStats } from '../dataProvider/pec';
import { FOLLOW_UP_FILTER, followUpReason } from '#domain/followUps';
import { formatDate, formatEuros, formatMonth } from '#domain/format';
import { EXPIRY_WARNING_DAYS, PEC_LIST_REFETCH_MS, ROBOT_FAILURE_WINDOW_DAYS } from '#domain/limits';
import { dashboardFilters, DRILL_DOWN_COLUMNS, pecFilePath, pecListLink } from './filters';
import { PEC_STATUSES, pecStatusLabel, todayInFrance } from '#domain/pec';
import { FILE_KIND_LABELS, FILE_KINDS } from '#domain/fileKinds';
import { ReceivablesCard } from './ReceivablesCard';
import { useKeptFrame } from '../keptFrame';
import { PecStatusBadge, robotFailureText, useDossierText, useErrorText, usePecData } from './shared';

// ---------- the page ----------

/** n equal grid columns that may shrink below their content (a long line is cut, the page never widens). */
const columns = (n: number) => `repeat(${n}, minmax(0, 1fr))`;

export default function DashboardPage() {
  const dataProvider = usePecData();
  // Under the pec_dossiers key: whatever refreshes the list refreshes these figures.
  const stats = useQuery({
    queryKey: PEC_STATS_QUERY_KEY,
    queryFn: () => dataProvider.pecStats(),
    staleTime: PEC_LIST_REFETCH_MS,
    refetchInterval: PEC_LIST_REFETCH_MS,
  });
  const filters = dashboardFilters();
  const expiring = useCardFiles(filters.expiring, EXPIRING_SORT);
  const failures = useCardFiles(FAILURES_FILTER, FAILURES_SORT);
  const followUps = useCardFiles(FOLLOW_UPS_FILTER, FOLLOW_UPS_SORT);
  // The frame drawn, its figures on their way: kept for the next visit's first paint (src/keptFrame.ts).
  useKeptFrame(!stats.data && !stats.error);
  // An answer reaches React as a synchronous update (react-query's store): drawn from here, the page was built again in
  // the task that received it (≈60 ms of a phone's CPU for the figures, a long task). Deferred, that task only takes
  // note of the answers, and the page is drawn with them in a background render, in slices the browser answers between.
  // The answers are deferred together: the cards never show files of one moment beside figures of another.
  const content = {
    stats: useDeferredValue(stats.data),
    error: useDeferredValue(stats.error),
    expiring: useDeferredValue(expiring.data),
    failures: useDeferredValue(failures.data),
    followUps: useDeferredValue(followUps.data),
    cardsRead: useDeferredValue(!expiring.isPending && !failures.isPending && !followUps.isPending),
  };
  return <DashboardContent {...content} retry={stats.refetch} />;
}

type CardFiles = (PecDossierRecord & { id: string })[] | undefined;

/** The page drawn from the answers of DashboardPage, again only when one of them has changed. */
const DashboardContent = memo(function DashboardContent({
  stats: data,
  error,
  expiring,
  failures,
  followUps,
  cardsRead,
  retry,
}: {
  stats: PecStats | undefined;
  error: Error | null;
  expiring: CardFiles;
  failures: CardFiles;
  followUps: CardFiles;
  cardsRead: boolean;
  retry: () => void;
}) {
  const translate = useTranslate();
  const errorText = useErrorText();
  const filters = dashboardFilters();
  const month = data ? formatMonth(data.month) : '';

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }} data-testid="dashboard">
      <PageTitle title={translate('pecflow.dashboard.title')} />
      <Typography variant="h5" component="h1" fontWeight={700}>
        {translate('pecflow.dashboard.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {translate('pecflow.dashboard.subtitle')}
      </Typography>

      {error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={retry}>
              {translate('pecflow.pec.error.retry')}
            </Button>
          }
        >
          {errorText(error)}
        </Alert>
      ) : (
        <Stack spacing={3}>
          <Box component="section" aria-labelledby="dashboard-status">
            <Typography id="dashboard-status" variant="subtitle1" component="h2" fontWeight={700} sx={{ mb: 1.5 }}>
              {translate('pecflow.dashboard.byStatus')}
            </Typography>
            {/* Eight figures on one row only on a wide screen: narrower, 'En attente' would be cut ('En atte…'). */}
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: columns(2), sm: columns(4), xl: columns(8) }, gap: 1.5 }}>
              <FigureCard to={pecListLink({})} label={translate('pecflow.dashboard.all')} value={data?.total} testId="dashboard-total" />
              {PEC_STATUSES.map((status) => (
                <FigureCard
                  key={status}
                  to={pecListLink(filters.status(status))}
                  label={<PecStatusBadge status={status} />}
                  value={data?.byStatus[status]}
                  testId={`dashboard-status-${status}`}
                />
              ))}
            </Box>
          </Box>

          {/* What needs attention first, its words at once; its cards grow as the files they list are read: so that
              nothing seen moves under them (a layout shift of 0.11, Lighthouse's desktop score 97 on this page), they
              share one row on a laptop, and what follows them is shown once those files are read. */}
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: columns(1), md: columns(2), lg: columns(3) }, gap: 2 }}>
            <ExpiringCard stats={data} filter={filters.expiring} files={expiring} />
            <FailuresCard stats={data} files={failures} />
            <FollowUpsCard stats={data} files={followUps} />
          </Box>

          <ShownOnceCardsRead ready={!!data && cardsRead}>
            <KindFigures stats={data} />

            <ReceivablesCard stats={data} />

            <Box component="section" aria-labelledby="dashboard-month">
              <Typography id="dashboard-month" variant="subtitle1" component="h2" fontWeight={700} sx={{ mb: 1.5 }}>
                {translate('pecflow.dashboard.month', { month })}
              </Typography>
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: columns(1), md: columns(2) }, gap: 2 }}>
                <MonthCard
                  kind="approved"
                  figures={data?.approvedThisMonth}
                  to={pecListLink(filters.approvedThisMonth, { field: 'dateValidation', order: 'DESC' })}
                />
                <MonthCard kind="billed" figures={data?.billedThisMonth} to={pecListLink(filters.billedThisMonth)} />
              </Box>
            </Box>
          </ShownOnceCardsRead>
        </Stack>
      )}
    </Box>
  );
});

/**
 * What follows the cards, drawn at once and shown once the figures and the cards' files are read: moved while hidden,
 * it counts as no shift.
 */
function ShownOnceCardsRead({ ready, children }: { ready: boolean; children: ReactNode }) {
  return (
    <Stack spacing={3} sx={{ visibility: ready ? 'visible' : 'hidden' }} aria-busy={!ready} data-testid="dashboard-more">
      {children}
    </Stack>
  );
}

/**
 * Files per kind (hearing aids, optical, generic), each opening the list filtered by `fileKind`; shown only when the
 * user's files are of more than one kind.
 */
function KindFigures({ stats }: { stats: PecStats | undefined }) {
  const translate = useTranslate();
  const kinds = FILE_KINDS.filter((kind) => (stats?.byKind?.[kind] ?? 0) > 0);
  if (kinds.length < 2) return null;
  return (
    <Box component="section" aria-labelledby="dashboard-kind">
      <Typography id="dashboard-kind" variant="subtitle1" component="h2" fontWeight={700} sx={{ mb: 1.5 }}>
        {translate('pecflow.dashboard.byKind')}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: columns(2), sm: columns(4) }, gap: 1.5 }}>
        {kinds.map((kind) => (
          <FigureCard
            key={kind}
            to={pecListLink({ fileKind: kind })}
            label={<Typography variant="body2">{FILE_KIND_LABELS[kind]}</Typography>}
            value={stats?.byKind[kind]}
            testId={`dashboard-kind-${kind}`}
          />
        ))}
      </Box>
    </Box>
  );
}

function FigureCard({ to, label, value, testId }: { to: string; label: ReactNode; value: number | undefined; testId: string }) {
  return (
    <Card variant="outlined">
      <CardActionArea component={RouterLink} to={to} data-testid={testId} sx={{ height: '100%' }}>
        <CardContent>
          {/* A status chip too long for its card goes on two lines rather than being cut. */}
          <Box sx={{ minHeight: 26, '& .MuiChip-root': { height: 'auto', minHeight: 24 }, '& .MuiChip-label': { whiteSpace: 'normal' } }}>{label}</Box>
          <Typography variant="h4" component="p" fontWeight={700} sx={{ mt: 1 }} data-testid="figure">
            {value === undefined ? <Skeleton width={48} /> : value}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

function Panel({
  icon,
  title,
  figure,
  caption,
  children,
  action,
}: {
  icon: ReactNode;
  title: string;
  figure: ReactNode;
  caption: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column' }}>
      <Stack direction="row" spacing={1} alignItems="center">
        {icon}
        <Typography variant="subtitle1" component="h2" fontWeight={700}>
          {title}
        </Typography>
      </Stack>
      <Typography variant="h4" component="p" fontWeight={700} sx={{ mt: 1 }} data-testid="figure">
        {figure}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {caption}
      </Typography>
      {children}
      {action && <Box sx={{ mt: 'auto', pt: 1 }}>{action}</Box>}
    </Paper>
  );
}

/** The files the "À relancer" card lists: the first of the list filtered the same way, the earliest follow-up first. */
const FOLLOW_UPS_FILTER = { [FOLLOW_UP_FILTER]: 'true' };
const FOLLOW_UPS_SORT = { field: 'followUpDate', order: 'ASC' as const };

/**
 * "À relancer" (domain/followUps.ts): its count opens the list filtered the same way (aRelancer=true); the first files
 * of that list (the earliest follow-up dates first, then the files waiting without one), each with why it is due.
 */
function FollowUpsCard({ stats, files = [] }: { stats: PecStats | undefined; files: CardFiles }) {
  const translate = useTranslate();
  const text = useDossierText();
  const now = new Date();
  const today = todayInFrance(now);
  return (
    <Box data-testid="dashboard-follow-ups">
      <Panel
        icon={<NotificationsActiveIcon color="warning" />}
        title={translate('pecflow.dashboard.followUps.title')}
        figure={stats ? stats.followUpsDue : <Skeleton width={48} />}
        caption={translate('pecflow.dashboard.followUps.caption')}
        action={
          <Button component={RouterLink} to={pecListLink(FOLLOW_UPS_FILTER)} size="small" data-testid="dashboard-follow-ups-link">
            {translate('pecflow.dashboard.seeList')}
          </Button>
        }
      >
        {files.length > 0 && (
          <List dense disablePadding sx={{ mt: 1 }}>
            {files.map((file) => (
              <ListItem key={file.id} disablePadding divider data-testid="dashboard-follow-up">
                <ListItemButton component={RouterLink} to={pecFilePath(pecNumericId(file)!)}>
                  <ListItemText
                    primary={`${file.numeroDossier} · ${patientOf(file, translate)} · ${text.shop(file)}`}
                    secondary={followUpReason(
                      { status: file.status, statusChangedAt: file.statusChangedAt ?? null, followUpDate: file.followUpDate ?? null },
                      today,
                    )}
                    slotProps={{ primary: { noWrap: true } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Panel>
    </Box>
  );
}

/** The patient as the office names them: the insured's name, else their number in the office software. */
function patientOf(file: PecDossierRecord, translate: (key: string, options?: object) => string) {
  const name = [file.prenomAssure, file.nomAssure].filter(Boolean).join(' ');
  return name || translate('pecflow.dashboard.followUps.patientNumber', { numero: file.numeroDossierAssure ?? '' });
}

/** The first files a card lists, of the list behind its link (the same filter and order). */
const CARD_FILES = 5;
const useCardFiles = (filter: Record<string, unknown>, sort: { field: string; order: 'ASC' | 'DESC' }) =>
  useGetList<PecDossierRecord & { id: string }>(PEC_RESOURCE, { filter, sort, pagination: { page: 1, perPage: CARD_FILES } });

/** The files the "À facturer avant péremption" card lists: the soonest to expire first. */
const EXPIRING_SORT = { field: 'datePeremption', order: 'ASC' as const };

function ExpiringCard({ stats, filter, files = [] }: { stats: PecStats | undefined; filter: Record<string, unknown>; files: CardFiles }) {
  const translate = useTranslate();
  const text = useDossierText();
  return (
    <Box data-testid="dashboard-expiring">
      <Panel
        icon={<EventBusyIcon color="warning" />}
        title={translate('pecflow.dashboard.expiring.title')}
        figure={stats ? stats.expiringSoon : <Skeleton width={48} />}
        caption={translate('pecflow.dashboard.expiring.caption', { days: stats?.expiringWithinDays ?? EXPIRY_WARNING_DAYS })}
        action={
          <Button
            component={RouterLink}
            to={pecListLink(filter, EXPIRING_SORT, DRILL_DOWN_COLUMNS.expiring)}
            size="small"
            data-testid="dashboard-expiring-link"
          >
            {translate('pecflow.dashboard.seeList')}
          </Button>
        }
      >
        {files.length > 0 && (
          <List dense disablePadding sx={{ mt: 1 }}>
            {files.map((file) => (
              <ListItem key={file.id} disablePadding divider>
                <ListItemButton component={RouterLink} to={pecFilePath(pecNumericId(file)!)}>
                  <ListItemText
                    primary={file.numeroDossier}
                    secondary={`${text.shop(file)} · ${translate('pecflow.dashboard.expiring.until', { date: formatDate(file.datePeremption) })}`}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Panel>
    </Box>
  );
}

/** The files the "Échecs du robot" card lists: the list's, filtered the same way, the latest first. */
const FAILURES_FILTER = { robotFailedWithinDays: ROBOT_FAILURE_WINDOW_DAYS };
const FAILURES_SORT = { field: 'updatedAt', order: 'DESC' as const };

/**
 * Files the robot failed on within the last 7 days: counted by the stats, listed (the 5 latest) by the same
 * `robotFailedWithinDays` filter as the list behind the link, each with its latest failure in words (or its status
 * when a later run went through).
 */
function FailuresCard({ stats, files = [] }: { stats: PecStats | undefined; files: CardFiles }) {
  const translate = useTranslate();
  const text = useDossierText();
  const count = stats?.robotFailures7d ?? 0;
  return (
    <Box data-testid="dashboard-failures">
      <Panel
        icon={<ErrorIcon color="error" />}
        title={translate('pecflow.dashboard.failures.title')}
        figure={stats ? count : <Skeleton width={48} />}
        caption={translate('pecflow.dashboard.failures.caption', { days: ROBOT_FAILURE_WINDOW_DAYS })}
        action={
          count > 0 && (
            <Button component={RouterLink} to={pecListLink(FAILURES_FILTER, FAILURES_SORT)} size="small" data-testid="dashboard-failures-link">
              {translate('pecflow.dashboard.failures.seeFiles', { smart_count: count })}
            </Button>
          )
        }
      >
        {files.length > 0 && (
          <List dense disablePadding sx={{ mt: 1 }}>
            {files.map((file) => {
              const id = pecNumericId(file)!;
              return (
                <ListItem key={file.id} disablePadding divider>
                  <ListItemButton component={RouterLink} to={pecFilePath(id)}>
                    <ListItemText
                      primary={`${file.numeroDossier} · ${text.shop(file)}`}
                      secondary={robotFailureText(file) ?? pecStatusLabel(file.status)}
                      slotProps={{ secondary: { noWrap: true } }}
                    />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        )}
      </Panel>
    </Box>
  );
}

function MonthCard({ kind, figures, to }: { kind: 'approved' | 'billed'; figures: PecStats['approvedThisMonth'] | undefined; to: string }) {
  const translate = useTranslate();
  return (
    <Card variant="outlined">
      <CardActionArea component={RouterLink} to={to} data-testid={`dashboard-${kind}-month`} sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="body2" color="text.secondary">
            {translate(`pecflow.dashboard.${kind}.title`)}
          </Typography>
          <Typography variant="h4" component="p" fontWeight={700} sx={{ my: 1 }} data-testid="figure">
            {figures ? figures.count : <Skeleton width={48} />}
          </Typography>
          <Divider sx={{ mb: 1 }} />
          {(['totalTtc', 'partComplementaire'] as const).map((amount) => (
            <Stack key={amount} direction="row" justifyContent="space-between">
              <Typography variant="body2" color="text.secondary">
                {translate(`pecflow.dashboard.amounts.${amount}`)}
              </Typography>
              <Typography variant="body2" fontWeight={600}>
                {figures ? formatEuros(figures[amount]) : '…'}
              </Typography>
            </Stack>
          ))}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
