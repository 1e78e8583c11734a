// The live events a PEC file's changes publish (server/events/bus.ts): the file's, and its robot steps'.
import type { pecDossiers, workflowExecutions } from '../db/schema';
import type { PecEvent } from '../events/bus';

type Dossier = typeof pecDossiers.$inferSelect;
type Execution = typeof workflowExecutions.$inferSelect;

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

export function workflowEvent(
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
