// Shared by `npm start`, `npm test` and `npm run dev`: plain Node, no dependency, so they run on a fresh clone.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressAssets } from './compress.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function hashFiles(paths) {
  const hash = createHash('sha256');
  const visit = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const entry of readdirSync(p).sort()) visit(path.join(p, entry));
    } else {
      hash.update(path.relative(root, p));
      hash.update(readFileSync(p));
    }
  };
  for (const p of paths) visit(path.join(root, p));
  return hash.digest('hex');
}

/** Runs a command in the project folder; exits the process when it fails unless told otherwise. */
export function run(command, args, { env = {}, allowFailure = false } = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0 && !allowFailure) {
    console.error(`\n✗ Échec : ${command} ${args.join(' ')}`);
    process.exit(result.status ?? 1);
  }
  return result.status ?? 1;
}

/** Installs dependencies when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.pecflow-install');
  const wanted = hashFiles(['package.json', 'package-lock.json']);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return;
  console.log('→ Installation des dépendances (npm ci)...');
  // Playwright drives Debian's Chromium: it must never download a browser of its own.
  run('npm', ['ci', '--no-audit', '--no-fund'], { env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
  writeFileSync(marker, wanted);
}

/** Builds the front end when its sources changed since the last build. */
export function ensureFrontEndBuild() {
  const marker = path.join(root, 'dist', '.pecflow-build');
  const wanted = hashFiles(['src', 'domain', 'public', 'index.html', 'vite.config.ts', 'package-lock.json']);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return;
  console.log('→ Construction de l’interface (vite build)...');
  run(bin('vite'), ['build', '--logLevel', 'warn']);
  compressAssets(path.join(root, 'dist'));
  writeFileSync(marker, wanted);
}

/** Compiles the server (scripts/build-server.mjs) when its sources changed since the last build. */
export function ensureServerBuild() {
  const marker = path.join(root, 'dist-server', '.pecflow-build');
  const wanted = hashFiles(['server', 'domain', 'scripts/build-server.mjs', 'package-lock.json']);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return;
  console.log('→ Compilation du serveur (esbuild)...');
  run(process.execPath, [path.join(root, 'scripts', 'build-server.mjs')]);
  writeFileSync(marker, wanted);
}

/** Starts a long-running child that shares our terminal and stops with us. */
export function serve(command, args, env = {}) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
  return child;
}
