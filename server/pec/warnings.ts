// A PEC file's warnings (issue 15): loads what the checks of warningChecks.ts judge — the file and its centre's
// specialty, its twins (issue 25), the patient's earlier billed files in the organisation, the devices or the optical equipment, the reference
// values and the prescription validity settings — in the caller's transaction (PGlite has one connection). Outside a
// transaction, the reference values and the settings (rarely written) are kept until they change (hydra/listCache.ts).
import { eq, getTableName, like, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { parsedJson } from '../db/json';
import type { ListCache } from '../hydra/listCache';
import { appareils, configs, opticalEquipments, pecDocuments, pecDossiers, pecRuleValues, shops } from '../db/schema';
import { fileKindOf, type FileKind } from '#domain/fileKinds';
import { todayInFrance, type PecStatus } from '#domain/pec';
import { PRESCRIPTION_VALIDITY_KEYS, type PecWarning } from '#domain/warnings';
import { loadOpticalEquipment, presentOpticalEquipment } from './optical';
import {
  documentWarnings,
  duplicateWarnings,
  prescriptionWarnings,
  renewalWarnings,
  santeWarnings,
  type PrescriptionValidity,
  type Rules,
} from './warningChecks';
import { twinsOf } from './duplicates';
import { twinsSeenBy, type Twin } from '#domain/duplicates';
import { canSeeFile, type Viewer } from '../auth/fileVisibility';

/** Statuses of a file whose equipment was delivered: billed, then paid. */
const DELIVERED = ['billed', 'paid'];

async function loadRules(tx: DbOrTx): Promise<Rules> {
  const rows = await tx.select({ key: pecRuleValues.key, value: pecRuleValues.value, source: pecRuleValues.source }).from(pecRuleValues);
  return Object.fromEntries(rows.map((r) => [r.key, { value: Number(r.value), source: r.source }]));
}

async function loadValidity(tx: DbOrTx): Promise<PrescriptionValidity> {
  const rows = await tx
    .select({ key: configs.key, value: configs.value, description: configs.description })
    .from(configs)
    .where(like(configs.key, 'general.prescription_validity_months.%'));
  const validity: PrescriptionValidity = {};
  for (const [band, key] of Object.entries(PRESCRIPTION_VALIDITY_KEYS) as [keyof PrescriptionValidity, string][]) {
    const row = rows.find((r) => r.key === key);
    if (row && typeof row.value === 'number' && row.value > 0) validity[band] = { months: row.value, source: row.description ?? key };
  }
  return validity;
}

/** What the file's page has read already: its row, its centre's specialty, its devices, its optical equipment. */
export interface ReadFile {
  dossier: typeof pecDossiers.$inferSelect;
  specialite: string | null;
  devices: Pick<typeof appareils.$inferSelect, 'oreille' | 'classe' | 'prixTtc'>[];
  equipment: typeof opticalEquipments.$inferSelect | null;
  earlier: EarlierFile[];
  twins: Twin[];
  /** The kinds of the file's documents (issue 29). */
  documentKinds: string[];
}

/** A patient's earlier delivered file: the renewal checks' input. */
export interface EarlierFile {
  numeroDossier: string;
  date: string | null;
  specialite: string | null;
  ears: string[];
}

/** A column of pec_dossiers, qualified: for subqueries correlated with a file. */
export const fileColumn = (column: string) => sql`${sql.identifier('pec_dossiers')}.${sql.identifier(column)}`;

/**
 * The patient's earlier delivered files in the organisation as one JSON array (EarlierFile), correlated with the file:
 * read with the file's page (present.ts) or alone.
 */
export const earlierFilesJson = sql`(select coalesce(json_agg(json_build_object('numeroDossier', p.numero_dossier,
    'date', coalesce(p.date_facturation_effective, p.date_billing)::text, 'specialite', ps.specialite,
    'ears', array(select a.oreille from appareils a where a.dossier_id = p.id))), '[]')
  from pec_dossiers p join shops ps on ps.id = p.shop_id
  where p.holding_id = ${fileColumn('holding_id')} and p.numero_dossier_assure = ${fileColumn('numero_dossier_assure')}
    and ${fileColumn('numero_dossier_assure')} <> '' and p.id <> ${fileColumn('id')} and p.status in (${sql.join(
      DELIVERED.map((status) => sql`${status}`),
      sql`, `,
    )}))`;

/** The file's twins (domain/duplicates.ts) as one JSON array of Twin, correlated with the file: read with its page. */
export const twinsJson = sql`(select coalesce(json_agg(json_build_object('id', t.id, 'numeroDossier', t.numero_dossier, 'status', t.status, 'shopId', t.shop_id) order by t.id), '[]')
  from pec_dossiers t
  where t.holding_id = ${fileColumn('holding_id')} and t.mutual_id = ${fileColumn('mutual_id')}
    and t.numero_devis_assure = ${fileColumn('numero_devis_assure')} and t.id <> ${fileColumn('id')} and not t.archived and not ${fileColumn('archived')})`;

/** The kinds of the file's documents as one JSON array, correlated with the file: read with its page. */
export const documentKindsJson = sql`(select coalesce(json_agg(distinct k.kind), '[]') from pec_documents k where k.dossier_id = ${fileColumn('id')})`;

/** The file's optical equipment as shown, for an optician's file: from what the page read, else read now. */
function opticalOf(tx: DbOrTx, kind: FileKind, dossierId: number, read: ReadFile | undefined) {
  if (kind !== 'optical') return null;
  if (!read) return loadOpticalEquipment(tx, dossierId);
  return read.equipment ? presentOpticalEquipment(read.equipment) : null;
}

async function earlierFilesOf(tx: DbOrTx, dossierId: number): Promise<EarlierFile[]> {
  const [row] = await tx.select({ earlier: earlierFilesJson }).from(pecDossiers).where(eq(pecDossiers.id, dossierId));
  return row ? parsedJson<EarlierFile[]>(row.earlier) : [];
}

/**
 * The file's warnings now; [] when none (or when the file is not found). `kept`: only when `tx` is not a transaction
 * (its reads would wait for the transaction on PGlite). `read`: what the caller has read of the file (not read again).
 * `viewer`: who reads them (a twin in a centre they cannot see is not named); everything when absent (the audit trail).
 */
export async function fileWarnings(tx: DbOrTx, dossierId: number, kept?: ListCache, read?: ReadFile, viewer?: Viewer): Promise<PecWarning[]> {
  const [file] = read
    ? [read]
    : await tx
        .select({ dossier: pecDossiers, specialite: shops.specialite })
        .from(pecDossiers)
        .innerJoin(shops, eq(shops.id, pecDossiers.shopId))
        .where(eq(pecDossiers.id, dossierId));
  if (!file) return [];
  const { dossier: d } = file;
  // A twin is worth knowing whatever the kind of file: it comes first, before the checks of the equipment.
  const twins = read?.twins ?? (await twinsOf(tx, d));
  const duplicates = duplicateWarnings(twinsSeenBy(twins, (twin) => !viewer || canSeeFile(viewer, { holdingId: d.holdingId, shopId: twin.shopId })));
  const kind = fileKindOf(file.specialite);
  if (kind === 'generic') return duplicates;
  const on = d.dateFacturationEffective ?? todayInFrance();

  // One reading of the reference values and settings: they are kept together (one wait for the instance's notice).
  // The reads follow one another: `tx` may be a transaction, whose one connection takes a single query at a time.
  const settings = async () => [await loadRules(tx), await loadValidity(tx)] as const;
  const [rules, validity] = await (kept ? kept.remember('pec.warnings', [getTableName(pecRuleValues), getTableName(configs)], settings) : settings());
  const devices =
    read?.devices ??
    (await tx
      .select({ oreille: appareils.oreille, classe: appareils.classe, prixTtc: appareils.prixTtc })
      .from(appareils)
      .where(eq(appareils.dossierId, d.id)));
  const optical = await opticalOf(tx, kind, d.id, read);
  const earlierFiles = read?.earlier ?? (d.numeroDossierAssure ? await earlierFilesOf(tx, d.id) : []);
  const earlier = earlierFiles
    .filter((r): r is EarlierFile & { date: string } => typeof r.date === 'string')
    .map((r) => ({ numeroDossier: r.numeroDossier, date: r.date.slice(0, 10), kind: fileKindOf(r.specialite), ears: r.ears }));

  const documentKinds =
    read?.documentKinds ?? (await tx.selectDistinct({ kind: pecDocuments.kind }).from(pecDocuments).where(eq(pecDocuments.dossierId, d.id))).map((r) => r.kind);

  return [
    ...duplicates,
    ...documentWarnings({ kind, status: d.status as PecStatus, documentKinds }),
    ...renewalWarnings({ kind, on, birthDate: d.dateNaissanceBeneficiaire, ears: [...new Set(devices.map((x) => x.oreille))].sort(), earlier, rules }),
    ...prescriptionWarnings({ kind, on, datePrescription: d.datePrescription, birthDate: d.dateNaissanceBeneficiaire, validity }),
    ...santeWarnings({
      kind,
      devices: devices.map((x) => ({ oreille: x.oreille, classe: x.classe, prixTtc: x.prixTtc === null ? null : Number(x.prixTtc) })),
      optical,
      amounts: {
        prixFraisReels: d.prixFraisReels,
        baseSs: d.baseSs,
        partSs: d.partSs,
        partComplementaire: d.partComplementaire,
        resteCharge: d.resteCharge,
      },
      rules,
    }),
  ];
}
