// The PEC calls of the one data provider (spec section 7) as the API receives them, and what a failed answer tells the
// screens (spec section 8: the response's message first, 'Une erreur technique est survenue' only when none).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider } from '../../src/dataProvider';
import { hydraHttpClient } from '../../src/dataProvider/hydra';
import { PEC_RESOURCE, PEC_STATS_QUERY_KEY } from '../../src/dataProvider/pec';
import { GENERIC_ERROR_MESSAGE } from '#domain/errors';

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

let sent: Sent[] = [];
let answer: () => Response;

beforeEach(() => {
  sent = [];
  answer = () => new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL, init: RequestInit = {}) => {
      const body = typeof init.body === 'string' ? init.body : undefined;
      let parsed: unknown = body;
      try {
        parsed = body ? JSON.parse(body) : undefined;
      } catch {
        // text/csv
      }
      sent.push({ url: String(input), method: init.method ?? 'GET', headers: new Headers(init.headers), body: parsed });
      return answer();
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the PEC methods of the data provider', () => {
  it('start the DPEC and the billing runs with the file id (spec section 7, Automation)', async () => {
    answer = () =>
      new Response(JSON.stringify({ externalId: 'X-1', runId: 4, executionId: 9, status: 'started', message: '' }), {
        status: 202,
        headers: { 'Content-Type': 'application/json' },
      });
    await expect(dataProvider.pecRun({ id: 7, kind: 'dpec' })).resolves.toMatchObject({ externalId: 'X-1', runId: 4 });
    await dataProvider.pecRun({ id: 7, kind: 'billing' });
    expect(sent.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/api/robot-frontend/setup-and-create-dpec', { pecDossierId: 7 }],
      ['POST', '/api/robot-frontend/setup-and-billing-pec', { pecDossierId: 7 }],
    ]);
  });

  it('saves the invoice as a merge-patch of the file', async () => {
    await dataProvider.pecSaveBilling({ id: 12, data: { numBilling: 'FAC-1', dateBilling: '2026-11-20' } });
    expect(sent[0]).toMatchObject({ method: 'PATCH', url: '/api/pec_dossiers/12', body: { numBilling: 'FAC-1', dateBilling: '2026-11-20' } });
    expect(sent[0]!.headers.get('Content-Type')).toBe('application/merge-patch+json');
  });

  it('posts a manual result to its callback and sends the CSV of an import as text', async () => {
    await dataProvider.pecCallback({ type: 'dpec', data: { id_pecflow: 'X-1', success: true, messages: [] } });
    await dataProvider.pecImport({ csv: 'Centre;Réseau\n' });
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/api/callbacks/dpec', body: { id_pecflow: 'X-1', success: true, messages: [] } });
    expect(sent[1]).toMatchObject({ method: 'POST', url: '/api/pec_dossiers/import', body: 'Centre;Réseau\n' });
    expect(sent[1]!.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
  });

  it('exports the CSV of the filters and order in view, as the list reads them', async () => {
    answer = () =>
      new Response('N° dossier;État\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="demandes-pec-2026-11-23.csv"' },
      });
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} <- ${this.href}`);
    });
    const name = await dataProvider.pecExport({
      filter: { status: 'paid', createdAt: { after: '2026-11-01T00:00:00+01:00' } },
      sort: { field: 'totalTtc', order: 'ASC' },
    });
    expect(name).toBe('demandes-pec-2026-11-23.csv');
    expect(downloads).toEqual(['demandes-pec-2026-11-23.csv <- blob:csv']);
    const url = new URL(sent[0]!.url, 'http://localhost');
    expect(url.pathname).toBe('/api/pec_dossiers/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({ status: 'paid', 'createdAt[after]': '2026-11-01T00:00:00+01:00', 'order[totalTtc]': 'asc' });
  });

  it("keeps the dashboard figures under the files' query key, so one invalidation refreshes list, file and figures", () => {
    expect(PEC_STATS_QUERY_KEY[0]).toBe(PEC_RESOURCE);
  });

  it("fails with the API's French message and status", async () => {
    answer = () =>
      new Response(JSON.stringify({ message: 'Le DPEC doit être accordé avant la facturation' }), {
        status: 409,
        headers: { 'Content-Type': 'application/problem+json' },
      });
    await expect(dataProvider.pecRun({ id: 7, kind: 'billing' })).rejects.toMatchObject({
      status: 409,
      message: 'Le DPEC doit être accordé avant la facturation',
    });
  });
});

describe('a failed answer read through the Hydra provider (the PEC list, the settings)', () => {
  const list = () => hydraHttpClient(new URL('http://localhost/api/pec_dossiers?page=1'));

  it("gives a 5xx's own message, not the generic text", async () => {
    answer = () =>
      new Response(JSON.stringify({ message: 'Maintenance de la base en cours' }), {
        status: 503,
        statusText: 'Service Unavailable',
        headers: { 'Content-Type': 'application/json' },
      });
    await expect(list()).rejects.toMatchObject({ status: 503, message: 'Maintenance de la base en cours' });
  });

  it("reads the server's problem document (hydra:description) of a 500", async () => {
    answer = () =>
      new Response(
        JSON.stringify({ '@type': 'hydra:Error', 'hydra:description': 'Une erreur technique est survenue', detail: 'Une erreur technique est survenue' }),
        {
          status: 500,
          headers: { 'Content-Type': 'application/problem+json' },
        },
      );
    await expect(list()).rejects.toMatchObject({ status: 500, message: 'Une erreur technique est survenue' });
  });

  it('gives the generic French text when the answer carries none (never the English status text)', async () => {
    answer = () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'Content-Type': 'text/html' } });
    await expect(list()).rejects.toMatchObject({ status: 502, message: GENERIC_ERROR_MESSAGE });
    answer = () => new Response('', { status: 504, statusText: 'Gateway Timeout' });
    await expect(list()).rejects.toMatchObject({ status: 504, message: GENERIC_ERROR_MESSAGE });
  });
});
