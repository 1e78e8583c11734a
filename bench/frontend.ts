// npm run bench -- frontend [--compare=DIR] [--static=DIR] [--only=size,throttled,lighthouse,profile] [--runs=7]
//   [--throttled-runs=5] [--lighthouse-runs=3] [--profile-runs=3] [--caches=cold,warm,revisit] [--presets=mobile,desktop]
//   [--pages=/login,/pec,/settings/shops,/dashboard] [--reports=DIR] [--profiles=DIR] [--port=4341] [--email=…]
//   [--profile-pages=/pec,/login,/dashboard] [--profile-cache=cached|cold] [--wait-load=1.0] [--out=frontend.json]
// The front end's weight and speed on the production build, served as `npm start` serves it (the API server with the
// pre-compressed assets). Builds this checkout into a temporary folder (unless --static names a build) and, with
// --compare=DIR, another checkout (the previous release: its own front end built with its own packages, served by its
// own server), each server on a fresh embedded database with the demo data; both are measured in the same run, their
// turns alternating (A B, then B A) so that the machine's drift falls on both. Then, for each build:
// - size: Debian's Chromium, cold cache, unthrottled: the JavaScript a browser downloads to show /login, then /pec
//   after signing in, and the time from submitting the login form to the PEC table being filled (--runs, median);
//   then each signed-in page of --pages opened with the tokens and an empty HTTP cache: the JavaScript it downloads;
// - throttled: the same browser slowed as a phone (CPU 4×, 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip, Chrome
//   DevTools' throttling): the click on "Se connecter" to the first row of /pec (cold cache), then a signed-in visitor
//   opening /pec with the HTTP cache cleared (tokens kept) and again with every asset cached: shell painted, first row;
// - lighthouse: Lighthouse 12 (performance and accessibility, mobile and desktop presets, simulated throttling) on
//   /login signed out and on /pec, /settings/shops and /dashboard signed in, cold (signed in again, then the HTTP cache
//   cleared: a page not opened since signing in), warm (the page visited once just before, on the same emulated
//   screen) and revisit (that visit, then the HTTP cache cleared: a page opened before, its files gone from the cache,
//   what the browser stored kept), --lighthouse-runs times each, the median run kept;
// - profile: a CPU profile at 4× CPU with the assets cached (--profile-cache=cold: the page's first visit, nothing of it
//   cached, no frame nor styles kept), for each of --profile-pages: a signed-in visitor opening
//   /pec until its first row, a signed-out one opening /login until the network is idle, a signed-in one opening
//   /dashboard until its figures and cards are drawn and the network is idle; its self time summed by package through
//   the build's source maps (which package's code the main thread runs), and the long animation frames' blocking time.
// The 1-minute load average is recorded before each measurement: the machine may be shared. With --wait-load=L, each
// pair of turns waits (10 minutes at most) for it to fall under L first.
// Writes bench/results/frontend.json (or --out's name).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { chromium, type Browser, type CDPSession, type Page, type Response } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Result as LighthouseResult } from 'lighthouse';
import { screenEmulationMetrics } from 'lighthouse/core/config/constants.js';
import puppeteer, { type Page as PuppeteerPage } from 'puppeteer-core';
import { benchFlags } from './lib/args';

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
const TARGETS = { mobilePerformance: 90, desktopPerformance: 100, accessibility: 100, loginJavaScriptKiB: 200, loginToTableMs: 600 };
/** A phone as Chrome DevTools slows one down: the issue's conditions. */
const PHONE = { cpuSlowdown: 4, downloadBitsPerSecond: 1.6e6, uploadBitsPerSecond: 750e3, roundTripMs: 150 };
const MEASURES = ['size', 'throttled', 'lighthouse', 'profile'] as const;
/**
 * The profiled openings: /pec signed in (to its first row), /login signed out (to its form, the network idle),
 * /dashboard signed in (to its figures and cards all drawn, the network idle).
 */
const PROFILED_PAGES = ['/pec', '/login', '/dashboard'] as const;
type ProfiledPage = (typeof PROFILED_PAGES)[number];
type Measure = (typeof MEASURES)[number];

function flags(args: string[]) {
  const map = benchFlags(args).flags;
  const list = (name: string, all: readonly string[], defaults = all) => {
    const chosen = map.get(name)?.split(',') ?? [...defaults];
    const unknown = chosen.filter((c) => !all.includes(c));
    if (unknown.length) throw new Error(`--${name} : inconnu ${unknown.join(', ')} (possibles : ${all.join(', ')})`);
    return chosen;
  };
  return {
    staticDir: map.get('static'),
    compare: map.has('compare') ? path.resolve(map.get('compare')!) : undefined,
    only: list('only', MEASURES) as Measure[],
    runs: Number(map.get('runs') ?? 7),
    throttledRuns: Number(map.get('throttled-runs') ?? 5),
    lighthouseRuns: Number(map.get('lighthouse-runs') ?? 3),
    profileRuns: Number(map.get('profile-runs') ?? 3),
    profilePages: list('profile-pages', PROFILED_PAGES) as ProfiledPage[],
    /**
     * cached: the page's files in the HTTP cache (its work alone); cold: the page's first visit, nothing of it cached and
     * no frame nor styles kept by an earlier load (src/keptFrame.ts): the work a cold phone does.
     */
    profileCache: list('profile-cache', ['cached', 'cold'], ['cached'])[0] as 'cached' | 'cold',
    caches: list('caches', ['cold', 'warm', 'revisit'], ['cold', 'warm']) as Cache[],
    presets: list('presets', ['mobile', 'desktop']),
    pages: list(
      'pages',
      LIGHTHOUSE_PAGES.map((p) => p.path),
    ),
    /** A folder for every Lighthouse report (JSON, readable in the Lighthouse viewer). */
    reportDir: map.get('reports'),
    /** A folder for the CPU profiles (.cpuprofile, readable in Chrome DevTools' Performance panel). */
    profileDir: map.get('profiles'),
    port: Number(map.get('port') ?? 4341),
    /** Before each pair of turns, wait (10 minutes at most) for the 1-minute load average to fall under this. */
    waitLoad: map.has('wait-load') ? Number(map.get('wait-load')) : undefined,
    email: map.get('email') ?? 'audio@audition-horizon.fr',
    /** The results' file name under bench/results (a measure kept beside the others instead of replacing frontend.json). */
    out: map.get('out'),
  };
}
type Cache = 'cold' | 'warm' | 'revisit';

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
const load1m = () => Math.round(os.loadavg()[0]! * 100) / 100;
/** The load averages seen before each measurement, for the results: how much the figures can be trusted. */
const loads: number[] = [];
const noteLoad = () => {
  const load = load1m();
  loads.push(load);
  return load;
};
let waitLoad: number | undefined;
/** With --wait-load, waits for a quiet machine (10 minutes at most) before a pair of turns: both are measured alike. */
async function quiet() {
  if (waitLoad === undefined) return;
  const deadline = Date.now() + 600_000;
  let said = false;
  while (load1m() >= waitLoad && Date.now() < deadline) {
    if (!said) console.log(`  (charge ${load1m()} : attente qu'elle passe sous ${waitLoad})`);
    said = true;
    await new Promise((r) => setTimeout(r, 15_000));
  }
}

/** A build to measure: its label, the checkout whose server serves it, its files and its source maps. */
interface Build {
  label: 'current' | 'previous';
  checkout: string;
  staticDir: string;
  mapsDir?: string;
  baseUrl: string;
}

/** Each measurement's runs alternate the builds' order (A B, then B A): the machine's drift falls on both. */
function turns<T extends { label: string }>(builds: T[], run: number) {
  return run % 2 ? [...builds].reverse() : builds;
}

/** The deep link /pec, signed out, then the login form: scripts downloaded and the time to a filled table, cold cache each run. */
async function measureLoginToTable(browser: Browser, builds: Build[], email: string, runs: number) {
  const results = new Map<string, { loginScripts: Script[]; pecScripts: Script[]; loginToTableMs: number; rows: number; load: number }[]>();
  for (let run = 0; run <= runs; run++) {
    await quiet();
    for (const build of turns(builds, run)) {
      // A fresh context: empty cache, no session. Run 0 warms the server up and is not counted.
      const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const scripts = recordScripts(page);
      const load = noteLoad();
      // A deep link: /pec sends an unknown visitor to /login, and back to /pec once signed in.
      await page.goto(`${build.baseUrl}/pec`);
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
      if (!results.has(build.label)) results.set(build.label, []);
      results.get(build.label)!.push({ loginScripts, pecScripts, loginToTableMs, rows, load });
      console.log(`  ${build.label} essai ${run} : connexion -> tableau rempli (${rows} lignes) en ${loginToTableMs} ms (charge ${load})`);
    }
  }
  return Object.fromEntries(
    builds.map((build) => {
      const measured = results.get(build.label)!;
      const last = measured[measured.length - 1]!;
      const loginUrls = new Set(last.loginScripts.map((s) => s.url));
      const afterLogin = last.pecScripts.filter((s) => !loginUrls.has(s.url));
      const times = measured.map((r) => r.loginToTableMs);
      return [
        build.label,
        {
          javascript: {
            login: { ...total(last.loginScripts), scripts: last.loginScripts },
            pecAfterLogin: { ...total(last.pecScripts), scripts: last.pecScripts },
            addedByLogin: { ...total(afterLogin), scripts: afterLogin.map((s) => s.url) },
          },
          loginToTableMs: { runs: times, median: median(times), min: Math.min(...times), max: Math.max(...times), rowsShown: last.rows },
          loadAverage1m: measured.map((r) => r.load),
        },
      ];
    }),
  );
}

/**
 * Each signed-in page of --pages opened by a visitor who holds the tokens, with an empty HTTP cache: the JavaScript it
 * downloads until it has shown its title (and /pec its first row) and the network has settled (its drawer, prefetched
 * on pointing, is not pointed at). Signed in as LIGHTHOUSE_USER (every page is allowed). Sizes do not depend on the
 * machine: one run per build.
 */
async function measurePages(browser: Browser, builds: Build[], pages: string[]) {
  const results: Record<string, Record<string, ReturnType<typeof total> & { scripts: string[] }>> = {};
  for (const build of builds) {
    const signing = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    const login = await signing.newPage();
    await login.goto(`${build.baseUrl}/login`);
    await login.getByRole('textbox', { name: 'Email' }).fill(LIGHTHOUSE_USER);
    await login.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(PASSWORD);
    await login.getByRole('button', { name: 'Se connecter' }).click();
    await login.waitForURL((url) => url.pathname !== '/login', { timeout: 60_000 });
    const storageState = await signing.storageState();
    await signing.close();
    results[build.label] = {};
    for (const target of pages.filter((p) => p !== '/login')) {
      // A fresh context: the tokens, no cached file.
      const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1400, height: 900 }, storageState });
      const page = await context.newPage();
      const scripts = recordScripts(page);
      await page.goto(`${build.baseUrl}${target}`);
      await page
        .locator(target === '/pec' ? '[data-testid="pec-row"]' : 'main h1')
        .first()
        .waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
      const loaded = await scripts();
      await context.close();
      results[build.label]![target] = { ...total(loaded), scripts: loaded.map((s) => s.url) };
      console.log(
        `  ${build.label} ${target} connecté, cache vide : ${kib(loaded.reduce((a, s) => a + s.transferred, 0))} KiB transférés, ${loaded.length} fichiers`,
      );
    }
  }
  return results;
}

/**
 * When the page first showed its shell (the app bar), its list frame and its first row, and when "Se connecter" was
 * clicked: ms after the document's start, each taken in the animation frame after the element appeared (the frame
 * that paints it). Plain JavaScript: the page runs it as written (tsx would add its own helpers to a function).
 */
const MARKS_SCRIPT = `(() => {
  const marks = (window.benchMarks = {});
  const watched = [['kept', '#pecflow-frame'], ['shell', '#root header'], ['frame', '[data-testid="pec-list"]'], ['row', '[data-testid="pec-row"]']];
  const pending = new Set();
  const check = () => {
    for (const [name, selector] of watched) {
      if (pending.has(name) || !document.querySelector(selector)) continue;
      pending.add(name);
      requestAnimationFrame(() => (marks[name] = Math.round(performance.now())));
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true });
  // What the main thread held beyond 50 ms at a time (long animation frames' blocking time), as TBT counts it.
  window.benchBlockingMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.benchBlockingMs += entry.blockingDuration;
  }).observe({ type: 'long-animation-frame', buffered: true });
  document.addEventListener('click', (event) => {
    if (event.target && event.target.closest && event.target.closest('button[type="submit"]')) marks.click = Math.round(performance.now());
  }, true);
})();`;

async function slowDown(cdp: CDPSession) {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.roundTripMs,
    downloadThroughput: PHONE.downloadBitsPerSecond / 8,
    uploadThroughput: PHONE.uploadBitsPerSecond / 8,
  });
}

const readMarks = (page: Page) => page.evaluate(() => (window as unknown as { benchMarks: Record<string, number> }).benchMarks);
async function waitForRow(page: Page) {
  await page.getByTestId('pec-row').first().waitFor({ timeout: 120_000 });
  await page.waitForFunction(() => 'row' in (window as unknown as { benchMarks: Record<string, number> }).benchMarks);
  return readMarks(page);
}

/**
 * On the slowed browser: the click on "Se connecter" (the login page loaded and settled) to the first row of /pec with
 * a cold cache; then, signed in, /pec opened with the HTTP cache cleared, and again with its assets cached.
 */
async function measureThrottled(browser: Browser, builds: Build[], email: string, runs: number) {
  // keptFrameMs: the frame the page kept of the previous visit (src/keptFrame.ts) painted, when it was.
  type Open = { keptFrameMs: number | null; shellMs: number; firstRowMs: number };
  type Run = { clickToFirstRowMs: number; cold: Open; warm: Open; load: number };
  const results = new Map<string, Run[]>(builds.map((b) => [b.label, []]));
  for (let run = 0; run <= runs; run++) {
    await quiet();
    for (const build of turns(builds, run)) {
      const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 412, height: 823 } });
      await context.addInitScript({ content: MARKS_SCRIPT });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await slowDown(cdp);
      const load = noteLoad();
      // The deep link /pec: the login page, then back to /pec once signed in.
      await page.goto(`${build.baseUrl}/pec`);
      await page.getByRole('button', { name: 'Se connecter' }).waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      const login = await waitForRow(page);

      await cdp.send('Network.clearBrowserCache');
      await page.goto(`${build.baseUrl}/pec`);
      const cold = await waitForRow(page);
      await page.goto(`${build.baseUrl}/pec`);
      const warm = await waitForRow(page);
      await context.close();
      const measured: Run = {
        clickToFirstRowMs: login.row! - login.click!,
        cold: { keptFrameMs: cold.kept ?? null, shellMs: cold.shell!, firstRowMs: cold.row! },
        warm: { keptFrameMs: warm.kept ?? null, shellMs: warm.shell!, firstRowMs: warm.row! },
        load,
      };
      if (run === 0) continue;
      results.get(build.label)!.push(measured);
      console.log(
        `  ${build.label} ralenti essai ${run} : clic -> 1re ligne ${measured.clickToFirstRowMs} ms ; /pec à froid : cadre gardé ${cold.kept ?? '—'} ms, cadre ${cold.shell} ms, 1re ligne ${cold.row} ms ; en cache : cadre gardé ${warm.kept ?? '—'} ms, cadre ${warm.shell} ms, 1re ligne ${warm.row} ms (charge ${load})`,
      );
    }
  }
  return Object.fromEntries(
    [...results].map(([label, measured]) => {
      const of = (pick: (r: Run) => number) => ({ median: median(measured.map(pick)), runs: measured.map(pick) });
      const kept = (pick: (r: Run) => number | null) => {
        const times = measured.map(pick).filter((time): time is number => time !== null);
        return times.length ? { median: median(times), runs: measured.map(pick) } : null;
      };
      return [
        label,
        {
          conditions: PHONE,
          loginClickToFirstRowMs: of((r) => r.clickToFirstRowMs),
          coldOpen: { keptFrameMs: kept((r) => r.cold.keptFrameMs), shellMs: of((r) => r.cold.shellMs), firstRowMs: of((r) => r.cold.firstRowMs) },
          warmOpen: { keptFrameMs: kept((r) => r.warm.keptFrameMs), shellMs: of((r) => r.warm.shellMs), firstRowMs: of((r) => r.warm.firstRowMs) },
          loadAverage1m: measured.map((r) => r.load),
        },
      ];
    }),
  );
}

/** Which package a source file of the build belongs to, gathered the way the issue reads the profile. */
function packageGroup(source: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
  if (!match) return /(^|\/)(src|domain)\//.test(source) ? 'application' : 'other';
  const name = match[1]!;
  if (/^@emotion\/|^stylis$|^@mui\/(system|styled-engine)$/.test(name)) return 'emotion + @mui/system + stylis';
  if (name === 'react-dom' || name === 'scheduler') return 'react-dom';
  if (/^@mui\//.test(name)) return '@mui/material';
  if (/^(ra-|react-admin$|node-polyglot$)/.test(name)) return 'react-admin';
  if (/^@api-platform\/|^jsonld$|^rdf-canonize$/.test(name)) return '@api-platform + jsonld';
  if (/^react-router/.test(name)) return 'react-router';
  if (/^@tanstack\//.test(name)) return 'react-query';
  if (name === 'zod' || name === 'react-hook-form' || name === '@hookform/resolvers') return 'zod + react-hook-form';
  return 'other libraries';
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** Self time of a CPU profile by package, through the build's source maps. */
function selfTimeByPackage(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, mapsDir: string | undefined) {
  const maps = new Map<string, TraceMap | null>();
  const mapOf = (url: string) => {
    const file = new URL(url).pathname.split('/').pop()!;
    if (!maps.has(file)) {
      const mapFile = mapsDir && path.join(mapsDir, `${file}.map`);
      maps.set(file, mapFile && existsSync(mapFile) ? new TraceMap(readFileSync(mapFile, 'utf8')) : null);
    }
    return maps.get(file)!;
  };
  const groupOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    let group: string;
    if (functionName === '(garbage collector)') group = 'garbage collection';
    else if (functionName === '(idle)') group = 'idle';
    else if (functionName === '(program)' || functionName === '(root)' || !url) group = 'browser (parsing, style, layout, paint)';
    else {
      const map = url.includes('/assets/') && lineNumber >= 0 ? mapOf(url) : null;
      const source = map ? originalPositionFor(map, { line: lineNumber + 1, column: Math.max(0, columnNumber) }).source : null;
      group = source ? packageGroup(source) : 'other';
    }
    groupOf.set(node.id, group);
  }
  const totals: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const group = groupOf.get(id) ?? 'other';
    totals[group] = (totals[group] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
  });
  return totals;
}

/**
 * A page opened at 4× CPU, its assets cached (or, `cold`, nothing of it cached nor kept), profiled: /pec signed in until
 * its first row, /login until idle.
 */
async function measureProfile(
  browser: Browser,
  builds: Build[],
  email: string,
  runs: number,
  target: ProfiledPage,
  profileDir: string | undefined,
  cache: 'cached' | 'cold',
) {
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const results = new Map<string, { groups: Record<string, number>; doneMs: number; blockingMs: number; load: number }[]>(builds.map((b) => [b.label, []]));
  for (let run = 0; run <= runs; run++) {
    await quiet();
    for (const build of turns(builds, run)) {
      const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 412, height: 823 } });
      await context.addInitScript({ content: MARKS_SCRIPT });
      const page = await context.newPage();
      // The assets cached by a first visit: what is profiled is the work of the page, not the download.
      await page.goto(`${build.baseUrl}/pec`);
      if (target !== '/login') {
        await page.getByRole('textbox', { name: 'Email' }).fill(email);
        await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Se connecter' }).click();
        await waitForRow(page);
      } else {
        await page.getByRole('button', { name: 'Se connecter' }).waitFor({ timeout: 60_000 });
        await page.waitForLoadState('networkidle');
      }
      const cdp = await context.newCDPSession(page);
      if (cache === 'cold') {
        // Left for a page of the origin that runs none of the application: nothing of it writes a frame meanwhile.
        await page.goto(`${build.baseUrl}/api/health`);
        await page.evaluate(() => {
          for (const key of Object.keys(localStorage)) if (key.startsWith('pecflow.frame.') || key === 'pecflow.styles') localStorage.removeItem(key);
        });
        await cdp.send('Network.clearBrowserCache');
      }
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      const load = noteLoad();
      await cdp.send('Profiler.start');
      const started = Date.now();
      await page.goto(`${build.baseUrl}${target}`);
      let doneMs: number;
      if (target === '/pec') doneMs = (await waitForRow(page)).row!;
      else if (target === '/dashboard') {
        await page.locator('[data-testid="dashboard-more"][aria-busy="false"]').waitFor({ timeout: 60_000 });
        doneMs = Date.now() - started;
        await page.waitForLoadState('networkidle');
      } else {
        // What Lighthouse counts as blocking runs until the page is quiet, not only until the form is drawn.
        await page.getByRole('button', { name: 'Se connecter' }).waitFor({ timeout: 60_000 });
        doneMs = Date.now() - started;
        await page.waitForLoadState('networkidle');
      }
      const { profile } = await cdp.send('Profiler.stop');
      const blockingMs = Math.round(await page.evaluate(() => (window as unknown as { benchBlockingMs: number }).benchBlockingMs));
      await context.close();
      if (run === 0) continue;
      const name = target.slice(1);
      if (profileDir) writeFileSync(path.join(profileDir, `${build.label}-${name}-${run}.cpuprofile`), JSON.stringify(profile));
      const groups = selfTimeByPackage(profile as unknown as Parameters<typeof selfTimeByPackage>[0], build.mapsDir);
      results.get(build.label)!.push({ groups, doneMs, blockingMs, load });
      const busy = Math.round(Object.entries(groups).reduce((a, [group, ms]) => (group === 'idle' ? a : a + ms), 0));
      console.log(`  ${build.label} profil ${target} essai ${run} : ${doneMs} ms, occupé ${busy} ms, bloquant ${blockingMs} ms (charge ${load})`);
    }
  }
  return Object.fromEntries(
    [...results].map(([label, measured]) => {
      const names = [...new Set(measured.flatMap((r) => Object.keys(r.groups)))];
      const selfTimeMs = Object.fromEntries(
        names.map((name) => [name, median(measured.map((r) => Math.round(r.groups[name] ?? 0)))] as const).sort((a, b) => b[1] - a[1]),
      );
      const busy = measured.map((r) => Math.round(Object.entries(r.groups).reduce((a, [name, ms]) => (name === 'idle' ? a : a + ms), 0)));
      const state =
        cache === 'cold' ? 'for the first time (HTTP cache cleared, no frame nor emotion styles kept by an earlier load)' : 'with its assets cached';
      const opened = `${state}, CPU ${PHONE.cpuSlowdown}× slower, network unthrottled, sampled every 100 µs from the navigation`;
      const method = {
        '/pec': `/pec opened signed in ${opened} to the first row (readyMs)`,
        '/login': `/login opened signed out ${opened} to the network idle (readyMs: the form drawn)`,
        '/dashboard': `/dashboard opened signed in ${opened} to the network idle (readyMs: its figures and cards drawn)`,
      }[target];
      return [
        label,
        {
          method: `${method}; self time by package through the build's source maps, median of ${measured.length} runs`,
          readyMs: { median: median(measured.map((r) => r.doneMs)), runs: measured.map((r) => r.doneMs) },
          busyMs: { median: median(busy), runs: busy },
          // Long animation frames' blocking time over the same span (what Lighthouse's TBT counts, measured here).
          blockingMs: { median: median(measured.map((r) => r.blockingMs)), runs: measured.map((r) => r.blockingMs) },
          selfTimeMs,
          loadAverage1m: measured.map((r) => r.load),
        },
      ];
    }),
  );
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
type LighthouseRun = ReturnType<typeof summarize> & { loadAverage1m: number };
type LighthouseResults = Record<string, Record<string, Record<string, Record<string, { runs: LighthouseRun[]; median: LighthouseRun }>>>>;

/**
 * Lighthouse on every page, preset and cache state, `runs` times each, the builds in alternating turns. Chromium is
 * started by chrome-launcher; puppeteer-core signs in on its page and hands it to Lighthouse. Lighthouse's own storage
 * reset would sign the user out, so it is off: a cold run clears the HTTP cache itself (the tokens stay), a warm run
 * visits the page once just before.
 */
async function measureLighthouse(builds: Build[], options: ReturnType<typeof flags>) {
  const { lighthouseRuns: runs, reportDir } = options;
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const results: LighthouseResults = Object.fromEntries(builds.map((b) => [b.label, {}]));
  try {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    for (const cache of options.caches) {
      for (const preset of options.presets) {
        for (const target of LIGHTHOUSE_PAGES.filter((p) => options.pages.includes(p.path))) {
          const measured = new Map<string, LighthouseRun[]>(builds.map((b) => [b.label, []]));
          for (let run = 0; run < runs; run++) {
            await quiet();
            for (const build of turns(builds, run)) {
              let result: Awaited<ReturnType<typeof lighthouse>>;
              let load = 0;
              // A trace without the navigation's start (NO_NAVSTART) is a failed recording, not a measurement: the run
              // is made again from its start (twice at most).
              for (let attempt = 1; ; attempt++) {
                if (target.signedIn) await signIn(page, build.baseUrl, LIGHTHOUSE_USER);
                else await signOut(page, build.baseUrl);
                if (cache !== 'cold') await warmUp(page, `${build.baseUrl}${target.path}`, target.signedIn, preset);
                // Nothing of the previous page still running when Lighthouse starts its navigation, nor filling the
                // cache once cleared: cleared while the warm-up page still ran, 13 of 18 revisits at stop 53 found the
                // entry (or more) still cached (JavaScript transferred 118 KiB instead of 292).
                await page.goto('about:blank');
                if (cache !== 'warm') await cdp.send('Network.clearBrowserCache');
                load = noteLoad();
                result = await lighthouse(
                  `${build.baseUrl}${target.path}`,
                  { onlyCategories: ['performance', 'accessibility'], disableStorageReset: true, logLevel: 'error', output: 'json' },
                  preset === 'desktop' ? desktopConfig : undefined,
                  // Lighthouse names puppeteer-core's page type from its own copy of puppeteer-core: the same package.
                  page as unknown as Parameters<typeof lighthouse>[3],
                );
                if (!result) throw new Error(`Lighthouse n'a rien rendu pour ${target.path}`);
                if (!result.lhr.runtimeError) break;
                if (attempt === 3 || result.lhr.runtimeError.code !== 'NO_NAVSTART') {
                  throw new Error(`Lighthouse, ${target.path} : ${result.lhr.runtimeError.message}`);
                }
                console.log(`  Lighthouse ${build.label} ${target.path} : trace sans début de navigation, essai refait`);
              }
              if (reportDir) {
                const name = `${build.label}-${cache}-${preset}${target.path.replaceAll('/', '-')}-${run + 1}.json`;
                writeFileSync(path.join(reportDir, name), result.report as string);
              }
              const summary = { ...summarize(result.lhr), loadAverage1m: load };
              measured.get(build.label)!.push(summary);
              console.log(
                `  Lighthouse ${build.label} ${cache} ${preset} ${target.path} essai ${run + 1} : performance ${summary.performance}, accessibilité ${summary.accessibility} (TBT ${summary.totalBlockingTimeMs} ms, LCP ${summary.largestContentfulPaintMs} ms, charge ${load})`,
              );
            }
          }
          for (const [label, list] of measured) {
            // The median run by performance score: its metrics and audits go together.
            const byScore = [...list].sort((a, b) => a.performance - b.performance);
            ((results[label]![cache] ??= {})[preset] ??= {})[target.path] = { runs: list, median: byScore[Math.floor((byScore.length - 1) / 2)]! };
          }
        }
      }
    }
    return results;
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
}

/** The page visited once, so that its code and data are in the HTTP cache (and the browser's kept schema) for a warm run. */
async function warmUp(page: PuppeteerPage, url: string, signedIn: boolean, preset: string) {
  // On the screen Lighthouse then emulates: what the page keeps for the next visit is kept for that screen's width.
  const screen = screenEmulationMetrics[preset === 'desktop' ? 'desktop' : 'mobile'];
  await page.setViewport({ width: screen.width, height: screen.height, deviceScaleFactor: screen.deviceScaleFactor, isMobile: screen.mobile });
  await page.goto(url);
  if (signedIn) await page.waitForSelector('main h1', { timeout: 60_000 });
  else await page.waitForSelector('button[type="submit"]', { timeout: 60_000 });
  // The page's lazy parts (its drawer, prefetched on pointing) are not waited for; the list or the form is shown.
  await new Promise((r) => setTimeout(r, 1500));
  await page.setViewport(null);
}

/** The real server of `checkout` on a fresh embedded database with the demo data, serving the build in `staticDir`. */
export function startServer(checkout: string, staticDir: string, port: number, dataDir: string) {
  const child = spawn(path.join(checkout, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: checkout,
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

/**
 * The production build of `checkout` with its own packages, as `npm run build` makes it (vite, then the pre-compressed
 * copies), plus hidden source maps, moved out of the served folder: the profile reads them, no browser is sent them.
 */
function buildFrontEnd(checkout: string, outDir: string, mapsDir: string) {
  console.log(`Build de production de ${checkout} dans ${outDir}...`);
  execFileSync(path.join(checkout, 'node_modules/.bin/vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--sourcemap', 'hidden', '--logLevel', 'warn'], {
    cwd: checkout,
    stdio: 'inherit',
  });
  mkdirSync(mapsDir, { recursive: true });
  const assets = path.join(outDir, 'assets');
  for (const file of readdirSync(assets).filter((f) => f.endsWith('.map'))) renameSync(path.join(assets, file), path.join(mapsDir, file));
  execFileSync(process.execPath, [path.join(checkout, 'scripts/compress.mjs'), outDir], { cwd: checkout, stdio: 'inherit' });
}

export async function runFrontendBench(args: string[]) {
  const options = flags(args);
  waitLoad = options.waitLoad;
  const work = mkdtempSync(path.join(os.tmpdir(), 'pecflow-bench-front-'));
  const sides: { label: Build['label']; checkout: string; staticDir?: string }[] = [{ label: 'current', checkout: ROOT, staticDir: options.staticDir }];
  if (options.compare) sides.push({ label: 'previous', checkout: options.compare });
  const builds: Build[] = [];
  const servers: ReturnType<typeof startServer>[] = [];
  try {
    for (const [i, side] of sides.entries()) {
      let staticDir = side.staticDir;
      let mapsDir: string | undefined;
      if (!staticDir) {
        staticDir = path.join(work, `dist-${side.label}`);
        mapsDir = path.join(work, `maps-${side.label}`);
        buildFrontEnd(side.checkout, staticDir, mapsDir);
      }
      const server = startServer(side.checkout, staticDir, options.port + i, path.join(work, `data-${side.label}`));
      servers.push(server);
      builds.push({ label: side.label, checkout: side.checkout, staticDir, mapsDir, baseUrl: server.baseUrl });
    }
    console.log('Démarrage des serveurs (base embarquée, données de démonstration)...');
    await Promise.all(servers.map((s) => s.ready));

    const loadBefore = load1m();
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    const browserVersion = `Chromium ${browser.version()}`;
    let size: Awaited<ReturnType<typeof measureLoginToTable>> | undefined;
    let pageSizes: Awaited<ReturnType<typeof measurePages>> | undefined;
    let throttled: Awaited<ReturnType<typeof measureThrottled>> | undefined;
    let profile: Record<string, Awaited<ReturnType<typeof measureProfile>>> | undefined;
    try {
      if (options.only.includes('size')) {
        size = await measureLoginToTable(browser, builds, options.email, options.runs);
        pageSizes = await measurePages(browser, builds, options.pages);
      }
      if (options.only.includes('throttled')) throttled = await measureThrottled(browser, builds, options.email, options.throttledRuns);
      if (options.only.includes('profile')) {
        profile = {};
        for (const target of options.profilePages) {
          profile[target] = await measureProfile(browser, builds, options.email, options.profileRuns, target, options.profileDir, options.profileCache);
        }
      }
    } finally {
      await browser.close();
    }
    const scores = options.only.includes('lighthouse') ? await measureLighthouse(builds, options) : undefined;

    const result = {
      measuredAt: new Date().toISOString(),
      command: `npm run bench -- frontend${args.length ? ` ${args.join(' ')}` : ''}`,
      build:
        'vite build (production) + scripts/compress.mjs, served by its own checkout\'s API server (@fastify/static, pre-compressed brotli); gzip sizes computed with zlib level 6 for comparison; "previous" is the --compare checkout, measured in the same run, turns alternating',
      builds: Object.fromEntries(builds.map((b) => [b.label, b.checkout])),
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        // The machine may be shared: its load during the runs says how much the times can be trusted.
        loadAverage1m: {
          before: loadBefore,
          during: { min: Math.min(...loads), median: median(loads.map((l) => l * 100)) / 100, max: Math.max(...loads) },
          after: load1m(),
        },
        node: process.version,
        browser: browserVersion,
      },
      targets: TARGETS,
      user: options.email,
      ...(size && { size }),
      ...(pageSizes && { pageJavaScript: pageSizes }),
      ...(throttled && { throttled }),
      ...(profile && { profile }),
      ...(scores && {
        lighthouse: {
          version: (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }).version,
          method:
            'Lighthouse node API, default (mobile) and desktop configs, simulated throttling, categories performance and accessibility; cold: HTTP cache cleared before each run, tokens kept; warm: the page visited once just before; signed in through the login form as ' +
            LIGHTHOUSE_USER +
            ' for every page but /login; median run by performance score',
          runsPerPage: options.lighthouseRuns,
          ...scores,
        },
      }),
    };
    const dir = path.join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, options.out ?? 'frontend.json');
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    printSummary({ size, pageSizes, throttled, profile, lighthouse: scores });
    console.log(`Résultats écrits dans ${path.relative(ROOT, file)}`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(work, { recursive: true, force: true });
  }
}

function printSummary(result: {
  size?: Awaited<ReturnType<typeof measureLoginToTable>>;
  pageSizes?: Awaited<ReturnType<typeof measurePages>>;
  throttled?: Awaited<ReturnType<typeof measureThrottled>>;
  profile?: Record<string, Awaited<ReturnType<typeof measureProfile>>>;
  lighthouse?: LighthouseResults;
}) {
  console.log('');
  for (const [label, size] of Object.entries(result.size ?? {})) {
    const { login, pecAfterLogin } = size.javascript;
    console.log(`${label} : JavaScript pour /login ${login.transferredKiB} KiB transférés (${login.rawKiB} KiB bruts, ${login.files} fichiers)`);
    console.log(
      `${label} : JavaScript pour /pec connecté ${pecAfterLogin.transferredKiB} KiB transférés (${pecAfterLogin.rawKiB} KiB bruts, ${pecAfterLogin.files} fichiers)`,
    );
    console.log(`${label} : connexion -> tableau rempli, médiane ${size.loginToTableMs.median} ms`);
  }
  for (const [label, pages] of Object.entries(result.pageSizes ?? {})) {
    for (const [page, js] of Object.entries(pages)) {
      console.log(`${label} : JavaScript pour ${page} connecté, cache vide ${js.transferredKiB} KiB transférés (${js.rawKiB} KiB bruts, ${js.files} fichiers)`);
    }
  }
  for (const [label, t] of Object.entries(result.throttled ?? {})) {
    console.log(
      `${label} : ralenti, clic -> 1re ligne ${t.loginClickToFirstRowMs.median} ms ; /pec à froid ${t.coldOpen.shellMs.median} / ${t.coldOpen.firstRowMs.median} ms ; en cache ${t.warmOpen.shellMs.median} / ${t.warmOpen.firstRowMs.median} ms (cadre / 1re ligne)`,
    );
  }
  for (const [target, builds] of Object.entries(result.profile ?? {})) {
    for (const [label, p] of Object.entries(builds)) {
      console.log(
        `${label} : profil ${target} à 4×, prête à ${p.readyMs.median} ms, occupé ${p.busyMs.median} ms, bloquant ${p.blockingMs.median} ms : ${JSON.stringify(p.selfTimeMs)}`,
      );
    }
  }
  for (const [label, caches] of Object.entries(result.lighthouse ?? {})) {
    for (const [cache, presets] of Object.entries(caches)) {
      for (const [preset, pages] of Object.entries(presets)) {
        for (const [page, { median: m }] of Object.entries(pages)) {
          console.log(
            `Lighthouse ${label.padEnd(8)} ${cache} ${preset.padEnd(7)} ${page.padEnd(16)}: performance ${m.performance}, accessibilité ${m.accessibility} (FCP ${m.firstContentfulPaintMs} ms, LCP ${m.largestContentfulPaintMs} ms, TBT ${m.totalBlockingTimeMs} ms, JS ${m.scriptKiB} KiB)`,
          );
        }
      }
    }
  }
}
