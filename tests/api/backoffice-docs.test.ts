// The Hydra documentation as @api-platform/api-doc-parser reads it (hydra-contract.md): exactly the back-office
// resources, each field with its type, required flag, readability and reference, and the operations the admin uses.
import { parseHydraDocumentation, type Api, type Field, type Resource } from '@api-platform/api-doc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
let api: Api;

/**
 * The contract, per resource and field: type ('@target' a to-one reference, '@@target' a to-many one), then flags:
 * '!' required, 'ro' read-only, 'wo' write-only, 'name' the display field (schema.org/name).
 */
type Spec = Record<string, string>;
const CONTRACT: Record<string, { fields: Spec; operations: string[] }> = {
  holdings: {
    fields: {
      name: 'string ! name', registrationNumber: 'string !', vatNumber: 'string', email: 'email', phone: 'string', street: 'string', postalCode: 'string', city: 'string',
      country: 'string !', status: 'string', fullAddress: 'string ro', createdAt: 'dateTime ro', updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  companies: {
    fields: {
      name: 'string ! name', registrationNumber: 'string !', vatNumber: 'string', holding: '@holdings !', street: 'string', postalCode: 'string', city: 'string', country: 'string !',
      status: 'string', createdAt: 'dateTime ro', updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  shops: {
    fields: {
      name: 'string ! name', displayName: 'string', numero: 'string', siret: 'string !', company: '@companies !', street: 'string', postalCode: 'string', city: 'string',
      country: 'string !', email: 'email', phone: 'string', status: 'string', finess: 'string !', rpps: 'string !', codeClient: 'string !', specialite: 'string !',
      credentials: '@@credential_software', createdAt: 'dateTime ro', updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  users: {
    fields: {
      firstName: 'string !', lastName: 'string !', fullName: 'string ro name', initials: 'string ro', email: 'email !', password: 'string wo', holding: '@holdings !',
      status: 'string', shops: '@@shops', roles: '@@roles', lastLoginAt: 'dateTime ro', createdAt: 'dateTime ro', updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  roles: {
    fields: { name: 'string ! name', description: 'string', permissions: 'array', holding: '@holdings', usersCount: 'integer ro', createdAt: 'dateTime ro', updatedAt: 'dateTime ro' },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  mutuals: {
    fields: { name: 'string ! name', code: 'string', network: '@networks', status: 'string', createdAt: 'dateTime ro', updatedAt: 'dateTime ro' },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  networks: {
    fields: {
      name: 'string ! name', code: 'string', description: 'string', isDefault: 'boolean', status: 'string', activeMutualsCount: 'integer ro', createdAt: 'dateTime ro', updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  software: {
    fields: {
      label: 'string ! name', description: 'string', type: 'string !', vendor: 'string', version: 'string', apiUrl: 'url', documentationUrl: 'url', status: 'string',
      holding: '@holdings', createdAt: 'dateTime ro', updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  credential_software: {
    fields: {
      login: 'string ! name', password: 'string wo', loginPage: 'url !', status: 'string', contextType: 'string', contextName: 'string', software: '@software !',
      holding: '@holdings ro', environment: 'string', apiKey: 'string wo', apiSecret: 'string wo', displayIdentifier: 'string', hasPassword: 'boolean ro',
      hasApiKey: 'boolean ro', hasApiSecret: 'boolean ro', createdAt: 'dateTime ro', updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  configs: {
    fields: { key: 'string ro name', description: 'string ro', value: 'string', valueType: 'string ro', isEditable: 'boolean ro', category: 'string ro', rule: 'string ro', updatedAt: 'dateTime ro' },
    operations: ['GET list', 'GET show', 'PATCH edit', 'PUT edit'],
  },
  audit_logs: {
    fields: {
      action: 'string ro name', entity: 'string ro', entityId: 'string ro', actorId: 'integer ro', actorEmail: 'email ro', changes: 'string ro', createdAt: 'dateTime ro',
    },
    operations: ['GET list', 'GET show'],
  },
};

/** A parsed field written in the contract's notation. */
function describeField(resource: Resource, field: Field): string {
  const reference = field.reference && typeof field.reference === 'object' ? (field.reference as Resource).name : undefined;
  const parts = [reference ? `${field.maxCardinality === 1 ? '@' : '@@'}${reference}` : String(field.type)];
  if (field.required) parts.push('!');
  const readable = resource.readableFields!.some((f) => f.name === field.name);
  const writable = resource.writableFields!.some((f) => f.name === field.name);
  if (readable && !writable) parts.push('ro');
  if (writable && !readable) parts.push('wo');
  if (field.id === 'https://schema.org/name') parts.push('name');
  return parts.join(' ');
}

beforeAll(async () => {
  server = await startTestServer();
  ({ api } = await parseHydraDocumentation(`${server.url}/api`));
});
afterAll(() => server?.close());

describe('/api/docs.jsonld read by @api-platform/api-doc-parser', () => {
  it('has exactly the back-office resources, at /api/{name}, named by their class', async () => {
    const names = api.resources!.map((r) => r.name);
    // Other engineers' resources (PEC files) may be declared too; every back-office one must be there, once.
    for (const name of Object.keys(CONTRACT)) expect(names.filter((n) => n === name), name).toHaveLength(1);
    for (const resource of api.resources!) expect(resource.url).toBe(`${server.url}/api/${resource.name}`);
    expect(api.resources!.find((r) => r.name === 'credential_software')!.title).toBe('CredentialSoftware');
    expect(api.title).toBe('API Pecflow');
  });

  for (const [name, contract] of Object.entries(CONTRACT)) {
    it(`${name}: every field with its type, required flag, access and reference; its operations`, () => {
      const resource = api.resources!.find((r) => r.name === name)!;
      const parsed = Object.fromEntries(resource.fields!.map((f) => [f.name, describeField(resource, f)]));
      expect(parsed).toEqual(contract.fields);
      expect(resource.operations!.map((o) => `${o.method} ${o.type}`)).toEqual(contract.operations);
      // Every operation that returns something has a title (the admin needs it).
      expect(resource.operations!.every((o) => typeof o.name === 'string' && o.name.length > 0)).toBe(true);
    });
  }

  it('resolves references to the parsed target resources (the admin follows them)', () => {
    const shops = api.resources!.find((r) => r.name === 'shops')!;
    const company = shops.fields!.find((f) => f.name === 'company')!;
    expect((company.reference as Resource).url).toBe(`${server.url}/api/companies`);
    const credentials = shops.fields!.find((f) => f.name === 'credentials')!;
    expect(credentials.maxCardinality ?? null).toBeNull();
    expect((credentials.reference as Resource).fields!.map((f) => f.name)).toContain('login');
  });

  it('serves the entrypoint with the Link header and keeps docs readable without a token', async () => {
    const res = await fetch(`${server.url}/api`, { headers: { accept: 'application/ld+json', 'content-type': 'application/ld+json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(`<${server.url}/api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`);
    expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    const entrypoint = await res.json();
    for (const name of Object.keys(CONTRACT)) expect(entrypoint[name]).toBe(`/api/${name}`);
    // A collection's search template lists its filters and sorts for the admin.
    const token = await server.login('admin@pecflow.fr');
    const list = await server.request('GET', '/api/mutuals', { token });
    const variables = list.body.search.mapping.map((m: any) => m.variable);
    expect(variables).toEqual(expect.arrayContaining(['search', 'status', 'network', 'network[]', 'createdAt[after]', 'createdAt[before]', 'order[name]']));
  });
});
