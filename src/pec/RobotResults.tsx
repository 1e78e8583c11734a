// What the robot found and obtained, laid out for reading (spec sections 3 and 4): the two steps with their state,
// the devices per ear or the optical equipment (by the file's kind), the agreement (PEC number, expiry date), the amounts, the billing, and the execution history.
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { Alert, AlertTitle, Box, Chip, CircularProgress, Divider, Paper, Stack, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import type { PecAppareil, PecDossierRecord } from '../dataProvider/pec';
import { formatDate, formatDateTime, formatEuros } from '#domain/format';
import { endsWithinExpiryWarning, type StepState, type WorkflowExecutionView } from '#domain/pec';
import { OpticalEquipmentView } from './OpticalEquipmentView';

/** An execution as the API sends it (the view of domain/ plus the run it belongs to and its duration). */
export type Execution = WorkflowExecutionView & { runId?: number | null; runKind?: string | null };

const glow = (on: boolean) => ({
  transition: 'box-shadow 400ms ease, border-color 400ms ease',
  ...(on
    ? {
        borderColor: 'primary.main',
        boxShadow: (theme: { palette: { primary: { main: string } } }) => `0 0 0 2px ${theme.palette.primary.main}55, 0 0 18px ${theme.palette.primary.main}66`,
      }
    : {}),
});

export function Section({ title, children, highlighted = false, testId }: { title: string; children: ReactNode; highlighted?: boolean; testId?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, ...glow(highlighted) }} data-testid={testId} data-highlighted={highlighted ? 'true' : undefined}>
      <Typography variant="subtitle1" component="h3" fontWeight={700} sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Label and value pairs, two columns on wide screens. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2, rowGap: 0.75 }}>
      {items.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 500 }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function StateChip({ state }: { state: StepState | undefined }) {
  const translate = useTranslate();
  const label = translate(`pecflow.pec.steps.state.${state ?? 'none'}`);
  if (state === 'running') return <Chip size="small" color="info" icon={<CircularProgress size={14} color="inherit" />} label={label} data-state="running" />;
  if (state === 'success') return <Chip size="small" color="success" icon={<CheckCircleIcon />} label={label} data-state="success" />;
  if (state === 'error') return <Chip size="small" color="error" icon={<ErrorIcon />} label={label} data-state="error" />;
  return <Chip size="small" variant="outlined" icon={<HourglassEmptyIcon />} label={label} data-state="none" />;
}

/** The shaped failure of an execution (spec section 8): its title, message and tip. */
export function RobotError({ execution }: { execution: Execution }) {
  if (!execution.error) return null;
  return (
    <Alert severity={execution.outcome === 'refused' ? 'warning' : 'error'} sx={{ mt: 1 }} data-testid="robot-error">
      <AlertTitle>{execution.error.title}</AlertTitle>
      {execution.error.message}
      {execution.error.tip && (
        <Typography variant="body2" sx={{ mt: 0.5, opacity: 0.9 }}>
          {execution.error.tip}
        </Typography>
      )}
    </Alert>
  );
}

const messagesOf = (execution: Execution) => execution.robotResponse?.messages ?? execution.robotResponse?.data?.callback_payload?.messages ?? [];

export function StepCard({
  title,
  state,
  execution,
  testId,
}: {
  title: string;
  state: StepState | undefined;
  execution: Execution | undefined;
  testId: string;
}) {
  const translate = useTranslate();
  return (
    <Paper variant="outlined" sx={{ p: 1.5, height: '100%' }} data-testid={testId} data-state={state ?? 'none'}>
      <Stack direction="row" justifyContent="space-between" alignItems="flex-start" spacing={1} sx={{ mb: 1 }}>
        <Typography variant="body2" fontWeight={700}>
          {title}
        </Typography>
        <StateChip state={state} />
      </Stack>
      {!execution ? (
        <Typography variant="body2" color="text.secondary">
          {translate('pecflow.pec.steps.notStarted')}
        </Typography>
      ) : (
        <>
          <Typography variant="caption" color="text.secondary" component="div">
            {execution.completedAt
              ? translate('pecflow.pec.steps.completedAt', { date: formatDateTime(execution.completedAt) })
              : translate('pecflow.pec.steps.startedAt', { date: formatDateTime(execution.startedAt) })}
          </Typography>
          {state === 'error' && execution.error ? (
            <RobotError execution={execution} />
          ) : (
            messagesOf(execution).length > 0 && (
              <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
                {messagesOf(execution).map((message, i) => (
                  <Typography component="li" variant="body2" key={i}>
                    {message}
                  </Typography>
                ))}
              </Box>
            )
          )}
        </>
      )}
    </Paper>
  );
}

// ---------- the results ----------

function Device({ ear, device }: { ear: 'droite' | 'gauche'; device: PecAppareil | undefined }) {
  const translate = useTranslate();
  const yesNo = (value: string | null | undefined) => translate(value === 'oui' ? 'pecflow.pec.results.yes' : 'pecflow.pec.results.no');
  return (
    <Paper variant="outlined" sx={{ p: 1.5, flex: 1, minWidth: 0 }} data-testid={`device-${ear}`}>
      <Typography variant="overline" color="text.secondary" component="div">
        {translate(`pecflow.pec.results.ear.${ear}`)}
      </Typography>
      {!device ? (
        <Typography variant="body2" color="text.secondary">
          {translate('pecflow.pec.results.noDevice')}
        </Typography>
      ) : (
        <>
          <Typography variant="body1" fontWeight={700}>
            {[device.marque, device.modele].filter(Boolean).join(' ') || translate('pecflow.pec.fallback.value')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {device.fabricant}
          </Typography>
          <Facts
            items={[
              [translate('pecflow.pec.results.price'), formatEuros(device.prixTtc)],
              [translate('pecflow.pec.results.lpp'), device.codeLpp || translate('pecflow.pec.fallback.value')],
              [translate('pecflow.pec.results.form'), device.forme || translate('pecflow.pec.fallback.value')],
              [
                translate('pecflow.pec.results.class'),
                device.classe ? translate('pecflow.pec.results.classValue', { classe: device.classe }) : translate('pecflow.pec.fallback.value'),
              ],
              [translate('pecflow.pec.results.offer100'), yesNo(device.offre100Sante)],
              [translate('pecflow.pec.results.firstFitting'), yesNo(device.premierAppareillage)],
            ]}
          />
        </>
      )}
    </Paper>
  );
}

/** Days from today (local) to an ISO date; negative when past. */
function daysUntil(isoDate: string): number {
  const [y, m, d] = isoDate.slice(0, 10).split('-').map(Number) as [number, number, number];
  const today = new Date();
  return Math.round((Date.UTC(y, m - 1, d) - Date.UTC(today.getFullYear(), today.getMonth(), today.getDate())) / 86_400_000);
}

function Expiry({ record }: { record: PecDossierRecord }) {
  const translate = useTranslate();
  if (!record.datePeremption) return <>{formatDate(record.datePeremption)}</>;
  const days = daysUntil(record.datePeremption);
  const billed = record.statutFacturation;
  return (
    <Stack direction="row" spacing={1} alignItems="center" component="span">
      <span>{formatDate(record.datePeremption)}</span>
      {!billed && days < 0 && <Chip size="small" color="error" label={translate('pecflow.pec.results.expired')} />}
      {!billed && endsWithinExpiryWarning(days) && (
        <Chip size="small" color="warning" label={translate('pecflow.pec.results.expiresIn', { smart_count: days })} data-testid="expiry-warning" />
      )}
    </Stack>
  );
}

export function RobotResults({ record, highlighted }: { record: PecDossierRecord; highlighted: boolean }) {
  const translate = useTranslate();
  const devices = record.appareils ?? [];
  const kind = record.fileKind ?? 'audio';
  const amounts: [string, number | null][] = [
    ['totalTtc', record.totalTtc],
    ['prixFraisReels', record.prixFraisReels],
    ['baseSs', record.baseSs],
    ['partSs', record.partSs],
    ['partComplementaire', record.partComplementaire],
    ['resteCharge', record.resteCharge],
  ];
  const agreement = !!(record.numPec || record.numDossierDpec || record.datePeremption || record.detailRefus);

  return (
    <Section title={translate('pecflow.pec.results.title')} highlighted={highlighted} testId="robot-results">
      <Stack spacing={2}>
        {/* What the file holds follows its centre's specialty: devices per ear, an optical equipment, or nothing. */}
        {kind === 'optical' ? (
          <OpticalEquipmentView equipment={record.equipementOptique} />
        ) : kind === 'generic' ? (
          <Typography variant="body2" color="text.secondary" data-testid="generic-equipment">
            {translate('pecflow.pec.optical.generic')}
          </Typography>
        ) : (
          <Box>
            <Typography variant="body2" fontWeight={700} sx={{ mb: 1 }}>
              {translate('pecflow.pec.results.devices')}
            </Typography>
            {devices.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {translate('pecflow.pec.results.noDevices')}
              </Typography>
            ) : (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
                <Device ear="droite" device={devices.find((d) => d.oreille === 'droite')} />
                <Device ear="gauche" device={devices.find((d) => d.oreille === 'gauche')} />
              </Stack>
            )}
          </Box>
        )}
        <Divider />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3}>
          <Box sx={{ flex: 1 }} data-testid="pec-agreement">
            <Typography variant="body2" fontWeight={700} sx={{ mb: 1 }}>
              {translate('pecflow.pec.results.agreement')}
            </Typography>
            {!agreement ? (
              <Typography variant="body2" color="text.secondary">
                {translate('pecflow.pec.results.noAgreement')}
              </Typography>
            ) : (
              <Facts
                items={[
                  [translate('pecflow.pec.results.numPec'), record.numPec || translate('pecflow.pec.fallback.value')],
                  [translate('pecflow.pec.results.numDossierDpec'), record.numDossierDpec || translate('pecflow.pec.fallback.value')],
                  [translate('pecflow.pec.results.dateCreation'), formatDate(record.dateCreation)],
                  [translate('pecflow.pec.results.datePeremption'), <Expiry record={record} />],
                ]}
              />
            )}
            {record.detailRefus && (
              <Alert severity="warning" sx={{ mt: 1 }}>
                <AlertTitle>{translate('pecflow.pec.results.refusal')}</AlertTitle>
                {record.detailRefus}
              </Alert>
            )}
          </Box>
          <Box sx={{ flex: 1 }} data-testid="pec-amounts">
            <Typography variant="body2" fontWeight={700} sx={{ mb: 1 }}>
              {translate('pecflow.pec.results.amounts')}
            </Typography>
            <Table size="small">
              <TableBody>
                {amounts.map(([key, value]) => (
                  <TableRow key={key}>
                    <TableCell sx={{ pl: 0, color: 'text.secondary', fontWeight: key === 'resteCharge' ? 700 : undefined }}>
                      {translate(`pecflow.pec.results.amount.${key}`)}
                    </TableCell>
                    <TableCell align="right" sx={{ pr: 0, whiteSpace: 'nowrap', fontWeight: key === 'resteCharge' ? 700 : 500 }}>
                      {formatEuros(value)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </Stack>
        <Divider />
        <Box data-testid="pec-billing">
          <Typography variant="body2" fontWeight={700} sx={{ mb: 1 }}>
            {translate('pecflow.pec.results.billing')}
          </Typography>
          <Facts
            items={[
              [translate('pecflow.pec.results.billed'), translate(record.statutFacturation ? 'pecflow.pec.results.yes' : 'pecflow.pec.results.no')],
              [translate('pecflow.pec.results.numBilling'), record.numBilling || translate('pecflow.pec.fallback.value')],
              [translate('pecflow.pec.results.dateBilling'), formatDate(record.dateBilling)],
              [translate('pecflow.pec.results.dateFacturationEffective'), formatDate(record.dateFacturationEffective)],
            ]}
          />
        </Box>
      </Stack>
    </Section>
  );
}

// ---------- history ----------

export function ExecutionHistory({ executions, highlighted }: { executions: Execution[]; highlighted: boolean }) {
  const translate = useTranslate();
  return (
    <Section title={translate('pecflow.pec.history.title')} highlighted={highlighted} testId="execution-history">
      {executions.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('pecflow.pec.history.empty')}
        </Typography>
      ) : (
        <Stack divider={<Divider flexItem />} spacing={1}>
          {executions.map((execution) => (
            <Box key={execution.id} data-testid="execution">
              <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between" flexWrap="wrap" useFlexGap>
                <Typography variant="body2" fontWeight={600}>
                  {execution.workflow?.name}
                </Typography>
                <Chip
                  size="small"
                  variant="outlined"
                  color={
                    execution.outcome === 'success'
                      ? 'success'
                      : execution.outcome === 'running' || !execution.completedAt
                        ? 'info'
                        : execution.outcome === 'pending'
                          ? 'warning'
                          : 'error'
                  }
                  label={translate(
                    `pecflow.pec.history.outcome.${execution.completedAt ? (execution.outcome ?? (execution.success ? 'success' : 'error')) : 'running'}`,
                    { _: execution.outcome ?? '' },
                  )}
                />
              </Stack>
              <Typography variant="caption" color="text.secondary" component="div">
                {translate('pecflow.pec.history.line', { id: execution.id, date: formatDateTime(execution.startedAt) })}
              </Typography>
              {/* A failure reads as the spec shapes it (section 8), never the robot's raw text. */}
              {execution.error ? (
                <RobotError execution={execution} />
              ) : (
                messagesOf(execution).length > 0 && (
                  <Typography variant="body2" sx={{ whiteSpace: 'pre-line', mt: 0.5 }}>
                    {messagesOf(execution).join('\n')}
                  </Typography>
                )
              )}
            </Box>
          ))}
        </Stack>
      )}
    </Section>
  );
}
