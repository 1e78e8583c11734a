// How a PEC file reads in the API (spec section 3): the centre, the mutual with its network, and, on a single file,
// its devices and workflow executions (newest first).
import { and, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/connect';
import { parsedJson } from '../db/json';
import { appareils, opticalEquipments, pecDossiers, workflowExecutions } from '../db/schema';
import type { Row } from '../hydra/types';
import { applyFileKind } from './optical';
import { documentKindsJson, earlierFilesJson, fileColumn as file, twinsJson, type EarlierFile, type ReadFile } from './warnings';
import type { Twin } from '#domain/duplicates';
import { iriOf } from '#domain/iri';
import { robotRunKind, shapeRobotError, type RobotErrorView, type WorkflowExecutionView } from '#domain/pec';

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
  'shop', (select json_build_object('id', s.id, 'name', s.name, 'displayName', s.display_name, 'specialite', s.specialite) from shops s where s.id = ${file('shop_id')}),
  'mutual', (select json_build_object('id', m.id, 'name', m.name, 'code', m.code, 'networkId', m.network_id, 'networkName', mn.name)
     from mutuals m left join networks mn on mn.id = m.network_id where m.id = ${file('mutual_id')}),
  'network', (select json_build_object('id', n.id, 'name', n.name) from networks n where n.id = ${file('network_id')}))`;

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
  const byId = new Map(found.map((row) => [row.id, parsedJson<Refs>(row.refs)]));
  items.forEach((item, index) => {
    const refs = byId.get(rows[index]!.id as number);
    if (refs) applyRefs(item, refs);
  });
}

/**
 * embedReferences' values for a list page written by PostgreSQL (ResourceRepository.listJson), the same shapes as
 * applyRefs gives (tests/api/list-json.test.ts compares both paths).
 */
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
  return shapeRobotError(response?.messages ?? [], robotRunKind(e));
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

/** json_build_object of a row of `table` (alias `alias`), keyed by column name: rows read inside a JSON aggregate. */
function jsonRow(table: PgTable, alias: string): SQL {
  const pairs = Object.values(getTableColumns(table)).map((column) => `'${column.name}', ${alias}.${column.name}`);
  return sql.raw(`json_build_object(${pairs.join(', ')})`);
}

/** A row read back from jsonRow, each column decoded as Drizzle decodes it from the driver. */
function fromJsonRow<T>(table: PgTable, json: Record<string, unknown>): T {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T;
}

type Device = typeof appareils.$inferSelect;

/**
 * A file's centre, mutual and network, its kind and optical equipment, its devices, its executions (newest first),
 * the patient's earlier delivered files and the file's twins (its warnings): one JSON value read with the file itself (the declaration's
 * itemRead), as the file's page is the most opened one and each round trip costs the server and the database more
 * than the rows.
 */
export const itemDetailsJson = sql`json_build_object(
  'refs', ${refsSelection},
  'equipment', (select ${jsonRow(opticalEquipments, 'o')} from optical_equipments o where o.dossier_id = ${file('id')}),
  'devices', (select coalesce(json_agg(${jsonRow(appareils, 'a')} order by a.oreille, a.id), '[]') from appareils a where a.dossier_id = ${file('id')}),
  'executions', (select coalesce(json_agg(${jsonRow(workflowExecutions, 'e')} order by e.started_at desc, e.id desc), '[]')
    from workflow_executions e where e.dossier_id = ${file('id')}),
  'earlier', ${earlierFilesJson},
  'twins', ${twinsJson},
  'documentKinds', ${documentKindsJson})`;

interface ItemDetails {
  refs: Refs;
  equipment: Record<string, unknown> | null;
  devices: Record<string, unknown>[];
  executions: Record<string, unknown>[];
  earlier: EarlierFile[];
  twins: Twin[];
  documentKinds: string[];
}

/** Adds a file's details (itemDetailsJson, as read) to its item; gives what its warnings need. */
export function expandItem(item: Row, details: unknown): Omit<ReadFile, 'dossier'> {
  const found = parsedJson<ItemDetails>(details);
  applyRefs(item, found.refs);
  const devices = found.devices.map((d) => fromJsonRow<Device>(appareils, d));
  const executions = found.executions.map((e) => fromJsonRow<ExecutionRow>(workflowExecutions, e));
  const equipment = found.equipment ? fromJsonRow<typeof opticalEquipments.$inferSelect>(opticalEquipments, found.equipment) : null;
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
  const specialite = found.refs.shop?.specialite ?? null;
  applyFileKind(item, specialite, equipment);
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
  return { devices, specialite, equipment, earlier: found.earlier, twins: found.twins, documentKinds: found.documentKinds };
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
