// Demo payments (issues 15 and 25): the paid files carry their payment (a row of their payment history, the stored
// columns derived from it as the server does), one billed file of Audition Horizon is partly paid, and a few of its
// files, billed before the statement's payments, carry the invoice numbers of the example statement
// docs/examples/releve-paiements.csv, with devices chosen here so that what the insurer owes (their complementary part)
// is the same on every installation and the statement shows every kind of line: paid in full, partial, over-paid,
// already paid, not yet billed, unknown reference, and two lines that add up.
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { appareils, pecDossiers, pecPayments } from '../db/schema';
import { stateFromHistory } from '../pec/paymentHistory';
import { paymentColumns, stateOf } from '../pec/statementMatching';
import { amountsFor, CATALOGUE, type EarDevice } from '../robot/simulator';
import type { DemoOrganisations } from './organisations';

/** Invoice number -> the catalogue model fitted on both ears (complementary parts: 1 420, 1 220, 2 920, 1 300, 1 320 €). */
const BILLED: [string, number][] = [
  ['FAC-DEMO-0001', 0],
  ['FAC-DEMO-0002', 2],
  ['FAC-DEMO-0003', 6],
  ['FAC-DEMO-0006', 1],
  // Partly paid in the demo: 660 € of 1 320 €.
  ['FAC-DEMO-0007', 3],
];
const PARTIAL = 'FAC-DEMO-0007';
const ALREADY_PAID = 'FAC-DEMO-0004';
const NOT_BILLED = 'FAC-DEMO-0005';

/** The example statement's first payment day: its files are billed by then (a payment never precedes its invoice). */
const EXAMPLE_STATEMENT_FIRST_DAY = '2026-11-18';
const DAY = 86_400_000;
const DEMO_LABEL = 'Virement de l’assureur';
const iso = (date: Date) => date.toISOString().slice(0, 10);

export async function seedPayments(db: Db, organisations: DemoOrganisations, now = new Date()): Promise<void> {
  // Paid files were paid in full three weeks after their billing (never in the future), by a transfer entered by hand.
  const paidFiles = await db.execute<{ id: number }>(sql`insert into pec_payments (holding_id, dossier_id, payment_date, amount, source, label)
    select holding_id, id, least(date_facturation_effective + 21, ${iso(now)}::date), part_complementaire, 'manual', ${DEMO_LABEL}
    from pec_dossiers where status = 'paid' and part_complementaire > 0 returning dossier_id as id`);
  const paidIds = (paidFiles as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));

  const holdingId = organisations.holdingIds.horizon!;
  const pick = (status: string, n: number) =>
    db
      .select({ id: pecDossiers.id, holdingId: pecDossiers.holdingId, dateFacturationEffective: pecDossiers.dateFacturationEffective })
      .from(pecDossiers)
      .where(
        and(
          eq(pecDossiers.holdingId, holdingId),
          eq(pecDossiers.status, status),
          or(isNull(pecDossiers.dateFacturationEffective), lte(pecDossiers.dateFacturationEffective, EXAMPLE_STATEMENT_FIRST_DAY)),
        ),
      )
      .orderBy(desc(pecDossiers.dateFacturationEffective), asc(pecDossiers.id))
      .limit(n);

  const billed = await pick('billed', BILLED.length);
  for (const [index, [numBilling, model]] of BILLED.entries()) {
    const file = billed[index];
    if (!file) break;
    const devices: EarDevice[] = (['droite', 'gauche'] as const).map((oreille) => ({ ...CATALOGUE[model]!, oreille, premierAppareillage: false }));
    const amounts = amountsFor(devices);
    await db.delete(appareils).where(eq(appareils.dossierId, file.id));
    await db.insert(appareils).values(
      devices.map((d) => ({
        holdingId,
        dossierId: file.id,
        oreille: d.oreille,
        fabricant: d.fabricant,
        marque: d.marque,
        modele: d.modele,
        prixTtc: d.prix / 100,
        codeLpp: d.codeLpp,
        premierAppareillage: false,
        forme: d.forme,
        classe: d.classe,
        offre100Sante: d.classe === 'I',
      })),
    );
    const partial = numBilling === PARTIAL ? Math.round(amounts.partComplementaire * 50) / 100 : undefined;
    const paidOn = file.dateFacturationEffective ? iso(new Date(Math.min(Date.parse(file.dateFacturationEffective) + 14 * DAY, now.getTime()))) : iso(now);
    await db
      .update(pecDossiers)
      .set({
        ...amounts,
        numBilling,
        montantPaye: null,
        montantDu: null,
        paiementPartiel: false,
        datePaiement: null,
      })
      .where(eq(pecDossiers.id, file.id));
    if (partial !== undefined) {
      await db.insert(pecPayments).values({ holdingId, dossierId: file.id, paymentDate: paidOn, amount: partial, source: 'manual', label: DEMO_LABEL });
      paidIds.push(file.id);
    }
  }
  await deriveStates(db, paidIds);
  const [paid] = await pick('paid', 1);
  if (paid) await db.update(pecDossiers).set({ numBilling: ALREADY_PAID }).where(eq(pecDossiers.id, paid.id));
  // An approved file whose invoice is saved but not billed yet.
  const [approved] = await pick('approved', 1);
  if (approved)
    await db
      .update(pecDossiers)
      .set({ numBilling: NOT_BILLED, dateBilling: iso(now) })
      .where(eq(pecDossiers.id, approved.id));
}

/** The stored payment columns of these files, derived from their history by the server's rule. */
async function deriveStates(db: Db, ids: number[]) {
  if (ids.length === 0) return;
  const files = await db.select(paymentColumns).from(pecDossiers).where(inArray(pecDossiers.id, ids));
  for (const file of files) {
    // The paid files had no payment yet: as a payment posted on a billed file, paid or partial by the rule.
    const state = await stateFromHistory(db, file, { ...stateOf(file), status: 'billed' });
    await db.update(pecDossiers).set(state).where(eq(pecDossiers.id, file.id));
  }
}
