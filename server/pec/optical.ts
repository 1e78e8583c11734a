// An optician's file's equipment as the API shows it (src/domain/optical.ts), read from optical_equipments.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { opticalEquipments } from '../db/schema';
import type { EquipementOptique, Lens, OpticalClass } from '../../src/domain/optical';

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
