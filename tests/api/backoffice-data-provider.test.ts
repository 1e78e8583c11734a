// @vitest-environment jsdom
// @api-platform/admin's hydraDataProvider against the running server, as the back-office uses it: list with sort,
// filters and pagination, getOne, getMany, create, update (merge-patch), delete, and validation errors mapped to fields.
import { Blob as NodeBlob } from 'node:buffer';
import { fetchHydra, hydraDataProvider, hydraSchemaAnalyzer, type ApiPlatformAdminDataProvider } from '@api-platform/admin';
import { parseHydraDocumentation } from '@api-platform/api-doc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import { holdingIds, idWhere, sqlRows } from './helpers/backoffice';

let server: TestServer;
let provider: ApiPlatformAdminDataProvider;
let org: { horizon: number; riviera: number };

function providerFor(token: string) {
  const withBearer = (options: Parameters<typeof fetchHydra>[1] = {}) => {
    const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return { ...options, headers };
  };
  return hydraDataProvider({
    entrypoint: `${server.url}/api`,
    httpClient: (url, options) => fetchHydra(url, withBearer(options)),
    apiDocumentationParser: (url: string) => parseHydraDocumentation(url, { headers: { Authorization: `Bearer ${token}` } }),
    mercure: false,
    useEmbedded: true,
    disableCache: true,
  });
}

beforeAll(async () => {
  // The test database is loaded from a Blob: jsdom's has no arrayBuffer(), Node's has; jsdom's comes back afterwards.
  const jsdomBlob = globalThis.Blob;
  globalThis.Blob = NodeBlob as unknown as typeof Blob;
  try {
    server = await startTestServer();
  } finally {
    globalThis.Blob = jsdomBlob;
  }
  org = await holdingIds(server);
  provider = providerFor(await server.login('direction@audition-horizon.fr'));
  await provider.introspect();
});
afterAll(() => server?.close());

describe('hydraDataProvider', () => {
  it('lists with sort, pagination and filters, records identified by their IRI', async () => {
    const page = await provider.getList('shops', { pagination: { page: 1, perPage: 2 }, sort: { field: 'name', order: 'DESC' }, filter: {} });
    expect(page.total).toBe(5);
    expect(page.data).toHaveLength(2);
    expect(page.data.map((s) => s.name)).toEqual(['Horizon Villeurbanne', 'Horizon Versailles']);
    expect(page.data[0]!.id).toMatch(/^\/api\/shops\/\d+$/);
    // Embedded references stay objects (useEmbedded): a list shows company.name without another call.
    expect(page.data[0]!.company).toMatchObject({ name: 'Horizon Audition Rhône' });

    const second = await provider.getList('shops', { pagination: { page: 2, perPage: 2 }, sort: { field: 'name', order: 'DESC' }, filter: {} });
    expect(second.data.map((s) => s.name)).toEqual(['Horizon Paris Bastille', 'Horizon Lyon Part-Dieu']);

    const filtered = await provider.getList('mutuals', {
      pagination: { page: 1, perPage: 50 },
      sort: { field: 'name', order: 'ASC' },
      filter: { network: { id: await idWhere(server, 'networks', 'code', 'KALIXIA') }, status: ['Active', 'Inactive'], search: 'a' },
    });
    expect(filtered.data.map((m) => m.name)).toEqual(['Apicil', 'April', 'Klesia', 'Malakoff Humanis']);

    const dated = await provider.getList('companies', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: { createdAt: { after: '2000-01-01' } },
    });
    expect(dated.total).toBe(2);
  });

  it('reads one record and many by IRI', async () => {
    const one = await provider.getOne('holdings', { id: `/api/holdings/${org.horizon}` });
    expect(one.data).toMatchObject({ id: `/api/holdings/${org.horizon}`, name: 'Audition Horizon', fullAddress: '18 rue de la Roquette, 75011 Paris, France' });
    const shops = (await sqlRows<{ id: number }>(server, 'select id from shops where holding_id = $1 order by id limit 3', [org.horizon])).map(
      (r) => `/api/shops/${r.id}`,
    );
    const many = await provider.getMany('shops', { ids: shops });
    expect(many.data.map((s) => s.id).sort()).toEqual([...shops].sort());
  });

  it('creates, updates with merge-patch, and deletes', async () => {
    const created = await provider.create('companies', {
      data: { name: 'Horizon Audition Sud', registrationNumber: '812345999', holding: `/api/holdings/${org.horizon}`, country: 'France', city: 'Marseille' },
    });
    expect(created.data).toMatchObject({ name: 'Horizon Audition Sud', city: 'Marseille', holding: { name: 'Audition Horizon' } });
    const id = created.data.id as string;
    expect(id).toMatch(/^\/api\/companies\/\d+$/);

    const updated = await provider.update('companies', { id, data: { city: 'Aix-en-Provence' }, previousData: created.data });
    expect(updated.data).toMatchObject({ city: 'Aix-en-Provence', name: 'Horizon Audition Sud' });

    // A user's centres and roles round-trip as IRI lists.
    const shops = (await sqlRows<{ id: number }>(server, 'select id from shops where holding_id = $1 order by id limit 2', [org.horizon])).map(
      (r) => `/api/shops/${r.id}`,
    );
    const user = await provider.create('users', {
      data: {
        firstName: 'Anne',
        lastName: 'Provider',
        email: 'anne.provider@audition-horizon.fr',
        password: 'Secret-2026-Lumiere',
        holding: `/api/holdings/${org.horizon}`,
        shops,
      },
    });
    expect(user.data.shops).toEqual(shops);
    const fewer = await provider.update('users', { id: user.data.id, data: { shops: [shops[1]] }, previousData: user.data });
    expect(fewer.data.shops).toEqual([shops[1]]);

    await provider.delete('companies', { id, previousData: updated.data });
    await expect(provider.getOne('companies', { id })).rejects.toMatchObject({ status: 404 });
    expect(await sqlRows(server, 'select id from companies where name = $1', ['Horizon Audition Sud'])).toEqual([]);
  });

  it('turns a 422 into field errors the form shows, in French (the admin schema analyzer reads the violations)', async () => {
    const error = await provider
      .create('shops', { data: { name: 'X', siret: '1', company: '', country: 'France', finess: '123', rpps: '1', codeClient: '', specialite: 'Opticien' } })
      .then(
        () => undefined,
        (e: unknown) => e as { status: number; message: string },
      );
    expect(error?.status).toBe(422);
    expect(error?.message).toContain('FINESS doit contenir 9 chiffres');
    expect(error?.message).not.toContain('finess:');
    expect(hydraSchemaAnalyzer().getSubmissionErrors(error as never)).toEqual({
      name: 'Nom requis',
      siret: 'SIRET requis',
      company: 'Entreprise requise',
      finess: 'FINESS doit contenir 9 chiffres',
      rpps: 'RPPS doit contenir 11 chiffres',
      codeClient: 'Code client requis',
    });
  });

  it("refuses another organisation's record as the API does (404)", async () => {
    const riviera = await idWhere(server, 'companies', 'name', 'Riviera Vision');
    await expect(provider.getOne('companies', { id: `/api/companies/${riviera}` })).rejects.toMatchObject({ status: 404 });
    await expect(
      provider.update('companies', { id: `/api/companies/${riviera}`, data: { city: 'Ailleurs' }, previousData: { id: `/api/companies/${riviera}` } }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(provider.delete('companies', { id: `/api/companies/${riviera}` })).rejects.toMatchObject({ status: 404 });
  });
});
