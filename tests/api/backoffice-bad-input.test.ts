// Bad input never produces a 500: malformed JSON, bodies of the wrong shape, every writable field (read from the API
// docs) given wrong types, 1 MB strings and NUL characters, unknown fields, on every write of every back-office
// resource (POST, PUT, PATCH, bulk-update, bulk-delete, archive); odd query strings on every list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ApiResponse, type JsonBody, type TestServer } from './helpers/server';
import { holdingIds, idWhere, ids, loginAll, mergePatch, ONE_MEGABYTE, sqlRows, type Tokens } from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let counter = 0;

interface Target {
  collection: string;
  table: string;
  /** A valid body for POST and PUT (a new one at each call: unique fields stay unique). */
  valid(): Record<string, unknown>;
  /** The record PUT and PATCH change. */
  id: number;
  creatable: boolean;
  archive: boolean;
}

let targets: Target[];
/** Writable fields of each collection, from /api/docs.jsonld. */
let writable: Map<string, string[]>;

const WRONG_VALUES: [string, unknown][] = [
  ['an object', { nested: { deeper: [1, 2, 3] } }],
  ['a list', ['a', 1, null]],
  ['a number', 123456789],
  ['a huge number', 1e308],
  ['a negative number', -1],
  ['a boolean', true],
  ['an empty string', ''],
  ['null', null],
  ['a 1 MB string', ONE_MEGABYTE],
  ['a NUL character', 'ab\u0000cd'],
  ['an IRI of another collection', '/api/audit_logs/1'],
  ['an id beyond int4', 99_999_999_999],
];

function expectHandled(res: ApiResponse, context: string) {
  expect(res.status, `${context}: ${res.text.slice(0, 300)}`).not.toBe(500);
  expect(res.status, context).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get('content-type'), context).toContain('application/problem+json');
    expect(typeof res.body.detail, context).toBe('string');
    expect(res.body.detail, context).not.toMatch(/stack|at .*\.ts:\d+|syntax error at or near|violates|relation "/i);
  }
  if (res.status === 422) {
    expect(res.body['@type'], context).toBe('ConstraintViolationList');
    for (const v of res.body.violations) expect(typeof v.message, context).toBe('string');
  }
}

const rowOf = async (target: Target) => (await sqlRows(server, `select * from ${target.table} where id = $1`, [target.id]))[0];

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin']);
  const org = await holdingIds(server);
  const idf = await idWhere(server, 'companies', 'name', 'Horizon Audition Île-de-France');
  const auditdata = await idWhere(server, 'software', 'label', 'Auditdata Manage');
  const create = async (collection: string, body: Record<string, unknown>) => {
    const res = await server.request('POST', `/api/${collection}`, { token: t.admin, body });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const bodies: Record<string, () => Record<string, unknown>> = {
    holdings: () => ({ name: `Organisation ${++counter}`, registrationNumber: '900100200', country: 'France' }),
    companies: () => ({ name: `Entreprise ${++counter}`, registrationNumber: '900100200', country: 'France', holding: `/api/holdings/${org.horizon}` }),
    shops: () => ({
      name: `Centre ${++counter}`,
      siret: '12345678900011',
      company: `/api/companies/${idf}`,
      country: 'France',
      finess: '750000001',
      rpps: '10100000001',
      codeClient: 'C1',
      specialite: 'Opticien',
    }),
    users: () => ({
      firstName: 'Jean',
      lastName: 'Test',
      email: `jean.test.${++counter}@exemple.fr`,
      password: 'Secret-2026-Lumiere',
      holding: `/api/holdings/${org.horizon}`,
    }),
    roles: () => ({ name: `Rôle ${++counter}`, permissions: ['pec.view'] }),
    mutuals: () => ({ name: `Mutuelle ${++counter}` }),
    networks: () => ({ name: `Réseau ${++counter}`, code: `R${++counter}` }),
    software: () => ({ label: `Logiciel ${++counter}`, type: 'general', holding: `/api/holdings/${org.horizon}` }),
    credential_software: () => ({ login: `robot.${++counter}`, password: 'secret', loginPage: 'https://x.exemple.fr', software: `/api/software/${auditdata}` }),
  };
  targets = [];
  for (const [collection, valid] of Object.entries(bodies)) {
    targets.push({
      collection,
      table: collection,
      valid,
      id: await create(collection, valid()),
      creatable: true,
      archive: ['software', 'credential_software'].includes(collection),
    });
  }
  const robotUrl = await idWhere(server, 'configs', 'key', 'integrations.robot_url');
  targets.push({
    collection: 'configs',
    table: 'configs',
    valid: () => ({ value: 'https://robot.exemple.fr' }),
    id: robotUrl,
    creatable: false,
    archive: false,
  });

  const docs = await server.request('GET', '/api/docs.jsonld');
  writable = new Map();
  for (const cls of docs.body['hydra:supportedClass']) {
    const collection = targets.find(
      (target) =>
        cls['hydra:title'] &&
        cls['@id'] !== '#Entrypoint' &&
        cls['hydra:supportedOperation']?.some(() => true) &&
        target.collection === collectionOfClass(cls['@id']),
    );
    if (!collection) continue;
    writable.set(
      collection.collection,
      cls['hydra:supportedProperty'].filter((p: JsonBody) => p['hydra:writeable']).map((p: JsonBody) => p['hydra:title']),
    );
  }
});
afterAll(() => server?.close());

const CLASS_TO_COLLECTION: Record<string, string> = {
  '#Holding': 'holdings',
  '#Company': 'companies',
  '#Shop': 'shops',
  '#User': 'users',
  '#Role': 'roles',
  '#Mutual': 'mutuals',
  '#Network': 'networks',
  '#Software': 'software',
  '#CredentialSoftware': 'credential_software',
  '#Config': 'configs',
};
const collectionOfClass = (id: string) => CLASS_TO_COLLECTION[id];

describe('request bodies that are not a JSON object', () => {
  it('answers 400 to malformed JSON on every write', async () => {
    for (const target of targets) {
      const calls: [string, string][] = [
        ['PUT', `/api/${target.collection}/${target.id}`],
        ['PATCH', `/api/${target.collection}/${target.id}`],
        ['POST', `/api/${target.collection}/bulk-update`],
      ];
      if (target.creatable) calls.push(['POST', `/api/${target.collection}`], ['POST', `/api/${target.collection}/bulk-delete`]);
      for (const [method, path] of calls) {
        for (const rawBody of ['{"name": ', '{name: "x"}', "{'a': 1}", '[1, 2', 'nul', '{"a":1}}', '\u0000']) {
          const res = await server.request(method, path, {
            token: t.admin,
            rawBody,
            headers: method === 'PATCH' ? mergePatch : { 'content-type': 'application/ld+json' },
          });
          expectHandled(res, `${method} ${path} ${JSON.stringify(rawBody)}`);
          expect(res.status).toBe(400);
          expect(res.body.detail).toBe('Le corps de la requête n’est pas un JSON valide.');
        }
      }
    }
  }, 180_000);

  it('answers 422 to JSON that is not an object, or no body at all', async () => {
    for (const target of targets) {
      for (const body of [[], [1, 2], 'texte', 42, true, null]) {
        for (const [method, path] of [
          ['PUT', `/api/${target.collection}/${target.id}`],
          ['PATCH', `/api/${target.collection}/${target.id}`],
          ...(target.creatable ? [['POST', `/api/${target.collection}`]] : []),
        ]) {
          const res = await server.request(method!, path!, { token: t.admin, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
          expectHandled(res, `${method} ${path} ${JSON.stringify(body)}`);
          expect(res.status).toBe(422);
        }
      }
      if (target.creatable) {
        const empty = await server.request('POST', `/api/${target.collection}`, {
          token: t.admin,
          rawBody: '',
          headers: { 'content-type': 'application/json' },
        });
        expectHandled(empty, `POST ${target.collection} without body`);
        expect(empty.status).toBe(422);
      }
    }
  }, 180_000);

  it('answers 415 to a body that is not JSON, and 413 beyond 5 MB', async () => {
    const [holdings] = targets;
    const text = await server.request('POST', '/api/holdings', {
      token: t.admin,
      rawBody: 'name=Test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectHandled(text, 'form body');
    expect(text.status).toBe(415);
    const huge = await server.request('PUT', `/api/holdings/${holdings!.id}`, {
      token: t.admin,
      body: { ...holdings!.valid(), name: 'x'.repeat(5 * 1024 * 1024 + 10) },
    });
    expectHandled(huge, 'body over 5 MB');
    expect(huge.status).toBe(413);
    // The limit, in Mo (a narrow space between the figure and its unit, as French writes it).
    expect(huge.body.detail.replace(/[\u00a0\u202f]/g, ' ')).toBe('La requête est trop volumineuse : 5 Mo au plus.');
  }, 180_000);
});

describe('every writable field with a wrong value', () => {
  it('never answers 500 on POST, PUT or PATCH, and a refused PATCH changes nothing', async () => {
    for (const target of targets) {
      const fields = writable.get(target.collection)!;
      expect(fields.length, target.collection).toBeGreaterThan(0);
      for (const field of fields) {
        for (const [label, value] of WRONG_VALUES) {
          const context = `${target.collection}.${field} = ${label}`;
          const before = await rowOf(target);
          const patch = await server.request('PATCH', `/api/${target.collection}/${target.id}`, {
            token: t.admin,
            body: { [field]: value },
            headers: mergePatch,
          });
          expectHandled(patch, `PATCH ${context}`);
          if (patch.status === 422) expect(await rowOf(target), `PATCH ${context} changed the row`).toEqual(before);
          const put = await server.request('PUT', `/api/${target.collection}/${target.id}`, { token: t.admin, body: { ...target.valid(), [field]: value } });
          expectHandled(put, `PUT ${context}`);
          if (target.creatable) {
            const post = await server.request('POST', `/api/${target.collection}`, { token: t.admin, body: { ...target.valid(), [field]: value } });
            expectHandled(post, `POST ${context}`);
          }
          // No field anywhere takes a megabyte or a NUL character.
          if (label === 'a 1 MB string' || label === 'a NUL character') {
            expect(patch.status, `PATCH ${context}`).toBe(422);
            expect(put.status, `PUT ${context}`).toBe(422);
          }
        }
      }
    }
  }, 600_000);

  it('bulk actions refuse wrong ids and data with a 422, never a 500', async () => {
    for (const target of targets) {
      for (const ids of [{}, 'tous', [{}], [null], [true], ['/api/x/1'], [1e20], [-3], [1.5], [[1]], [ONE_MEGABYTE], ONE_MEGABYTE, ['a\u0000']]) {
        for (const kind of ['bulk-update', ...(target.creatable ? ['bulk-delete'] : [])]) {
          const res = await server.request('POST', `/api/${target.collection}/${kind}`, { token: t.admin, body: { ids, data: { status: 'Inactive' } } });
          expectHandled(res, `${kind} ${target.collection} ids=${JSON.stringify(ids)}`);
          expect(res.status).toBe(422);
        }
      }
      const field = writable.get(target.collection)![0]!;
      for (const data of [null, [], 'x', 12, { [field]: ONE_MEGABYTE }, { [field]: 'a\u0000b' }]) {
        const res = await server.request('POST', `/api/${target.collection}/bulk-update`, { token: t.admin, body: { ids: [target.id], data } });
        expectHandled(res, `bulk-update ${target.collection} data=${JSON.stringify(data).slice(0, 40)}`);
        expect(res.status).toBe(422);
      }
    }
  }, 180_000);

  it('ignores unknown fields and the read-only ones on every write', async () => {
    const extras = {
      inconnu: 'ignoré',
      '@context': '/x',
      '@type': 'Autre',
      originId: 7,
      createdAt: '2000-01-01T00:00:00Z',
      updatedAt: '2000-01-01T00:00:00Z',
      usersCount: 999,
      fullAddress: 'faux',
      hasPassword: false,
      _audit: { userId: 1 },
    };
    for (const target of targets) {
      const put = await server.request('PUT', `/api/${target.collection}/${target.id}`, { token: t.admin, body: { ...target.valid(), ...extras } });
      expect(put.status, `${target.collection}: ${put.text}`).toBe(200);
      expect(put.body).not.toHaveProperty('inconnu');
      expect(put.body.id).toBe(target.id);
      expect(put.body.updatedAt).not.toBe('2000-01-01T00:00:00.000Z');
      const patch = await server.request('PATCH', `/api/${target.collection}/${target.id}`, { token: t.admin, body: extras, headers: mergePatch });
      expect(patch.status, `${target.collection}: ${patch.text}`).toBe(200);
      if (target.creatable) {
        const post = await server.request('POST', `/api/${target.collection}`, { token: t.admin, body: { ...target.valid(), ...extras, id: 424242 } });
        expect(post.status, `${target.collection}: ${post.text}`).toBe(201);
        expect(post.body.id).not.toBe(424242);
        expect(post.body).not.toHaveProperty('inconnu');
        if ('createdAt' in post.body) expect(post.body.createdAt.startsWith('2000')).toBe(false);
      }
    }
  }, 180_000);

  it('archive ignores any body and refuses odd ids', async () => {
    for (const target of targets.filter((x) => x.archive)) {
      for (const path of [`/api/${target.collection}/abc/archive`, `/api/${target.collection}/0/archive`, `/api/${target.collection}/99999999999/archive`]) {
        const res = await server.request('PATCH', path, { token: t.admin, rawBody: '{"broken', headers: mergePatch });
        expectHandled(res, path);
      }
      const huge = await server.request('PATCH', `/api/${target.collection}/${target.id}/archive`, {
        token: t.admin,
        body: { note: ONE_MEGABYTE },
        headers: mergePatch,
      });
      expectHandled(huge, `archive ${target.collection} with 1 MB`);
      expect(huge.status).toBe(204);
      await sqlRows(server, `update ${target.table} set deleted_at = null where id = $1`, [target.id]);
      const res = await server.request('PATCH', `/api/${target.collection}/${target.id}/archive`, {
        token: t.admin,
        body: { deletedAt: null, anything: [1] },
        headers: mergePatch,
      });
      expect(res.status).toBe(204);
    }
  }, 180_000);
});

describe('odd query strings on every list', () => {
  it('answers 200 (or an empty list), never a 500', async () => {
    const queries = [
      'page=-1&itemsPerPage=0',
      'page=abc&itemsPerPage=1e9',
      'page=99999999&itemsPerPage=100',
      'order[name]=sideways&order[inconnu]=desc&sort=--name',
      'sort=inconnu&order=sideways',
      'id[]=abc&id[]=/api/holdings/abc&id=99999999999',
      'createdAt[after]=garbage&createdAt[before]=2020-13-45&createdAt[strictly_after]=',
      'dateFrom=hier&dateTo=demain',
      `search=${'a'.repeat(5000)}`,
      'search=%25%5F%5C',
      'search=%00&status=%00Active',
      'status[]=&status[foo]=Active&status[0]=Active',
      'holding=/api/holdings/abc&holding[]=[object]&holdingId=-1',
      'isDefault=peut-etre&network.id=abc',
      'pagination=false&pagination=true',
      'itemsPerPage=100&limit=abc',
      'category[]=security&category[]=api&key=%27%3B%20drop%20table%20users%3B--',
    ];
    for (const collection of [...targets.map((x) => x.collection), 'audit_logs']) {
      for (const query of queries) {
        const res = await server.request('GET', `/api/${collection}?${query}`, { token: t.admin });
        expectHandled(res, `GET /api/${collection}?${query.slice(0, 80)}`);
        expect(res.status, `GET /api/${collection}?${query.slice(0, 80)}`).toBe(200);
        expect(Array.isArray(res.body.member)).toBe(true);
      }
    }
    expect(Number((await sqlRows(server, 'select count(*)::int as n from users'))[0]!.n)).toBeGreaterThan(0);
  }, 180_000);

  /** Each query answers exactly what the collection answers without it: an unknown or unusable parameter is ignored. */
  async function expectIgnored(collections: string[], queries: string[]) {
    for (const collection of collections) {
      const baseline = await server.request('GET', `/api/${collection}?itemsPerPage=100`, { token: t.admin });
      expect(baseline.status, baseline.text).toBe(200);
      for (const query of queries) {
        const context = `GET /api/${collection}?${query}`;
        const res = await server.request('GET', `/api/${collection}?${query}&itemsPerPage=100`, { token: t.admin });
        expectHandled(res, context);
        expect(res.status, context).toBe(200);
        expect(res.body.totalItems, context).toBe(baseline.body.totalItems);
        expect(ids(res.body.member), context).toEqual(ids(baseline.body.member));
      }
    }
  }
  const everyList = () => [...targets.map((x) => x.collection), 'audit_logs', 'pec_dossiers'];

  it('ignores parameters named after Object.prototype members (order, sort, filters, ranges)', async () => {
    await expectIgnored(everyList(), [
      'order[__proto__]=desc',
      'order[constructor]=asc',
      'sort=-__proto__',
      'sort=toString',
      '__proto__=1',
      '__proto__[]=1',
      '__proto__[after]=2020-01-01',
      'toString[before]=2020-01-01',
      'constructor=1',
      'toString=1',
      'valueOf=1',
      'hasOwnProperty=1',
      '__proto__Id=1',
      'constructorId=1',
    ]);
  }, 180_000);

  it('ignores dates PostgreSQL cannot hold (years outside 0001–9999) as it ignores unreadable ones', async () => {
    const dated = everyList().filter((c) => !['roles', 'configs'].includes(c));
    await expectIgnored(dated, [
      'createdAt[after]=abc',
      'createdAt[after]=99999-01-01',
      'createdAt[after]=10000-01-01',
      'createdAt[strictly_before]=-271821-04-20',
      'createdAt[before]=275760-09-13',
      'dateFrom=99999-01-01',
      'dateTo=275760-09-13',
    ]);
    await expectIgnored(
      ['pec_dossiers'],
      ['datePeremption[after]=99999-01-01', 'dateValidation[before]=+275760-09-13', 'dateFacturationEffective[after]=-000001-01-01'],
    );
    // Within the range a bound still applies.
    for (const query of ['createdAt[after]=9999-12-31', 'createdAt[before]=0001-01-01', 'dateFrom=9999-12-31']) {
      const res = await server.request('GET', `/api/companies?${query}`, { token: t.admin });
      expect(res.status, query).toBe(200);
      expect(res.body.totalItems, query).toBe(0);
    }
  }, 180_000);
});
