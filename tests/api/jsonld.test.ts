// Faithful JSON-LD (hydra-contract.md, Contexts): expanded with the jsonld package, as any JSON-LD or Hydra client reads
// it, a collection gives Hydra's member, totalItems, view and search, and every property of an item (embedded ones
// too) expands to exactly the IRI /api/docs.jsonld declares for it. Contexts are loaded from the test server only.
import jsonld from 'jsonld';
import type { RemoteDocument } from 'jsonld/jsonld-spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, mergePatch } from './helpers/backoffice';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';

const HYDRA = 'http://www.w3.org/ns/hydra/core#';

type Node = Record<string, JsonBody>;

let server: TestServer;
let token: string;
let docsUrl: string;
/** Class IRI -> (property name -> property IRI), read from the expanded docs. */
const declared = new Map<string, Map<string, string>>();
/** Property IRIs the docs declare as links (read and written as IRIs). */
const links = new Set<string>();
const loaded: string[] = [];

/** No network: documents come from the test server, without credentials (contexts are public), or not at all. */
async function documentLoader(url: string): Promise<RemoteDocument> {
  if (!url.startsWith(`${server.url}/`)) throw new Error(`outside the test server: ${url}`);
  const res = await fetch(url, { headers: { accept: 'application/ld+json' } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  expect(res.headers.get('content-type')).toContain('application/ld+json');
  loaded.push(url);
  return { contextUrl: undefined, documentUrl: url, document: await res.json() };
}

const absolute = (iri: string) => new URL(iri, server.url).href;

async function expand(body: unknown, base: string): Promise<Node[]> {
  return (await jsonld.expand(body as Node, { base, documentLoader })) as Node[];
}

async function getExpanded(path: string) {
  const res = await server.get(path, token);
  expect(res.status, res.text).toBe(200);
  const [node] = await expand(res.body, absolute(path));
  return { compact: res.body as Node, expanded: node! };
}

/** Compact keys the docs do not declare for a class, by class name: the numeric id, and what a file embeds of its mutual. */
const UNDECLARED: Record<string, string[]> = { Mutual: ['id', 'networkId'] };
const undeclaredOf = (className: string) => UNDECLARED[className] ?? ['id'];

/**
 * Checks a node against the docs: each declared property under its declared IRI (links as IRIs, embedded typed
 * objects recursively), the undeclared keys only those expected, and nothing else in the expanded node.
 * Returns the number of properties checked.
 */
function expectFaithful(compact: Node, expanded: Node, where: string): number {
  const className = compact['@type'] as string;
  expect(expanded['@type'], where).toEqual([`${docsUrl}#${className}`]);
  expect(expanded['@id'], where).toBe(absolute(compact['@id']));
  const properties = declared.get(`${docsUrl}#${className}`);
  expect(properties, `${where}: ${className} is a class of the docs`).toBeDefined();
  let checked = 0;
  const expectedKeys = new Set(['@id', '@type']);
  const undeclared: string[] = [];
  for (const [key, value] of Object.entries(compact)) {
    if (key.startsWith('@')) continue;
    const iri = properties!.get(key);
    if (!iri) {
      undeclared.push(key);
      if (value !== null) expectedKeys.add(`${docsUrl}#${key}`);
      continue;
    }
    const at = `${where}.${key}`;
    const values = expanded[iri] as Node[] | undefined;
    checked++;
    if (value === null) {
      // Dropped, or kept as a JSON literal (@json keeps null).
      if (values !== undefined) expect(values, at).toEqual([{ '@value': null, '@type': '@json' }]);
      else continue;
    }
    expectedKeys.add(iri);
    expect(values, `${at} expands to ${iri}`).toBeDefined();
    if (links.has(iri)) {
      const items = Array.isArray(value) ? value : [value];
      expect(values, at).toHaveLength(items.length);
      items.forEach((item, i) => {
        if (typeof item === 'string') expect(values![i], at).toEqual({ '@id': absolute(item) });
        else if (item && typeof item === 'object' && '@type' in item) checked += expectFaithful(item as Node, values![i]!, `${at}[${i}]`);
        else expect(values![i]!['@id'] ?? values![i], at).toBeDefined();
      });
    } else if (values![0]?.['@type'] === '@json') {
      expect(values, at).toEqual([{ '@value': value, '@type': '@json' }]);
    } else if (Array.isArray(value) && value.length === 0) {
      // An empty list (an optician's file's appareils) expands to an empty list.
      expect(values, at).toEqual([]);
    } else if (typeof value !== 'object') {
      // Two properties the docs declare with one IRI (a resource's two schema.org/url fields) share it: both values are there.
      const sharing = [...properties!]
        .filter(([name, other]) => other === iri && compact[name] !== null && compact[name] !== undefined)
        .map(([name]) => compact[name]);
      expect(values, at).toEqual(sharing.map((v) => ({ '@value': v })));
    }
  }
  expect(undeclared.sort(), `${where}: keys the docs do not declare`).toEqual([...undeclaredOf(className)].filter((k) => k in compact).sort());
  expect(Object.keys(expanded).sort(), `${where}: no key lost or misnamed`).toEqual([...expectedKeys].sort());
  return checked;
}

beforeAll(async () => {
  server = await startTestServer();
  token = await server.login(ACCOUNTS.admin);
  docsUrl = `${server.url}/api/docs.jsonld`;
  const docs = await server.get('/api/docs.jsonld');
  const [expandedDocs] = await expand(docs.body, docsUrl);
  for (const cls of expandedDocs![`${HYDRA}supportedClass`] as Node[]) {
    const properties = new Map<string, string>();
    for (const supported of (cls[`${HYDRA}supportedProperty`] ?? []) as Node[]) {
      const [property] = supported[`${HYDRA}property`] as Node[];
      properties.set(supported[`${HYDRA}title`][0]['@value'], property!['@id']);
      if (property!['@type']?.includes(`${HYDRA}Link`)) links.add(property!['@id']);
    }
    declared.set(cls['@id'], properties);
  }
});

afterAll(async () => {
  await server?.close();
});

describe('collections expanded with jsonld', () => {
  it.each(['holdings', 'companies', 'users', 'pec_dossiers', 'shops', 'mutuals'])(
    '%s: Hydra member, totalItems, view, search, and each member property as the docs declare it',
    async (name) => {
      const { compact, expanded } = await getExpanded(`/api/${name}?itemsPerPage=2&page=1`);
      expect(compact['@context']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/contexts\/\w+$/);
      expect(expanded['@type']).toEqual([`${HYDRA}Collection`]);
      expect(expanded['@id']).toBe(absolute(`/api/${name}`));
      expect(compact.totalItems).toBeGreaterThanOrEqual(2);
      expect(expanded[`${HYDRA}totalItems`]).toEqual([{ '@value': compact.totalItems }]);

      const members = expanded[`${HYDRA}member`] as Node[];
      expect(members).toHaveLength(2);
      compact.member.forEach((member: Node, i: number) => expect(expectFaithful(member, members[i]!, `${name}.member[${i}]`)).toBeGreaterThan(3));

      const [view] = expanded[`${HYDRA}view`] as Node[];
      expect(view!['@type']).toEqual([`${HYDRA}PartialCollectionView`]);
      expect(view!['@id']).toBe(absolute(compact.view['@id']));
      const pages = ['first', 'last', ...(compact.totalItems > 2 ? ['next'] : [])];
      expect(
        Object.keys(compact.view)
          .filter((k) => !k.startsWith('@'))
          .sort(),
      ).toEqual(pages.sort());
      for (const key of pages) expect(view![`${HYDRA}${key}`], key).toEqual([{ '@id': absolute(compact.view[key]) }]);

      const [search] = expanded[`${HYDRA}search`] as Node[];
      expect(search!['@type']).toEqual([`${HYDRA}IriTemplate`]);
      expect(search![`${HYDRA}template`]).toEqual([{ '@value': compact.search.template, '@type': `${HYDRA}Rfc6570Template` }]);
      expect(search![`${HYDRA}variableRepresentation`]).toEqual([{ '@id': `${HYDRA}BasicRepresentation` }]);
      const mappings = search![`${HYDRA}mapping`] as Node[];
      expect(mappings).toHaveLength(compact.search.mapping.length);
      const properties = declared.get(`${docsUrl}#${compact.member[0]['@type']}`)!;
      compact.search.mapping.forEach((mapping: Node, i: number) => {
        const node = mappings[i]!;
        expect(node['@type']).toEqual([`${HYDRA}IriTemplateMapping`]);
        expect(node[`${HYDRA}variable`]).toEqual([{ '@value': mapping.variable }]);
        expect(node[`${HYDRA}required`]).toEqual([{ '@value': false }]);
        // A filter's property is the class's property: its IRI as the docs declare it.
        if (mapping.property !== null)
          expect(node[`${HYDRA}property`]).toEqual([{ '@id': properties.get(mapping.property) ?? `${docsUrl}#${mapping.property}` }]);
      });
      expect(mappings.some((m) => m[`${HYDRA}property`]?.[0]['@id'] === properties.get('status'))).toBe(true);
    },
  );

  it('a company embeds its holding with the Holding properties, not the Company ones', async () => {
    const { compact, expanded } = await getExpanded('/api/companies?itemsPerPage=1');
    const [company] = expanded[`${HYDRA}member`] as Node[];
    const [holding] = company![`${docsUrl}#Company/holding`] as Node[];
    expect(holding).toEqual({
      '@id': absolute(compact.member[0].holding['@id']),
      '@type': [`${docsUrl}#Holding`],
      'https://schema.org/name': [{ '@value': compact.member[0].holding.name }],
      [`${docsUrl}#id`]: [{ '@value': compact.member[0].holding.id }],
    });
  });

  it('a PEC file embeds its centre, mutual and network as Shop, Mutual and Network', async () => {
    const { compact, expanded } = await getExpanded('/api/pec_dossiers?itemsPerPage=1');
    const [file] = expanded[`${HYDRA}member`] as Node[];
    const [shop] = file![`${docsUrl}#PecDossier/shop`] as Node[];
    expect(shop!['@type']).toEqual([`${docsUrl}#Shop`]);
    expect(shop![`${docsUrl}#Shop/displayName`]).toEqual([{ '@value': compact.member[0].shop.displayName }]);
    expect(file![`${docsUrl}#PecDossier/mutual`]![0]['@type']).toEqual([`${docsUrl}#Mutual`]);
  });

  it('the history of a record is a Hydra collection of audit entries', async () => {
    const { body: software } = await server.get('/api/software?itemsPerPage=1', token);
    const iri = software.member[0]['@id'];
    const patched = await server.request('PATCH', iri, { token, body: { vendor: 'Auditdata SA' }, headers: mergePatch });
    expect(patched.status, patched.text).toBe(200);
    const { compact, expanded } = await getExpanded(`${iri}/history`);
    expect(expanded['@type']).toEqual([`${HYDRA}Collection`]);
    expect(compact.totalItems).toBeGreaterThan(0);
    expect(expanded[`${HYDRA}totalItems`]).toEqual([{ '@value': compact.totalItems }]);
    const members = expanded[`${HYDRA}member`] as Node[];
    expect(members).toHaveLength(compact.member.length);
    expect(members.at(-1)![`${docsUrl}#AuditLog/changes`]).toEqual([{ '@value': compact.member.at(-1).changes, '@type': '@json' }]);
  });
});

describe('items expanded with jsonld', () => {
  it.each(['holdings', 'companies', 'users', 'pec_dossiers', 'roles', 'networks', 'software', 'credential_software', 'configs', 'audit_logs'])(
    'GET /api/%s/{id}: every property under the IRI the docs declare',
    async (name) => {
      const { body: list } = await server.get(`/api/${name}?itemsPerPage=1`, token);
      expect(list.member.length, `${name} has records`).toBeGreaterThan(0);
      const { compact, expanded } = await getExpanded(list.member[0]['@id']);
      expect(expectFaithful(compact, expanded, name)).toBeGreaterThan(3);
    },
  );

  it('the answers of POST and PATCH are items read the same way', async () => {
    const created = await server.request('POST', '/api/holdings', {
      token,
      body: { name: 'Ouïe Claire', registrationNumber: '812345678', country: 'France', email: 'contact@ouie-claire.fr', status: 'Active' },
    });
    expect(created.status, created.text).toBe(201);
    const [createdNode] = await expand(created.body, absolute('/api/holdings'));
    expect(expectFaithful(created.body, createdNode!, 'POST holdings')).toBeGreaterThan(3);
    expect(createdNode!['https://schema.org/email']).toEqual([{ '@value': 'contact@ouie-claire.fr' }]);

    const patched = await server.request('PATCH', created.body['@id'], { token, body: { city: 'Lyon' }, headers: mergePatch });
    expect(patched.status, patched.text).toBe(200);
    const [patchedNode] = await expand(patched.body, absolute(created.body['@id']));
    expectFaithful(patched.body, patchedNode!, 'PATCH holdings');
    expect(patchedNode![`${docsUrl}#Holding/city`]).toEqual([{ '@value': 'Lyon' }]);
  });

  it('a reference written as an IRI reads back as a link to the record', async () => {
    const { body: users } = await server.get('/api/users?itemsPerPage=1', token);
    const { expanded } = await getExpanded(users.member[0]['@id']);
    const roles = expanded[`${docsUrl}#User/roles`] as Node[];
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) expect(role['@id']).toMatch(new RegExp(`^${server.url}/api/roles/\\d+$`));
  });
});

describe('the entrypoint, errors and contexts', () => {
  it('the entrypoint expands to the Entrypoint class and its collection links the docs declare', async () => {
    const { compact, expanded } = await getExpanded('/api');
    expect(expanded['@type']).toEqual([`${docsUrl}#Entrypoint`]);
    const properties = [...declared.get(`${docsUrl}#Entrypoint`)!.values()];
    const keys = Object.keys(compact).filter((k) => !k.startsWith('@'));
    expect(keys.length).toBeGreaterThan(5);
    for (const key of keys) {
      expect(properties).toContain(`${docsUrl}#Entrypoint/${key}`);
      expect(expanded[`${docsUrl}#Entrypoint/${key}`]).toEqual([{ '@id': absolute(compact[key]) }]);
    }
  });

  it('a validation error still expands as @api-platform/admin reads it (hydra:description)', async () => {
    const res = await server.request('POST', '/api/holdings', { token, body: { name: 'A' } });
    expect(res.status).toBe(422);
    const [error] = await expand(res.body, docsUrl);
    expect(error!['@type']).toEqual([`${docsUrl}#ConstraintViolationList`]);
    expect(error![`${HYDRA}description`]).toEqual([{ '@value': res.body.detail }]);
  });

  it('contexts are public JSON-LD documents; an unknown class is a 404', async () => {
    expect(loaded.some((url) => url.endsWith('/api/contexts/PecDossier'))).toBe(true);
    const context = await server.get('/api/contexts/Holding');
    expect(context.status).toBe(200);
    expect(context.body['@context'].member).toEqual({ '@id': 'hydra:member', '@type': '@id' });
    const unknown = await server.get('/api/contexts/Inconnu');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
  });
});
