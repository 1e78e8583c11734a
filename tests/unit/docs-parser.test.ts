// The application's documentation parser (src/dataProvider/docsParser.ts, then docsApi.ts) reads the compact docs once and gives
// @api-platform/admin the same objects as @api-platform/api-doc-parser's parseHydraDocumentation, which reads the
// entrypoint, the docs and a page of each collection and expands them as JSON-LD: every resource of the real
// declarations, every field (type, references, flags), operation and filter parameter.
import { parseHydraDocumentation, type Api, type Field, type Resource } from '@api-platform/api-doc-parser';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiDocumentation } from '../../server/hydra/docs';
import { RESOURCES } from '../../server/resources';
import { toApi } from '../../src/dataProvider/docsApi';
import { readCompactDocs } from '../../src/dataProvider/docsParser';
import { hydraServer } from './settings/harness';

const HOST = 'http://localhost';
const request = { server: { ctx: { config: { publicUrl: HOST } } } } as never;

/** A resource with its references written as the name of the resource they point to (the objects point to each other). */
function flat(resource: Resource) {
  const field = (f: Field) => ({
    ...f,
    reference: f.reference && typeof f.reference === 'object' ? `→${f.reference.name}` : f.reference,
    embedded: f.embedded && typeof f.embedded === 'object' ? `→${f.embedded.name}` : f.embedded,
  });
  return {
    ...resource,
    getParameters: typeof resource.getParameters,
    fields: resource.fields?.map(field),
    readableFields: resource.readableFields?.map((f) => f.name),
    writableFields: resource.writableFields?.map((f) => f.name),
    operations: resource.operations?.map((o) => ({ ...o })),
  };
}

let library: Api;
let ours: Api;

beforeAll(async () => {
  vi.stubGlobal('fetch', hydraServer(RESOURCES));
  library = (await parseHydraDocumentation(`${HOST}/api`)).api;
  ours = toApi(readCompactDocs(JSON.parse(JSON.stringify(apiDocumentation(request, RESOURCES)))), `${HOST}/api`);
});
afterEach(() => vi.unstubAllGlobals());

describe('the compact docs parser against @api-platform/api-doc-parser', () => {
  it('gives the same API: title, entrypoint and every declared resource, in the same order', () => {
    expect(ours).toBeInstanceOf(library.constructor);
    expect(ours.entrypoint).toBe(library.entrypoint);
    expect(ours.title).toBe(library.title);
    expect(ours.resources!.map((r) => r.name)).toEqual(RESOURCES.map((d) => d.name));
    expect(ours.resources!.map((r) => r.name)).toEqual(library.resources!.map((r) => r.name));
  });

  for (const declaration of RESOURCES) {
    it(`${declaration.name}: the same resource, fields, references, operations and filter parameters`, async () => {
      const mine = ours.resources!.find((r) => r.name === declaration.name)!;
      const theirs = library.resources!.find((r) => r.name === declaration.name)!;
      expect(flat(mine)).toEqual(flat(theirs));
      // The same classes, so the admin's guessers and instanceof checks see no difference.
      expect(mine.fields![0]).toBeInstanceOf(theirs.fields![0]!.constructor);
      expect(mine.operations![0]).toBeInstanceOf(theirs.operations![0]!.constructor);
      // References point to the parsed resource objects themselves.
      for (const field of mine.fields!) if (field.reference && typeof field.reference === 'object') expect(ours.resources).toContain(field.reference);

      vi.stubGlobal('fetch', hydraServer(RESOURCES));
      const theirParameters = await theirs.getParameters!();
      const read: string[] = [];
      vi.stubGlobal('fetch', (input: RequestInfo | URL) => read.push(String(input)));
      expect(await mine.getParameters!()).toEqual(theirParameters);
      expect(theirParameters.length).toBeGreaterThan(0);
      // Ours come from the docs: no page of the collection is read for them.
      expect(read).toEqual([]);
    });
  }
});
