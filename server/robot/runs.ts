// Robot runs (domain.md, "The robot protocol"): starting a DPEC or billing run, receiving the robot's callbacks (or the
// same results entered by hand), failing runs at their deadline. A run is a chain of workflow executions: each step
// is recorded open ("en cours") and completed by its callback; a DPEC run has a scraping step then a dpec step, a
// billing run one billing step. At most one open step per file (a partial unique index): that is "a run in progress".
// Every write happens in one transaction that also records the audit entry, the notifications and the live events;
// no transaction is ever held across an HTTP call or a job queueing.
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { can, requirePermission } from '../auth/principal';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { appareils, mutuals, networks, pecDossiers, workflowExecutions } from '../db/schema';
import { ApiError, conflict, forbidden, invalidField, notFound } from '../http/errors';
import { recordAudit } from '../audit/audit';
import { publish, type PecEvent } from '../events/bus';
import { notifyFile, type NotificationContent } from '../notifications/service';
import { centreCredentials, secretsOf, withoutSecrets } from './credentials';
import { canSeeFile, pecReadScope } from '../pec/visibility';
import { fileKindOfShop } from '../pec/fileKind';
import { assertScrapingFitsKind, saveOpticalEquipment } from '../pec/optical';
import { dpecMissingPrerequisites } from '../pec/prescription';
import { fileWarnings } from '../pec/warnings';
import { QUEUES, type JobService } from '../jobs/boss';
import { formatDate } from '#domain/format';
import { assertAmountFits } from '../http/body';
import { MANUAL_RESULTS_LIMIT } from '#domain/limits';
import { idFromReference } from '#domain/iri';
import {
  BILLING_PREREQUISITE_MESSAGES,
  CALLBACK_MESSAGES,
  expiryDateError,
  DPEC_START_STATUSES,
  isDpecGranted,
  pecStatusLabel,
  PREREQUISITE_LABELS,
  PREREQUISITE_MESSAGES,
  ROBOT_TIMEOUT_MESSAGE,
  shapeRobotError,
  todayInFrance,
  type CallbackType,
  type PecStatus,
} from '#domain/pec';
import { CALLBACK_SCHEMAS, type BillingCallback, type DeviceInput, type DpecCallback, type ScrapingCallback } from '#domain/pecSchemas';
import { ARCHIVE_MESSAGES } from '#domain/archive';
import { CONFIRM_DUPLICATE_FLAG, TWIN_DPEC_STATUSES, type Twin } from '#domain/duplicates';
import { lockTwins, twinRefusal, twinsOf } from '../pec/duplicates';

export type Dossier = typeof pecDossiers.$inferSelect;
export type Execution = typeof workflowExecutions.$inferSelect;
export type RunKind = 'dpec' | 'billing';
export type Outcome = 'running' | 'success' | 'pending' | 'refused' | 'error' | 'timeout';

/** Workflow names: each contains "robot", which is how the action tab finds the robot's executions. */
export const STEP_NAMES: Record<CallbackType, string> = {
  scraping: 'Appel robot DPEC — récupération du patient et des appareils',
  dpec: 'Appel robot DPEC — demande de prise en charge',
  billing: 'Appel robot facturation — facturation de la PEC',
};
const MANUAL_NAMES: Record<CallbackType, string> = {
  scraping: 'Résultat robot saisi à la main — patient et appareils',
  dpec: 'Résultat robot saisi à la main — demande de prise en charge',
  billing: 'Résultat robot saisi à la main — facturation',
};

const RUN_STEPS: Record<RunKind, CallbackType[]> = { dpec: ['scraping', 'dpec'], billing: ['billing'] };
export const RUN_IN_PROGRESS = 'Un appel robot est déjà en cours pour ce dossier.';
const DOSSIER_NOT_FOUND = CALLBACK_MESSAGES.notFound;

const runningResponse = (type: CallbackType) => ({ messages: [] as string[], data: { callback_type: type, callback_payload: { messages: [] as string[] } } });

/** Today in France, as yyyy-mm-dd. */
export const parisToday = todayInFrance;

const isUniqueViolation = (error: unknown, index?: string) => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.cause?.code;
  const constraint = e?.constraint ?? e?.cause?.constraint;
  return code === '23505' && (!index || constraint === index || String((error as Error)?.message ?? '').includes(index));
};

function fileScope(d: Pick<Dossier, 'id' | 'holdingId' | 'shopId'>) {
  return { holdingId: d.holdingId, shopId: d.shopId, dossierId: d.id };
}

export function dossierEvent(
  type: 'dossier.created' | 'dossier.updated' | 'dossier.deleted',
  d: Pick<Dossier, 'id' | 'holdingId' | 'shopId' | 'numeroDossier'>,
  status: string,
): PecEvent {
  return { type, ...fileScope(d), status, numeroDossier: d.numeroDossier };
}

function workflowEvent(
  d: Pick<Dossier, 'id' | 'holdingId' | 'shopId'>,
  e: Pick<Execution, 'id' | 'runId' | 'callbackType' | 'outcome' | 'success' | 'completedAt'>,
): PecEvent {
  return {
    type: 'workflow.updated',
    ...fileScope(d),
    executionId: e.id,
    runId: e.runId,
    callbackType: e.callbackType,
    outcome: e.outcome,
    success: e.success,
    completed: e.completedAt !== null,
  };
}

/** 422 listing what is missing, shaped like a form violation list. */
function prerequisitesError(items: { field: string; label: string; message: string }[]) {
  return new ApiError(422, `Prérequis manquants : ${items.map((i) => i.label).join(', ')}.`, {
    '@type': 'ConstraintViolationList',
    missing: items.map((i) => i.field),
    violations: items.map((i) => ({ propertyPath: i.field, message: i.message })),
  });
}

/** What a notification says about a run's outcome. The file number is ours; no patient data. */
function outcomeNotification(kind: RunKind | 'scraping', outcome: Outcome, d: Dossier, messages: string[]): NotificationContent {
  const n = d.numeroDossier;
  const billing = kind === 'billing';
  switch (outcome) {
    case 'success':
      return billing
        ? { kind: 'billing_success', title: `Facturation effectuée — ${n}`, description: `Dossier facturé le ${formatDate(d.dateFacturationEffective)}.` }
        : {
            kind: 'robot_success',
            title: `PEC accordée — ${n}`,
            description: `N° PEC ${d.numPec ?? 'non communiqué'}${d.datePeremption ? `, valable jusqu'au ${formatDate(d.datePeremption)}` : ''}.`,
          };
    case 'pending':
      return { kind: 'robot_pending', title: `DPEC en attente — ${n}`, description: "La mutuelle a reçu la demande et n'a pas encore répondu." };
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

/** A refusal reason that held one of the centre's secrets is replaced by this. */
const HIDDEN_REFUSAL = 'Motif de refus masqué : il contenait un identifiant de connexion du centre.';

/** Why a result is refused while another run is open (409): it would settle the file and leave that run hanging. */
const CALLBACK_CONFLICTS = {
  unknownRun: "Ce résultat nomme un appel robot qui n'est pas celui de ce dossier.",
  otherRun: "Ce résultat concerne un autre appel robot que celui en cours pour ce dossier : rien n'a été modifié.",
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
function callbackKey(type: CallbackType, runId: number | null, input: ScrapingCallback | DpecCallback | BillingCallback): string {
  const { run_id: _run, ...fields } = input as Record<string, unknown>;
  return createHash('sha256')
    .update(`${type}\n${runId ?? '-'}\n${canonicalJson(fields)}`)
    .digest('hex');
}

export interface CallbackActor {
  robot: boolean;
  principal?: Principal;
}

export interface CallbackResult {
  executionId: number;
  processing_time: number;
  duplicate: boolean;
}

export class RobotRuns {
  constructor(
    private readonly app: AppContext,
    private readonly jobs: JobService,
  ) {}

  private get db() {
    return this.app.db;
  }

  // ---------- starting a run ----------

  /** POST /api/robot-frontend/setup-and-create-dpec and setup-and-billing-pec. */
  async start(principal: Principal, body: unknown, kind: RunKind) {
    requirePermission(principal, 'pec.create');
    const id = idFromReference((body as { pecDossierId?: unknown } | undefined)?.pecDossierId, 'pec_dossiers');
    if (id === undefined) throw invalidField('pecDossierId', 'Identifiant de dossier invalide');
    // Sending a request whose twin is already at the insurer, knowingly (domain/duplicates.ts).
    const confirmedDuplicate = (body as Record<string, unknown> | undefined)?.[CONFIRM_DUPLICATE_FLAG] === true;
    const now = new Date();
    const deadline = new Date(now.getTime() + this.app.config.robotRunTimeoutMs);

    let started: { externalId: string; runId: number; status: string };
    try {
      started = await this.db.transaction(async (tx) => {
        const [d] = await tx
          .select()
          .from(pecDossiers)
          .where(and(eq(pecDossiers.id, id), pecReadScope(principal)))
          .for('update');
        if (!d) throw notFound(DOSSIER_NOT_FOUND);
        if (d.archived) throw conflict(ARCHIVE_MESSAGES.robot(d.numeroDossier));

        if (kind === 'dpec') {
          const missing = await dpecMissingPrerequisites(tx, d);
          if (missing.length)
            throw prerequisitesError(missing.map((field) => ({ field, label: PREREQUISITE_LABELS[field], message: PREREQUISITE_MESSAGES[field] })));
        } else {
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
        if (kind === 'billing' && d.statutFacturation) throw conflict('Ce dossier est déjà facturé.');
        if (kind === 'dpec' && !DPEC_START_STATUSES.includes(d.status as PecStatus)) {
          throw conflict(`Le DPEC ne peut pas être lancé pour un dossier « ${pecStatusLabel(d.status)} ».`);
        }
        // A twin's request at the insurer (in progress or granted): refused unless confirmed. Starts on twins wait for
        // one another, so that two at once cannot both find the other still a draft.
        let duplicateOf: Twin[] = [];
        if (kind === 'dpec') {
          await lockTwins(tx, d);
          duplicateOf = (await twinsOf(tx, d)).filter((t) => TWIN_DPEC_STATUSES.includes(t.status as PecStatus));
          if (duplicateOf.length && !confirmedDuplicate) throw twinRefusal(duplicateOf, principal, d.holdingId);
        }

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
      if (!can(actor.principal, 'pec.create')) throw forbidden(CALLBACK_MESSAGES.forbidden);
    }
    const schema = CALLBACK_SCHEMAS[type];
    const input = schema.parse(body ?? {}) as ScrapingCallback | DpecCallback | BillingCallback;
    // The run this result ends, counted in the metrics once its transaction has committed.
    const ended: { run?: { runId: number; kind: RunKind; outcome: Outcome } } = {};
    const apply = () => this.db.transaction((tx) => this.applyCallback(tx, type, input, actor, (run) => (ended.run = run)));
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

  private async applyCallback(
    tx: DbOrTx,
    type: CallbackType,
    input: ScrapingCallback | DpecCallback | BillingCallback,
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

    if (!actor.robot) await this.checkManualRate(tx, d.id, now);

    // Billing needs a granted DPEC, by the robot's run as by a result entered by hand.
    if (type === 'billing' && input.success && !inRun && !d.statutFacturation && !isDpecGranted(d)) {
      throw conflict(`Facturation impossible : le DPEC de ce dossier n'est pas accordé (état « ${pecStatusLabel(d.status)} »).`);
    }

    let outcome: Outcome;
    if (type === 'dpec') {
      const dpec = input as DpecCallback;
      outcome = dpec.detail_refus ? 'refused' : !dpec.success ? 'error' : dpec.num_pec ? 'success' : 'pending';
    } else outcome = input.success ? 'success' : 'error';
    // The texts people read hold none of the centre's secrets (a robot that echoes its job would put them there).
    const secrets = secretsOf(await centreCredentials(this.app, d.shopId, tx));
    if (secrets.length) {
      const refusal = (input as DpecCallback).detail_refus;
      input = {
        ...input,
        messages: withoutSecrets(input.messages, secrets),
        ...(refusal && withoutSecrets([refusal], secrets).length === 0 ? { detail_refus: HIDDEN_REFUSAL } : {}),
      };
    }
    const success = outcome === 'success' || outcome === 'pending';
    const callbackType = success ? type : `${type}_error`;
    const { id_pecflow: _id, run_id: _run, ...payload } = input as Record<string, unknown>;
    const robotResponse = { messages: input.messages, data: { callback_type: callbackType, callback_payload: { ...payload, messages: input.messages } } };
    const workflowName = actor.robot ? STEP_NAMES[type] : MANUAL_NAMES[type];

    let execution: Execution;
    if (inRun) {
      [execution] = (await tx
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
    } else {
      [execution] = (await tx
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
    }

    // What the result changes on the file.
    const changes: Partial<Dossier> = {};
    let status = d.status;
    let nextStep: CallbackType | undefined;
    let final = true;
    const settle = (to: PecStatus, from: readonly string[]) => {
      if (from.includes(d.status)) status = to;
    };

    if (type === 'scraping') {
      const scraping = input as ScrapingCallback;
      // What the result holds must fit the file's kind (an optician's file gets an optical equipment).
      const kind = await fileKindOfShop(tx, d.shopId);
      assertScrapingFitsKind(kind, scraping);
      if (success) {
        // A retrieval is no outcome anyone needs to be told of.
        final = false;
        const devices = scrapingDevices(scraping);
        if (scraping.equipement_optique) {
          const total = await saveOpticalEquipment(tx, d, scraping.equipement_optique);
          if (total !== null) changes.totalTtc = total;
        } else if (devices.length) {
          const prices = devices.map((device) => device.prixTtc).filter((p): p is number => typeof p === 'number');
          const total = prices.length ? Math.round(prices.reduce((a, b) => a + b, 0) * 100) / 100 : undefined;
          assertAmountFits(total, 'appareils', 'le montant du devis (appareils)');
          await tx.delete(appareils).where(eq(appareils.dossierId, d.id));
          await tx.insert(appareils).values(devices.map((device) => ({ ...device, holdingId: d.holdingId, dossierId: d.id })));
          if (total !== undefined) changes.totalTtc = total;
        }
        // The robot goes on to the request; a person entering the result by hand takes the run over and ends it.
        if (inRun?.runKind === 'dpec' && actor.robot) nextStep = 'dpec';
      } else if (inRun) status = (inRun.previousStatus ?? d.status) as PecStatus;
      else final = false;
    } else if (type === 'dpec') {
      const dpec = input as DpecCallback;
      if (dpec.num_dossier) changes.numDossierDpec = dpec.num_dossier;
      if (dpec.date_creation) changes.dateCreation = dpec.date_creation;
      if (outcome === 'success' || outcome === 'pending') {
        if (dpec.num_pec) changes.numPec = dpec.num_pec;
        for (const [from, to] of [
          ['prix_frais_reels', 'prixFraisReels'],
          ['base_ss', 'baseSs'],
          ['part_ss', 'partSs'],
          ['part_complementaire', 'partComplementaire'],
          ['reste_charge', 'resteCharge'],
        ] as const) {
          const value = dpec[from];
          if (typeof value === 'number') changes[to] = value;
        }
        if (dpec.date_peremption) changes.datePeremption = dpec.date_peremption;
      }
      const open = ['draft', 'processing', 'pending', 'rejected'];
      if (outcome === 'success') {
        settle('approved', open);
        if (status === 'approved') {
          changes.dateValidation = now;
          changes.detailRefus = null;
        }
      } else if (outcome === 'pending') settle('pending', open);
      else if (outcome === 'refused') {
        settle('rejected', open);
        changes.detailRefus = dpec.detail_refus;
      } else if (inRun) status = (inRun.previousStatus ?? d.status) as PecStatus;
    } else {
      const billing = input as BillingCallback;
      if (success) {
        changes.statutFacturation = true;
        changes.dateFacturationEffective = billing.date_facturation_effective ?? parisToday(now);
        settle('billed', ['approved', 'processing', 'pending']);
      } else if (inRun) status = (inRun.previousStatus ?? d.status) as PecStatus;
    }
    if (status !== d.status) changes.status = status;
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

  /** Results entered by hand on one file are bounded (MANUAL_RESULTS_LIMIT): 429 with the wait once the limit is reached. */
  private async checkManualRate(tx: DbOrTx, dossierId: number, now: Date) {
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

  /** Counts a run that just ended (after its transaction committed), with its duration from its first step. */
  private observeEnd(runId: number, kind: RunKind, outcome: Outcome) {
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

/** The scraping callback's devices as appareils rows. */
function scrapingDevices(input: ScrapingCallback) {
  const offre = input.appareil?.offre_100_sante;
  const rows: {
    oreille: string;
    fabricant: string | null;
    marque: string | null;
    modele: string | null;
    prixTtc: number | null;
    codeLpp: string | null;
    premierAppareillage: boolean;
    forme: string | null;
    classe: string | null;
    offre100Sante: boolean;
  }[] = [];
  for (const [oreille, device] of [
    ['droite', input.appareil?.droit],
    ['gauche', input.appareil?.gauche],
  ] as [string, DeviceInput | null | undefined][]) {
    if (!device) continue;
    if (!device.fabricant && !device.marque && !device.modele && device.total_ttc == null && !device.code_lpp) continue;
    rows.push({
      oreille,
      fabricant: device.fabricant,
      marque: device.marque,
      modele: device.modele,
      prixTtc: device.total_ttc ?? null,
      codeLpp: device.code_lpp,
      premierAppareillage: device.premier_appareillage ?? false,
      forme: device.forme,
      classe: device.classe ?? (offre === true ? 'I' : null),
      offre100Sante: offre ?? device.classe !== 'II',
    });
  }
  return rows;
}
