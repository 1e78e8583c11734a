// What a robot run's code shares: its steps' names and kinds, the response of an open step, what a result changes on
// the file, and the notification of a run's outcome.
import type { RunKind } from '#domain/pec';
import type { pecDossiers, workflowExecutions } from '../db/schema';
import { ApiError } from '../http/errors';
import type { NotificationContent } from '../notifications/service';
import { formatDate } from '#domain/format';
import { CALLBACK_MESSAGES, prerequisitesMessage, shapeRobotError, type CallbackType, type PecStatus } from '#domain/pec';

export type Dossier = typeof pecDossiers.$inferSelect;
export type Execution = typeof workflowExecutions.$inferSelect;
export type Outcome = 'running' | 'success' | 'pending' | 'refused' | 'error' | 'timeout';

/** Workflow names: each contains "robot", which is how the action tab finds the robot's executions. */
export const STEP_NAMES: Record<CallbackType, string> = {
  scraping: 'Appel robot DPEC — récupération du patient et des appareils',
  dpec: 'Appel robot DPEC — demande de prise en charge',
  billing: 'Appel robot facturation — facturation de la PEC',
};
export const MANUAL_NAMES: Record<CallbackType, string> = {
  scraping: 'Résultat robot saisi à la main — patient et appareils',
  dpec: 'Résultat robot saisi à la main — demande de prise en charge',
  billing: 'Résultat robot saisi à la main — facturation',
};

export const RUN_STEPS: Record<RunKind, CallbackType[]> = { dpec: ['scraping', 'dpec'], billing: ['billing'] };
// The message is the DPEC rule's (domain/pec.ts): the bulk's preview says it too.
export { RUN_IN_PROGRESS } from '#domain/pec';
export const DOSSIER_NOT_FOUND = CALLBACK_MESSAGES.notFound;

export const runningResponse = (type: CallbackType) => ({
  messages: [] as string[],
  data: { callback_type: type, callback_payload: { messages: [] as string[] } },
});

export const isUniqueViolation = (error: unknown, index?: string) => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.cause?.code;
  const constraint = e?.constraint ?? e?.cause?.constraint;
  return code === '23505' && (!index || constraint === index || String((error as Error)?.message ?? '').includes(index));
};

/** 422 listing what is missing, shaped like a form violation list. */
export function prerequisitesError(items: { field: string; label: string; message: string }[]) {
  return new ApiError(422, prerequisitesMessage(items.map((i) => i.label)), {
    '@type': 'ConstraintViolationList',
    missing: items.map((i) => i.field),
    violations: items.map((i) => ({ propertyPath: i.field, message: i.message })),
  });
}

/** What a notification says about a run's outcome. The file number is ours; no patient data. */
export function outcomeNotification(kind: RunKind | 'scraping', outcome: Outcome, d: Dossier, messages: string[]): NotificationContent {
  const n = d.numeroDossier;
  const billing = kind === 'billing';
  switch (outcome) {
    case 'success':
      return billing
        ? { kind: 'billing_success', title: `Facturation effectuée — ${n}`, description: `Dossier facturé le ${formatDate(d.dateFacturationEffective)}.` }
        : {
            kind: 'robot_success',
            title: `PEC accordée — ${n}`,
            description: `N° PEC ${d.numPec ?? 'non communiqué'}${d.datePeremption ? `, valable jusqu’au ${formatDate(d.datePeremption)}` : ''}.`,
          };
    case 'pending':
      return { kind: 'robot_pending', title: `DPEC en attente — ${n}`, description: 'La mutuelle a reçu la demande et n’a pas encore répondu.' };
    case 'refused':
      return { kind: 'robot_refused', title: `PEC refusée — ${n}`, description: d.detailRefus ?? 'La mutuelle a refusé la prise en charge.' };
    default: {
      const shaped = shapeRobotError(messages, billing ? 'billing' : 'dpec');
      return {
        kind: outcome === 'timeout' ? 'robot_timeout' : 'robot_error',
        title: `${billing ? 'Échec de la facturation' : 'Échec du DPEC'} — ${n}`,
        description: shaped.tip ? `${shaped.message}. ${shaped.tip}` : shaped.message,
      };
    }
  }
}

/** A result's step, as the callback handlers of each type (scrapingResult.ts, dpecResult.ts, billingResult.ts) read it. */
export interface ResultStep {
  d: Dossier;
  outcome: Outcome;
  success: boolean;
  /** The open run's step this result ends, if it belongs to it. */
  inRun: Execution | undefined;
  /** Whether the robot sent it (else a person entered it by hand). */
  robot: boolean;
  now: Date;
}

/** What a result changes on the file: its columns, its status, the run's next step, whether people are told. */
export interface ResultEffect {
  changes: Partial<Dossier>;
  status: string;
  nextStep?: CallbackType;
  final: boolean;
}

/** The file moves to `to` when its status is one of `from`. */
export function settle(effect: ResultEffect, d: Dossier, to: PecStatus, from: readonly string[]) {
  if (from.includes(d.status)) effect.status = to;
}

/** A failed result ends the open run: the file goes back to the status it had before it. */
export function restorePrevious(effect: ResultEffect, step: ResultStep) {
  if (step.inRun) effect.status = (step.inRun.previousStatus ?? step.d.status) as PecStatus;
}
