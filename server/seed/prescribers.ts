// Demo prescribers: a few doctors per demo organisation, near its centres (fictitious names and RPPS numbers).
import type { Db } from '../db/connect';
import { prescribers } from '../db/schema';
import type { DemoOrganisations } from './organisations';

const PRESCRIBERS: Record<string, Omit<typeof prescribers.$inferInsert, 'holdingId'>[]> = {
  horizon: [
    {
      civility: 'Dr',
      lastName: 'Lefèvre',
      firstName: 'Claire',
      specialty: 'ORL',
      rpps: '10003456781',
      city: 'Paris',
      phone: '01 43 57 20 10',
      email: 'c.lefevre@orl-bastille.fr',
    },
    { civility: 'Dr', lastName: 'Moreau', firstName: 'Julien', specialty: 'ORL', rpps: '10003456782', city: 'Boulogne-Billancourt', phone: '01 46 21 33 40' },
    {
      civility: 'Pr',
      lastName: 'Garnier',
      firstName: 'Hélène',
      specialty: 'ORL',
      rpps: '10003456783',
      city: 'Lyon',
      phone: '04 72 11 45 60',
      email: 'h.garnier@chu-lyon.fr',
    },
    {
      civility: 'Dr',
      lastName: 'Petit',
      firstName: 'Marc',
      specialty: 'Médecin généraliste',
      rpps: '10003456784',
      city: 'Versailles',
      phone: '01 39 02 18 77',
    },
  ],
  riviera: [
    {
      civility: 'Dr',
      lastName: 'Rossi',
      firstName: 'Laura',
      specialty: 'Ophtalmologiste',
      rpps: '10003456791',
      city: 'Nice',
      phone: '04 93 80 12 34',
      email: 'l.rossi@ophtalmo-nice.fr',
    },
    { civility: 'Dr', lastName: 'Bernard', firstName: 'Olivier', specialty: 'Ophtalmologiste', rpps: '10003456792', city: 'Cannes', phone: '04 93 39 56 78' },
    { civility: 'Mme', lastName: 'Fabre', firstName: 'Sophie', specialty: 'Autre', rpps: '10003456793', city: 'Antibes', status: 'Inactive' },
  ],
};

export async function seedPrescribers(db: Db, organisations: DemoOrganisations) {
  const rows = Object.entries(PRESCRIBERS).flatMap(([key, list]) => list.map((p) => ({ ...p, holdingId: organisations.holdingIds[key]! })));
  await db.insert(prescribers).values(rows);
}
