// How a PEC file reads in the API (spec section 3): the centre, the mutual with its network, and, on a single file,
// its devices and workflow executions (newest first).
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { appareils, pecDossiers, workflowExecutions } from '../db/schema';
import type { Row } from '../hydra/types';
import { expandFileKind } from './optical';
import { iriOf } from '../../src/domain/iri';
import { shapeRobotError, type RobotErrorView, type WorkflowExecutionView } from '../../src/domain/pec';

const unique = (values: unknown[]) => [...new Set(values.filter((v): v is number => typeof v === 'number'))];
const ouiNon = (value: boolean | null) => (value ? 'oui' : 'non');

interface Refs {
  shop: { id: number; name: string; displayName: string | null; specialite: string | null } | null;
  mutual: { id: number; name: string; code: string | null; networkId: number | null; networkName: string | null } | null;
  network: { id: number; name: string } | null;
}

/**
 * The centre, the mutual and the network of a file as one JSON value. A page's files get theirs in one query by id
 * (selecting them with the list itself would compute them for every skipped row of a deep page too).
 */
const refsSelection = sql`json_build_object(
  'shop', (select json_build_object('id', s.id, 'name', s.name, 'displayName', s.display_name, 'specialite', s.specialite) from shops s where s.id = ${pecDossiers.shopId}),
  'mutual', (select json_build_object('id', m.id, 'name', m.name, 'code', m.code, 'networkId', m.network_id, 'networkName', mn.name)
     from mutuals m left join networks mn on mn.id = m.network_id where m.id = ${pecDossiers.mutualId}),
  'network', (select json_build_object('id', n.id, 'name', n.name) from networks n where n.id = ${pecDossiers.networkId}))`;

function applyRefs(item: Row, refs: Refs) {
  const { shop, mutual, network } = refs;
  item.shop = shop
    ? { '@id': iriOf('shops', shop.id), '@type': 'Shop', id: shop.id, name: shop.name, displayName: shop.displayName, specialite: shop.specialite }
    : null;
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
  item.network = network ? { '@id': iriOf('networks', network.id), '@type': 'Network', id: network.id, name: network.name } : null;
}

/** Replaces the shop, mutual and network IRIs of the items by the objects the PEC screens show (one query). */
export async function embedReferences(tx: DbOrTx, items: Row[], rows: Row[]): Promise<void> {
  const ids = unique(rows.map((r) => r.id));
  if (ids.length === 0) return;
  const found = await tx.select({ id: pecDossiers.id, refs: refsSelection }).from(pecDossiers).where(inArray(pecDossiers.id, ids));
  const byId = new Map(found.map((row) => [row.id, (typeof row.refs === 'string' ? JSON.parse(row.refs) : row.refs) as Refs]));
  items.forEach((item, index) => {
    const refs = byId.get(rows[index]!.id as number);
    if (refs) applyRefs(item, refs);
  });
}

/**
 * embedReferences' values for a list page written by PostgreSQL (ResourceRepository.listJson), the same shapes as
 * applyRefs gives (tests/api/list-json.test.ts compares both paths).
 */
const file = (column: string) => sql`${sql.identifier('pec_dossiers')}.${sql.identifier(column)}`;
export const referencesJson = {
  shop: sql`(select row_to_json(r) from (select '/api/shops/' || s.id as "@id", 'Shop' as "@type", s.id, s.name, s.display_name as "displayName", s.specialite
     from shops s where s.id = ${file('shop_id')}) r)`,
  mutual: sql`(select row_to_json(r) from (select '/api/mutuals/' || m.id as "@id", 'Mutual' as "@type", m.id, m.name, m.code, m.network_id as "networkId",
       case when m.network_id is null then null else json_build_object('id', m.network_id, 'name', mn.name) end as network
     from mutuals m left join networks mn on mn.id = m.network_id where m.id = ${file('mutual_id')}) r)`,
  network: sql`(select row_to_json(r) from (select '/api/networks/' || n.id as "@id", 'Network' as "@type", n.id, n.name
     from networks n where n.id = ${file('network_id')}) r)`,
};

export type ExecutionRow = typeof workflowExecutions.$inferSelect;

function errorOf(e: ExecutionRow): RobotErrorView | null {
  if (e.success !== false || e.completedAt === null) return null;
  const response = e.robotResponse as { messages?: string[]; data?: { callback_payload?: { detail_refus?: string } } } | null;
  if (e.outcome === 'refused')
    return { title: 'PEC refusée', message: response?.data?.callback_payload?.detail_refus ?? 'La mutuelle a refusé la prise en charge.' };
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
    tx
      .select()
      .from(workflowExecutions)
      .where(eq(workflowExecutions.dossierId, dossierId))
      .orderBy(desc(workflowExecutions.startedAt), desc(workflowExecutions.id)),
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
  await expandFileKind(tx, item, dossierId);
  item.workflowExecutions = executions.map(presentExecution);
  const open = executions.find((e) => e.completedAt === null);
  item.runInProgress = open
    ? {
        runId: open.runId,
        kind: open.runKind,
        step: open.callbackType,
        startedAt: open.startedAt.toISOString(),
        deadlineAt: open.deadlineAt?.toISOString() ?? null,
      }
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
