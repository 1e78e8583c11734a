// Bulk actions on selected PEC files (issue 28, domain/bulk.ts): POST /api/pec_dossiers/bulk/{dpec|billing|archive|assign}.
// Each file goes through the single action's own code (RobotRuns.check/start, the resource's PATCH), so its rules,
// its tenancy and its audit entry are the single action's; a refusal is that file's outcome, never the others'.
// Robot runs are queued in bulk_runs and started as the organisation's open runs fall under its robot concurrency
// (a system setting): after the bulk, after each run's end, and at each sweep (a queue outlives a restart).
import { randomUUID } from 'node:crypto';
import { and, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Principal } from '../auth/principal';
import { loadPrincipal, requirePermission } from '../auth/principal';
import { pecReadScope } from '../auth/fileVisibility';
import type { AppContext } from '../context';
import { principalOf } from '../context';
import { bulkRuns, pecDossiers } from '../db/schema';
import { ApiError, notFound } from '../http/errors';
import { recordAudit } from '../audit/audit';
import type { RobotRuns } from './runs';
import { DOSSIER_NOT_FOUND, prerequisitesError } from './steps';
import { PEC_PERMISSIONS, ACT_ON_FILE_PERMISSION } from '#domain/permissions';
import { pecArchiveSchema, pecBulkBillingSchema } from '#domain/pecSchemas';
import { BULK_ACTIONS, BULK_MESSAGES, ROBOT_CONCURRENCY_KEY, type BulkAction, type BulkFileResult, type BulkSummary } from '#domain/bulk';
import { idFromReference } from '#domain/iri';
import { BILLING_PREREQUISITE_MESSAGES, isDpecGranted, PEC_MESSAGES } from '#domain/pec';
import { BULK_MAX_FILES, ROBOT_CONCURRENCY_DEFAULT } from '#domain/limits';

const ids = z
  .array(z.union([z.string().max(100), z.number()], { error: BULK_MESSAGES.ids }), { error: BULK_MESSAGES.ids })
  .min(1, BULK_MESSAGES.empty)
  .refine((list) => list.length <= BULK_MAX_FILES, { error: (issue) => BULK_MESSAGES.tooMany((issue.input as unknown[]).length) });

const BODIES = {
  dpec: z.object({ ids }),
  // One invoice date (the single billing's own rule), one number per file (in the order of ids).
  billing: z.object({
    ids,
    dateBilling: pecBulkBillingSchema.shape.dateBilling,
    numbers: z.array(z.string().max(255), { error: BULK_MESSAGES.numbers }).max(BULK_MAX_FILES),
  }),
  // The single archive's rules (a reason; its text for 'Autre' only; an empty text is none).
  archive: z.object({ ids }).and(pecArchiveSchema),
  // 'Suivi par' for every file: a user's IRI, or null for nobody; each file checks that its owner sees it.
  assign: z.object({
    ids,
    owner: z
      .string()
      .max(100)
      .nullable()
      .refine((owner) => owner === null || idFromReference(owner, 'users') !== undefined, BULK_MESSAGES.ownerInvalid),
  }),
};

/** Who may ask for each action at all (each file then applies its own rules). */
const ACTION_PERMISSIONS: Record<BulkAction, string> = {
  dpec: ACT_ON_FILE_PERMISSION,
  billing: ACT_ON_FILE_PERMISSION,
  archive: PEC_PERMISSIONS.update,
  assign: PEC_PERMISSIONS.update,
};

/** A refused single action's French reason (a 422 says its violations' messages, already in its detail). */
const reasonOf = (error: unknown) => (error instanceof ApiError ? error.message : 'Action impossible sur ce dossier.');

/** Started runs waiting as 'starting' longer than this are a crashed start: found started, or queued again. */
const STALE_START = '2 minutes';

export class BulkActions {
  private pumping = false;
  private again = false;

  constructor(
    private readonly app: AppContext,
    private readonly runs: RobotRuns,
  ) {}

  /**
   * `countFile`: counts one more file against the author's rate limit (the first file rides on the bulk request
   * itself), so that a bulk of n files spends what n single actions would; a file beyond the allowance is refused.
   */
  async run(principal: Principal, action: BulkAction, body: unknown, countFile: () => Promise<void> = async () => {}): Promise<BulkSummary> {
    // Refused whole, before anything is written, to whom may not ask for it.
    requirePermission(principal, ACTION_PERMISSIONS[action]);
    const input = BODIES[action].parse(body ?? {});
    const bulkId = randomUUID();
    // A file named twice is acted on once (its first place keeps its invoice number).
    const named = [...new Map(input.ids.map((value, index) => [idFromReference(value, 'pec_dossiers') ?? `?${index}`, index])).values()];
    const wanted = named.map((index) => idFromReference(input.ids[index]!, 'pec_dossiers'));
    const known = wanted.filter((id): id is number => id !== undefined);
    // What the author may see of the files named: their numbers for the summary, nothing of another organisation's.
    const visible = new Map(
      (
        await this.app.db
          .select()
          .from(pecDossiers)
          .where(and(inArray(pecDossiers.id, known.length ? known : [0]), pecReadScope(principal)))
      ).map((file) => [file.id, file]),
    );
    const repository = this.app.resources.get('pec_dossiers');
    const results: BulkFileResult[] = [];
    let queued = false;
    for (const [index, id] of wanted.entries()) {
      const file = id === undefined ? undefined : visible.get(id);
      const result: BulkFileResult = {
        '@id': id === undefined ? String(input.ids[named[index]!]) : repository.iri(id),
        numeroDossier: file?.numeroDossier ?? null,
        outcome: 'done',
      };
      try {
        if (index > 0) await countFile();
        if (id === undefined) throw new ApiError(422, BULK_MESSAGES.invalidId);
        if (!file) throw notFound(DOSSIER_NOT_FOUND);
        if (action === 'archive') {
          const { archiveReason, archiveNote } = input as z.output<typeof BODIES.archive>;
          await repository.update(principal, id, { archived: true, archiveReason, ...(archiveNote ? { archiveNote } : {}) }, 'patch');
        } else if (action === 'assign') {
          await repository.update(principal, id, { owner: (input as z.output<typeof BODIES.assign>).owner }, 'patch');
        } else {
          // What refuses a file is checked before its invoice is written: a refused file is unchanged.
          if (await this.waiting(id)) throw new ApiError(409, BULK_MESSAGES.alreadyQueued);
          if (action === 'billing') {
            const { dateBilling, numbers } = input as z.output<typeof BODIES.billing>;
            if (file.statutFacturation) throw new ApiError(409, file.status === 'paid' ? PEC_MESSAGES.alreadyPaid : PEC_MESSAGES.alreadyBilled);
            if (!isDpecGranted(file)) throw prerequisitesError([{ field: 'dpec', label: 'DPEC accordé', message: BILLING_PREREQUISITE_MESSAGES.dpec }]);
            const numBilling = numbers[named[index]!]?.trim();
            if (!numBilling) throw new ApiError(422, BULK_MESSAGES.numberMissing);
            await this.runs.check(principal, { pecDossierId: id }, action, { numBilling, dateBilling });
            await repository.update(principal, id, { numBilling, dateBilling }, 'patch');
            result.numBilling = numBilling;
          } else await this.runs.check(principal, { pecDossierId: id }, action);
          result.outcome = 'queued';
          queued = true;
        }
      } catch (error) {
        result.outcome = 'refused';
        result.reason = reasonOf(error);
      }
      await this.record(principal, bulkId, action, file, result);
      results.push(result);
    }
    repository.noteWrite(principal);
    if (queued) void this.pump();
    return { bulkId, action, results };
  }

  /** One bulk_runs row and one audit entry per file (the single action wrote its own entry too). */
  private async record(
    principal: Principal,
    bulkId: string,
    action: BulkAction,
    file: { id: number; numeroDossier: string; holdingId: number } | undefined,
    result: BulkFileResult,
  ) {
    await this.app.db.transaction(async (tx) => {
      await tx.insert(bulkRuns).values({
        bulkId,
        holdingId: file?.holdingId ?? principal.holdingId ?? null,
        dossierId: file?.id ?? null,
        actorId: principal.id,
        action,
        state: result.outcome,
        reason: result.reason ?? null,
      });
      await recordAudit(tx, principal, {
        action: `pec_dossier.bulk_${action}`,
        entity: 'pec_dossiers',
        entityId: file?.id ?? null,
        entityLabel: file?.numeroDossier ?? null,
        holdingId: file?.holdingId ?? principal.holdingId ?? null,
        changes: { bulkId, outcome: result.outcome, ...(result.reason ? { reason: result.reason } : {}) },
      });
    });
  }

  private async waiting(dossierId: number): Promise<boolean> {
    const rows = await this.app.database.query(`select 1 from bulk_runs where dossier_id = $1 and state in ('queued', 'starting') limit 1`, [dossierId]);
    return rows.length > 0;
  }

  /** Starts the queued runs each organisation has room for; one pass at a time per instance, again if asked meanwhile. */
  async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        await this.startWaiting();
      } while (this.again);
    } finally {
      this.pumping = false;
    }
  }

  /** The sweep's part: crashed starts found started or queued again, then the queue. */
  async sweep(): Promise<void> {
    await this.app.database.query(
      `update bulk_runs b set updated_at = now(), state = case when exists (
         select 1 from workflow_executions w where w.dossier_id = b.dossier_id and w.id = w.run_id and w.started_at >= b.updated_at) then 'done' else 'queued' end
       where state = 'starting' and updated_at < now() - interval '${STALE_START}'`,
    );
    await this.pump();
  }

  private async startWaiting() {
    const limit = await this.app.settings.number(ROBOT_CONCURRENCY_KEY, ROBOT_CONCURRENCY_DEFAULT);
    // Claimed under one lock (several instances): each organisation's open runs and claimed starts stay within the limit.
    const claimed = await this.app.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('pecflow:bulk_runs', 0))`);
      const result = await tx.execute(sql`
        update bulk_runs set state = 'starting', updated_at = now() where id in (
          select q.id from (
            select id, holding_id, row_number() over (partition by holding_id order by id) as n from bulk_runs where state = 'queued'
          ) q
          where q.n <= ${limit}
            - (select count(*) from workflow_executions w where w.holding_id = q.holding_id and w.completed_at is null)
            - (select count(*) from bulk_runs s where s.holding_id = q.holding_id and s.state = 'starting'))
        returning id, bulk_id, dossier_id, actor_id, action, holding_id`);
      return ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as ClaimedRow[];
    });
    for (const row of claimed.sort((a, b) => a.id - b.id)) await this.startOne(row);
  }

  private async startOne(row: ClaimedRow) {
    const principal = row.actor_id === null ? undefined : await loadPrincipal(this.app.database, row.actor_id);
    let state = 'done';
    let reason: string | null = null;
    let runId: number | null = null;
    try {
      if (!principal) throw new ApiError(403, 'L’auteur de l’action groupée n’a plus accès.');
      runId = (await this.runs.start(principal, { pecDossierId: row.dossier_id }, row.action as 'dpec' | 'billing')).runId;
      this.app.resources.get('pec_dossiers').noteWrite(principal);
    } catch (error) {
      state = 'refused';
      reason = BULK_MESSAGES.startRefused(reasonOf(error));
    }
    await this.app.db.transaction(async (tx) => {
      await tx.execute(sql`update bulk_runs set state = ${state}, reason = ${reason}, run_id = ${runId}, updated_at = now() where id = ${row.id}`);
      if (reason)
        await recordAudit(tx, principal ?? null, {
          action: `pec_dossier.bulk_${row.action}`,
          entity: 'pec_dossiers',
          entityId: row.dossier_id,
          holdingId: row.holding_id,
          changes: { bulkId: row.bulk_id, outcome: 'refused', reason },
        });
    });
  }
}

interface ClaimedRow {
  id: number;
  bulk_id: string;
  dossier_id: number;
  actor_id: number | null;
  action: string;
  holding_id: number;
}

export async function bulkRoutes(app: FastifyInstance) {
  const { bulk } = app.ctx.pec;
  app.post('/api/pec_dossiers/bulk/:action', async (request: FastifyRequest) => {
    const action = (request.params as { action: string }).action as BulkAction;
    if (!BULK_ACTIONS.includes(action)) throw notFound(BULK_MESSAGES.unknownAction);
    return bulk.run(principalOf(request), action, request.body, () => app.countRequest('api', request));
  });
}
