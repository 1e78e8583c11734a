// The equipment columns of the CSV export (issue 15): a file's kind, its hearing aids per ear or its optical
// equipment. The header is documented in the README ("Export CSV"). A page's equipment is read in three queries.
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { appareils, opticalEquipments, pecDossiers, shops } from '../db/schema';
import { FILE_KIND_LABELS, fileKindOf, type FileKind } from '#domain/fileKinds';
import { formatCorrection, formatIndex, LENS_TYPE_LABELS, type Lens } from '#domain/optical';
import { presentOpticalEquipment } from './optical';

type Device = typeof appareils.$inferSelect;

export interface FileEquipment {
  kind: FileKind;
  devices: Device[];
  optical: ReturnType<typeof presentOpticalEquipment> | null;
}

/** The equipment of the files with these ids, by id. */
export async function equipmentOf(tx: DbOrTx, ids: number[]): Promise<Map<number, FileEquipment>> {
  const result = new Map<number, FileEquipment>();
  if (ids.length === 0) return result;
  // One after the other: `tx` may be a transaction, whose one connection takes a single query at a time.
  const kinds = await tx
    .select({ id: pecDossiers.id, specialite: shops.specialite })
    .from(pecDossiers)
    .innerJoin(shops, eq(shops.id, pecDossiers.shopId))
    .where(inArray(pecDossiers.id, ids));
  const devices = await tx.select().from(appareils).where(inArray(appareils.dossierId, ids));
  const equipments = await tx.select().from(opticalEquipments).where(inArray(opticalEquipments.dossierId, ids));
  for (const k of kinds) result.set(k.id, { kind: fileKindOf(k.specialite), devices: [], optical: null });
  for (const d of devices) {
    const file = result.get(d.dossierId);
    if (file?.kind === 'audio') file.devices.push(d);
  }
  for (const e of equipments) {
    const file = result.get(e.dossierId);
    if (file?.kind === 'optical') file.optical = presentOpticalEquipment(e);
  }
  return result;
}

const join = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' ');

/** "Progressif −2,25 (−0,50 à 90°) add. +2,00 indice 1,6 antireflet, durci". */
export function lensText(lens: Lens | null): string {
  if (!lens) return '';
  const treatments = lens.traitements.length ? lens.traitements.join(', ') : null;
  return join(LENS_TYPE_LABELS[lens.type], formatCorrection(lens), lens.indice ? `indice ${formatIndex(lens.indice)}` : null, treatments);
}

/** Text and numbers of the equipment columns; the export formats them (safe text, decimal comma). */
export const EQUIPMENT_COLUMNS: { header: string; value: (e: FileEquipment | undefined) => string | number | null }[] = (() => {
  const ear = (oreille: 'droite' | 'gauche') => (e: FileEquipment | undefined) => e?.devices.find((d) => d.oreille === oreille);
  const eye = (side: 'OD' | 'OG') => (e: FileEquipment | undefined) => e?.optical?.verres[side] ?? null;
  const audioClass = (e: FileEquipment) => [...new Set(e.devices.map((d) => d.classe).filter(Boolean))].join(', ') || null;
  return [
    { header: 'Type de dossier', value: (e) => (e ? FILE_KIND_LABELS[e.kind] : null) },
    { header: 'Classe 100 % Santé', value: (e) => (!e ? null : e.kind === 'optical' ? (e.optical?.classe ?? null) : audioClass(e)) },
    { header: 'Appareil droit', value: (e) => join(ear('droite')(e)?.marque, ear('droite')(e)?.modele) || null },
    { header: 'Code LPP appareil droit', value: (e) => ear('droite')(e)?.codeLpp ?? null },
    { header: 'Prix appareil droit', value: (e) => ear('droite')(e)?.prixTtc ?? null },
    { header: 'Appareil gauche', value: (e) => join(ear('gauche')(e)?.marque, ear('gauche')(e)?.modele) || null },
    { header: 'Code LPP appareil gauche', value: (e) => ear('gauche')(e)?.codeLpp ?? null },
    { header: 'Prix appareil gauche', value: (e) => ear('gauche')(e)?.prixTtc ?? null },
    { header: 'Monture', value: (e) => join(e?.optical?.monture.marque, e?.optical?.monture.modele) || null },
    { header: 'Code LPP monture', value: (e) => e?.optical?.monture.codeLpp ?? null },
    { header: 'Prix monture', value: (e) => e?.optical?.monture.prix ?? null },
    { header: 'Verre OD', value: (e) => lensText(eye('OD')(e)) || null },
    { header: 'Code LPP verre OD', value: (e) => eye('OD')(e)?.codeLpp ?? null },
    { header: 'Prix verre OD', value: (e) => eye('OD')(e)?.prix ?? null },
    { header: 'Verre OG', value: (e) => lensText(eye('OG')(e)) || null },
    { header: 'Code LPP verre OG', value: (e) => eye('OG')(e)?.codeLpp ?? null },
    { header: 'Prix verre OG', value: (e) => eye('OG')(e)?.prix ?? null },
  ];
})();
