// GET /api/pec_dossiers: every filter and sort of the PEC list, pagination, search, who sees which files; the
// reference lists of the PEC form; the Hydra docs. Runs on the demo data (200 files per organisation), no workers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, startPecServer, type Refs } from './helpers/pec';
import { SEARCH_WORDS } from '#domain/limits';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

const list = (query: string, token = tokens.horizonAdmin) => server.get(`/api/pec_dossiers${query ? `?${query}` : ''}`, token);
const sql = <T = Record<string, unknown>>(text: string, values: unknown[] = []) => server.database.query<T>(text, values);
const holdingOf = async (name: string) => (await sql<{ id: number }>('select id from holdings where name = $1', [name]))[0]!.id;
const countWhere = async (where: string, values: unknown[] = []) =>
  Number((await sql<{ n: number }>(`select count(*)::int as n from pec_dossiers where ${where}`, values))[0]!.n);

describe('the collection', () => {
  it('answers a Hydra collection of 20, newest first, with the centre, the mutual and its network', async () => {
    const horizon = await holdingOf('Audition Horizon');
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/ld+json');
    expect(res.body['@type']).toBe('hydra:Collection');
    expect(res.body.totalItems).toBe(await countWhere('holding_id = $1', [horizon]));
    expect(res.body.totalItems).toBe(200);
    expect(res.body.member).toHaveLength(20);
    const created = res.body.member.map((m: JsonBody) => m.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    expect(res.body.view.next).toContain('page=2');

    const item = res.body.member[0];
    expect(item['@id']).toBe(`/api/pec_dossiers/${item.id}`);
    expect(item['@type']).toBe('PecDossier');
    expect(item.shop).toMatchObject({ '@id': expect.stringMatching(/^\/api\/shops\/\d+$/), name: expect.any(String) });
    expect(item.mutual).toMatchObject({
      name: expect.any(String),
      code: expect.any(String),
      networkId: expect.any(Number),
      network: { id: expect.any(Number), name: expect.any(String) },
    });
    expect(item.network).toMatchObject({ id: item.mutual.networkId, name: item.mutual.network.name });
    expect(item).not.toHaveProperty('appareils');
    expect(item).not.toHaveProperty('searchText');
  });

  it('pages with page and limit (or itemsPerPage), without overlap', async () => {
    const first = await list('limit=7&page=1');
    const second = await list('itemsPerPage=7&page=2');
    expect(first.body.member).toHaveLength(7);
    expect(second.body.member).toHaveLength(7);
    const ids = new Set(first.body.member.map((m: JsonBody) => m.id));
    for (const m of second.body.member) expect(ids.has(m.id)).toBe(false);
    const last = await list('limit=7&page=29');
    expect(last.body.member).toHaveLength(200 - 28 * 7);
  });

  it('filters on each of the seven statuses, and on several at once', async () => {
    let sum = 0;
    for (const status of ['draft', 'processing', 'pending', 'approved', 'rejected', 'billed', 'paid']) {
      const res = await list(`status=${status}&limit=100`);
      expect(res.status).toBe(200);
      expect(res.body.totalItems, status).toBeGreaterThan(0);
      for (const m of res.body.member) expect(m.status).toBe(status);
      sum += res.body.totalItems;
    }
    expect(sum).toBe(200);
    const both = await list('status[]=approved&status[]=billed&limit=100');
    const approved = await list('status=approved');
    const billed = await list('status=billed');
    expect(both.body.totalItems).toBe(approved.body.totalItems + billed.body.totalItems);
    expect((await list('status=nimporte')).body.totalItems).toBe(0);
  });

  it('searches the file, patient, quote, PEC and invoice numbers, the centre and the mutual, ignoring case and accents', async () => {
    const horizon = await holdingOf('Audition Horizon');
    const [sample] = await sql<{ numero_dossier: string; numero_dossier_assure: string; numero_devis_assure: string }>(
      'select numero_dossier, numero_dossier_assure, numero_devis_assure from pec_dossiers where holding_id = $1 order by id limit 1',
      [horizon],
    );
    const byNumber = await list(`search=${encodeURIComponent(sample!.numero_dossier.toLowerCase())}`);
    expect(byNumber.body.member.map((m: JsonBody) => m.numeroDossier)).toContain(sample!.numero_dossier);
    const byPatient = await list(`search=${encodeURIComponent(sample!.numero_dossier_assure.toLowerCase())}`);
    expect(byPatient.body.totalItems).toBeGreaterThanOrEqual(1);
    for (const m of byPatient.body.member) expect(m.numeroDossierAssure.toLowerCase()).toContain(sample!.numero_dossier_assure.toLowerCase());
    const byQuote = await list(`search=${encodeURIComponent(sample!.numero_devis_assure)}`);
    expect(byQuote.body.member.some((m: JsonBody) => m.numeroDevisAssure === sample!.numero_devis_assure)).toBe(true);

    // The N° PEC and the invoice number an insurer's letter or statement gives (migration 0032).
    const [billed] = await sql<{ id: number; num_pec: string; num_billing: string }>(
      'select id, num_pec, num_billing from pec_dossiers where holding_id = $1 and num_pec is not null and num_billing is not null order by id limit 1',
      [horizon],
    );
    for (const number of [billed!.num_pec, billed!.num_billing.toLowerCase()])
      expect((await list(`search=${encodeURIComponent(number)}`)).body.member.map((m: JsonBody) => m.id)).toContain(billed!.id);

    // A centre, typed in capitals.
    const boulogne = await list('search=BOULOGNE&limit=100');
    expect(boulogne.body.totalItems).toBe(await countWhere('shop_id = $1', [refs.shops['Horizon Boulogne']]));
    for (const m of boulogne.body.member) expect(m.shop.name).toBe('Horizon Boulogne');

    // A mutual with an accent, searched without it and with it in capitals.
    const aesio = await countWhere('holding_id = $1 and mutual_id = $2', [horizon, refs.mutuals['Aésio']!.id]);
    expect(aesio).toBeGreaterThan(0);
    expect((await list('search=aesio')).body.totalItems).toBe(aesio);
    expect((await list(`search=${encodeURIComponent('AÉSIO')}`)).body.totalItems).toBe(aesio);
    for (const m of (await list('search=aesio&limit=100')).body.member) expect(m.mutual.name).toBe('Aésio');

    // LIKE wildcards typed by the user are plain characters.
    expect((await list('search=%25')).body.totalItems).toBe(0);
    expect((await list('search=_')).body.totalItems).toBe(0);
  });

  it('finds a file by its PEC number, invoice number or Pecflow ID typed with other spaces, punctuation or case, as a statement names it', async () => {
    const horizon = await holdingOf('Audition Horizon');
    const [file] = await sql<{ id: number; numero_dossier: string }>(
      'select id, numero_dossier from pec_dossiers where holding_id = $1 and not archived order by id limit 1',
      [horizon],
    );
    // Numbers no demo file has (the simulator's PEC numbers are such as SANTECLAIR-972783118).
    await sql('update pec_dossiers set num_pec = $2, num_billing = $3 where id = $1', [file!.id, 'ZPEC-0042/7781', 'FAC-ZQ-2026-0457']);
    const found = async (term: string, token = tokens.horizonAdmin) =>
      (await list(`search=${encodeURIComponent(term)}&limit=100`, token)).body.member.map((m: JsonBody) => m.id);
    for (const term of ['ZPEC00427781', 'zpec 0042 7781', 'fac zq 2026 0457', 'fac/zq/2026/0457', 'FacZq20260457', 'Fâc zq 2026-0457'])
      expect(await found(term), term).toEqual([file!.id]);
    // A part of a number, as a part of it was found before ("000123"), its separators typed otherwise.
    expect(await found('zq 2026 04')).toEqual([file!.id]);
    // The Pecflow ID (PEC-2026-000123) as "pec 2026 000123".
    expect(await found(file!.numero_dossier.toLowerCase().replace(/-/g, ' '))).toContain(file!.id);
    // Another organisation never finds it; punctuation alone finds nothing (folded, it is no text at all).
    expect(await found('FACZQ20260457', tokens.rivieraAdmin)).toEqual([]);
    expect((await list(`search=${encodeURIComponent('-/ -')}`)).body.totalItems).toBe(0);
  });

  it('filters on the creation date with dateFrom/dateTo and createdAt[after]/[before]', async () => {
    const horizon = await holdingOf('Audition Horizon');
    const [bounds] = await sql<{ from: string; to: string }>(
      `select to_char((now() - interval '60 days')::date, 'YYYY-MM-DD') as "from", to_char((now() - interval '20 days')::date, 'YYYY-MM-DD') as "to"`,
    );
    const res = await list(`dateFrom=${bounds!.from}&dateTo=${bounds!.to}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.totalItems).toBeGreaterThan(0);
    expect(res.body.totalItems).toBeLessThan(200);
    for (const m of res.body.member) {
      expect(m.createdAt.slice(0, 10) >= bounds!.from || new Date(m.createdAt) >= new Date(`${bounds!.from}T00:00:00`)).toBe(true);
      expect(new Date(m.createdAt) < new Date(new Date(`${bounds!.to}T00:00:00`).getTime() + 86_400_000)).toBe(true);
    }
    const apiPlatform = await list(`createdAt[after]=${bounds!.from}&createdAt[before]=${bounds!.to}`);
    expect(apiPlatform.body.totalItems).toBe(res.body.totalItems);
    const onlyFrom = await list(`dateFrom=${bounds!.from}`);
    expect(onlyFrom.body.totalItems).toBeGreaterThan(res.body.totalItems);
    expect(onlyFrom.body.totalItems).toBeLessThanOrEqual(await countWhere('holding_id = $1', [horizon]));
  });

  it('sorts on createdAt, numeroDossier, totalTtc, status and dateValidation, both ways, in both notations', async () => {
    const compare = (a: unknown, b: unknown) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : (a as never) < (b as never) ? -1 : 1);
    for (const field of ['createdAt', 'numeroDossier', 'totalTtc', 'status', 'dateValidation']) {
      for (const direction of ['asc', 'desc'] as const) {
        const res = await list(`sort=${field}&order=${direction}&limit=100&status[]=approved&status[]=billed&status[]=paid&status[]=pending`);
        expect(res.status).toBe(200);
        const values = res.body.member.map((m: JsonBody) => m[field]);
        const sorted = [...values].sort((a, b) => (direction === 'asc' ? compare(a, b) : -compare(a, b)));
        if (field === 'dateValidation' || field === 'totalTtc') {
          // Files without a value have none to compare.
          const present = values.filter((v: unknown) => v !== null);
          expect(present, `${field} ${direction}`).toEqual(sorted.filter((v: unknown) => v !== null));
        } else expect(values, `${field} ${direction}`).toEqual(sorted);
      }
    }
    const dash = await list('sort=-totalTtc&limit=10&status=approved');
    const bracket = await list('order[totalTtc]=desc&limit=10&status=approved');
    expect(dash.body.member.map((m: JsonBody) => m.id)).toEqual(bracket.body.member.map((m: JsonBody) => m.id));
    const amounts = dash.body.member.map((m: JsonBody) => m.totalTtc);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    // Files without an amount (drafts) come last, whichever the direction: the highest amounts open the list.
    for (const direction of ['asc', 'desc']) {
      const all = await list(`sort=totalTtc&order=${direction}&limit=100&status[]=draft&status[]=rejected`);
      expect(all.body.totalItems).toBeLessThanOrEqual(100);
      const values = all.body.member.map((m: JsonBody) => m.totalTtc);
      const firstEmpty = values.indexOf(null);
      expect(firstEmpty, direction).toBeGreaterThan(0);
      expect(
        values.slice(firstEmpty).every((v: unknown) => v === null),
        direction,
      ).toBe(true);
    }
    const highest = await list('sort=-totalTtc&limit=1');
    const [max] = await server.database.query<{ m: string }>(
      'select max(total_ttc)::text as m from pec_dossiers where holding_id = (select holding_id from shops where name = $1)',
      ['Horizon Paris Bastille'],
    );
    expect(highest.body.member[0].totalTtc).toBe(Number(max!.m));
    // An unknown sort falls back to the default.
    const unknown = await list('sort=patient');
    expect(unknown.body.member.map((m: JsonBody) => m.id)).toEqual((await list('')).body.member.map((m: JsonBody) => m.id));
  });

  it('sorts on the centre and the mutual by name, in French order, a file without a mutual last, both ways', async () => {
    const french = new Intl.Collator('fr', { sensitivity: 'base' });
    for (const [field, ofRecord] of [
      ['shop', (m: JsonBody) => (m.shop as JsonBody | null)?.name ?? null],
      ['mutual', (m: JsonBody) => (m.mutual as JsonBody | null)?.name ?? null],
    ] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const res = await list(`order[${field}]=${direction}&itemsPerPage=200`);
        expect(res.status).toBe(200);
        const names = res.body.member.map(ofRecord) as (string | null)[];
        const present = names.filter((name): name is string => name !== null);
        expect(new Set(present).size, `${field}: several names to order`).toBeGreaterThan(1);
        const sorted = [...present].sort((a, b) => (direction === 'asc' ? french.compare(a, b) : french.compare(b, a)));
        expect(present, `${field} ${direction}`).toEqual(sorted);
        // Empty values last, in both directions.
        expect(names.slice(present.length).every((name) => name === null)).toBe(true);
      }
    }
    // The spec's notation too, and a page boundary keeps the order (no file twice across pages).
    const first = await list('sort=shop&order=asc&limit=20&page=1');
    const second = await list('sort=shop&order=asc&limit=20&page=2');
    const ids = [...first.body.member, ...second.body.member].map((m: JsonBody) => m.id);
    expect(new Set(ids).size).toBe(40);
    const names = [...first.body.member, ...second.body.member].map((m: JsonBody) => (m.shop as JsonBody).name as string);
    expect(names).toEqual([...names].sort((a, b) => french.compare(a, b)));
  });

  it('filters on the centre and the mutual', async () => {
    const shopId = refs.shops['Horizon Versailles']!;
    const res = await list(`shop=/api/shops/${shopId}&limit=100`);
    expect(res.body.totalItems).toBe(await countWhere('shop_id = $1', [shopId]));
    for (const m of res.body.member) expect(m.shop.id).toBe(shopId);
  });
});

describe('who sees which files', () => {
  it('a user assigned to centres sees those centres only', async () => {
    const paris = refs.shops['Horizon Paris Bastille']!;
    const boulogne = refs.shops['Horizon Boulogne']!;
    const res = await list('limit=100', tokens.audio);
    expect(res.body.totalItems).toBe(await countWhere('shop_id = any($1)', [[paris, boulogne]]));
    for (const m of res.body.member) expect([paris, boulogne]).toContain(m.shop.id);
    const assistant = await list('limit=100', tokens.assistant);
    expect(assistant.body.totalItems).toBe(await countWhere('shop_id = $1', [refs.shops['Horizon Lyon Part-Dieu']]));
    // Another centre's file of the same organisation does not exist for them.
    const [other] = await sql<{ id: number }>('select id from pec_dossiers where shop_id = $1 limit 1', [refs.shops['Horizon Versailles']]);
    expect((await server.get(`/api/pec_dossiers/${other!.id}`, tokens.audio)).status).toBe(404);
    expect((await server.get(`/api/pec_dossiers/${other!.id}`, tokens.readOnly)).status).toBe(200);
  });

  it('another organisation’s files answer 404 and never appear, even searched by number', async () => {
    const riviera = await holdingOf('Optique Riviera');
    const [foreign] = await sql<{ id: number; numero_dossier_assure: string }>(
      'select id, numero_dossier_assure from pec_dossiers where holding_id = $1 limit 1',
      [riviera],
    );
    const res = await server.get(`/api/pec_dossiers/${foreign!.id}`, tokens.horizonAdmin);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await list(`search=${foreign!.numero_dossier_assure}`)).body.totalItems).toBe(0);
    const own = await list('limit=100', tokens.rivieraAdmin);
    expect(own.body.totalItems).toBe(200);
    for (const m of own.body.member) expect(m.shop.name).toMatch(/^Riviera/);
  });

  it('several statuses at once stay within the organisation and the reader’s centres, in both notations', async () => {
    const horizon = await holdingOf('Audition Horizon');
    const statuses = ['pending', 'approved', 'billed'];
    const apiPlatform = await list(`${statuses.map((s) => `status[]=${s}`).join('&')}&limit=100`);
    // react-admin's array filters (status[0]=…) name the same files.
    const reactAdmin = await list(`${statuses.map((s, i) => `status[${i}]=${s}`).join('&')}&limit=100`);
    const expected = await countWhere('holding_id = $1 and status = any($2) and not archived', [horizon, statuses]);
    expect(expected).toBeGreaterThan(0);
    expect(apiPlatform.body.totalItems).toBe(expected);
    expect(reactAdmin.body.totalItems).toBe(expected);
    for (const m of apiPlatform.body.member) expect(statuses).toContain(m.status);
    // The collection's search template offers it.
    expect(apiPlatform.body.search.template).toContain('status[]');
    // Another organisation's files of those statuses never appear.
    const riviera = await list(`${statuses.map((s) => `status[]=${s}`).join('&')}&limit=100`, tokens.rivieraAdmin);
    for (const m of riviera.body.member) expect(m.shop.name).toMatch(/^Riviera/);
    const ids = new Set(apiPlatform.body.member.map((m: JsonBody) => m.id));
    for (const m of riviera.body.member) expect(ids.has(m.id)).toBe(false);
    // A user of two centres: those centres' files of those statuses only.
    const shops = [refs.shops['Horizon Paris Bastille'], refs.shops['Horizon Boulogne']];
    const audio = await list(`${statuses.map((s) => `status[]=${s}`).join('&')}&limit=100`, tokens.audio);
    expect(audio.body.totalItems).toBe(await countWhere('shop_id = any($1) and status = any($2) and not archived', [shops, statuses]));
    // An unknown status among them matches nothing more.
    expect((await list(`status[]=approved&status[]=nimporte`)).body.totalItems).toBe((await list('status=approved')).body.totalItems);
  });

  it('a platform administrator sees every organisation', async () => {
    expect((await list('', tokens.admin)).body.totalItems).toBe(await countWhere('true'));
  });

  it('asks for a token', async () => {
    const res = await server.get('/api/pec_dossiers');
    expect(res.status).toBe(401);
  });
});

describe('the file', () => {
  it('has its devices and its executions, newest first, in the spec shapes', async () => {
    const [billed] = await sql<{ id: number }>(`select id from pec_dossiers where status = 'billed' and shop_id = $1 limit 1`, [
      refs.shops['Horizon Paris Bastille'],
    ]);
    const res = await server.get(`/api/pec_dossiers/${billed!.id}`, tokens.audio);
    expect(res.status).toBe(200);
    const file = res.body;
    expect(file.statutFacturation).toBe(true);
    expect(file.appareils.length).toBeGreaterThan(0);
    expect(file.appareils[0]).toMatchObject({
      oreille: expect.stringMatching(/^(droite|gauche)$/),
      premierAppareillage: expect.stringMatching(/^(oui|non)$/),
      offre100Sante: expect.stringMatching(/^(oui|non)$/),
      lpprCode: file.appareils[0].codeLpp,
    });
    expect(file.workflowExecutions.map((e: JsonBody) => e.robotResponse.data.callback_type)).toEqual(['billing', 'dpec', 'scraping']);
    const starts = file.workflowExecutions.map((e: JsonBody) => e.startedAt);
    expect([...starts].sort().reverse()).toEqual(starts);
    expect(file.workflowExecutions[0]).toMatchObject({
      success: true,
      workflow: { name: expect.stringContaining('robot') },
      robotResponse: { messages: expect.any(Array), data: { callback_payload: { messages: expect.any(Array) } } },
    });
    expect(file.runInProgress).toBeNull();
    // Reading a file is recorded (health data).
    const reads = await sql<{ n: number }>(`select count(*)::int as n from audit_logs where action = 'pec_dossier.read' and entity_id = $1`, [
      String(billed!.id),
    ]);
    expect(reads[0]!.n).toBeGreaterThanOrEqual(1);
  });
});

describe('what the PEC form reads', () => {
  it('networks of the organisation, its centres and the mutuals of a network', async () => {
    const me = await server.get('/api/user/profile', tokens.audio);
    const networks = await server.get(`/api/networks?holdingId=${me.body.holdingId}`, tokens.audio);
    expect(networks.status).toBe(200);
    expect(networks.body.member.map((n: JsonBody) => n.name)).toEqual(expect.arrayContaining(['Itelis', 'Santéclair']));
    const shops = await server.get('/api/shops', tokens.audio);
    expect(shops.status).toBe(200);
    expect(shops.body.member.map((s: JsonBody) => s.name).sort()).toEqual(['Horizon Boulogne', 'Horizon Paris Bastille']);
    const itelis = refs.networks['Itelis']!;
    const mutuals = await server.get(`/api/mutuals?network.id=${itelis}&pagination=false`, tokens.audio);
    expect(mutuals.status).toBe(200);
    expect(mutuals.body.member.length).toBe(6);
    for (const m of mutuals.body.member) expect(m.network['@id'] ?? m.network).toContain(`/api/networks/${itelis}`);
  });
});

describe('the API documentation', () => {
  it('describes PecDossier and lists the collection', async () => {
    const docs = await server.get('/api/docs.jsonld');
    const cls = docs.body['hydra:supportedClass'].find((c: JsonBody) => c['@id'] === '#PecDossier');
    expect(cls).toBeTruthy();
    const props = cls['hydra:supportedProperty'].map((p: JsonBody) => p['hydra:title']);
    expect(props).toEqual(
      expect.arrayContaining([
        'numeroDossier',
        'status',
        'shop',
        'mutual',
        'numeroDossierAssure',
        'numeroDevisAssure',
        'totalTtc',
        'appareils',
        'workflowExecutions',
      ]),
    );
    const entry = await server.get('/api');
    expect(entry.body.pec_dossiers).toBe('/api/pec_dossiers');
  });
});

describe('a large total (1,000 files or more)', () => {
  it('is reused for a few seconds, even after another user’s creation, and counted again for a user who just created a file', async () => {
    const horizon = await holdingOf('Audition Horizon');
    const copied = (
      await sql<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = 'public' and table_name = 'pec_dossiers'
         and column_name not in ('id', 'numero_dossier', 'external_id') order by ordinal_position`,
      )
    )
      .map((c) => `"${c.column_name}"`)
      .join(', ');
    const copy = (times: number) =>
      sql(
        `insert into pec_dossiers (${copied}, numero_dossier) select ${copied}, numero_dossier || '-COPIE-' || g
         from pec_dossiers, generate_series(1, $2::int) g where holding_id = $1 and numero_dossier not like '%-COPIE-%'`,
        [horizon, times],
      );
    const total = async (token: string) => {
      const res = await list('itemsPerPage=5', token);
      expect(res.status).toBe(200);
      return res.body.totalItems as number;
    };
    const created: number[] = [];
    await copy(5);
    try {
      const counted = await total(tokens.horizonAdmin);
      expect(counted).toBe(await countWhere('holding_id = $1', [horizon]));
      expect(counted).toBeGreaterThanOrEqual(1000);
      // A change made outside this server, then a creation by another user: the same total for a few seconds.
      await sql(
        `insert into pec_dossiers (${copied}, numero_dossier) select ${copied}, numero_dossier || '-COPIE-0' from pec_dossiers where holding_id = $1 order by id limit 1`,
        [horizon],
      );
      created.push((await createDossier(server, tokens.audio, refs)).id);
      expect(await total(tokens.horizonAdmin)).toBe(counted);
      // Their own creation: counted at once, with the others.
      created.push((await createDossier(server, tokens.horizonAdmin, refs)).id);
      expect(await total(tokens.horizonAdmin)).toBe(counted + 3);
      expect(await total(tokens.horizonAdmin)).toBe(await countWhere('holding_id = $1', [horizon]));
      // Their own import, written in one transaction of its own: counted at once too.
      const imported = await server.request('POST', '/api/pec_dossiers/import', {
        token: tokens.horizonAdmin,
        rawBody: 'Centre;Mutuelle;N° dossier patient;N° devis\r\nHorizon Paris Bastille;Allianz;DP-TOTAL;DEV-TOTAL\r\n',
        headers: { 'content-type': 'text/csv; charset=utf-8' },
      });
      expect(imported.status, imported.text).toBe(201);
      created.push(...(imported.body.ids as number[]));
      expect(await total(tokens.horizonAdmin)).toBe(counted + 4);
    } finally {
      await sql(`delete from pec_dossiers where numero_dossier like '%-COPIE-%' or id = any($1::int[])`, [created]);
    }
  });
});

describe('the search, word by word', () => {
  it('finds the files that have every word, in any field and any order: a centre, a mutual, a patient', async () => {
    const horizon = await holdingOf('Audition Horizon');
    const created: number[] = [];
    // Patient and quote numbers of our own: the words of two characters below are in none of them.
    const file = async (shop: string, mutual: string, token = tokens.horizonAdmin, nomAssure = 'Quintavalle') => {
      const patient = `QV-${created.length + 1}`;
      const overrides = { nomAssure, prenomAssure: 'Léonie', numeroDossierAssure: patient, numeroDevisAssure: `DEV-${patient}` };
      const { id } = await createDossier(server, token, refs, overrides, shop, mutual);
      created.push(id);
      return id as number;
    };
    const found = async (term: string, token = tokens.horizonAdmin) => {
      const res = await list(`search=${encodeURIComponent(term)}&limit=100`, token);
      expect(res.status, term).toBe(200);
      return (res.body.member as JsonBody[]).map((m) => m.id as number).sort((a, b) => a - b);
    };
    try {
      const bastilleMacif = await file('Horizon Paris Bastille', 'MACIF');
      const bastilleAllianz = await file('Horizon Paris Bastille', 'Allianz');
      const boulogneMacif = await file('Horizon Boulogne', 'MACIF');
      // Another organisation's patient of the same name, with the same mutual.
      const riviera = await file('Riviera Antibes', 'MACIF', tokens.rivieraAdmin);

      // A centre and a mutual: every file of that centre with that mutual (the whole term as one text found none).
      const both = await list(`search=${encodeURIComponent('Bastille MACIF')}&limit=100`);
      expect(both.body.totalItems).toBe(
        await countWhere('holding_id = $1 and shop_id = $2 and mutual_id = $3 and not archived', [
          horizon,
          refs.shops['Horizon Paris Bastille'],
          refs.mutuals['MACIF']!.id,
        ]),
      );
      expect(both.body.member.map((m: JsonBody) => m.id)).toContain(bastilleMacif);
      for (const m of both.body.member) expect([m.shop.name, m.mutual.name]).toEqual(['Horizon Paris Bastille', 'MACIF']);

      // With the patient's name, in any order, any case, with or without accents, with extra spaces.
      for (const term of ['Bastille MACIF Quintavalle', 'quintavalle macif BASTILLE', ' LEONIE  Bastille   macif ', 'Léonie Quintavalle MACIF Paris Bastille'])
        expect(await found(term), term).toEqual([bastilleMacif]);
      expect(await found('Quintavalle MACIF')).toEqual([bastilleMacif, boulogneMacif]);
      expect(await found('Bastille Quintavalle')).toEqual([bastilleMacif, bastilleAllianz]);
      // One word that none of them has: nothing.
      expect(await found('Bastille MACIF Quintavalle Versailles')).toEqual([]);
      // The file's number beside the patient's name, and typed with spaces for its dashes.
      const [row] = await sql<{ numero_dossier: string }>('select numero_dossier from pec_dossiers where id = $1', [boulogneMacif]);
      expect(await found(`quintavalle ${row!.numero_dossier}`)).toEqual([boulogneMacif]);
      expect(await found(`${row!.numero_dossier.toLowerCase().replace(/-/g, ' ')} Quintavalle`)).toEqual([boulogneMacif]);

      // A quoted phrase is one word: its words together, in that order ("Horizon Paris Bastille").
      expect(await found('paris horizon quintavalle')).toEqual([bastilleMacif, bastilleAllianz]);
      expect(await found('"horizon paris" quintavalle')).toEqual([bastilleMacif, bastilleAllianz]);
      expect(await found('"paris horizon" quintavalle')).toEqual([]);
      // A word of one or two characters is checked among the files the others found ("if" in MACIF).
      expect(await found('Quintavalle if')).toEqual([bastilleMacif, boulogneMacif]);
      expect(await found('Quintavalle zq')).toEqual([]);
      // A term of short words only is looked for whole, as it always was: a patient named « Vu » is found.
      const vu = await file('Horizon Boulogne', 'MACIF', tokens.horizonAdmin, 'Vu');
      expect(await found('vu')).toContain(vu);
      expect(await found('Vu Léonie')).toEqual([vu]);

      // Never another organisation's file, whoever searches.
      expect(await found('Quintavalle MACIF', tokens.rivieraAdmin)).toEqual([riviera]);
      expect(await found('Antibes Quintavalle')).toEqual([]);
    } finally {
      await sql('delete from pec_dossiers where id = any($1::int[])', [created]);
    }
  });

  it(`refuses more than ${SEARCH_WORDS.maxWords} words with a French 422`, async () => {
    const words = ['Horizon', 'Paris', 'Bastille', 'Allianz', 'SANTECLAIR', 'PEC', 'Audition', 'France', 'Nord'];
    const search = (count: number) => list(`search=${encodeURIComponent(words.slice(0, count).join(' '))}`);
    expect((await search(SEARCH_WORDS.maxWords)).status).toBe(200);
    const refused = await search(SEARCH_WORDS.maxWords + 1);
    expect(refused.status).toBe(422);
    expect(refused.body.violations).toEqual([{ propertyPath: 'search', message: SEARCH_WORDS.tooMany }]);
    expect(refused.body.detail).toBe('La recherche compte trop de mots : 8 au plus.');
    // A word typed twice, or punctuation between words, is not one more word.
    expect((await list(`search=${encodeURIComponent(`${words.slice(0, SEARCH_WORDS.maxWords).join(' - ')} paris`)}`)).status).toBe(200);
  });
});
