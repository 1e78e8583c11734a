// npx tsx bench/frontend.ts [--static=DIR] [--runs=5] [--port=4341] [--email=audio@audition-horizon.fr]
// The front end's weight and speed on the production build: the JavaScript (raw and gzip) a browser downloads to show
// /login, then to show /pec after signing in, and the time from submitting the login form to the PEC table being
// filled. Builds into a temporary folder unless --static names a build, starts the real server on a fresh embedded
// database with the demo data, drives Debian's Chromium with a cold cache for each run, and writes
// bench/results/frontend.json.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Response } from '@playwright/test';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'Pecflow2026!';

function flags() {
  const map = new Map<string, string>();
  for (const arg of process.argv.slice(2)) {
    const match = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (match) map.set(match[1]!, match[2] ?? 'true');
  }
  return {
    staticDir: map.get('static'),
    runs: Number(map.get('runs') ?? 5),
    port: Number(map.get('port') ?? 4341),
    email: map.get('email') ?? 'audio@audition-horizon.fr',
  };
}

interface Script {
  url: string;
  raw: number;
  gzip: number;
  /** Bytes of the body as sent on the wire (the server sends the pre-compressed brotli file). */
  transferred: number;
}

/** Every script the page downloads: its size, gzipped (zlib level 6, for comparison) and as actually transferred. */
function recordScripts(page: Page) {
  const scripts = new Map<string, Promise<Script | undefined>>();
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script' || scripts.has(response.url())) return;
    scripts.set(
      response.url(),
      Promise.all([response.body(), response.finished().then(() => response.request().sizes())])
        .then(([body, sizes]) => ({
          url: new URL(response.url()).pathname,
          raw: body.length,
          gzip: gzipSync(body).length,
          transferred: sizes.responseBodySize,
        }))
        .catch(() => undefined),
    );
  });
  return async () => (await Promise.all(scripts.values())).filter((s): s is Script => !!s);
}

const kib = (bytes: number) => Math.round(bytes / 102.4) / 10;
const total = (scripts: Script[]) => ({
  files: scripts.length,
  rawKiB: kib(scripts.reduce((a, s) => a + s.raw, 0)),
  gzipKiB: kib(scripts.reduce((a, s) => a + s.gzip, 0)),
  transferredKiB: kib(scripts.reduce((a, s) => a + s.transferred, 0)),
});

async function waitForHealth(baseUrl: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('Le serveur ne répond pas');
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

async function main() {
  const options = flags();
  const work = mkdtempSync(path.join(os.tmpdir(), 'pecflow-bench-front-'));
  const staticDir = options.staticDir ?? path.join(work, 'dist');
  if (!options.staticDir) {
    console.log(`Build de production dans ${staticDir}...`);
    execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--outDir', staticDir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/compress.mjs'), staticDir], { cwd: ROOT, stdio: 'inherit' });
  }
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const server = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      DATABASE_URL: '',
      DEMO_SEED: '1',
      STATIC_DIR: staticDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    console.log('Démarrage du serveur (base embarquée, données de démonstration)...');
    await waitForHealth(baseUrl);

    const loadBefore = Math.round(os.loadavg()[0]! * 10) / 10;
    const runs: { loginScripts: Script[]; pecScripts: Script[]; loginToTableMs: number; rows: number }[] = [];
    for (let run = 0; run <= options.runs; run++) {
      // A fresh context: empty cache, no session. Run 0 warms the server up and is not counted.
      const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const scripts = recordScripts(page);
      // A deep link: /pec sends an unknown visitor to /login, and back to /pec once signed in.
      await page.goto(`${baseUrl}/pec`);
      await page.getByRole('button', { name: 'Se connecter' }).waitFor();
      await page.waitForLoadState('networkidle');
      const loginScripts = await scripts();
      await page.getByRole('textbox', { name: 'Email' }).fill(options.email);
      await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(PASSWORD);

      const started = Date.now();
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByTestId('pec-row').first().waitFor({ timeout: 60_000 });
      const loginToTableMs = Date.now() - started;
      const rows = await page.getByTestId('pec-row').count();
      await page.waitForLoadState('networkidle');
      const pecScripts = await scripts();
      await context.close();
      if (run === 0) continue;
      runs.push({ loginScripts, pecScripts, loginToTableMs, rows });
      console.log(`  essai ${run} : connexion -> tableau rempli (${rows} lignes) en ${loginToTableMs} ms`);
    }

    const last = runs[runs.length - 1]!;
    const loginUrls = new Set(last.loginScripts.map((s) => s.url));
    const afterLogin = last.pecScripts.filter((s) => !loginUrls.has(s.url));
    const times = runs.map((r) => r.loginToTableMs);
    const result = {
      measuredAt: new Date().toISOString(),
      command: `npx tsx bench/frontend.ts${options.staticDir ? ` --static=${options.staticDir}` : ''} --runs=${options.runs}`,
      build:
        'vite build (production) + scripts/compress.mjs, served by the API server (@fastify/static, pre-compressed brotli); gzip sizes computed with zlib level 6 for comparison',
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        // The machine is shared: its load during the runs says how much the times can be trusted.
        loadAverage1m: { before: loadBefore, after: Math.round(os.loadavg()[0]! * 10) / 10 },
        node: process.version,
        browser: `Chromium ${browser.version()}`,
      },
      user: options.email,
      javascript: {
        login: { ...total(last.loginScripts), scripts: last.loginScripts },
        pecAfterLogin: { ...total(last.pecScripts), scripts: last.pecScripts },
        addedByLogin: { ...total(afterLogin), scripts: afterLogin.map((s) => s.url) },
      },
      loginToTableMs: { runs: times, median: median(times), min: Math.min(...times), max: Math.max(...times), rowsShown: last.rows },
    };
    const dir = path.join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'frontend.json');
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);

    console.log('');
    console.log(
      `JavaScript pour /login       : ${result.javascript.login.transferredKiB} KiB transférés (${result.javascript.login.gzipKiB} KiB gzip, ${result.javascript.login.rawKiB} KiB bruts, ${result.javascript.login.files} fichiers)`,
    );
    console.log(
      `JavaScript pour /pec connecté : ${result.javascript.pecAfterLogin.transferredKiB} KiB transférés (${result.javascript.pecAfterLogin.gzipKiB} KiB gzip, ${result.javascript.pecAfterLogin.rawKiB} KiB bruts, ${result.javascript.pecAfterLogin.files} fichiers)`,
    );
    console.log(
      `Connexion -> tableau rempli   : médiane ${result.loginToTableMs.median} ms (min ${result.loginToTableMs.min}, max ${result.loginToTableMs.max}, ${times.length} essais)`,
    );
    console.log(`Résultats écrits dans ${path.relative(ROOT, file)}`);
    // The login page must not carry the PEC screens.
    const pecInLogin = last.loginScripts.filter((s) => /\/(PecPage|DashboardPage)-/.test(s.url));
    if (pecInLogin.length) console.warn(`Attention : /login charge ${pecInLogin.map((s) => s.url).join(', ')}`);
  } finally {
    await browser.close();
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // already stopped
    }
    await new Promise((r) => setTimeout(r, 1500));
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
