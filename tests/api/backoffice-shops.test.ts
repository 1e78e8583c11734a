// Centres (/api/shops): company reference and derived organisation, FINESS/RPPS/code client/specialite validation,
// credentials as to-many IRIs set by merge-patch (spec section 7), reading by assigned users, tenancy, deletion, bulk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import {
  auditRows,
  checkDateRange,
  checkFilter,
  checkManyByIri,
  checkPaginationAndSort,
  expectForbidden,
  expectHiddenForEveryVerb,
  expectProblem,
  expectViolation,
  holdingIds,
  idWhere,
  ids,
  listAll,
  loginAll,
  mergePatch,
  sqlRows,
  type Tokens,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };
let idf: number;
let rivieraCompany: number;
let bastille: number;
let nice: number;

const shop = (name: string, company: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  displayName: `${name} (affiché)`,
  numero: '010',
  siret: '81234568600099',
  company,
  street: '1 rue de Rivoli',
  postalCode: '75004',
  city: 'Paris',
  country: 'France',
  email: 'centre@exemple.fr',
  phone: '01 00 00 00 00',
  status: 'Active',
  finess: '750000001',
  rpps: '10100000001',
  codeClient: 'HZ-NEW',
  specialite: 'Audioprothésiste',
  ...extra,
});

async function createShop(name: string, extra: Record<string, unknown> = {}, token = t.horizonAdmin) {
  const res = await server.request('POST', '/api/shops', { token, body: shop(name, `/api/companies/${idf}`, extra) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Credentials of an organisation, by software label. */
async function credentialOf(holdingId: number, softwareLabel: string) {
  const [row] = await sqlRows<{ id: number }>(
    server,
    `select c.id from credential_software c join software s on s.id = c.software_id where c.holding_id = $1 and s.label = $2 order by c.id limit 1`,
    [holdingId, softwareLabel],
  );
  return Number(row!.id);
}

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'assistant', 'lecture', 'rivieraAdmin']);
  org = await holdingIds(server);
  idf = await idWhere(server, 'companies', 'name', 'Horizon Audition Île-de-France');
  rivieraCompany = await idWhere(server, 'companies', 'name', 'Riviera Vision');
  bastille = await idWhere(server, 'shops', 'name', 'Horizon Paris Bastille');
  nice = await idWhere(server, 'shops', 'name', 'Riviera Nice Médecin');
});
afterAll(() => server?.close());

describe('GET /api/shops', () => {
  it('pages, sorts, filters and searches in both conventions', async () => {
    await checkPaginationAndSort(server, t.admin, 'shops', 'name');
    await checkPaginationAndSort(server, t.admin, 'shops', 'displayName');
    await checkFilter(server, t.admin, 'shops', 'company', (s) => s.company['@id']);
    await checkFilter(server, t.admin, 'shops', 'holding', (s) => `/api/holdings/${s.company.id === rivieraCompany ? org.riviera : org.horizon}`);
    await checkFilter(server, t.admin, 'shops', 'specialite', (s) => s.specialite);
    await createShop('Horizon Fermé', { status: 'Inactive' });
    await checkFilter(server, t.admin, 'shops', 'status', (s) => s.status);
    await checkManyByIri(server, t.admin, 'shops');
    await checkDateRange(server, t.admin, 'shops', 'shops', bastille);
  });

  it('sorted by status, centres of one status come by name (in French order), then by id; pages neither repeat nor skip one', async () => {
    // Created against their names' order, a name twice: the id alone would give another order.
    const prefix = 'Égalité';
    const created: Record<string, number> = {};
    for (const [key, name, status] of [
      ['fauvette', 'Fauvette', 'Active'],
      ['merle', 'Merle', 'Inactive'],
      ['emeraude', 'émeraude', 'Active'],
      ['eider', 'Eider', 'Active'],
      ['alouette', 'Alouette', 'Inactive'],
      ['eider2', 'Eider', 'Active'],
    ]) {
      created[key!] = (await createShop(`${prefix} ${name}`, { status }, t.horizonAdmin)).id;
    }
    const expected = ['eider', 'eider2', 'emeraude', 'fauvette', 'alouette', 'merle'].map((key) => created[key]);
    const pages = async (direction: string) => {
      const seen: number[] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await server.request('GET', `/api/shops?search=${encodeURIComponent(prefix)}&order[status]=${direction}&itemsPerPage=2&page=${page}`, {
          token: t.horizonAdmin,
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body.totalItems).toBe(6);
        seen.push(...ids(res.body.member));
      }
      return seen;
    };
    expect(await pages('asc')).toEqual(expected);
    // Descending is the exact reverse: the ties too.
    expect(await pages('desc')).toEqual([...expected].reverse());

    // Every centre of the platform by status, three a page: each once.
    const all = await listAll(server, t.admin, 'shops', 'pagination=false');
    const paged: number[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 3); page++) {
      const res = await server.request('GET', `/api/shops?order[status]=desc&itemsPerPage=3&page=${page}`, { token: t.admin });
      paged.push(...ids(res.body.member));
    }
    expect(paged).toHaveLength(all.length);
    expect(new Set(paged)).toEqual(new Set(ids(all)));
  });

  it('searches name, display name, city, SIRET and client code', async () => {
    expect((await listAll(server, t.admin, 'shops', 'search=gratte-ciel')).map((s) => s.name)).toEqual(['Horizon Villeurbanne']);
    expect((await listAll(server, t.admin, 'shops', 'search=rv-ant')).map((s) => s.name)).toEqual(['Riviera Antibes']);
    expect((await listAll(server, t.admin, 'shops', 'search=MEDECIN')).map((s) => s.name)).toEqual(['Riviera Nice Médecin']);
  });

  it('shows displayName, the embedded company and the credentials as IRIs', async () => {
    const [item] = await listAll(server, t.admin, 'shops', `id=${bastille}`);
    expect(item).toMatchObject({
      '@id': `/api/shops/${bastille}`,
      '@type': 'Shop',
      displayName: 'Paris 11e - Bastille',
      finess: '750061234',
      rpps: '10101234567',
      codeClient: 'HZ-PAR11',
      specialite: 'Audioprothésiste',
      company: { '@id': `/api/companies/${idf}`, id: idf, name: 'Horizon Audition Île-de-France' },
    });
    expect(item.credentials.length).toBeGreaterThan(0);
    expect(item.credentials.every((iri: string) => /^\/api\/credential_software\/\d+$/.test(iri))).toBe(true);
  });

  it('confines each organisation to its centres, and PEC users to the centres they are assigned to', async () => {
    const horizon = await listAll(server, t.horizonAdmin, 'shops');
    expect(horizon.every((s) => s.company.id !== rivieraCompany)).toBe(true);
    expect((await listAll(server, t.rivieraAdmin, 'shops')).map((s) => s.name).sort()).toEqual(['Riviera Antibes', 'Riviera Nice Médecin']);
    // No settings.shops.view: a user with pec.view reads only the centres they work in (the PEC form's list).
    expect((await listAll(server, t.audio, 'shops')).map((s) => s.name).sort()).toEqual(['Horizon Boulogne', 'Horizon Paris Bastille']);
    expect((await listAll(server, t.assistant, 'shops')).map((s) => s.name)).toEqual(['Horizon Lyon Part-Dieu']);
    expect((await server.request('GET', `/api/shops/${bastille}`, { token: t.audio })).status).toBe(200);
    const lyon = await idWhere(server, 'shops', 'name', 'Horizon Lyon Part-Dieu');
    expectProblem(await server.request('GET', `/api/shops/${lyon}`, { token: t.audio }), 404);
    // Reading is all they may do.
    await expectForbidden(server, t.audio, 'PATCH', `/api/shops/${bastille}`, { phone: '00' });
    await expectForbidden(server, t.lecture, 'DELETE', `/api/shops/${bastille}`);
    await expectForbidden(server, t.assistant, 'POST', '/api/shops', shop('Interdit', `/api/companies/${idf}`));
  });
});

describe('POST /api/shops', () => {
  it("creates a centre in its company's organisation, and audits it with that organisation", async () => {
    const created = await createShop('Horizon Marais');
    expect(created.company.id).toBe(idf);
    const [row] = await sqlRows(server, 'select holding_id from shops where id = $1', [created.id]);
    expect(Number(row!.holding_id)).toBe(org.horizon);
    expect((await auditRows(server, 'shops', created.id))[0]).toMatchObject({
      action: 'shop.create',
      holding_id: org.horizon,
      actor_email: 'direction@audition-horizon.fr',
    });
    // companyId is read as the company reference too.
    const { company: _c, ...rest } = shop('Horizon Bercy', null);
    const viaId = await server.request('POST', '/api/shops', { token: t.horizonAdmin, body: { ...rest, companyId: idf } });
    expect(viaId.status, viaId.text).toBe(201);
  });

  it('answers each invalid field with its French message (spec section 5)', async () => {
    const res = await server.request('POST', '/api/shops', {
      token: t.horizonAdmin,
      body: {
        name: 'H',
        siret: '12',
        company: '',
        country: 'F',
        finess: '12345678',
        rpps: '1234567890A',
        codeClient: '   ',
        specialite: 'Dentiste',
        email: 'faux',
      },
    });
    expectViolation(res, 'name', 'Nom requis');
    expectViolation(res, 'siret', 'SIRET requis');
    expectViolation(res, 'company', 'Entreprise requise');
    expectViolation(res, 'country', 'Pays requis');
    expectViolation(res, 'finess', 'FINESS doit contenir 9 chiffres');
    expectViolation(res, 'rpps', 'RPPS doit contenir 11 chiffres');
    expectViolation(res, 'codeClient', 'Code client requis');
    expectViolation(res, 'specialite', 'Spécialité invalide : Audioprothésiste, Opticien ou Orthopédiste');
    expectViolation(res, 'email', 'Email invalide');
    expectViolation(
      await server.request('POST', '/api/shops', { token: t.horizonAdmin, body: shop('Trop long', `/api/companies/${idf}`, { codeClient: 'C'.repeat(51) }) }),
      'codeClient',
      'Code client trop long',
    );
    expectViolation(
      await server.request('POST', '/api/shops', { token: t.horizonAdmin, body: shop('Dix chiffres', `/api/companies/${idf}`, { finess: '7500000010' }) }),
      'finess',
      'FINESS doit contenir 9 chiffres',
    );
  });

  it('accepts the three specialities and trims the codes', async () => {
    for (const specialite of ['Audioprothésiste', 'Opticien', 'Orthopédiste']) {
      const created = await createShop(`Centre ${specialite}`, { specialite, codeClient: '  CODE-1  ', finess: ' 750000002 ' });
      expect(created).toMatchObject({ specialite, codeClient: 'CODE-1', finess: '750000002' });
    }
  });

  it('refuses with 422 a company of another organisation, whatever the way it is named', async () => {
    expectViolation(
      await server.request('POST', '/api/shops', { token: t.horizonAdmin, body: shop('Capture', `/api/companies/${rivieraCompany}`) }),
      'company',
      'Entreprise introuvable ou hors de votre périmètre.',
    );
    expectViolation(
      await server.request('POST', '/api/shops', { token: t.horizonAdmin, body: shop('Fantôme', '/api/companies/999999') }),
      'company',
      'Entreprise introuvable ou hors de votre périmètre.',
    );
  });
});

describe('credentials of a centre (spec section 7: PUT without them, then merge-patch)', () => {
  it('sets the credentials by merge-patch as IRIs, and keeps them on a PUT that omits them', async () => {
    const created = await createShop('Horizon Credentials');
    expect(created.credentials).toEqual([]);
    const auditdata = await credentialOf(org.horizon, 'Auditdata Manage');
    const cosium = await credentialOf(org.horizon, 'Cosium Facturation');
    const put = await server.request('PUT', `/api/shops/${created.id}`, {
      token: t.horizonAdmin,
      body: shop('Horizon Credentials', `/api/companies/${idf}`, { city: 'Vincennes' }),
    });
    expect(put.status).toBe(200);
    const patched = await server.request('PATCH', `/api/shops/${created.id}`, {
      token: t.horizonAdmin,
      body: { credentials: [`/api/credential_software/${cosium}`, `/api/credential_software/${auditdata}`] },
      headers: mergePatch,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.credentials).toEqual([
      `/api/credential_software/${Math.min(auditdata, cosium)}`,
      `/api/credential_software/${Math.max(auditdata, cosium)}`,
    ]);
    expect(patched.body.city).toBe('Vincennes');

    // The next PUT of the form (no credentials in it) keeps them.
    const again = await server.request('PUT', `/api/shops/${created.id}`, {
      token: t.horizonAdmin,
      body: shop('Horizon Credentials', `/api/companies/${idf}`, { city: 'Montreuil' }),
    });
    expect(again.body.credentials).toHaveLength(2);
    // An empty list removes them.
    const cleared = await server.request('PATCH', `/api/shops/${created.id}`, { token: t.horizonAdmin, body: { credentials: [] }, headers: mergePatch });
    expect(cleared.body.credentials).toEqual([]);
    const rows = await auditRows(server, 'shops', created.id);
    expect(rows.find((r) => r.action === 'shop.update' && r.changes.credentials)?.changes.credentials).toEqual({
      before: [],
      after: [auditdata, cosium].sort((a, b) => a - b),
    });
  });

  it("refuses another organisation's credential, an unknown one, and two for one software", async () => {
    const created = await createShop('Horizon Refus');
    const rivieraCredential = await credentialOf(org.riviera, 'Optimum Opticien');
    expectViolation(
      await server.request('PATCH', `/api/shops/${created.id}`, {
        token: t.horizonAdmin,
        body: { credentials: [`/api/credential_software/${rivieraCredential}`] },
        headers: mergePatch,
      }),
      'credentials',
      'Identifiant introuvable ou hors de votre périmètre.',
    );
    // Even a platform administrator cannot give a centre another organisation's credential.
    expectViolation(
      await server.request('PATCH', `/api/shops/${created.id}`, {
        token: t.admin,
        body: { credentials: [`/api/credential_software/${rivieraCredential}`] },
        headers: mergePatch,
      }),
      'credentials',
      'Les identifiants doivent appartenir à l’organisation du centre.',
    );
    expectViolation(
      await server.request('PATCH', `/api/shops/${created.id}`, { token: t.horizonAdmin, body: { credentials: ['/api/shops/1'] }, headers: mergePatch }),
      'credentials',
      'Identifiant invalide',
    );
    // A second credential for the same software.
    const auditdataSoftware = await idWhere(server, 'software', 'label', 'Auditdata Manage');
    const second = await server.request('POST', '/api/credential_software', {
      token: t.horizonAdmin,
      body: {
        login: 'second.compte',
        password: 'secret-2',
        loginPage: 'https://manage.auditdata.example/login',
        software: `/api/software/${auditdataSoftware}`,
      },
    });
    expect(second.status, second.text).toBe(201);
    const first = await credentialOf(org.horizon, 'Auditdata Manage');
    expectViolation(
      await server.request('PATCH', `/api/shops/${created.id}`, {
        token: t.horizonAdmin,
        body: { credentials: [`/api/credential_software/${first}`, second.body['@id']] },
        headers: mergePatch,
      }),
      'credentials',
      'Un seul identifiant par logiciel pour un centre.',
    );
    expect((await server.request('GET', `/api/shops/${created.id}`, { token: t.horizonAdmin })).body.credentials).toEqual([]);
  });
});

describe('PUT, PATCH, DELETE /api/shops/{id}', () => {
  it('PATCH keeps the fields it does not name; PUT resets the optional ones', async () => {
    const created = await createShop('Horizon Nation');
    const patched = await server.request('PATCH', `/api/shops/${created.id}`, { token: t.horizonAdmin, body: { displayName: 'Nation' }, headers: mergePatch });
    expect(patched.body).toMatchObject({ displayName: 'Nation', phone: '01 00 00 00 00', finess: '750000001' });
    const put = await server.request('PUT', `/api/shops/${created.id}`, {
      token: t.horizonAdmin,
      body: {
        name: 'Horizon Nation',
        siret: '81234568600099',
        company: `/api/companies/${idf}`,
        country: 'France',
        finess: '750000001',
        rpps: '10100000001',
        codeClient: 'HZ-NAT',
        specialite: 'Opticien',
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ displayName: null, phone: null, email: null, specialite: 'Opticien', codeClient: 'HZ-NAT' });
  });

  it('refuses to move a centre with users or files to another organisation', async () => {
    expectViolation(
      await server.request('PATCH', `/api/shops/${bastille}`, { token: t.admin, body: { company: `/api/companies/${rivieraCompany}` }, headers: mergePatch }),
      'company',
      'Impossible de changer l’organisation du centre : 2 utilisateurs y sont affectés.',
    );
    // A bare centre may move, and its organisation follows its company.
    const bare = await createShop('Horizon Nomade');
    const moved = await server.request('PATCH', `/api/shops/${bare.id}`, {
      token: t.admin,
      body: { company: `/api/companies/${rivieraCompany}` },
      headers: mergePatch,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(Number((await sqlRows(server, 'select holding_id from shops where id = $1', [bare.id]))[0]!.holding_id)).toBe(org.riviera);
    expect(ids(await listAll(server, t.rivieraAdmin, 'shops'))).toContain(bare.id);
  });

  it('hides Audition Horizon centres from Optique Riviera for every verb, and Riviera centres from Horizon', async () => {
    await expectHiddenForEveryVerb(server, t.rivieraAdmin, 'shops', bastille, shop('Capture', `/api/companies/${rivieraCompany}`), { table: 'shops' });
    await expectHiddenForEveryVerb(server, t.horizonAdmin, 'shops', nice, shop('Capture', `/api/companies/${idf}`), { table: 'shops' });
  });

  it('deletes a centre (its user and credential links go with it) and audits it', async () => {
    const created = await createShop('Horizon Temporaire');
    const credential = await credentialOf(org.horizon, 'Auditdata Manage');
    await server.request('PATCH', `/api/shops/${created.id}`, {
      token: t.horizonAdmin,
      body: { credentials: [`/api/credential_software/${credential}`] },
      headers: mergePatch,
    });
    expect((await server.request('DELETE', `/api/shops/${created.id}`, { token: t.horizonAdmin })).status).toBe(204);
    expect(await sqlRows(server, 'select * from shop_credentials where shop_id = $1', [created.id])).toEqual([]);
    expect((await auditRows(server, 'shops', created.id)).at(-1)).toMatchObject({ action: 'shop.delete', actor_email: 'direction@audition-horizon.fr' });
  });

  it('refuses deletion while PEC files are attached', async () => {
    const created = await createShop('Horizon Avec Dossiers');
    for (const n of [1, 2]) {
      await sqlRows(server, `insert into pec_dossiers (holding_id, shop_id, numero_dossier) values ($1, $2, $3)`, [
        org.horizon,
        created.id,
        `TEST-${created.id}-${n}`,
      ]);
    }
    expectProblem(
      await server.request('DELETE', `/api/shops/${created.id}`, { token: t.horizonAdmin }),
      409,
      'Impossible de supprimer : 2 demandes de PEC sont rattachées à ce centre.',
    );
    // All or nothing: the batch with it deletes nothing.
    const other = await createShop('Horizon Innocent');
    expectProblem(await server.request('POST', '/api/shops/bulk-delete', { token: t.horizonAdmin, body: { ids: [other.id, created.id] } }), 409);
    expect(ids(await listAll(server, t.horizonAdmin, 'shops', `id[]=${other.id}`))).toEqual([other.id]);
  });

  it('bulk-update changes every centre of the batch', async () => {
    const a = await createShop('Horizon Lot A');
    const b = await createShop('Horizon Lot B');
    const res = await server.request('POST', '/api/shops/bulk-update', {
      token: t.horizonAdmin,
      body: { ids: [a['@id'], b['@id']], data: { specialite: 'Orthopédiste' } },
    });
    expect(res.status, res.text).toBe(200);
    expect((await listAll(server, t.horizonAdmin, 'shops', `id[]=${a.id}&id[]=${b.id}`)).map((s) => s.specialite)).toEqual(['Orthopédiste', 'Orthopédiste']);
    // One invalid value cancels all.
    expectViolation(
      await server.request('POST', '/api/shops/bulk-update', {
        token: t.horizonAdmin,
        body: { ids: [a.id, b.id], data: { specialite: 'Opticien', rpps: '12' } },
      }),
      'rpps',
      `Élément ${a.id} : RPPS doit contenir 11 chiffres`,
    );
    expect((await listAll(server, t.horizonAdmin, 'shops', `id[]=${a.id}&id[]=${b.id}`)).map((s) => s.specialite)).toEqual(['Orthopédiste', 'Orthopédiste']);
  });
});
