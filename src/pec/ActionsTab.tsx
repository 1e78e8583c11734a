// "Actions DPEC" (spec section 4): the DPEC button and its six states, the billing button ("Facturé" once billed),
// the two robot steps, the results, the execution history, and the 4 s highlight when the results change. A DPEC
// beside a twin's request at the insurer asks to confirm (issue 25). A run started here is followed to its end: its
// outcome is announced by a toast (shaped failure, refusal, success).
import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import SendIcon from '@mui/icons-material/Send';
import { Box, Button, CircularProgress, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { PecDossierRecord } from '../dataProvider/pec';
import type { DuplicateRefusal } from '#domain/pecAnswers';
import { formatDate } from '#domain/format';
import { HIGHLIGHT_DURATION_MS } from '#domain/limits';
import { fileKindOf } from '#domain/fileKinds';
import {
  billingButtonState,
  dpecButtonState,
  isDpecGranted,
  missingPrerequisites,
  robotRunKind,
  robotStepResults,
  shapeRobotError,
  type ButtonState,
  type RobotErrorView,
  type RunKind,
} from '#domain/pec';
import { useToast } from '../layout/Toasts';
import { BillingDialog } from './BillingDialog';
import { PaymentPanel } from './PaymentPanel';
import { ExecutionHistory, RobotResults, Section, StepCard, type Execution } from './RobotResults';
import { MissingPrerequisites, statusOf, usePecMutation, usePecRights } from './shared';
import { DuplicateDialog } from './DuplicateDialog';
import { SCRAPING_STEP_LABELS } from './fileKindLabels';

/** True for 4 s each time `signature` changes (not on the first render). */
function useHighlight(signature: string) {
  const [on, setOn] = useState(false);
  const previous = useRef(signature);
  useEffect(() => {
    if (previous.current === signature) return;
    previous.current = signature;
    setOn(true);
    const timer = setTimeout(() => setOn(false), HIGHLIGHT_DURATION_MS);
    return () => clearTimeout(timer);
  }, [signature]);
  return on;
}

const withTip = (error: RobotErrorView) => (error.tip ? `${error.message}\n${error.tip}` : error.message);

/**
 * Follows a run until all its executions are complete, then says how it ended. Returns `follow(runId, kind)` for a
 * run just started here, and whether that run is not yet visible in the file (the button stays "En cours...").
 */
function useRunOutcome(record: PecDossierRecord) {
  const translate = useTranslate();
  const toast = useToast();
  const followed = useRef<{ runId: number; kind: string } | null>(null);
  const [awaiting, setAwaiting] = useState<number | undefined>();
  const executions = (record.workflowExecutions ?? []) as Execution[];

  // Settled on each new record only: the toast and the texts are read when a run ends, not followed.
  const settle = useEffectEvent(() => {
    const open = record.runInProgress;
    const run = followed.current;
    if (run && open?.runId !== run.runId) {
      const steps = executions.filter((e) => e.runId === run.runId);
      if (steps.length > 0 && steps.every((e) => e.completedAt)) {
        followed.current = null;
        const failed = steps.find((e) => e.success === false);
        if (failed?.error) {
          if (failed.outcome === 'refused') toast.warning(failed.error.title, failed.error.message);
          else toast.error(failed.error.title, withTip(failed.error));
        } else if (run.kind === 'billing') {
          toast.success(
            translate('pecflow.pec.toast.billed'),
            translate('pecflow.pec.toast.billedText', { date: formatDate(record.dateFacturationEffective) }),
          );
        } else if (steps.some((e) => e.outcome === 'pending')) {
          toast.info(translate('pecflow.pec.toast.dpecPending'), translate('pecflow.pec.toast.dpecPendingText'));
        } else {
          toast.success(
            translate('pecflow.pec.toast.dpecCreated'),
            record.numPec ? translate('pecflow.pec.toast.dpecCreatedText', { numPec: record.numPec }) : '',
          );
        }
      }
    }
    if (open && !followed.current) followed.current = { runId: open.runId, kind: robotRunKind({ runKind: open.kind, callbackType: open.step }) };
  });
  useEffect(() => settle(), [record]);

  return {
    follow: (runId: number, kind: string) => {
      followed.current = { runId, kind };
      setAwaiting(runId);
    },
    // Until the run shows in the file's executions.
    awaiting: awaiting !== undefined && !executions.some((e) => e.runId === awaiting),
  };
}

export function ActionsTab({ record, id }: { record: PecDossierRecord; id: number }) {
  const { translate, dataProvider, refresh, success, failure, errorText } = usePecMutation();
  const rights = usePecRights();
  const [billingOpen, setBillingOpen] = useState(false);
  // A DPEC refused because a twin's request is at the insurer: what the server said, until the user confirms or not.
  const [duplicate, setDuplicate] = useState<{ text: string; twins: NonNullable<DuplicateRefusal['twins']> } | undefined>();
  const run = useRunOutcome(record);
  // A robot run: the list, the file and the dashboard are refreshed 200 ms after the answer (spec section 4).
  const start = useMutation({
    mutationFn: ({ kind, confirmDuplicate }: { kind: RunKind; confirmDuplicate?: boolean }) => dataProvider.pecRun({ id, kind, confirmDuplicate }),
    onSuccess: (started, { kind }) => {
      setDuplicate(undefined);
      run.follow(started.runId, kind);
      if (kind === 'billing') success(translate('pecflow.pec.toast.billingStarted'), translate('pecflow.pec.toast.billingStartedText'));
    },
    onError: (error, { kind }) => {
      const twins = (error as { body?: DuplicateRefusal }).body?.twins;
      // Twins of centres the user cannot see are named by no link: the list may be empty, the refusal still stands.
      if (kind === 'dpec' && statusOf(error) === 409 && twins) {
        setDuplicate({ text: errorText(error), twins });
        return;
      }
      setDuplicate(undefined);
      const shaped = shapeRobotError(errorText(error), kind);
      failure(shaped.title, error, withTip(shaped));
    },
    onSettled: () => refresh.soon(),
  });
  const starting = start.isPending ? start.variables.kind : undefined;

  const executions = (record.workflowExecutions ?? []) as Execution[];
  const steps = robotStepResults(executions);
  const dossier = {
    numeroDossierAssure: record.numeroDossierAssure,
    numeroDevisAssure: record.numeroDevisAssure,
    mutual: record.mutual,
    prescriber: record.prescriber,
    datePrescription: record.datePrescription,
  };
  const kind = fileKindOf(record.shop?.specialite);
  const archived = !!record.archived;
  const dpec = dpecButtonState({ canRun: rights.run, dossier, kind, executions, busy: starting === 'dpec' || run.awaiting, archived });
  const billing = billingButtonState({ canRun: rights.run, dossier: record, executions, busy: starting === 'billing' || run.awaiting, archived });
  const missing = missingPrerequisites(dossier, kind);

  const signature = JSON.stringify([
    [steps.scraping, steps.dpec, steps.billing].map((s) => [s.state, s.execution?.id, s.execution?.completedAt]),
    record.status,
    record.numPec,
    record.statutFacturation,
    (record.appareils ?? []).map((a) => a.id),
    record.equipementOptique ?? null,
  ]);
  const highlighted = useHighlight(signature);

  const running = (button: ButtonState) => (button.running ? <CircularProgress size={16} color="inherit" /> : undefined);

  return (
    <Stack spacing={2}>
      {/* Once the insurer granted the request, what a DPEC needed is history: no header left behind. */}
      {!isDpecGranted(record) && <MissingPrerequisites missing={missing} />}

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <Button
          variant="contained"
          size="large"
          disabled={dpec.disabled}
          onClick={() => start.mutate({ kind: 'dpec' })}
          startIcon={running(dpec) ?? <SendIcon />}
          data-testid="dpec-button"
          sx={{ flex: 1 }}
        >
          {dpec.label}
        </Button>
        <Button
          variant={billing.done ? 'contained' : 'outlined'}
          color={billing.done ? 'success' : 'primary'}
          size="large"
          disabled={billing.disabled}
          onClick={() => setBillingOpen(true)}
          startIcon={running(billing) ?? <ReceiptIcon />}
          data-testid="billing-button"
          sx={{ flex: 1 }}
        >
          {billing.label}
        </Button>
      </Stack>

      <Section title={translate('pecflow.pec.steps.title')} highlighted={highlighted} testId="robot-steps">
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>
          <StepCard
            title={translate(SCRAPING_STEP_LABELS[record.fileKind ?? 'audio'])}
            state={steps.scraping.state}
            execution={steps.scraping.execution as Execution | undefined}
            testId="step-scraping"
          />
          <StepCard
            title={translate('pecflow.pec.steps.dpec')}
            state={steps.dpec.state}
            execution={steps.dpec.execution as Execution | undefined}
            testId="step-dpec"
          />
        </Box>
        {steps.billing.execution && (
          <Box sx={{ mt: 1.5 }}>
            <StepCard
              title={translate('pecflow.pec.steps.billing')}
              state={steps.billing.state}
              execution={steps.billing.execution as Execution}
              testId="step-billing"
            />
          </Box>
        )}
      </Section>

      <RobotResults record={record} highlighted={highlighted} />
      <PaymentPanel record={record} id={id} />
      <ExecutionHistory executions={executions} highlighted={highlighted} />

      <BillingDialog
        open={billingOpen}
        record={record}
        id={id}
        onClose={() => setBillingOpen(false)}
        onSaved={() => {
          setBillingOpen(false);
          start.mutate({ kind: 'billing' });
        }}
      />
      <DuplicateDialog
        refusal={duplicate}
        busy={start.isPending}
        onCancel={() => setDuplicate(undefined)}
        onConfirm={() => start.mutate({ kind: 'dpec', confirmDuplicate: true })}
      />
    </Stack>
  );
}
