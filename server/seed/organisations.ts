// Demo organisations, companies, centres and accounts (issue "Foundation", Demo data).
import { inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { companies, holdings, roles, shops, userRoles, userShops, users } from '../db/schema';
import { hashPassword } from '../auth/passwords';
import { SEEDED_ROLES } from '#domain/roles';

export const DEMO_PASSWORD = 'Pecflow2026!';

type RoleKey = keyof typeof SEEDED_ROLES;

interface ShopSeed {
  key: string;
  name: string;
  displayName: string;
  street: string;
  postalCode: string;
  city: string;
  siret: string;
  finess: string;
  rpps: string;
  codeClient: string;
  specialite: 'Audioprothésiste' | 'Opticien' | 'Orthopédiste';
  phone: string;
}

const ORGANISATIONS = [
  {
    key: 'horizon',
    holding: {
      name: 'Audition Horizon',
      registrationNumber: '812345678',
      vatNumber: 'FR45812345678',
      email: 'contact@audition-horizon.fr',
      phone: '01 44 55 66 77',
      street: '18 rue de la Roquette',
      postalCode: '75011',
      city: 'Paris',
    },
    companies: [
      {
        name: 'Horizon Audition Île-de-France',
        registrationNumber: '812345686',
        vatNumber: 'FR52812345686',
        street: '18 rue de la Roquette',
        postalCode: '75011',
        city: 'Paris',
        shops: [
          {
            key: 'paris11',
            name: 'Horizon Paris Bastille',
            displayName: 'Paris 11e - Bastille',
            street: '18 rue de la Roquette',
            postalCode: '75011',
            city: 'Paris',
            siret: '81234568600017',
            finess: '750061234',
            rpps: '10101234567',
            codeClient: 'HZ-PAR11',
            specialite: 'Audioprothésiste',
            phone: '01 43 55 10 11',
          },
          {
            key: 'boulogne',
            name: 'Horizon Boulogne',
            displayName: 'Boulogne-Billancourt',
            street: '92 boulevard Jean Jaurès',
            postalCode: '92100',
            city: 'Boulogne-Billancourt',
            siret: '81234568600025',
            finess: '920012345',
            rpps: '10101234568',
            codeClient: 'HZ-BOU',
            specialite: 'Audioprothésiste',
            phone: '01 46 05 22 33',
          },
          {
            key: 'versailles',
            name: 'Horizon Versailles',
            displayName: 'Versailles - Notre-Dame',
            street: '5 rue de la Paroisse',
            postalCode: '78000',
            city: 'Versailles',
            siret: '81234568600033',
            finess: '780023456',
            rpps: '10101234569',
            codeClient: 'HZ-VER',
            specialite: 'Audioprothésiste',
            phone: '01 39 50 44 55',
          },
        ],
      },
      {
        name: 'Horizon Audition Rhône',
        registrationNumber: '812345694',
        vatNumber: 'FR60812345694',
        street: '45 cours Lafayette',
        postalCode: '69003',
        city: 'Lyon',
        shops: [
          {
            key: 'lyon3',
            name: 'Horizon Lyon Part-Dieu',
            displayName: 'Lyon 3e - Part-Dieu',
            street: '45 cours Lafayette',
            postalCode: '69003',
            city: 'Lyon',
            siret: '81234569400012',
            finess: '690034567',
            rpps: '10101234570',
            codeClient: 'HZ-LYO3',
            specialite: 'Audioprothésiste',
            phone: '04 78 60 12 34',
          },
          {
            key: 'villeurbanne',
            name: 'Horizon Villeurbanne',
            displayName: 'Villeurbanne - Gratte-Ciel',
            street: '12 avenue Henri Barbusse',
            postalCode: '69100',
            city: 'Villeurbanne',
            siret: '81234569400020',
            finess: '690045678',
            rpps: '10101234571',
            codeClient: 'HZ-VIL',
            specialite: 'Audioprothésiste',
            phone: '04 72 65 98 76',
          },
        ],
      },
    ],
  },
  {
    key: 'riviera',
    holding: {
      name: 'Optique Riviera',
      registrationNumber: '523456789',
      vatNumber: 'FR12523456789',
      email: 'contact@optique-riviera.fr',
      phone: '04 93 80 12 12',
      street: '3 avenue Jean Médecin',
      postalCode: '06000',
      city: 'Nice',
    },
    companies: [
      {
        name: 'Riviera Vision',
        registrationNumber: '523456797',
        vatNumber: 'FR20523456797',
        street: '3 avenue Jean Médecin',
        postalCode: '06000',
        city: 'Nice',
        shops: [
          {
            key: 'nice',
            name: 'Riviera Nice Médecin',
            displayName: 'Nice - Jean Médecin',
            street: '3 avenue Jean Médecin',
            postalCode: '06000',
            city: 'Nice',
            siret: '52345679700014',
            finess: '060012345',
            rpps: '10107654321',
            codeClient: 'RV-NICE',
            specialite: 'Opticien',
            phone: '04 93 80 12 13',
          },
          {
            key: 'antibes',
            name: 'Riviera Antibes',
            displayName: 'Antibes - Vieille ville',
            street: '20 rue de la République',
            postalCode: '06600',
            city: 'Antibes',
            siret: '52345679700022',
            finess: '060023456',
            rpps: '10107654322',
            codeClient: 'RV-ANT',
            specialite: 'Audioprothésiste',
            phone: '04 93 34 56 78',
          },
        ],
      },
    ],
  },
] as const;

const ACCOUNTS: { email: string; firstName: string; lastName: string; organisation?: string; role: RoleKey; shops?: string[] }[] = [
  { email: 'admin@pecflow.fr', firstName: 'Camille', lastName: 'Durand', role: 'superAdmin' },
  { email: 'direction@audition-horizon.fr', firstName: 'Marc', lastName: 'Lefèvre', organisation: 'horizon', role: 'organisationAdmin' },
  {
    email: 'audio@audition-horizon.fr',
    firstName: 'Sophie',
    lastName: 'Bernard',
    organisation: 'horizon',
    role: 'audioprothesiste',
    shops: ['paris11', 'boulogne'],
  },
  { email: 'assistant@audition-horizon.fr', firstName: 'Léa', lastName: 'Petit', organisation: 'horizon', role: 'assistant', shops: ['lyon3'] },
  {
    email: 'lecture@audition-horizon.fr',
    firstName: 'Julien',
    lastName: 'Moreau',
    organisation: 'horizon',
    role: 'readOnly',
    shops: ['paris11', 'boulogne', 'versailles'],
  },
  { email: 'direction@optique-riviera.fr', firstName: 'Nathalie', lastName: 'Giraud', organisation: 'riviera', role: 'organisationAdmin' },
];

export const DEMO_ACCOUNTS = ACCOUNTS.map(({ email, role }) => ({ email, role: SEEDED_ROLES[role].name }));

export interface DemoOrganisations {
  holdingIds: Record<string, number>;
  shopIds: Record<string, number>;
  userIds: Record<string, number>;
}

export async function seedOrganisations(db: Db): Promise<DemoOrganisations> {
  const holdingIds: Record<string, number> = {};
  const shopIds: Record<string, number> = {};
  for (const org of ORGANISATIONS) {
    const [holding] = await db
      .insert(holdings)
      .values({ ...org.holding, country: 'France' })
      .returning({ id: holdings.id });
    holdingIds[org.key] = holding!.id;
    for (const { shops: shopSeeds, ...company } of org.companies) {
      const [row] = await db
        .insert(companies)
        .values({ ...company, holdingId: holding!.id, country: 'France' })
        .returning({ id: companies.id });
      for (const [index, { key, ...shop }] of (shopSeeds as readonly ShopSeed[]).entries()) {
        const [created] = await db
          .insert(shops)
          .values({
            ...shop,
            numero: String(index + 1).padStart(3, '0'),
            email: `${key}@${org.key === 'horizon' ? 'audition-horizon' : 'optique-riviera'}.fr`,
            country: 'France',
            holdingId: holding!.id,
            companyId: row!.id,
          })
          .returning({ id: shops.id });
        shopIds[key] = created!.id;
      }
    }
  }

  const seededRoles = await db.select({ id: roles.id, seedKey: roles.seedKey }).from(roles).where(isNotNull(roles.seedKey));
  const roleId = (key: RoleKey) => seededRoles.find((r) => r.seedKey === key)!.id;

  const userIds: Record<string, number> = {};
  for (const account of ACCOUNTS) {
    const [user] = await db
      .insert(users)
      .values({
        email: account.email,
        firstName: account.firstName,
        lastName: account.lastName,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        holdingId: account.organisation ? holdingIds[account.organisation] : null,
      })
      .returning({ id: users.id });
    userIds[account.email] = user!.id;
    await db.insert(userRoles).values({ userId: user!.id, roleId: roleId(account.role) });
    if (account.shops?.length) {
      await db.insert(userShops).values(account.shops.map((key) => ({ userId: user!.id, shopId: shopIds[key]! })));
    }
  }
  return { holdingIds, shopIds, userIds };
}

/** True once demo organisations exist, so a second start seeds nothing. */
export async function hasDemoData(db: Db): Promise<boolean> {
  const rows = await db
    .select({ id: holdings.id })
    .from(holdings)
    .where(
      inArray(
        holdings.name,
        ORGANISATIONS.map((o) => o.holding.name),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
