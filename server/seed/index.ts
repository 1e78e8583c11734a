// Seeding: base data always, demo data on first start when asked, a first administrator from the environment.
import { count, eq } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { configs, roles, userRoles, users } from '../db/schema';
import { TWO_FACTOR_REQUIRED_KEY } from '#domain/settings';
import { hashPassword } from '../auth/passwords';
import type { SeededRoleKey } from '#domain/roles';
import { SecretBox } from '../crypto';
import { ensureBaseData } from './base';
import { seedReferenceData } from './reference';
import { seedPayments } from './payments';
import { seedDemoDocuments } from './documents';
import { seedPecDossiers } from './pec';
import { seedPrescribers } from './prescribers';
import { seedWarningDemo } from './warnings';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, hasDemoData, seedOrganisations } from './organisations';

export { DEMO_ACCOUNTS, DEMO_PASSWORD };

export interface SeedOptions {
  demo: boolean;
  /** Key that encrypts the demo robot credentials (the server's APP_SECRET_KEY). */
  appSecretKey: string;
  robotMode?: string;
  robotUrl?: string;
  /** First super administrator of an installation without demo data (ADMIN_EMAIL / ADMIN_PASSWORD). */
  adminEmail?: string;
  adminPassword?: string;
}

/** Returns true when demo data was written by this call. */
export async function seed(database: Database, options: SeedOptions): Promise<boolean> {
  const { db } = database;
  await ensureBaseData(db, options);
  let seededDemo = false;
  if (options.demo && !(await hasDemoData(db))) {
    const organisations = await seedOrganisations(db);
    const secrets = new SecretBox(options.appSecretKey);
    await seedReferenceData(db, secrets, organisations);
    await seedPecDossiers(db, organisations);
    await seedPayments(db, organisations);
    await seedPrescribers(db, organisations);
    await seedWarningDemo(db, organisations);
    await seedDemoDocuments(db, secrets);
    // The demo's accounts share a published password: a second factor on them would protect nothing, and every
    // newcomer (and browser test) signing in as the demo super administrator would have to enrol an authenticator app
    // first. The demo installation starts with the setting off (Paramètres > Système > Sécurité turns it back on);
    // an installation without demo data keeps it on for its super administrators.
    await db.update(configs).set({ value: 'none' }).where(eq(configs.key, TWO_FACTOR_REQUIRED_KEY));
    seededDemo = true;
  }
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(users);
  if (n === 0 && options.adminEmail && options.adminPassword) {
    const [user] = await db
      .insert(users)
      .values({
        email: options.adminEmail.toLowerCase(),
        firstName: 'Administrateur',
        lastName: 'Pecflow',
        passwordHash: await hashPassword(options.adminPassword),
      })
      .returning({ id: users.id });
    const [role] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.seedKey, 'superAdmin' satisfies SeededRoleKey));
    await db.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  }
  return seededDemo;
}
