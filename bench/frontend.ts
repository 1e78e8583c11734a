// npm run bench -- frontend [--static=DIR] [--runs=7] [--lighthouse-runs=3] [--reports=DIR] [--port=4341] [--email=audio@audition-horizon.fr]
// The front end's weight and speed on the production build, served as `npm start` serves it (the API server with the
// pre-compressed assets). Builds into a temporary folder unless --static names a build, starts the real server on a
// fresh embedded database with the demo data, then:
// - drives Debian's Chromium with a cold cache for each run: the JavaScript (raw, gzip and as transferred) a browser
//   downloads to show /login, then /pec after signing in, and the time from submitting the login form to the PEC
//   table being filled;
// - runs Lighthouse 12 (performance and accessibility, mobile and desktop presets, simulated throttling) on /login
//   signed out and on /pec, /settings/shops and /dashboard signed in, each page several times with a cold cache,
//   and keeps the median run.
// Writes bench/results/frontend.json.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Response } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Result as LighthouseResult } from 'lighthouse';
import puppeteer, { type Page as PuppeteerPage } from 'puppeteer-core';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'Pecflow2026!';
const CHROMIUM = '/usr/bin/chromium';
/** Without these, Debian's Chromium has its connections refused on the bench machines (and calls home during runs). */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The pages Lighthouse measures; all but /login signed in (as an organisation's administrator: every page is allowed). */
const LIGHTHOUSE_PAGES = [
  { path: '/login', signedIn: false },
  { path: '/pec', signedIn: true },
  { path: '/settings/shops', signedIn: true },
  { path: '/dashboard', signedIn: true },
];
const LIGHTHOUSE_USER = 'direction@audition-horizon.fr';
const TARGETS = { performance: 90, accessibility: 100, loginJavaScriptKiB: 200, loginToTableMs: 600 };

function flags(args: string[]) {
  const map = new Map<string, string>();
  for (const arg of args) {
    const match = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (match) map.set(match[1]!, match[2] ?? 'true');
  }
  return {
    staticDir: map.get('static'),
    runs: Number(map.get('runs') ?? 7),
    lighthouseRuns: Number(map.get('lighthouse-runs') ?? 3),
    /** A folder for every Lighthouse report (JSON, readable in the Lighthouse viewer). */
    reportDir: map.get('reports'),
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
const load1m = () => Math.round(os.loadavg()[0]! * 10) / 10;

/** The deep link /pec, signed out, then the login form: scripts downloaded and the time to a filled table, cold cache each run. */
async function measureLoginToTable(baseUrl: string, email: string, runs: number) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const results: { loginScripts: Script[]; pecScripts: Script[]; loginToTableMs: number; rows: number }[] = [];
  try {
    for (let run = 0; run <= runs; run++) {
      // A fresh context: empty cache, no session. Run 0 warms the server up and is not counted.
      const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const scripts = recordScripts(page);
      // A deep link: /pec sends an unknown visitor to /login, and back to /pec once signed in.
      await page.goto(`${baseUrl}/pec`);
      await page.getByRole('button', { name: 'Se connecter' }).waitFor();
      await page.waitForLoadState('networkidle');
      const loginScripts = await scripts();
      await page.getByRole('textbox', { name: 'Email' }).fill(email);
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
      results.push({ loginScripts, pecScripts, loginToTableMs, rows });
      console.log(`  essai ${run} : connexion -> tableau rempli (${rows} lignes) en ${loginToTableMs} ms`);
    }
    return { browser: `Chromium ${browser.version()}`, runs: results };
  } finally {
    await browser.close();
  }
}

/**
 * Signs in through the login form, as a user would: the session (tokens in localStorage) stays for the next pages. It
 * returns once the landing page has shown its title: Lighthouse's navigation must not begin while that page is still
 * starting, or its trace can lack the navigation's start (NO_NAVSTART, seen twice in a row without this wait).
 */
async function signIn(page: PuppeteerPage, baseUrl: string, email: string) {
  await signOut(page, baseUrl);
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForFunction(() => location.pathname !== '/login', { timeout: 60_000 });
  await page.waitForSelector('main h1', { timeout: 60_000 });
}

/** Drops the session of an earlier run (the live events stream of a signed-in page never lets the network go idle). */
async function signOut(page: PuppeteerPage, baseUrl: string) {
  await page.goto(`${baseUrl}/api/health`);
  await page.evaluate(() => localStorage.clear());
}

const METRICS = {
  firstContentfulPaintMs: 'first-contentful-paint',
  largestContentfulPaintMs: 'largest-contentful-paint',
  totalBlockingTimeMs: 'total-blocking-time',
  speedIndexMs: 'speed-index',
  cumulativeLayoutShift: 'cumulative-layout-shift',
} as const;

/** What a Lighthouse report says in a few figures: scores, the metrics, JavaScript transferred, what cost points. */
function summarize(lhr: LighthouseResult) {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue ?? 0;
    return id === 'cumulative-layout-shift' ? Math.round(value * 1000) / 1000 : Math.round(value);
  };
  const failing = (category: string) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => `${ref.id} (${lhr.audits[ref.id]!.displayValue ?? lhr.audits[ref.id]!.score})`);
  const resources = (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    ...(Object.fromEntries(Object.entries(METRICS).map(([name, id]) => [name, metric(id)])) as Record<keyof typeof METRICS, number>),
    scriptKiB: kib(resources.find((r) => r.resourceType === 'script')?.transferSize ?? 0),
    failing: { performance: failing('performance'), accessibility: failing('accessibility') },
  };
}
type LighthouseRun = ReturnType<typeof summarize>;

/**
 * Lighthouse on every page, both presets, `runs` times each. Chromium is started by chrome-launcher; puppeteer-core
 * signs in on its page and hands it to Lighthouse. Lighthouse's own storage reset would sign the user out, so it is
 * off and the HTTP cache is cleared before each run instead: every run loads the page cold, signed in or not.
 */
export async function measureLighthouse(
  baseUrl: string,
  runs: number,
  reportDir: string | undefined,
  pages = LIGHTHOUSE_PAGES.map((p) => p.path),
  presets = ['mobile', 'desktop'],
) {
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const results: Record<string, Record<string, { runs: LighthouseRun[]; median: LighthouseRun }>> = {};
  try {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    for (const preset of presets) {
      results[preset] = {};
      for (const target of LIGHTHOUSE_PAGES.filter((p) => pages.includes(p.path))) {
        const measured: LighthouseRun[] = [];
        for (let run = 0; run < runs; run++) {
          if (target.signedIn) await signIn(page, baseUrl, LIGHTHOUSE_USER);
          else await signOut(page, baseUrl);
          await cdp.send('Network.clearBrowserCache');
          const result = await lighthouse(
            `${baseUrl}${target.path}`,
            { onlyCategories: ['performance', 'accessibility'], disableStorageReset: true, logLevel: 'error', output: 'json' },
            preset === 'desktop' ? desktopConfig : undefined,
            // Lighthouse names puppeteer-core's page type from its own copy of puppeteer-core: the same package.
            page as unknown as Parameters<typeof lighthouse>[3],
          );
          if (!result) throw new Error(`Lighthouse n'a rien rendu pour ${target.path}`);
          if (result.lhr.runtimeError) throw new Error(`Lighthouse, ${target.path} : ${result.lhr.runtimeError.message}`);
          if (reportDir) writeFileSync(path.join(reportDir, `${preset}${target.path.replaceAll('/', '-')}-${run + 1}.json`), result.report as string);
          const summary = summarize(result.lhr);
          measured.push(summary);
          console.log(`  Lighthouse ${preset} ${target.path} essai ${run + 1} : performance ${summary.performance}, accessibilité ${summary.accessibility}`);
        }
        // The median run by performance score: its metrics and audits go together.
        const byScore = [...measured].sort((a, b) => a.performance - b.performance);
        results[preset][target.path] = { runs: measured, median: byScore[Math.floor((byScore.length - 1) / 2)]! };
      }
    }
    return results;
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
}

/** The real server on a fresh embedded database with the demo data, serving the build in `staticDir`. */
export function startServer(staticDir: string, port: number, dataDir: string) {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO_SEED: '1',
      STATIC_DIR: staticDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    ready: waitForHealth(baseUrl),
    async stop() {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already stopped
      }
      await new Promise((r) => setTimeout(r, 1500));
    },
  };
}

export async function runFrontendBench(args: string[]) {
  const options = flags(args);
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
  const server = startServer(staticDir, options.port, path.join(work, 'data'));
  const baseUrl = server.baseUrl;
  try {
    console.log('Démarrage du serveur (base embarquée, données de démonstration)...');
    await server.ready;

    const loadBefore = load1m();
    const timed = await measureLoginToTable(baseUrl, options.email, options.runs);
    const loadBetween = load1m();
    const scores = await measureLighthouse(baseUrl, options.lighthouseRuns, options.reportDir);

    const last = timed.runs[timed.runs.length - 1]!;
    const loginUrls = new Set(last.loginScripts.map((s) => s.url));
    const afterLogin = last.pecScripts.filter((s) => !loginUrls.has(s.url));
    const times = timed.runs.map((r) => r.loginToTableMs);
    const result = {
      measuredAt: new Date().toISOString(),
      command: `npm run bench -- frontend${args.length ? ` ${args.join(' ')}` : ''}`,
      build:
        'vite build (production) + scripts/compress.mjs, served by the API server (@fastify/static, pre-compressed brotli); gzip sizes computed with zlib level 6 for comparison',
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        // The machine may be shared: its load during the runs says how much the times can be trusted.
        loadAverage1m: { before: loadBefore, beforeLighthouse: loadBetween, after: load1m() },
        node: process.version,
        browser: timed.browser,
      },
      targets: TARGETS,
      user: options.email,
      javascript: {
        login: { ...total(last.loginScripts), scripts: last.loginScripts },
        pecAfterLogin: { ...total(last.pecScripts), scripts: last.pecScripts },
        addedByLogin: { ...total(afterLogin), scripts: afterLogin.map((s) => s.url) },
      },
      loginToTableMs: { runs: times, median: median(times), min: Math.min(...times), max: Math.max(...times), rowsShown: last.rows },
      lighthouse: {
        version: (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }).version,
        method:
          'Lighthouse node API, default (mobile) and desktop configs, simulated throttling, categories performance and accessibility; HTTP cache cleared before each run; signed in through the login form as ' +
          LIGHTHOUSE_USER +
          ' for every page but /login; median run by performance score',
        runsPerPage: options.lighthouseRuns,
        ...scores,
      },
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
    for (const [preset, pages] of Object.entries(scores)) {
      for (const [page, { median: m }] of Object.entries(pages)) {
        console.log(
          `Lighthouse ${preset.padEnd(7)} ${page.padEnd(16)}: performance ${m.performance}, accessibilité ${m.accessibility} (FCP ${m.firstContentfulPaintMs} ms, LCP ${m.largestContentfulPaintMs} ms, TBT ${m.totalBlockingTimeMs} ms, JS ${m.scriptKiB} KiB)`,
        );
      }
    }
    console.log(`Résultats écrits dans ${path.relative(ROOT, file)}`);
    // The login page must not carry the PEC screens.
    const pecInLogin = last.loginScripts.filter((s) => /\/(PecPage|DashboardPage)-/.test(s.url));
    if (pecInLogin.length) console.warn(`Attention : /login charge ${pecInLogin.map((s) => s.url).join(', ')}`);
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
