// Robot runs (domain.md, "The robot protocol"): starting a DPEC or billing run, receiving the robot's callbacks (or the
// same results entered by hand; applied by callbacks.ts), failing runs at their deadline. A run is a chain of workflow
// executions: each step is recorded open ("en cours") and completed by its callback; a DPEC run has a scraping step then a dpec step, a
// billing run one billing step. At most one open step per file (a partial unique index): that is "a run in progress".
// Every write happens in one transaction that also records the audit entry, the notifications and the live events;
// no transaction is ever held across an HTTP call or a job queueing.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { can, requirePermission } from '../auth/principal';
import type { AppContext } from '../context';
import { mutuals, networks, pecDossiers, workflowExecutions } from '../db/schema';
import { ApiError, conflict, forbidden, invalidField, notFound } from '../http/errors';
import { recordAudit } from '../audit/audit';
import { publish } from '../events/bus';
import { notifyFile } from '../notifications/service';
import { dossierEvent, workflowEvent } from '../pec/events';
import { pecReadScope } from '../auth/fileVisibility';
import { dpecRefusalOf } from '../pec/prescription';
import { fileWarnings } from '../pec/warnings';
import { lockTwins, twinRefusal, twinsOf } from '../pec/duplicates';
import { QUEUES, type JobService } from '../jobs/boss';
import { idFromReference } from '#domain/iri';
import {
  BILLING_PREREQUISITE_MESSAGES,
  CALLBACK_MESSAGES,
  dpecRefusalReason,
  isDpecGranted,
  PEC_MESSAGES,
  PREREQUISITE_LABELS,
  PREREQUISITE_MESSAGES,
  ROBOT_TIMEOUT_MESSAGE,
  type CallbackType,
  type PecStatus,
  type RunKind,
} from '#domain/pec';
import { CALLBACK_SCHEMAS } from '#domain/pecSchemas';
import type { RunStarted } from '#domain/pecAnswers';
import { ARCHIVE_MESSAGES } from '#domain/archive';
import { ACT_ON_FILE_PERMISSION } from '#domain/permissions';
import { TWIN_DPEC_STATUSES, type Twin } from '#domain/duplicates';
import { CONFIRM_DUPLICATE_FLAG } from '#domain/confirmations';
import { applyCallback, type CallbackActor, type CallbackInput, type CallbackResult } from './callbacks';
import {
  DOSSIER_NOT_FOUND,
  isUniqueViolation,
  outcomeNotification,
  prerequisitesError,
  RUN_IN_PROGRESS,
  RUN_STEPS,
  runningResponse,
  STEP_NAMES,
  type Execution,
  type Outcome,
} from './steps';

/** Thrown inside a start's transaction once every rule passed, to roll it back: a check that writes nothing. */
class StartAllowed extends Error {}

/** Values a check takes as the file's, before they are written (a bulk billing's invoice number and date). */
type FileValues = Partial<typeof pecDossiers.$inferSelect>;

export class RobotRuns {
  /** Called after a run ends (its transaction committed): bulk runs waiting their turn may start (server/robot/bulk.ts). */
  runEnded?: () => void;

  constructor(
    private readonly app: AppContext,
    private readonly jobs: JobService,
  ) {}

  private get db() {
    return this.app.db;
  }

  // ---------- starting a run ----------

  /** POST /api/robot-frontend/setup-and-create-dpec and setup-and-billing-pec. */
  async start(principal: Principal, body: unknown, kind: RunKind, checkOnly = false, assumed: FileValues = {}): Promise<RunStarted> {
    requirePermission(principal, ACT_ON_FILE_PERMISSION);
    const id = idFromReference((body as { pecDossierId?: unknown } | undefined)?.pecDossierId, 'pec_dossiers');
    if (id === undefined) throw invalidField('pecDossierId', 'Identifiant de dossier invalide');
    // Sending a request whose twin is already at the insurer, knowingly (domain/duplicates.ts).
    const confirmedDuplicate = (body as Record<string, unknown> | undefined)?.[CONFIRM_DUPLICATE_FLAG] === true;
    const now = new Date();
    const deadline = new Date(now.getTime() + this.app.config.robotRunTimeoutMs);

    let started: { externalId: string; runId: number; status: string };
    try {
      started = await this.db.transaction(async (tx) => {
        const [found] = await tx
          .select()
          .from(pecDossiers)
          .where(and(eq(pecDossiers.id, id), pecReadScope(principal)))
          .for('update');
        if (!found) throw notFound(DOSSIER_NOT_FOUND);
        const d = { ...found, ...assumed };
        // The DPEC's rule on the file's fields (domain/pec.ts), applied in its order around the open run's check.
        const refusal = kind === 'dpec' ? await dpecRefusalOf(tx, d) : undefined;
        if (d.archived) throw conflict(ARCHIVE_MESSAGES.robot(d.numeroDossier));

        if (refusal?.rule === 'prerequisites') {
          throw prerequisitesError(refusal.missing.map((field) => ({ field, label: PREREQUISITE_LABELS[field], message: PREREQUISITE_MESSAGES[field] })));
        } else if (kind === 'billing') {
          const missing: { field: string; label: string; message: string }[] = [];
          if (!d.statutFacturation && !isDpecGranted(d)) missing.push({ field: 'dpec', label: 'DPEC accordé', message: BILLING_PREREQUISITE_MESSAGES.dpec });
          if (!d.numBilling) missing.push({ field: 'numBilling', label: 'N° de facture logiciel', message: BILLING_PREREQUISITE_MESSAGES.numBilling });
          if (!d.dateBilling) missing.push({ field: 'dateBilling', label: 'Date de facture logiciel', message: BILLING_PREREQUISITE_MESSAGES.dateBilling });
          if (!d.statutFacturation && missing.length) throw prerequisitesError(missing);
        }

        const [open] = await tx
          .select({ id: workflowExecutions.id })
          .from(workflowExecutions)
          .where(and(eq(workflowExecutions.dossierId, id), isNull(workflowExecutions.completedAt)))
          .limit(1);
        if (open) throw conflict(RUN_IN_PROGRESS);
        if (kind === 'billing' && d.statutFacturation) throw conflict(PEC_MESSAGES.alreadyBilled);
        if (refusal) throw conflict(dpecRefusalReason(refusal));
        // A twin's request at the insurer (in progress or granted): refused unless confirmed. Starts on twins wait for
        // one another, so that two at once cannot both find the other still a draft.
        let duplicateOf: Twin[] = [];
        if (kind === 'dpec') {
          await lockTwins(tx, d);
          duplicateOf = (await twinsOf(tx, d)).filter((t) => TWIN_DPEC_STATUSES.includes(t.status as PecStatus));
          if (duplicateOf.length && !confirmedDuplicate) throw twinRefusal(duplicateOf, principal, d.holdingId);
        }

        if (checkOnly) throw new StartAllowed();
        const externalId = d.externalId ?? `pf-${randomUUID()}`;
        const firstStep = RUN_STEPS[kind][0]!;
        const [step] = await tx
          .insert(workflowExecutions)
          .values({
            holdingId: d.holdingId,
            dossierId: d.id,
            workflowName: STEP_NAMES[firstStep],
            runKind: kind,
            callbackType: firstStep,
            outcome: 'running',
            previousStatus: d.status,
            deadlineAt: deadline,
            actorId: principal.id,
            startedAt: now,
            robotResponse: runningResponse(firstStep),
          })
          .returning();
        await tx.update(workflowExecutions).set({ runId: step!.id }).where(eq(workflowExecutions.id, step!.id));
        const status = kind === 'dpec' ? 'processing' : d.status;
        await tx.update(pecDossiers).set({ externalId, status, updatedAt: now }).where(eq(pecDossiers.id, d.id));
        // Warnings never block; sending anyway is on the record with the warnings present at that moment.
        const warnings = kind === 'dpec' ? await fileWarnings(tx, d.id) : [];
        await recordAudit(tx, principal, {
          action: `pec_dossier.${kind}_start`,
          entity: 'pec_dossiers',
          entityId: d.id,
          entityLabel: d.numeroDossier,
          holdingId: d.holdingId,
          changes: {
            runId: step!.id,
            ...(status !== d.status ? { status: { before: d.status, after: status } } : {}),
            ...(warnings.length ? { warnings: warnings.map(({ code, message, side }) => ({ code, message, ...(side ? { side } : {}) })) } : {}),
            // Sent although a twin's request is at the insurer: who confirmed it is the entry's actor.
            ...(duplicateOf.length ? { duplicateConfirmed: duplicateOf.map((t) => ({ id: t.id, numeroDossier: t.numeroDossier, status: t.status })) } : {}),
          },
        });
        await publish(tx, dossierEvent('dossier.updated', d, status), workflowEvent(d, { ...step!, runId: step!.id }));
        return { externalId, runId: step!.id, status };
      });
    } catch (error) {
      if (isUniqueViolation(error, 'workflow_executions_open_idx')) throw conflict(RUN_IN_PROGRESS);
      throw error;
    }

    try {
      await this.jobs.send(QUEUES.robotRun, { runId: started.runId });
      await this.jobs.send(QUEUES.robotTimeout, { runId: started.runId }, { startAfter: deadline });
    } catch {
      await this.closeRun(started.runId, ['Le service robot est indisponible : la demande n’a pas pu être transmise.'], 'error');
      throw new ApiError(503, 'Le service robot est indisponible, réessayez dans un instant.');
    }
    return {
      externalId: started.externalId,
      executionId: started.runId,
      runId: started.runId,
      status: started.status,
      message: kind === 'dpec' ? 'DPEC lancé' : 'Facturation PEC déclenchée',
    };
  }

  /** Whether start would start this run now: throws the refusal start would, writes nothing. */
  async check(principal: Principal, body: unknown, kind: RunKind, assumed: FileValues = {}): Promise<void> {
    try {
      await this.start(principal, body, kind, true, assumed);
    } catch (error) {
      if (!(error instanceof StartAllowed)) throw error;
    }
  }

  // ---------- callbacks ----------

  /**
   * POST /api/callbacks/{type}, from the robot (signature checked by the route) or a signed-in user with pec.create.
   * A repeated result (same run, type, outcome and fields, whatever its bytes) has one effect: it answers the first
   * delivery's execution.
   */
  async receive(type: CallbackType, body: unknown, actor: CallbackActor): Promise<CallbackResult> {
    const begin = performance.now();
    if (!actor.robot) {
      if (!actor.principal) throw new ApiError(401, 'Authentification requise : jeton absent ou invalide.');
      if (!can(actor.principal, ACT_ON_FILE_PERMISSION)) throw forbidden(CALLBACK_MESSAGES.forbidden);
    }
    const schema = CALLBACK_SCHEMAS[type];
    const input = schema.parse(body ?? {}) as CallbackInput;
    // The run this result ends, counted in the metrics once its transaction has committed.
    const ended: { run?: { runId: number; kind: RunKind; outcome: Outcome } } = {};
    const apply = () => this.db.transaction((tx) => applyCallback(this.app, tx, type, input, actor, (run) => (ended.run = run)));
    let applied: { executionId: number; duplicate: boolean };
    try {
      applied = await apply();
    } catch (error) {
      // Two deliveries of the same result at the same instant: the second, run again, finds the first's execution.
      if (!isUniqueViolation(error, 'workflow_executions_dedupe_idx')) throw error;
      applied = await apply();
    }
    if (ended.run) this.observeEnd(ended.run.runId, ended.run.kind, ended.run.outcome);
    return { ...applied, processing_time: Math.round(performance.now() - begin) / 1000 };
  }

  /** Counts a run that just ended (after its transaction committed), with its duration from its first step. */
  private observeEnd(runId: number, kind: RunKind, outcome: Outcome) {
    this.runEnded?.();
    if (!this.app.metrics) return;
    void this.runStart(runId)
      .then((first) => first && this.app.metrics.robotRunEnded(kind, outcome, (Date.now() - first.startedAt.getTime()) / 1000))
      .catch(() => undefined);
  }

  // ---------- ending a run without its callback ----------

  /**
   * Fails the open step of a run (timeout, unreachable robot): the file returns to the status it had before the run.
   * `onlyIfOverdue` leaves a run whose deadline has not passed. Returns false when the run had already ended.
   */
  async closeRun(runId: number, messages: string[], outcome: 'timeout' | 'error', options: { onlyIfOverdue?: boolean } = {}): Promise<boolean | 'early'> {
    let kind: RunKind | undefined;
    const result = await this.db.transaction(async (tx) => {
      const [step] = await tx
        .select()
        .from(workflowExecutions)
        .where(and(eq(workflowExecutions.runId, runId), isNull(workflowExecutions.completedAt)))
        .limit(1)
        .for('update');
      if (!step) return false;
      const now = new Date();
      if (options.onlyIfOverdue && step.deadlineAt && step.deadlineAt.getTime() > now.getTime()) return 'early';
      const type = (step.callbackType ?? 'dpec') as CallbackType;
      const callbackType = `${type}_error`;
      const [closed] = await tx
        .update(workflowExecutions)
        .set({
          completedAt: now,
          success: false,
          outcome,
          callbackType,
          robotResponse: { messages, data: { callback_type: callbackType, callback_payload: { messages } } },
          processingTimeMs: now.getTime() - step.startedAt.getTime(),
        })
        .where(eq(workflowExecutions.id, step.id))
        .returning();
      const [d] = await tx.select().from(pecDossiers).where(eq(pecDossiers.id, step.dossierId)).for('update');
      if (!d) return true;
      let status = d.status;
      if (d.status === 'processing') status = step.previousStatus && step.previousStatus !== 'processing' ? step.previousStatus : 'draft';
      await tx.update(pecDossiers).set({ status, updatedAt: now }).where(eq(pecDossiers.id, d.id));
      await recordAudit(tx, null, {
        action: `pec_dossier.run_${outcome}`,
        entity: 'pec_dossiers',
        entityId: d.id,
        entityLabel: d.numeroDossier,
        holdingId: d.holdingId,
        changes: { executionId: step.id, outcome, ...(status !== d.status ? { status: { before: d.status, after: status } } : {}) },
      });
      kind = (step.runKind ?? 'dpec') as RunKind;
      await notifyFile(tx, d, outcomeNotification(kind, outcome, { ...d, status }, messages));
      await publish(tx, workflowEvent(d, closed!), dossierEvent('dossier.updated', d, status));
      return true;
    });
    if (result === true && kind) this.observeEnd(runId, kind, outcome);
    return result;
  }

  /** The timeout job: fails the run if it is still open at its deadline; a run whose deadline moved is re-queued. */
  async timeout(runId: number): Promise<void> {
    const result = await this.closeRun(runId, [ROBOT_TIMEOUT_MESSAGE], 'timeout', { onlyIfOverdue: true });
    if (result === 'early') {
      const [step] = await this.db
        .select({ deadlineAt: workflowExecutions.deadlineAt })
        .from(workflowExecutions)
        .where(and(eq(workflowExecutions.runId, runId), isNull(workflowExecutions.completedAt)));
      if (step?.deadlineAt) await this.jobs.send(QUEUES.robotTimeout, { runId }, { startAfter: step.deadlineAt });
    }
  }

  /** Fails every open run past its deadline (a lost timeout job, a server stopped for longer than the timeout). */
  async sweep(): Promise<number> {
    const overdue = await this.db
      .selectDistinct({ runId: workflowExecutions.runId })
      .from(workflowExecutions)
      .where(and(isNull(workflowExecutions.completedAt), lt(workflowExecutions.deadlineAt, new Date())))
      .limit(200);
    let closed = 0;
    for (const { runId } of overdue) {
      if (runId !== null && (await this.closeRun(runId, [ROBOT_TIMEOUT_MESSAGE], 'timeout', { onlyIfOverdue: true })) === true) closed++;
    }
    return closed;
  }

  // ---------- reading ----------

  /** The open step of a run, or undefined when the run has ended. */
  async openStep(runId: number): Promise<Execution | undefined> {
    const [step] = await this.db
      .select()
      .from(workflowExecutions)
      .where(and(eq(workflowExecutions.runId, runId), isNull(workflowExecutions.completedAt)))
      .orderBy(asc(workflowExecutions.id))
      .limit(1);
    return step;
  }

  /** The run's first step (its start). */
  async runStart(runId: number): Promise<Execution | undefined> {
    const [step] = await this.db.select().from(workflowExecutions).where(eq(workflowExecutions.id, runId));
    return step;
  }

  async dossierWithNetwork(dossierId: number) {
    const [row] = await this.db
      .select({ dossier: pecDossiers, networkCode: networks.code, networkName: networks.name, mutualName: mutuals.name, mutualCode: mutuals.code })
      .from(pecDossiers)
      .leftJoin(networks, eq(networks.id, pecDossiers.networkId))
      .leftJoin(mutuals, eq(mutuals.id, pecDossiers.mutualId))
      .where(eq(pecDossiers.id, dossierId));
    return row;
  }

  /** Files of the organisation that are in a run right now (for the bench and the tests). */
  async openRunCount(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(workflowExecutions)
      .where(isNull(workflowExecutions.completedAt));
    return Number(row?.n ?? 0);
  }
}
