// Demo files that raise each kind of warning (issue 15), so that the drawer shows them with their reasons: audio files
// at Horizon Paris Bastille, optical files at Riviera Nice Médecin (their equipment written into optical_equipments).
// They are demo files of seedPecDossiers given another patient number (DP-ALERTE-… / OP-ALERTE-…) and the data of
// their case, so each organisation keeps its 200 files and its mix of statuses. Dates are relative to the seeding day.
import { format, subDays, subMonths } from 'date-fns';
import { and, asc, eq, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { appareils, opticalEquipments, pecDossiers, prescribers } from '../db/schema';
import type { Lens } from '#domain/optical';
import type { PecStatus } from '#domain/pec';
import type { DemoOrganisations } from './organisations';

type DossierValues = Partial<typeof pecDossiers.$inferInsert>;
type Device = Omit<typeof appareils.$inferInsert, 'holdingId' | 'dossierId'>;
type Optical = Omit<typeof opticalEquipments.$inferInsert, 'holdingId' | 'dossierId'>;

const day = (date: Date) => format(date, 'yyyy-MM-dd');

const device = (oreille: 'droite' | 'gauche', classe: 'I' | 'II', prixTtc: number): Device => ({
  oreille,
  classe,
  prixTtc,
  fabricant: 'Signia',
  marque: 'Signia',
  modele: classe === 'I' ? 'Intuis 4' : 'Pure Charge&Go AX',
  codeLpp: classe === 'I' ? '2355392' : '2335605',
  offre100Sante: classe === 'I',
});

const lens = (sphere: number, prix: number): Lens => ({
  type: 'unifocal',
  sphere,
  cylindre: -0.5,
  axe: 90,
  addition: null,
  indice: '1.6',
  traitements: ['antireflet', 'durci'],
  prix,
  codeLpp: '2203240',
});

const amounts = (prixFraisReels: number, baseSs: number, partSs: number, partComplementaire: number, resteCharge: number) => ({
  totalTtc: prixFraisReels,
  prixFraisReels,
  baseSs,
  partSs,
  partComplementaire,
  resteCharge,
});

export async function seedWarningDemo(db: Db, organisations: DemoOrganisations, now = new Date()): Promise<void> {
  const used: number[] = [];

  /** Turns the first unused plain demo file of this centre and status into the case; nothing when there is none. */
  async function file(shopKey: string, status: PecStatus, patient: string, values: DossierValues, devices?: Device[], optical?: Optical) {
    const shopId = organisations.shopIds[shopKey]!;
    const [row] = await db
      .select({ id: pecDossiers.id, holdingId: pecDossiers.holdingId })
      .from(pecDossiers)
      .where(
        and(
          eq(pecDossiers.shopId, shopId),
          eq(pecDossiers.status, status),
          sql`${pecDossiers.numeroDossierAssure} ~ '^DP-[0-9]+$'`,
          isNull(pecDossiers.expiryNotifiedFor),
          used.length ? notInArray(pecDossiers.id, used) : undefined,
        ),
      )
      .orderBy(asc(pecDossiers.id))
      .limit(1);
    if (!row) return;
    used.push(row.id);
    const [prescriber] = await db
      .select({ id: prescribers.id })
      .from(prescribers)
      .where(eq(prescribers.holdingId, row.holdingId))
      .orderBy(asc(prescribers.id))
      .limit(1);
    await db
      .update(pecDossiers)
      .set({ numeroDossierAssure: patient, prescriberId: prescriber?.id ?? null, datePrescription: day(subDays(now, 20)), ...values })
      .where(eq(pecDossiers.id, row.id));
    if (devices) {
      await db.delete(appareils).where(eq(appareils.dossierId, row.id));
      if (devices.length) await db.insert(appareils).values(devices.map((d) => ({ ...d, holdingId: row.holdingId, dossierId: row.id })));
    }
    if (optical) {
      // The demo file may hold the equipment seedPecDossiers gave it: the case's replaces it.
      await db.delete(opticalEquipments).where(eq(opticalEquipments.dossierId, row.id));
      await db.insert(opticalEquipments).values({ ...optical, holdingId: row.holdingId, dossierId: row.id });
    }
  }

  const deliveredOn = (date: Date) => ({ createdAt: subDays(date, 30), dateFacturationEffective: day(date), dateBilling: day(date) });

  // Audio — renewal: both ears fitted two years ago, a new request now.
  await file('paris11', 'paid', 'DP-ALERTE-01', { ...deliveredOn(subMonths(now, 24)), ...amounts(1900, 800, 480, 1420, 0) }, [
    device('droite', 'I', 950),
    device('gauche', 'I', 950),
  ]);
  await file('paris11', 'draft', 'DP-ALERTE-01', { commentaire: 'Renouvellement demandé deux ans après le précédent' });
  // Audio — a prescription of 14 months.
  await file('paris11', 'draft', 'DP-ALERTE-02', { datePrescription: day(subMonths(now, 14)) });
  // Audio — a class I aid above 950 € and a remaining cost on class I aids.
  await file('paris11', 'approved', 'DP-ALERTE-03', amounts(2050, 800, 480, 1420, 150), [device('droite', 'I', 1100), device('gauche', 'I', 950)]);
  // Audio — amounts that do not add up, and a Sécurité sociale share that is not 60 % of its base.
  await file('paris11', 'approved', 'DP-ALERTE-04', amounts(3000, 800, 400, 1900, 600), [device('droite', 'II', 1500), device('gauche', 'II', 1500)]);

  // Optical — renewal: an adult's glasses billed a year ago.
  const glasses: Optical = {
    classe: 'A',
    montureMarque: 'Essentiel',
    montureModele: 'E-100',
    monturePrix: 30,
    montureCodeLpp: '2210546',
    verreOd: lens(-2, 32.5),
    verreOg: lens(-2.25, 32.5),
  };
  const adult = { dateNaissanceBeneficiaire: '1980-04-12' };
  await file('nice', 'billed', 'OP-ALERTE-01', { ...adult, ...deliveredOn(subMonths(now, 12)), ...amounts(95, 95, 57, 38, 0) }, [], glasses);
  await file('nice', 'draft', 'OP-ALERTE-01', adult, []);
  // Optical — class A above its limits (frame and right lens), with a remaining cost.
  await file('nice', 'approved', 'OP-ALERTE-02', { dateNaissanceBeneficiaire: '1990-09-03', ...amounts(117.5, 95, 57, 38, 22.5) }, [], {
    ...glasses,
    monturePrix: 45,
    verreOd: lens(-2, 40),
  });
  // Optical — a prescription of four years for a patient over 42 (valid three years).
  await file('nice', 'draft', 'OP-ALERTE-03', { dateNaissanceBeneficiaire: '1975-01-20', datePrescription: day(subMonths(now, 48)) }, []);
}
