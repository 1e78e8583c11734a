// How a PEC file reads in the API (spec section 3): the centre, the mutual with its network, and, on a single file,
// its devices and workflow executions (newest first).
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { appareils, mutuals, networks, shops, workflowExecutions } from '../db/schema';
import type { Row } from '../hydra/types';
import { iriOf } from '../../src/domain/iri';
import { shapeRobotError, type RobotErrorView, type WorkflowExecutionView } from '../../src/domain/pec';

const unique = (values: unknown[]) => [...new Set(values.filter((v): v is number => typeof v === 'number'))];
const ouiNon = (value: boolean | null) => (value ? 'oui' : 'non');

/** Replaces the shop, mutual and network IRIs of the items by the objects the PEC screens show. */
export async function embedReferences(tx: DbOrTx, items: Row[], rows: Row[]): Promise<void> {
  const shopIds = unique(rows.map((r) => r.shopId));
  const mutualIds = unique(rows.map((r) => r.mutualId));
  const [shopRows, mutualRows] = await Promise.all([
    shopIds.length ? tx.select({ id: shops.id, name: shops.name, displayName: shops.displayName }).from(shops).where(inArray(shops.id, shopIds)) : [],
    mutualIds.length
      ? tx
          .select({ id: mutuals.id, name: mutuals.name, code: mutuals.code, networkId: mutuals.networkId, networkName: networks.name })
          .from(mutuals)
          .leftJoin(networks, eq(networks.id, mutuals.networkId))
          .where(inArray(mutuals.id, mutualIds))
      : [],
  ]);
  const networkIds = unique(rows.map((r) => r.networkId)).filter((id) => !mutualRows.some((m) => m.networkId === id));
  const extraNetworks = networkIds.length ? await tx.select({ id: networks.id, name: networks.name }).from(networks).where(inArray(networks.id, networkIds)) : [];

  const shopById = new Map(shopRows.map((s) => [s.id, s]));
  const mutualById = new Map(mutualRows.map((m) => [m.id, m]));
  const networkName = new Map<number, string>([...extraNetworks.map((n) => [n.id, n.name] as const), ...mutualRows.filter((m) => m.networkId !== null).map((m) => [m.networkId!, m.networkName ?? ''] as const)]);

  items.forEach((item, index) => {
    const row = rows[index]!;
    const shop = shopById.get(row.shopId as number);
    item.shop = shop ? { '@id': iriOf('shops', shop.id), '@type': 'Shop', id: shop.id, name: shop.name, displayName: shop.displayName } : null;
    const mutual = mutualById.get(row.mutualId as number);
    item.mutual = mutual
      ? {
          '@id': iriOf('mutuals', mutual.id),
          '@type': 'Mutual',
          id: mutual.id,
          name: mutual.name,
          code: mutual.code,
          networkId: mutual.networkId,
          network: mutual.networkId !== null ? { id: mutual.networkId, name: mutual.networkName } : null,
        }
      : null;
    const networkId = row.networkId as number | null;
    item.network = networkId !== null && networkId !== undefined ? { '@id': iriOf('networks', networkId), '@type': 'Network', id: networkId, name: networkName.get(networkId) ?? null } : null;
  });
}

export type ExecutionRow = typeof workflowExecutions.$inferSelect;

function errorOf(e: ExecutionRow): RobotErrorView | null {
  if (e.success !== false || e.completedAt === null) return null;
  const response = e.robotResponse as { messages?: string[]; data?: { callback_payload?: { detail_refus?: string } } } | null;
  if (e.outcome === 'refused') return { title: 'PEC refusée', message: response?.data?.callback_payload?.detail_refus ?? 'La mutuelle a refusé la prise en charge.' };
  const billing = e.runKind === 'billing' || (e.callbackType ?? '').startsWith('billing');
  return shapeRobotError(response?.messages ?? [], billing ? 'billing' : 'dpec');
}

export function presentExecution(e: ExecutionRow): WorkflowExecutionView & Row {
  return {
    '@type': 'WorkflowExecution',
    id: e.id,
    success: e.success,
    startedAt: e.startedAt.toISOString(),
    completedAt: e.completedAt?.toISOString() ?? null,
    workflow: { name: e.workflowName },
    callbackType: e.callbackType,
    outcome: e.outcome,
    runId: e.runId,
    runKind: e.runKind,
    processingTime: e.processingTimeMs,
    robotResponse: (e.robotResponse as WorkflowExecutionView['robotResponse']) ?? null,
    error: errorOf(e),
  };
}

/** A file's devices, executions (newest first) and its run in progress. */
export async function expandItem(tx: DbOrTx, item: Row, dossierId: number): Promise<void> {
  const [devices, executions] = await Promise.all([
    tx.select().from(appareils).where(eq(appareils.dossierId, dossierId)).orderBy(appareils.oreille, appareils.id),
    tx.select().from(workflowExecutions).where(eq(workflowExecutions.dossierId, dossierId)).orderBy(desc(workflowExecutions.startedAt), desc(workflowExecutions.id)),
  ]);
  item.appareils = devices.map((d) => ({
    '@type': 'Appareil',
    id: d.id,
    oreille: d.oreille,
    fabricant: d.fabricant,
    marque: d.marque,
    modele: d.modele,
    prixTtc: d.prixTtc,
    codeLpp: d.codeLpp,
    lpprCode: d.codeLpp,
    premierAppareillage: ouiNon(d.premierAppareillage),
    forme: d.forme,
    classe: d.classe,
    offre100Sante: ouiNon(d.offre100Sante),
  }));
  item.workflowExecutions = executions.map(presentExecution);
  const open = executions.find((e) => e.completedAt === null);
  item.runInProgress = open
    ? { runId: open.runId, kind: open.runKind, step: open.callbackType, startedAt: open.startedAt.toISOString(), deadlineAt: open.deadlineAt?.toISOString() ?? null }
    : null;
}

/** The open step of a file, if a run is in progress. */
export async function openExecution(tx: DbOrTx, dossierId: number) {
  const [open] = await tx
    .select({ id: workflowExecutions.id })
    .from(workflowExecutions)
    .where(and(eq(workflowExecutions.dossierId, dossierId), isNull(workflowExecutions.completedAt)))
    .limit(1);
  return open;
}
