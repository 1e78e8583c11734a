// An optician's file's equipment as the API shows it (domain/optical.ts), read from optical_equipments.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { opticalEquipments } from '../db/schema';
import type { Row } from '../hydra/types';
import { invalidField } from '../http/errors';
import { assertAmountFits } from '../http/body';
import { fileKindOf, type FileKind } from '#domain/fileKinds';
import { OPTICAL_MESSAGES, type EquipementOptique, type Lens, type OpticalClass } from '#domain/optical';
import type { OpticalEquipmentInput, ScrapingCallback } from '#domain/pecSchemas';

export function presentOpticalEquipment(row: typeof opticalEquipments.$inferSelect): EquipementOptique {
  return {
    '@type': 'EquipementOptique',
    classe: (row.classe as OpticalClass | null) ?? null,
    monture: { marque: row.montureMarque, modele: row.montureModele, prix: row.monturePrix, codeLpp: row.montureCodeLpp },
    verres: { OD: (row.verreOd as Lens | null) ?? null, OG: (row.verreOg as Lens | null) ?? null },
  };
}

/** The file's optical equipment, or null (none entered yet, or not an optician's file). */
export async function loadOpticalEquipment(tx: DbOrTx, dossierId: number): Promise<EquipementOptique | null> {
  const [row] = await tx.select().from(opticalEquipments).where(eq(opticalEquipments.dossierId, dossierId));
  return row ? presentOpticalEquipment(row) : null;
}

/** Whether a scraping result carries hearing-aid data (a device with any value on either ear). */
const hasDevices = (input: ScrapingCallback) =>
  [input.appareil?.droit, input.appareil?.gauche].some((d) => d && (d.fabricant || d.marque || d.modele || d.total_ttc != null || d.code_lpp));

/**
 * A scraping result must fit the file's kind: an optician's file takes an optical equipment, a hearing-aid file
 * devices per ear, a generic file neither. A mismatch is refused (422 on the offending field) rather than dropped:
 * a robot that sends the wrong kind has a bug its operator must see.
 */
export function assertScrapingFitsKind(kind: FileKind, input: ScrapingCallback): void {
  if (kind !== 'optical' && input.equipement_optique) {
    throw invalidField('equipement_optique', kind === 'audio' ? OPTICAL_MESSAGES.opticalOnAudio : OPTICAL_MESSAGES.devicesOnGeneric);
  }
  if (kind !== 'audio' && hasDevices(input)) {
    throw invalidField('appareil', kind === 'optical' ? OPTICAL_MESSAGES.audioOnOptical : OPTICAL_MESSAGES.devicesOnGeneric);
  }
}

const lensRow = (lens: OpticalEquipmentInput['verres']['OD']): Lens | null =>
  lens
    ? {
        type: lens.type,
        sphere: lens.sphere,
        cylindre: lens.cylindre,
        axe: lens.axe,
        addition: lens.addition,
        indice: lens.indice,
        traitements: lens.traitements,
        prix: lens.prix,
        codeLpp: lens.code_lpp,
      }
    : null;

/**
 * Replaces the file's optical equipment by the robot's (in the callback's transaction). Returns the quote's total
 * (frame and lenses), or null when no price was given.
 */
export async function saveOpticalEquipment(tx: DbOrTx, dossier: { id: number; holdingId: number }, input: OpticalEquipmentInput): Promise<number | null> {
  const prices = [input.monture.prix, input.verres.OD?.prix, input.verres.OG?.prix].filter((p): p is number => typeof p === 'number');
  const total = prices.length ? Math.round(prices.reduce((a, b) => a + b, 0) * 100) / 100 : null;
  assertAmountFits(total, 'equipement_optique', 'le montant du devis (monture et verres)');
  await tx.delete(opticalEquipments).where(eq(opticalEquipments.dossierId, dossier.id));
  await tx.insert(opticalEquipments).values({
    holdingId: dossier.holdingId,
    dossierId: dossier.id,
    classe: input.classe,
    montureMarque: input.monture.marque,
    montureModele: input.monture.modele,
    monturePrix: input.monture.prix,
    montureCodeLpp: input.monture.code_lpp,
    verreOd: lensRow(input.verres.OD),
    verreOg: lensRow(input.verres.OG),
  });
  return total;
}

/**
 * A file's kind and equipment in its item JSON, from its centre's specialty and its optical equipment row (read with
 * the file's page, server/pec/present.ts): `fileKind`, `equipementOptique` (null unless an optician's file has one)
 * and, on any file that is not a hearing-aid file, `appareils: []`.
 */
export function applyFileKind(item: Row, specialite: string | null | undefined, equipment: typeof opticalEquipments.$inferSelect | null | undefined) {
  const kind = fileKindOf(specialite);
  item.fileKind = kind;
  item.equipementOptique = kind === 'optical' && equipment ? presentOpticalEquipment(equipment) : null;
  if (kind !== 'audio') item.appareils = [];
}
