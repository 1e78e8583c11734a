// Helpers of the PEC API tests: demo references, file creation, signed robot callbacks, waiting for the robot,
// a second server on the same database (restart), and a Server-Sent Events reader.
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { buildApp, type App } from '../../../server/app';
import type { Config } from '../../../server/config';
import { startTestServer, type JsonBody, type TestServer } from './server';

export const ACCOUNTS = {
  admin: 'admin@pecflow.fr',
  horizonAdmin: 'direction@audition-horizon.fr',
  audio: 'audio@audition-horizon.fr',
  assistant: 'assistant@audition-horizon.fr',
  readOnly: 'lecture@audition-horizon.fr',
  rivieraAdmin: 'direction@optique-riviera.fr',
} as const;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a truthy value (then returns it) or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`waitFor ${what}: still ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await sleep(100);
  }
}

export interface Refs {
  /** Centre ids by name. */
  shops: Record<string, number>;
  /** Mutual ids by name, with their network. */
  mutuals: Record<string, { id: number; networkId: number }>;
  networks: Record<string, number>;
}

/** Ids of the demo centres, mutuals and networks, read from the database. */
export async function demoRefs(server: TestServer): Promise<Refs> {
  const shops = await server.database.query<{ id: number; name: string }>('select id, name from shops');
  const mutuals = await server.database.query<{ id: number; name: string; network_id: number }>('select id, name, network_id from mutuals');
  const networks = await server.database.query<{ id: number; name: string }>('select id, name from networks');
  return {
    shops: Object.fromEntries(shops.map((s) => [s.name, s.id])),
    mutuals: Object.fromEntries(mutuals.map((m) => [m.name, { id: m.id, networkId: m.network_id }])),
    networks: Object.fromEntries(networks.map((n) => [n.name, n.id])),
  };
}

/** A test server on fresh demo data, its references, and a token for each account of ACCOUNTS. */
export async function startPecServer(overrides: Partial<Config> = {}): Promise<{ server: TestServer; refs: Refs; tokens: Record<string, string> }> {
  const server = await startTestServer(overrides);
  const refs = await demoRefs(server);
  const tokens: Record<string, string> = {};
  for (const [key, email] of Object.entries(ACCOUNTS)) tokens[key] = await server.login(email);
  return { server, refs, tokens };
}

let counter = 0;
/** A unique patient number (the simulator's outcome follows its suffix). */
export const patientNumber = (suffix = '') => `T${Date.now().toString(36).toUpperCase()}${(counter++).toString(36).toUpperCase()}${suffix}`;

export async function createDossier(
  server: TestServer,
  token: string,
  refs: Refs,
  overrides: Record<string, unknown> = {},
  shop = 'Horizon Paris Bastille',
  mutual = 'Allianz',
): Promise<JsonBody> {
  const res = await server.request('POST', '/api/pec_dossiers', {
    token,
    body: {
      shop: `/api/shops/${refs.shops[shop]}`,
      mutual: `/api/mutuals/${refs.mutuals[mutual]!.id}`,
      numeroDossierAssure: patientNumber(),
      numeroDevisAssure: `DEV-${patientNumber()}`,
      commentaire: 'Créé par les tests',
      ...overrides,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A small well-formed PDF (its text varies with `label`, so two labels are two contents). */
export function testPdf(label = 'Ordonnance'): Buffer {
  const stream = `BT /F1 12 Tf 20 100 Td (${label.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

/** Attaches a document to a file (POST /api/pec_documents, multipart) and returns it; an optician's DPEC needs its 'prescription'. */
export async function attachDocument(
  server: TestServer,
  token: string,
  dossierId: number,
  kind = 'prescription',
  content = testPdf(),
  name = 'ordonnance.pdf',
) {
  const form = new FormData();
  form.set('dossier', `/api/pec_dossiers/${dossierId}`);
  form.set('kind', kind);
  form.set('file', new Blob([new Uint8Array(content)], { type: 'application/pdf' }), name);
  const res = await fetch(`${server.url}/api/pec_documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/ld+json' },
    body: form,
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text) as JsonBody;
}

export const signBody = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

/** A callback as the robot posts it: raw JSON body signed in X-Robot-Signature. */
export async function robotCallback(server: TestServer, type: string, payload: unknown, options: { signature?: string; rawBody?: string } = {}) {
  const rawBody = options.rawBody ?? JSON.stringify(payload);
  return server.request('POST', `/api/callbacks/${type}`, {
    rawBody,
    headers: { 'content-type': 'application/json', 'x-robot-signature': options.signature ?? signBody(rawBody, server.config.robotCallbackSecret) },
  });
}

/** Waits until the file has no run in progress and returns it. */
export async function waitForIdle(server: TestServer, token: string, id: number, timeoutMs = 20_000): Promise<JsonBody> {
  return waitFor(
    async () => {
      const res = await server.get(`/api/pec_dossiers/${id}`, token);
      return res.status === 200 && res.body.runInProgress === null && res.body.status !== 'processing' ? res.body : undefined;
    },
    timeoutMs,
    `file ${id} idle`,
  );
}

/** A second server on the same database, as after a restart (the first must be closed by the caller). */
export async function startSibling(server: TestServer, overrides: Partial<Config> = {}): Promise<{ app: App; url: string; close(): Promise<void> }> {
  const config: Config = { ...server.config, ...overrides };
  const app = await buildApp({ config, database: server.database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, url, close: () => app.close() };
}

export interface SseEvent {
  event: string;
  data: JsonBody;
}

/** Reads /api/events with a bearer token (or a ticket) and collects the events. */
export async function openEvents(url: string, auth: { token?: string; ticket?: string }) {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  const res = await fetch(`${url}/api/events${auth.ticket ? `?ticket=${encodeURIComponent(auth.ticket)}` : ''}`, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  const done = (async () => {
    if (!res.body || res.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    close: async () => {
      controller.abort();
      await done;
    },
  };
}

/**
 * A billed file of `shop` owing `partComplementaire`, invoiced on 01/10/2026, its robot fields set directly; `ref` makes
 * the test file's unique references (the PEC number, the invoice number).
 */
export async function createBilledFile(
  server: TestServer,
  refs: Refs,
  ref: (kind: string) => string,
  { token, partComplementaire = 500, shop = 'Horizon Paris Bastille' }: { token: string; partComplementaire?: number; shop?: string },
) {
  const created = await createDossier(server, token, refs, {}, shop);
  const numPec = ref('PEC');
  const numBilling = ref('FAC');
  await server.database.query(
    `update pec_dossiers set status = 'billed', num_pec = $2, num_billing = $3, part_complementaire = $4, statut_facturation = true,
       date_facturation_effective = '2026-10-01' where id = $1`,
    [created.id, numPec, numBilling, partComplementaire],
  );
  return { id: created.id as number, numPec, numBilling, numeroDossier: created.numeroDossier as string };
}
