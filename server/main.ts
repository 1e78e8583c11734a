// config -> database -> listen (503 until ready) -> migrate -> seed -> ready.
import { loadConfig } from './config';
import { openDatabase } from './db/open';
import { buildApp } from './app';
import { seed, DEMO_ACCOUNTS, DEMO_PASSWORD } from './db/seed';

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  const app = await buildApp({ config, database, ready: false });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} reçu, arrêt en cours`);
    await app.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  await database.migrate();
  const seededDemo = await seed(database, {
    demo: config.demoSeed,
    appSecretKey: config.appSecretKey,
    robotMode: config.robotMode,
    robotUrl: config.robotUrl,
    adminEmail: process.env.ADMIN_EMAIL,
    adminPassword: process.env.ADMIN_PASSWORD,
  });
  app.markReady();
  // Background jobs (robot runs, timeouts, daily expiry scan) once the database is migrated and seeded.
  await app.ctx.pec.startWorkers();

  const url = `http://localhost:${config.port}`;
  const where = database.kind === 'pglite' ? `PGlite embarqué (${config.pgliteDir})` : 'PostgreSQL (DATABASE_URL)';
  const lines = [``, `  Pecflow est prêt : ${url}`, `  Base de données : ${where}${seededDemo ? ' — données de démonstration créées' : ''}`];
  if (config.demoSeed) {
    lines.push(`  Comptes de démonstration (mot de passe ${DEMO_PASSWORD}) :`);
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.email.padEnd(34)} ${account.role}`);
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
