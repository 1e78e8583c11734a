// The server process: configuration, then one instance in its role (server/server.ts), stopped gracefully on SIGTERM.
import { loadConfig } from './config';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed';
import { startServer } from './server';

async function main() {
  const config = loadConfig();
  const server = await startServer(config);
  const { app, database } = server;

  let exiting = false;
  const shutdown = async (signal: string) => {
    if (exiting) return;
    exiting = true;
    app.log.info(`${signal} reçu, arrêt en cours`);
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const where = database.kind === 'pglite' ? `PGlite embarqué (${config.pgliteDir})` : 'PostgreSQL (DATABASE_URL)';
  const lines = [``];
  if (config.role === 'worker') lines.push(`  Pecflow (tâches de fond) est prêt${server.healthUrl ? ` : santé sur ${server.healthUrl}` : ''}`);
  else lines.push(`  Pecflow${config.role === 'web' ? ' (web)' : ''} est prêt : http://localhost:${config.port}`);
  lines.push(`  Base de données : ${where}${server.seededDemo ? ' — données de démonstration créées' : ''}`);
  if (server.metricsUrl) lines.push(`  Métriques Prometheus : ${server.metricsUrl}`);
  if (!config.smtpUrl) lines.push(`  Emails : écrits dans ${app.ctx.mailer.outbox} (SMTP_URL absent)`);
  if (config.demoSeed && config.role !== 'worker') {
    lines.push(`  Comptes de démonstration (mot de passe ${DEMO_PASSWORD}) :`);
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.email.padEnd(34)} ${account.role}`);
    lines.push('  Double authentification : non exigée sur la démonstration (Paramètres > Système > Sécurité)');
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
