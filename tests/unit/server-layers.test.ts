// @vitest-environment node
// The folders of server/ import one another in one direction (docs/DEVELOPING.md, "Layers in one direction"): a
// runtime import that closes a cycle between two of them fails here, naming the files that make it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(__dirname, '../../server');
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'migrations' ? [] : sourceFiles(file);
    return name.endsWith('.ts') ? [file] : [];
  });
}

/** A folder of server/ (auth, hydra…), or a file at its top (app, context…) as a layer of its own. */
const layerOf = (file: string) => path.relative(SERVER, file).split(path.sep)[0]!.replace(/\.ts$/, '');

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** layer -> layer it imports at run time -> one file import that does it. */
function layerGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SERVER)) {
    for (const [, typeOnly, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = typeOnly ? undefined : resolve(file, spec!);
      if (!target || !target.startsWith(SERVER + path.sep)) continue;
      const [from, to] = [layerOf(file), layerOf(target)];
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${path.relative(SERVER, file)} -> ${path.relative(SERVER, target)}`);
    }
  }
  return graph;
}

/** Each cycle found by a depth-first search, as the imports that make it. */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (layer: string, trail: string[]) => {
    if (done.has(layer)) return;
    const at = trail.indexOf(layer);
    if (at >= 0) {
      const loop = [...trail.slice(at), layer];
      found.push(loop.slice(1).map((to, i) => graph.get(loop[i]!)!.get(to)!));
      return;
    }
    for (const next of graph.get(layer)?.keys() ?? []) visit(next, [...trail, layer]);
    done.add(layer);
  };
  for (const layer of graph.keys()) visit(layer, []);
  return found;
}

describe('server layers', () => {
  it('have no import cycle between the folders of server/', () => {
    expect(cycles(layerGraph())).toEqual([]);
  });
});
