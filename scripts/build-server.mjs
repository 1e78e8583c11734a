// Compiles the server to plain JavaScript: one ESM bundle per entry in dist-server/ (dependencies stay in node_modules),
// with the SQL migrations beside it, so that production runs `node dist-server/main.js` with no TypeScript tooling.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const SERVER_OUT = 'dist-server';

export async function buildServer(root = process.cwd()) {
  const outdir = path.join(root, SERVER_OUT);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts', backup: 'server/backup.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // server/db/connect.ts finds its migrations next to the running module.
  cpSync(path.join(root, 'server/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
