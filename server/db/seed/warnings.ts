// Demo files that raise each kind of warning (issue 15), so that the drawer shows them with their reasons: audio files
// at Horizon Paris Bastille, optical files at Riviera Nice Médecin (their equipment written into optical_equipments).
// Patient numbers start with DP-ALERTE / OP-ALERTE. Dates are relative to the seeding day.
import { format, subDays, subMonths } from 'date-fns';
import { eq } from 'drizzle-orm';
import type { Db } from '../connect';
import { appareils, mutuals, opticalEquipments, pecDossiers, prescribers } from '../schema';
import { nextNumero } from '../../pec/numbering';
import type { Lens } from '../../../src/domain/optical';
import type { DemoOrganisations } from './organisations';

type DossierInsert = typeof pecDossiers.$inferInsert;
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

export async function seedWarningDemo(db: Db, organisations: DemoOrganisations, now = new Date()): Promise<void> {
  const [mutual] = await db.select({ id: mutuals.id, networkId: mutuals.networkId }).from(mutuals).limit(1);
  if (!mutual) return;

  async function file(
    holdingKey: string,
    shopKey: string,
    values: Partial<DossierInsert> & { numeroDossierAssure: string; status: DossierInsert['status'] },
    devices: Device[] = [],
    optical?: Optical,
  ) {
    const holdingId = organisations.holdingIds[holdingKey]!;
    const [prescriber] = await db.select({ id: prescribers.id }).from(prescribers).where(eq(prescribers.holdingId, holdingId)).limit(1);
    const [row] = await db
      .insert(pecDossiers)
      .values({
        holdingId,
        shopId: organisations.shopIds[shopKey]!,
        mutualId: mutual!.id,
        networkId: mutual!.networkId,
        numeroDossier: await nextNumero(db, holdingId, now),
        numeroDevisAssure: `DEV-ALERTE-${values.numeroDossierAssure.slice(-2)}`,
        prescriberId: prescriber?.id ?? null,
        // Among the last days' files rather than on top of the list.
        createdAt: subDays(now, 2),
        datePrescription: day(subDays(now, 20)),
        ...values,
      })
      .returning({ id: pecDossiers.id });
    if (devices.length) await db.insert(appareils).values(devices.map((d) => ({ ...d, holdingId, dossierId: row!.id })));
    if (optical) await db.insert(opticalEquipments).values({ ...optical, holdingId, dossierId: row!.id });
  }

  const delivered = (date: Date) => ({ statutFacturation: true, dateFacturationEffective: day(date), numBilling: 'FAC-ALERTE', dateBilling: day(date) });
  const amounts = (prixFraisReels: number, baseSs: number, partSs: number, partComplementaire: number, resteCharge: number) => ({
    totalTtc: prixFraisReels,
    prixFraisReels,
    baseSs,
    partSs,
    partComplementaire,
    resteCharge,
  });

  // Audio — renewal: both ears fitted two years ago, a new request today.
  await file(
    'horizon',
    'paris11',
    { numeroDossierAssure: 'DP-ALERTE-01', status: 'paid', ...delivered(subMonths(now, 24)), ...amounts(1900, 800, 480, 1420, 0) },
    [device('droite', 'I', 950), device('gauche', 'I', 950)],
  );
  await file('horizon', 'paris11', { numeroDossierAssure: 'DP-ALERTE-01', status: 'draft', commentaire: 'Renouvellement demandé deux ans après le précédent' });
  // Audio — a prescription of 14 months.
  await file('horizon', 'paris11', { numeroDossierAssure: 'DP-ALERTE-02', status: 'draft', datePrescription: day(subMonths(now, 14)) });
  // Audio — a class I aid above 950 € and a remaining cost on class I aids.
  await file(
    'horizon',
    'paris11',
    { numeroDossierAssure: 'DP-ALERTE-03', status: 'approved', numPec: 'PEC-ALERTE-03', ...amounts(2050, 800, 480, 1420, 150) },
    [device('droite', 'I', 1100), device('gauche', 'I', 950)],
  );
  // Audio — amounts that do not add up, and a Sécurité sociale share that is not 60 % of its base.
  await file(
    'horizon',
    'paris11',
    { numeroDossierAssure: 'DP-ALERTE-04', status: 'approved', numPec: 'PEC-ALERTE-04', ...amounts(3000, 800, 400, 1900, 600) },
    [device('droite', 'II', 1500), device('gauche', 'II', 1500)],
  );

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
  await file(
    'riviera',
    'nice',
    {
      numeroDossierAssure: 'OP-ALERTE-01',
      status: 'billed',
      dateNaissanceBeneficiaire: '1980-04-12',
      ...delivered(subMonths(now, 12)),
      ...amounts(95, 95, 57, 38, 0),
    },
    [],
    glasses,
  );
  await file('riviera', 'nice', { numeroDossierAssure: 'OP-ALERTE-01', status: 'draft', dateNaissanceBeneficiaire: '1980-04-12' });
  // Optical — class A above its limits (frame and right lens), with a remaining cost.
  await file(
    'riviera',
    'nice',
    {
      numeroDossierAssure: 'OP-ALERTE-02',
      status: 'approved',
      numPec: 'PEC-ALERTE-O2',
      dateNaissanceBeneficiaire: '1990-09-03',
      ...amounts(117.5, 95, 57, 38, 22.5),
    },
    [],
    { ...glasses, monturePrix: 45, verreOd: lens(-2, 40) },
  );
  // Optical — a prescription of four years for a patient over 42 (valid three years).
  await file('riviera', 'nice', {
    numeroDossierAssure: 'OP-ALERTE-03',
    status: 'draft',
    dateNaissanceBeneficiaire: '1975-01-20',
    datePrescription: day(subMonths(now, 48)),
  });
}
