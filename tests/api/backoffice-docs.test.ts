// The Hydra documentation as @api-platform/api-doc-parser reads it (hydra-contract.md), and as the application's own
// parser of the compact docs reads it (src/dataProvider/docsParser.ts): exactly the back-office resources, each field
// with its type, required flag, readability and reference, and the operations the admin uses.
import { parseHydraDocumentation, type Api, type Field, type Resource } from '@api-platform/api-doc-parser';
import jsonld from 'jsonld';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toApi } from '../../src/dataProvider/docsApi';
import { readCompactDocs } from '../../src/dataProvider/docsParser';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';

let server: TestServer;

/**
 * The contract, per resource and field: type ('@target' a to-one reference, '@@target' a to-many one), then flags:
 * '!' required, 'ro' read-only, 'wo' write-only, 'name' the display field (schema.org/name).
 */
type Spec = Record<string, string>;
const CONTRACT: Record<string, { fields: Spec; operations: string[] }> = {
  holdings: {
    fields: {
      name: 'string ! name',
      registrationNumber: 'string !',
      vatNumber: 'string',
      email: 'email',
      phone: 'string',
      street: 'string',
      postalCode: 'string',
      city: 'string',
      country: 'string !',
      status: 'string',
      fullAddress: 'string ro',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  companies: {
    fields: {
      name: 'string ! name',
      registrationNumber: 'string !',
      vatNumber: 'string',
      holding: '@holdings !',
      street: 'string',
      postalCode: 'string',
      city: 'string',
      country: 'string !',
      status: 'string',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  shops: {
    fields: {
      name: 'string ! name',
      displayName: 'string',
      numero: 'string',
      siret: 'string !',
      company: '@companies !',
      street: 'string',
      postalCode: 'string',
      city: 'string',
      country: 'string !',
      email: 'email',
      phone: 'string',
      status: 'string',
      finess: 'string !',
      rpps: 'string !',
      codeClient: 'string !',
      specialite: 'string !',
      credentials: '@@credential_software',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  users: {
    fields: {
      firstName: 'string !',
      lastName: 'string !',
      fullName: 'string ro name',
      initials: 'string ro',
      email: 'email !',
      sendInvitation: 'boolean wo',
      password: 'string wo',
      holding: '@holdings !',
      status: 'string',
      shops: '@@shops',
      roles: '@@roles',
      lastLoginAt: 'dateTime ro',
      invitationSentAt: 'dateTime ro',
      twoFactorEnabled: 'boolean ro',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  roles: {
    fields: {
      name: 'string ! name',
      description: 'string',
      permissions: 'array',
      holding: '@holdings',
      usersCount: 'integer ro',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  mutuals: {
    fields: { name: 'string ! name', code: 'string', network: '@networks', status: 'string', createdAt: 'dateTime ro', updatedAt: 'dateTime ro' },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  networks: {
    fields: {
      name: 'string ! name',
      code: 'string',
      description: 'string',
      isDefault: 'boolean',
      status: 'string',
      activeMutualsCount: 'integer ro',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  software: {
    fields: {
      label: 'string ! name',
      description: 'string',
      type: 'string !',
      vendor: 'string',
      version: 'string',
      apiUrl: 'url',
      documentationUrl: 'url',
      status: 'string',
      holding: '@holdings',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  credential_software: {
    fields: {
      login: 'string ! name',
      password: 'string wo',
      loginPage: 'url !',
      status: 'string',
      contextType: 'string',
      contextName: 'string',
      software: '@software !',
      holding: '@holdings ro',
      environment: 'string',
      apiKey: 'string wo',
      apiSecret: 'string wo',
      displayIdentifier: 'string',
      hasPassword: 'boolean ro',
      hasApiKey: 'boolean ro',
      hasApiSecret: 'boolean ro',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  configs: {
    fields: {
      key: 'string ro name',
      description: 'string ro',
      value: 'string',
      valueType: 'string ro',
      isEditable: 'boolean ro',
      category: 'string ro',
      rule: 'string ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'GET show', 'PATCH edit', 'PUT edit'],
  },
  prescribers: {
    fields: {
      civility: 'string !',
      lastName: 'string ! name',
      firstName: 'string',
      specialty: 'string !',
      rpps: 'string !',
      city: 'string',
      phone: 'string',
      email: 'email',
      status: 'string',
      holding: '@holdings',
      createdAt: 'dateTime ro',
      updatedAt: 'dateTime ro',
    },
    operations: ['GET list', 'POST create', 'GET show', 'PATCH edit', 'PUT edit', 'DELETE delete'],
  },
  audit_logs: {
    fields: {
      action: 'string ro name',
      entity: 'string ro',
      entityId: 'string ro',
      // The record's name when the entry was written (a PEC file's number, issue 25).
      entityLabel: 'string ro',
      actorId: 'integer ro',
      actorEmail: 'email ro',
      changes: 'string ro',
      createdAt: 'dateTime ro',
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
});
afterAll(() => server?.close());

/** The two readers of the docs: the library's (GET /api, the docs, JSON-LD expansion) and the application's. */
const PARSERS: Record<string, () => Promise<Api>> = {
  // Its filters come from a page of each collection, read with the signed-in user's token.
  '@api-platform/api-doc-parser': async () => {
    const token = await server.login('admin@pecflow.fr');
    return (await parseHydraDocumentation(`${server.url}/api`, { headers: { Authorization: `Bearer ${token}` } })).api;
  },
  "the application's compact parser": async () => toApi(readCompactDocs((await server.request('GET', '/api/docs.jsonld')).body), `${server.url}/api`),
};

for (const [parserName, parse] of Object.entries(PARSERS))
  describe(`/api/docs.jsonld read by ${parserName}`, () => {
    let api: Api;
    beforeAll(async () => {
      api = await parse();
    });

    it('has exactly the back-office resources, at /api/{name}, named by their class', async () => {
      const names = api.resources!.map((r) => r.name);
      // Other engineers' resources (PEC files) may be declared too; every back-office one must be there, once.
      for (const name of Object.keys(CONTRACT))
        expect(
          names.filter((n) => n === name),
          name,
        ).toHaveLength(1);
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

    it("gives each collection's filters and sortable fields (the admin's parameters)", async () => {
      const mutuals = api.resources!.find((r) => r.name === 'mutuals')!;
      const token = await server.login('admin@pecflow.fr');
      const list = await server.request('GET', '/api/mutuals', { token });
      const mapped = list.body.search.mapping.filter((m: JsonBody) => m.property !== null).map((m: JsonBody) => m.variable);
      expect((await mutuals.getParameters!()).map((p) => p.variable)).toEqual(mapped);
    });
  });

describe('/api and /api/docs.jsonld over HTTP', () => {
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
    const variables = list.body.search.mapping.map((m: JsonBody) => m.variable);
    expect(variables).toEqual(expect.arrayContaining(['search', 'status', 'network', 'network[]', 'createdAt[after]', 'createdAt[before]', 'order[name]']));
  });

  it('lets a browser keep them: an ETag and no-cache (asked again each time), a 304 while unchanged; data stays no-store', async () => {
    for (const path of ['/api', '/api/docs.jsonld']) {
      const first = await fetch(`${server.url}${path}`);
      const tag = first.headers.get('etag')!;
      expect(tag, path).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers.get('cache-control'), path).toBe('no-cache');
      expect((await first.json())['@id'], path).toBeDefined();
      const again = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': tag } });
      expect(again.status, path).toBe(304);
      expect(again.headers.get('etag'), path).toBe(tag);
      expect(await again.text(), path).toBe('');
      // Another tag (an older version of the docs) gets the whole document again.
      const other = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': 'W/"ancienne-version"' } });
      expect(other.status, path).toBe(200);
      expect((await other.json())['@id'], path).toBeDefined();
    }
    // Compressed or not, the same tag (a weak one: the same document, whatever its encoding).
    const brotli = await fetch(`${server.url}/api/docs.jsonld`, { headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers.get('etag')).toBe((await fetch(`${server.url}/api/docs.jsonld`)).headers.get('etag'));
    const token = await server.login('admin@pecflow.fr');
    const data = await fetch(`${server.url}/api/mutuals`, { headers: { authorization: `Bearer ${token}` } });
    expect(data.headers.get('cache-control')).toBe('no-store');
    expect(data.headers.get('etag')).toBeNull();
  });
});

describe("/api/docs.jsonld: what the generated admin reads besides Hydra's terms (pecflow:admin, pecflow:label, pecflow:choices)", () => {
  let docs: JsonBody;
  const classOf = (name: string) =>
    docs['hydra:supportedClass'].find(
      (c: JsonBody) =>
        c['pecflow:admin'] &&
        docs['hydra:supportedClass'].some(
          (e: JsonBody) =>
            e['@id'] === '#Entrypoint' &&
            e['hydra:supportedProperty'].some(
              (p: JsonBody) =>
                p['hydra:property']['@id'] === `#Entrypoint/${name}` && JSON.stringify(p['hydra:property']['rdfs:range']).includes(`"${c['@id']}"`),
            ),
        ),
    );
  const property = (name: string, field: string) => classOf(name)['hydra:supportedProperty'].find((p: JsonBody) => p['hydra:title'] === field);

  beforeAll(async () => {
    docs = (await server.request('GET', '/api/docs.jsonld')).body;
  });

  it('gives each settings tab in order, with its French label, aliases and the permission that shows it', () => {
    const tabs = docs['hydra:supportedClass']
      .filter((c: JsonBody) => c['pecflow:admin']?.settingsTab)
      .map((c: JsonBody) => c['pecflow:admin'].settingsTab)
      .sort((a: JsonBody, b: JsonBody) => a.position - b.position)
      .map((t: JsonBody) => [t.label, t.permission, t.aliases.join()]);
    // The spec's tabs (section 2) and Rôles, Système and Journal d'audit; entities added later take positions after these.
    const spec = [
      ['Organisations', 'settings.holdings.view', ''],
      ['Entreprises', 'settings.companies.view', ''],
      ['Centres', 'settings.shops.view', ''],
      ['Utilisateurs', 'settings.users.view', ''],
      ['Rôles', 'settings.users.view', ''],
      ['Mutuelles', 'settings.mutuelles.view', 'mutuelles'],
      ['Réseaux', 'settings.mutuelles.view', ''],
      ['Logiciels', 'settings.software.view', ''],
      ['Identifiants', 'settings.credentials.view', 'credentials'],
      ['Système', 'settings.system.view', 'system'],
      ['Journal d’audit', 'audit.view', 'audit'],
    ];
    expect(tabs.filter((t: string[]) => spec.some((s) => s[0] === t[0]))).toEqual(spec);
  });

  it("gives each entity its French names, its permission keys, the list's columns, search text, empty state and filters, and the form's layout", () => {
    const holdings = classOf('holdings')['pecflow:admin'];
    expect(holdings.label).toEqual({ singular: 'Organisation', plural: 'Organisations', feminine: true });
    expect(holdings.permissions).toEqual({
      view: 'settings.holdings.view',
      create: 'settings.holdings.create',
      update: 'settings.holdings.update',
      delete: 'settings.holdings.delete',
      export: 'settings.holdings.export',
    });
    expect(holdings.list).toMatchObject({
      columns: ['name', 'registrationNumber', 'fullAddress', 'status'],
      searchPlaceholder: 'Rechercher (nom, SIREN, ville)…',
      empty: 'Aucun holding trouvé',
      paginated: true,
      scopeToHolding: false,
      filters: [{ field: 'status', kind: 'choice' }],
    });
    expect(holdings.form).toMatchObject({ fullWidth: ['street'], defaults: { status: 'Active', country: 'France' }, openIn: 'edit' });
    // One name per entity; the spec's keys through the declared prefix (mutuals and networks: settings.mutuelles).
    expect(classOf('mutuals')['pecflow:admin'].permissions.update).toBe('settings.mutuelles.update');
    expect(classOf('mutuals')['pecflow:admin'].list).toMatchObject({
      empty: 'Aucune mutuelle configurée',
      filters: [
        { field: 'status', kind: 'choice' },
        { field: 'network', kind: 'reference' },
      ],
    });
    expect(classOf('networks')['pecflow:admin'].permissions.view).toBe('settings.mutuelles.view');
    expect(classOf('software')['pecflow:admin'].permissions).toEqual({
      view: 'settings.software.view',
      create: 'settings.software.create',
      update: 'settings.software.edit',
      delete: 'settings.software.delete',
    });
    expect(classOf('credential_software')['pecflow:admin']).toMatchObject({
      list: { paginated: false, scopeToHolding: true },
      permissions: { update: 'settings.credentials.edit' },
    });
    expect(classOf('shops')['pecflow:admin'].form.tabs.map((t: JsonBody) => t.label)).toEqual(['Informations', 'Adresse et contact', 'Identifiants logiciels']);
    expect(classOf('audit_logs')['pecflow:admin'].form.openIn).toBe('view');
    expect(classOf('pec_dossiers')['pecflow:admin']).toMatchObject({ settingsTab: null, permissions: { view: 'pec.view', create: 'settings.pec.create' } });
  });

  it('labels each property in French and gives enumerations their French choices', () => {
    expect(property('holdings', 'registrationNumber')['pecflow:label']).toBe('SIREN');
    expect(property('credential_software', 'login')['pecflow:label']).toBe('Identifiant de connexion');
    expect(property('companies', 'createdAt')['pecflow:label']).toBe('Créée le');
    expect(property('shops', 'createdAt')['pecflow:label']).toBe('Créé le');
    expect(property('users', 'status')['pecflow:choices']).toEqual([
      { id: 'Active', name: '✅ Activé' },
      { id: 'Inactive', name: '❌ Désactivé' },
      { id: 'Locked', name: '🔒 Bloqué' },
    ]);
    expect(property('software', 'type')['pecflow:choices'].map((c: JsonBody) => c.name)).toEqual(['Général', 'Mutuelle', 'Réseau', 'Médical', 'Facturation']);
    expect(classOf('software')['pecflow:admin'].form.offer).toEqual({ type: ['general', 'mutual', 'network'] });
    expect(property('credential_software', 'environment')['pecflow:choices']).toEqual([
      { id: 'production', name: 'Production' },
      { id: 'test', name: 'Test' },
    ]);
    // Every property of a settings entity has its label.
    for (const cls of docs['hydra:supportedClass'].filter((c: JsonBody) => c['pecflow:admin']?.settingsTab)) {
      for (const p of cls['hydra:supportedProperty']) expect(p['pecflow:label'], `${cls['@id']} ${p['hydra:title']}`).toEqual(expect.any(String));
    }
  });

  it('keeps the annotations as JSON literals when expanded (pecflow: vocabulary, @json terms)', async () => {
    const expanded: JsonBody[] = await jsonld.expand(docs, { base: `${server.url}/api/docs.jsonld` });
    const classes = expanded[0]['http://www.w3.org/ns/hydra/core#supportedClass'];
    const holding = classes.find((c: JsonBody) => c['@id'].endsWith('#Holding'));
    const admin = holding['https://pecflow.fr/ns#admin'][0];
    expect(admin['@type']).toBe('@json');
    expect(admin['@value'].label.plural).toBe('Organisations');
    const status = holding['http://www.w3.org/ns/hydra/core#supportedProperty'].find(
      (p: JsonBody) => p['http://www.w3.org/ns/hydra/core#title'][0]['@value'] === 'status',
    );
    expect(status['https://pecflow.fr/ns#label'][0]['@value']).toBe('Statut');
    expect(status['https://pecflow.fr/ns#choices'][0]).toEqual({
      '@type': '@json',
      '@value': [
        { id: 'Active', name: '✅ Activé' },
        { id: 'Inactive', name: '❌ Désactivé' },
      ],
    });
  });
});
