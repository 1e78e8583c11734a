// A robot result (POST /api/callbacks/{type}, from the robot or entered by hand) applied to its file in one
// transaction: the run it belongs to found, a repeated delivery recognised, its step recorded, then what its type
// changes on the file (scrapingResult.ts, dpecResult.ts, billingResult.ts), the run's next step, the audit entry, the
// notification and the live events.
import { createHash } from 'node:crypto';
import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { pecDossiers, workflowExecutions } from '../db/schema';
import { ApiError, conflict, invalidField, notFound } from '../http/errors';
import { recordAudit } from '../audit/audit';
import { publish, type PecEvent } from '../events/bus';
import { notifyFile } from '../notifications/service';
import { dossierEvent, workflowEvent } from '../pec/events';
import { canSeeFile } from '../auth/fileVisibility';
import { MANUAL_RESULTS_LIMIT } from '#domain/limits';
import { expiryDateError, isDpecGranted, pecStatusLabel, type CallbackType, type PecStatus, type RunKind } from '#domain/pec';
import type { BillingCallback, DpecCallback, ScrapingCallback } from '#domain/pecSchemas';
import { ARCHIVE_MESSAGES } from '#domain/archive';
import { applyBillingResult } from './billingResult';
import { centreCredentials, secretsOf, withoutSecrets } from './credentials';
import { applyDpecResult } from './dpecResult';
import { applyScrapingResult } from './scrapingResult';
import {
  DOSSIER_NOT_FOUND,
  MANUAL_NAMES,
  outcomeNotification,
  RUN_STEPS,
  runningResponse,
  STEP_NAMES,
  type Dossier,
  type Execution,
  type Outcome,
  type ResultEffect,
  type ResultStep,
} from './steps';

export type CallbackInput = ScrapingCallback | DpecCallback | BillingCallback;

export interface CallbackActor {
  robot: boolean;
  principal?: Principal;
}

export interface CallbackResult {
  executionId: number;
  processing_time: number;
  duplicate: boolean;
}

/** A refusal reason that held one of the centre's secrets is replaced by this. */
const HIDDEN_REFUSAL = 'Motif de refus masqué : il contenait un identifiant de connexion du centre.';

/** Why a result is refused while another run is open (409): it would settle the file and leave that run hanging. */
const CALLBACK_CONFLICTS = {
  unknownRun: 'Ce résultat nomme un appel robot qui n’est pas celui de ce dossier.',
  otherRun: 'Ce résultat concerne un autre appel robot que celui en cours pour ce dossier : rien n’a été modifié.',
};

/**
 * The meaning of a value as text: object keys sorted, null and absent fields alike. The libraries that sort keys keep
 * nulls, and for a callback "absent" and null say the same, so this small function is ours.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What makes two results the same: the type, the run and the fields once validated (so "1 450,50" and 1450.5 agree). */
function callbackKey(type: CallbackType, runId: number | null, input: CallbackInput): string {
  const { run_id: _run, ...fields } = input as Record<string, unknown>;
  return createHash('sha256')
    .update(`${type}\n${runId ?? '-'}\n${canonicalJson(fields)}`)
    .digest('hex');
}

export async function applyCallback(
  app: AppContext,
  tx: DbOrTx,
  type: CallbackType,
  input: CallbackInput,
  actor: CallbackActor,
  onRunEnd: (run: { runId: number; kind: RunKind; outcome: Outcome }) => void,
): Promise<{ executionId: number; duplicate: boolean }> {
  const now = new Date();
  // The file's row lock orders every callback of one file: the duplicate check below cannot race.
  const [d] = await tx.select().from(pecDossiers).where(eq(pecDossiers.externalId, input.id_pecflow)).for('update');
  if (!d || (actor.principal && !canSeeFile(actor.principal, d))) throw notFound(DOSSIER_NOT_FOUND);

  const [open] = await tx
    .select()
    .from(workflowExecutions)
    .where(and(eq(workflowExecutions.dossierId, d.id), isNull(workflowExecutions.completedAt)))
    .limit(1);
  // The run the result is for: the one it names, else the open one, else the file's latest (a late answer).
  let runId = input.run_id ?? open?.runId ?? null;
  if (runId === null) {
    const [latest] = await tx
      .select({ runId: sql<number | null>`max(${workflowExecutions.runId})` })
      .from(workflowExecutions)
      .where(eq(workflowExecutions.dossierId, d.id));
    runId = latest?.runId ?? null;
  }
  const dedupeKey = callbackKey(type, runId, input);
  const [seen] = await tx.select({ id: workflowExecutions.id }).from(workflowExecutions).where(eq(workflowExecutions.dedupeKey, dedupeKey));
  if (seen) return { executionId: seen.id, duplicate: true };
  // An archived file had no run open when it was archived: a result now is a late answer it no longer waits for (a
  // twin archived as 'Doublon' must not turn approved), or one typed on the wrong file. Refused, for the robot as by hand.
  if (d.archived) throw conflict(ARCHIVE_MESSAGES.callback(d.numeroDossier));
  // The agreement ends after the DPEC's day: the file's own, when the result gives only the expiry.
  const expiry = type === 'dpec' ? (input as DpecCallback) : undefined;
  if (expiry?.date_peremption && !expiry.date_creation) {
    const refused = expiryDateError(expiry.date_peremption, d.dateCreation);
    if (refused) throw invalidField('date_peremption', refused);
  }

  // A result belongs to a run: while one is open, only a result of that run and of one of its steps is taken.
  if (input.run_id !== undefined) {
    const [named] = await tx
      .select({ id: workflowExecutions.id })
      .from(workflowExecutions)
      .where(and(eq(workflowExecutions.id, input.run_id), eq(workflowExecutions.runId, input.run_id), eq(workflowExecutions.dossierId, d.id)));
    if (!named) throw conflict(CALLBACK_CONFLICTS.unknownRun);
  }
  if (open && input.run_id !== undefined && input.run_id !== open.runId) throw conflict(CALLBACK_CONFLICTS.otherRun);
  // A result of another kind (a billing failure during a DPEC run) is recorded beside the open run, not in it.
  const inRun = open && open.runKind && RUN_STEPS[open.runKind as RunKind].includes(type) ? open : undefined;

  if (!actor.robot) await checkManualRate(tx, d.id, now);

  // Billing needs a granted DPEC, by the robot's run as by a result entered by hand.
  if (type === 'billing' && input.success && !inRun && !d.statutFacturation && !isDpecGranted(d)) {
    throw conflict(`Facturation impossible : le DPEC de ce dossier n’est pas accordé (état « ${pecStatusLabel(d.status)} »).`);
  }

  let outcome: Outcome;
  if (type === 'dpec') {
    const dpec = input as DpecCallback;
    outcome = dpec.detail_refus ? 'refused' : !dpec.success ? 'error' : dpec.num_pec ? 'success' : 'pending';
  } else outcome = input.success ? 'success' : 'error';
  // The texts people read hold none of the centre's secrets (a robot that echoes its job would put them there).
  const secrets = secretsOf(await centreCredentials(app, d.shopId, tx));
  if (secrets.length) {
    const refusal = (input as DpecCallback).detail_refus;
    input = {
      ...input,
      messages: withoutSecrets(input.messages, secrets),
      ...(refusal && withoutSecrets([refusal], secrets).length === 0 ? { detail_refus: HIDDEN_REFUSAL } : {}),
    };
  }
  const success = outcome === 'success' || outcome === 'pending';
  const execution = await recordStep(tx, type, input, actor, { d, outcome, success, inRun, now, dedupeKey });

  // What the result changes on the file.
  const effect: ResultEffect = { changes: {}, status: d.status, final: true };
  const step: ResultStep = { d, outcome, success, inRun, robot: actor.robot, now };
  if (type === 'scraping') await applyScrapingResult(tx, input as ScrapingCallback, step, effect);
  else if (type === 'dpec') applyDpecResult(input as DpecCallback, step, effect);
  else applyBillingResult(input as BillingCallback, step, effect);
  const { changes, nextStep, final } = effect;
  if (effect.status !== d.status) changes.status = effect.status;
  // A run that ends here with the file still "processing" returns it to where it was (draft if unknown).
  if (inRun && !nextStep && (changes.status ?? d.status) === 'processing') {
    changes.status = (inRun.previousStatus && inRun.previousStatus !== 'processing' ? inRun.previousStatus : 'draft') as PecStatus;
  }

  const updated = { ...d, ...changes, updatedAt: now } as Dossier;
  await tx
    .update(pecDossiers)
    .set({ ...changes, updatedAt: now })
    .where(eq(pecDossiers.id, d.id));

  const events: PecEvent[] = [workflowEvent(d, execution), dossierEvent('dossier.updated', d, updated.status)];
  if (nextStep && inRun) {
    const [next] = await tx
      .insert(workflowExecutions)
      .values({
        holdingId: d.holdingId,
        dossierId: d.id,
        workflowName: STEP_NAMES[nextStep],
        runKind: inRun.runKind,
        runId: inRun.runId,
        callbackType: nextStep,
        outcome: 'running',
        previousStatus: inRun.previousStatus,
        deadlineAt: inRun.deadlineAt,
        actorId: inRun.actorId,
        startedAt: now,
        robotResponse: runningResponse(nextStep),
      })
      .returning();
    events.push(workflowEvent(d, next!));
  }

  await recordAudit(tx, actor.principal ?? null, {
    action: `pec_dossier.callback_${type}`,
    entity: 'pec_dossiers',
    entityId: d.id,
    entityLabel: d.numeroDossier,
    holdingId: d.holdingId,
    changes: {
      executionId: execution.id,
      outcome,
      source: actor.robot ? 'robot' : 'saisie manuelle',
      ...(changes.status ? { status: { before: d.status, after: changes.status } } : {}),
    },
  });
  if (final) {
    const kind: RunKind = type === 'billing' ? 'billing' : 'dpec';
    await notifyFile(tx, d, outcomeNotification(kind, outcome, updated, input.messages));
  }
  await publish(tx, ...events);
  if (inRun && !nextStep && inRun.runId !== null) onRunEnd({ runId: inRun.runId, kind: (inRun.runKind ?? 'dpec') as RunKind, outcome });
  return { executionId: execution.id, duplicate: false };
}

/** The result's execution: the open run's step it completes, or a step of its own beside the runs. */
async function recordStep(
  tx: DbOrTx,
  type: CallbackType,
  input: CallbackInput,
  actor: CallbackActor,
  { d, outcome, success, inRun, now, dedupeKey }: Omit<ResultStep, 'robot'> & { dedupeKey: string },
): Promise<Execution> {
  const callbackType = success ? type : `${type}_error`;
  const { id_pecflow: _id, run_id: _run, ...payload } = input as Record<string, unknown>;
  const robotResponse = { messages: input.messages, data: { callback_type: callbackType, callback_payload: { ...payload, messages: input.messages } } };
  const workflowName = actor.robot ? STEP_NAMES[type] : MANUAL_NAMES[type];

  if (inRun) {
    const [execution] = (await tx
      .update(workflowExecutions)
      .set({
        workflowName,
        callbackType,
        success,
        outcome,
        completedAt: now,
        robotResponse,
        dedupeKey,
        processingTimeMs: now.getTime() - inRun.startedAt.getTime(),
        ...(actor.principal ? { actorId: actor.principal.id } : {}),
      })
      .where(eq(workflowExecutions.id, inRun.id))
      .returning()) as [Execution];
    return execution;
  }
  const [execution] = (await tx
    .insert(workflowExecutions)
    .values({
      holdingId: d.holdingId,
      dossierId: d.id,
      workflowName,
      callbackType,
      success,
      outcome,
      startedAt: now,
      completedAt: now,
      robotResponse,
      dedupeKey,
      processingTimeMs: 0,
      actorId: actor.principal?.id ?? null,
    })
    .returning()) as [Execution];
  return execution;
}

/** Results entered by hand on one file are bounded (MANUAL_RESULTS_LIMIT): 429 with the wait once the limit is reached. */
async function checkManualRate(tx: DbOrTx, dossierId: number, now: Date) {
  const since = new Date(now.getTime() - MANUAL_RESULTS_LIMIT.windowMinutes * 60_000);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${workflowExecutions.completedAt})` })
    .from(workflowExecutions)
    .where(
      and(
        eq(workflowExecutions.dossierId, dossierId),
        inArray(workflowExecutions.workflowName, Object.values(MANUAL_NAMES)),
        gte(workflowExecutions.completedAt, since),
      ),
    );
  if (Number(row?.n ?? 0) < MANUAL_RESULTS_LIMIT.max) return;
  const freeAt = new Date(row?.oldest ?? now).getTime() + MANUAL_RESULTS_LIMIT.windowMinutes * 60_000;
  const retryAfterSeconds = Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
  throw new ApiError(429, MANUAL_RESULTS_LIMIT.message(Math.ceil(retryAfterSeconds / 60)), { retryAfterSeconds });
}
