// @vitest-environment node
// The folders of server/, and those of src/, import one another in one direction (docs/DEVELOPING.md, "Layers in one
// direction"): a runtime import that closes a cycle between two of them fails here, naming the files that make it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'migrations' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** A folder of the tree (auth, hydra…), or a file at its top (app, context…) as a layer of its own. */
const layerOf = (tree: string, file: string) =>
  path
    .relative(tree, file)
    .split(path.sep)[0]!
    .replace(/\.tsx?$/, '');

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** layer -> layer it imports at run time -> one file import that does it. */
function layerGraph(tree: string): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(tree)) {
    for (const [, typeOnly, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = typeOnly ? undefined : resolve(file, spec!);
      if (!target || !target.startsWith(tree + path.sep)) continue;
      const [from, to] = [layerOf(tree, file), layerOf(tree, target)];
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${path.relative(tree, file)} -> ${path.relative(tree, target)}`);
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

describe('layers', () => {
  it.each(['server', 'src'])('have no import cycle between the folders of %s/', (tree) => {
    expect(cycles(layerGraph(path.join(ROOT, tree)))).toEqual([]);
  });

  it('keep the shared rules below both: domain/ imports nothing from src/ or server/', () => {
    const DOMAIN = path.join(ROOT, 'domain');
    const upward = sourceFiles(DOMAIN).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map(([, , spec]) => resolve(file, spec!) ?? path.resolve(path.dirname(file), spec!))
        .filter((target) => !target.startsWith(DOMAIN + path.sep))
        .map((target) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`),
    );
    expect(upward).toEqual([]);
  });
});
