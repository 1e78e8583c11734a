// A file's prescription (issue 15): its prescriber must be one of the file's organisation, and the DPEC run's
// prerequisites follow the file's kind (domain/pec.ts, PRESCRIPTION_REQUIRED, dpecRefusal).
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { pecDossiers, prescribers, shops } from '../db/schema';
import { invalidField } from '../http/errors';
import { fileKindOf } from '#domain/fileKinds';
import { dpecRefusal, PEC_MESSAGES, type DpecRefusal } from '#domain/pec';

/**
 * The generic layer checks that the caller sees the prescriber; a platform administrator sees every organisation's, so
 * the file's own organisation is checked here: another organisation's prescriber is a 422 like any other reference.
 */
export async function assertPrescriberOfHolding(tx: DbOrTx, prescriberId: unknown, holdingId: number): Promise<void> {
  if (typeof prescriberId !== 'number') return;
  const [row] = await tx.select({ holdingId: prescribers.holdingId }).from(prescribers).where(eq(prescribers.id, prescriberId));
  if (!row || row.holdingId !== holdingId) throw invalidField('prescriber', PEC_MESSAGES.prescriberOutOfHolding);
}

/**
 * Why a DPEC run may not start on the file, by the rule its kind follows (domain/pec.ts, dpecRefusal: the DPEC button
 * and the bulk's confirmation apply the same); undefined when its fields allow it.
 */
export async function dpecRefusalOf(tx: DbOrTx, d: typeof pecDossiers.$inferSelect): Promise<DpecRefusal | undefined> {
  const [shop] = await tx.select({ specialite: shops.specialite }).from(shops).where(eq(shops.id, d.shopId));
  return dpecRefusal(
    {
      archived: d.archived,
      status: d.status,
      numeroDossierAssure: d.numeroDossierAssure,
      numeroDevisAssure: d.numeroDevisAssure,
      mutual: d.mutualId,
      prescriber: d.prescriberId,
      datePrescription: d.datePrescription,
    },
    fileKindOf(shop?.specialite),
  );
}
