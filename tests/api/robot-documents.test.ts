// Documents travel with the robot's request (issue 29, part 3): the DPEC job lists the file's documents with links
// signed for minutes (GET /api/robot/documents/{id}, no session, the signature only: expired, forged or replayed for
// another document or file → 403), the simulator fetches them and refuses an optician's DPEC without a prescription,
// brings back the insurer's agreement on approval through POST /api/callbacks/documents (signed, idempotent by
// content, even at once), and no file of another organisation is ever reached.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { attachDocument, createDossier, signBody, startPecServer, testPdf, waitForIdle, type Refs } from './helpers/pec';
import { sqlRows } from './helpers/backoffice';
import { documentLinkPath, type RobotDocumentLink } from '../../server/robot/documents';
import { PORTAL_MISSING_PRESCRIPTION, ROBOT_AUTHOR, ROBOT_LINK_MESSAGES } from '#domain/documents';
import { CALLBACK_MESSAGES } from '#domain/pec';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;
let prescription: { prescriber: string; datePrescription: string };

const OPTICIAN = 'Riviera Nice Médecin';

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ robotSimDelayMs: 0 }));
  const [prescriber] = await server.database.query<{ id: number }>(
    'select p.id from prescribers p join shops s on s.holding_id = p.holding_id where s.name = $1 order by p.id limit 1',
    [OPTICIAN],
  );
  prescription = { prescriber: `/api/prescribers/${prescriber!.id}`, datePrescription: new Date().toISOString().slice(0, 10) };
}, 300_000);
afterAll(() => server?.close());

const sha = (bytes: Buffer | ArrayBuffer) =>
  createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex');

/** The robot job's documents for a DPEC run of the file (the links as the job carries them). */
async function jobDocuments(dossierId: number): Promise<RobotDocumentLink[]> {
  const payload = await server.app.ctx.pec.drivers.jobPayload({ id: 0, runId: 0, dossierId, runKind: 'dpec' } as Parameters<
    typeof server.app.ctx.pec.drivers.jobPayload
  >[0]);
  return payload.documents;
}

/** A link's path and query on the test server (the job's links are absolute on PUBLIC_URL). */
const onServer = (url: string) => {
  const parsed = new URL(url);
  return `${server.url}${parsed.pathname}${parsed.search}`;
};

/** GET without any session. */
const fetchLink = async (url: string) => {
  const res = await fetch(url.startsWith('http') ? url : `${server.url}${url}`);
  const bytes = await res.arrayBuffer();
  const text = Buffer.from(bytes).toString('utf8');
  return { status: res.status, headers: res.headers, bytes, text };
};

const secret = () => server.config.robotCallbackSecret;

async function postDocument(payload: Record<string, unknown>, signature?: string) {
  const rawBody = JSON.stringify(payload);
  return server.request('POST', '/api/callbacks/documents', {
    rawBody,
    headers: { 'content-type': 'application/json', ...(signature === '' ? {} : { 'x-robot-signature': signature ?? signBody(rawBody, secret()) }) },
  });
}

const robotDocuments = (dossierId: number) =>
  sqlRows<{ id: number; kind: string; source: string }>(
    server,
    "select id, kind, source from pec_documents where dossier_id = $1 and source = 'robot' order by id",
    [dossierId],
  );

describe('signed links to documents in the robot job', () => {
  it('lists each document with a link that serves its bytes without a session, audited as the robot’s read', async () => {
    const file = await createDossier(server, tokens.audio!, refs);
    const bytes = testPdf('Ordonnance du Dr Martin');
    const doc = await attachDocument(server, tokens.audio!, file.id, 'prescription', bytes, 'ordonnance martin.pdf');
    const [link, ...others] = await jobDocuments(file.id);
    expect(others).toEqual([]);
    expect(link).toMatchObject({ kind: 'prescription', name: 'ordonnance martin.pdf', mimeType: 'application/pdf', size: bytes.length });
    expect(new URL(link!.url).pathname).toBe(`/api/robot/documents/${doc.id}`);
    expect(new URL(link!.url).searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);

    const res = await fetchLink(onServer(link!.url));
    expect(res.status, res.text).toBe(200);
    expect(sha(res.bytes)).toBe(sha(bytes));
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toContain('no-store');

    const audit = await sqlRows<{ actor_id: number | null; changes: JsonBody }>(
      server,
      "select actor_id, changes from audit_logs where action = 'pec_document.read' and entity_id = $1",
      [String(doc.id)],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_id).toBeNull();
    expect(audit[0]!.changes).toMatchObject({ source: 'robot' });
    // The signature never reaches the logs: request lines carry the path without the query string (server/app.ts).
  });

  it('refuses an expired link, a forged one, and one replayed for another document or another file (403, in French)', async () => {
    const file = await createDossier(server, tokens.audio!, refs);
    const other = await createDossier(server, tokens.audio!, refs);
    const a = await attachDocument(server, tokens.audio!, file.id, 'prescription', testPdf('A'));
    const b = await attachDocument(server, tokens.audio!, file.id, 'standard_quote', testPdf('B'), 'devis.pdf');
    const c = await attachDocument(server, tokens.audio!, other.id, 'prescription', testPdf('C'));
    const future = Math.floor(Date.now() / 1000) + 120;

    const expired = await fetchLink(documentLinkPath(a.id, file.id, Math.floor(Date.now() / 1000) - 1, secret()));
    expect(expired.status).toBe(403);
    expect(JSON.parse(expired.text).detail).toBe(ROBOT_LINK_MESSAGES.expired);
    expect(expired.headers.get('content-type')).toContain('application/problem+json');

    const signatureOf = (path: string) => new URL(path, server.url).searchParams.get('signature')!;
    const forA = signatureOf(documentLinkPath(a.id, file.id, future, secret()));
    // A's signature on B (same file) and on C (another file), and A signed as if it were another file's.
    for (const path of [
      `/api/robot/documents/${b.id}?expires=${future}&signature=${forA}`,
      `/api/robot/documents/${c.id}?expires=${future}&signature=${forA}`,
      documentLinkPath(a.id, other.id, future, secret()),
      // The expiry moved on: the signature no longer matches.
      `/api/robot/documents/${a.id}?expires=${future + 3600}&signature=${forA}`,
      `/api/robot/documents/${a.id}?expires=${future}&signature=${forA.replace(/^./, (ch) => (ch === '0' ? '1' : '0'))}`,
      `/api/robot/documents/${a.id}?expires=${future}&signature=`,
      `/api/robot/documents/${a.id}?expires=${future}`,
      `/api/robot/documents/${a.id}`,
      documentLinkPath(a.id, file.id, future, 'another-secret-of-16-chars'),
    ]) {
      const res = await fetchLink(path);
      expect(res.status, path).toBe(403);
      expect(JSON.parse(res.text).detail).toBe(ROBOT_LINK_MESSAGES.invalid);
    }
    // The right link opens A only.
    expect((await fetchLink(`/api/robot/documents/${a.id}?expires=${future}&signature=${forA}`)).status).toBe(200);
    // Without a signature there is no other way in: the session route wants a session.
    expect((await fetchLink(`/api/pec_documents/${a.id}/content`)).status).toBe(401);
  });

  it('never opens another organisation’s document with a link signed for one of ours', async () => {
    const ours = await createDossier(server, tokens.audio!, refs);
    const theirs = await createDossier(server, tokens.rivieraAdmin!, refs, prescription, OPTICIAN);
    const mine = await attachDocument(server, tokens.audio!, ours.id, 'prescription', testPdf('Horizon'));
    const foreign = await attachDocument(server, tokens.rivieraAdmin!, theirs.id, 'prescription', testPdf('Riviera'));
    const future = Math.floor(Date.now() / 1000) + 120;
    const signature = new URL(documentLinkPath(mine.id, ours.id, future, secret()), server.url).searchParams.get('signature');
    const res = await fetchLink(`/api/robot/documents/${foreign.id}?expires=${future}&signature=${signature}`);
    expect(res.status).toBe(403);
  });
});

describe('the simulator and the documents', () => {
  const startDpec = (id: number) =>
    server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token: tokens.rivieraAdmin, body: { pecDossierId: id } });

  it('refuses an optician’s DPEC without a prescription, as a portal would', async () => {
    const file = await createDossier(server, tokens.rivieraAdmin!, refs, prescription, OPTICIAN);
    const started = await startDpec(file.id);
    expect(started.status, started.text).toBe(200);
    const done = await waitForIdle(server, tokens.rivieraAdmin!, file.id);
    expect(done.status).toBe('rejected');
    expect(done.detailRefus).toBe(PORTAL_MISSING_PRESCRIPTION);
    expect(await robotDocuments(file.id)).toEqual([]);
  });

  it('with a prescription: fetches it through its link, approves, and brings back the agreement shown as the robot’s', async () => {
    const file = await createDossier(server, tokens.rivieraAdmin!, refs, prescription, OPTICIAN);
    const doc = await attachDocument(server, tokens.rivieraAdmin!, file.id, 'prescription', testPdf('Ordonnance Riviera'));
    const started = await startDpec(file.id);
    expect(started.status, started.text).toBe(200);
    const done = await waitForIdle(server, tokens.rivieraAdmin!, file.id);
    expect(done.status, JSON.stringify(done.detailRefus)).toBe('approved');

    // The simulator read the prescription through its signed link.
    const reads = await sqlRows<{ n: number }>(
      server,
      "select count(*)::int as n from audit_logs where action = 'pec_document.read' and entity_id = $1 and actor_id is null",
      [String(doc.id)],
    );
    expect(reads[0]!.n).toBeGreaterThanOrEqual(1);

    const list = await server.get(`/api/pec_documents?dossier=/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin);
    expect(list.status).toBe(200);
    const agreement = list.body.member.find((m: JsonBody) => m.kind === 'agreement');
    expect(agreement, list.text).toBeTruthy();
    expect(agreement).toMatchObject({ source: 'robot', mimeType: 'application/pdf' });
    expect(agreement.createdBy ?? null).toBeNull();
    expect(agreement.originalName).toContain(done.numPec);
    expect(ROBOT_AUTHOR).toBe('Robot');
    const content = await fetch(`${server.url}${agreement.contentUrl}`, { headers: { authorization: `Bearer ${tokens.rivieraAdmin}` } });
    expect(content.status).toBe(200);
    expect(
      Buffer.from(await content.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  it('the demo’s optician files left in a run hold their prescription, so the resumed run is not refused for it', async () => {
    const seeded = await sqlRows<{ dossier_id: number }>(
      server,
      `select d.dossier_id from pec_documents d join pec_dossiers f on f.id = d.dossier_id join shops s on s.id = f.shop_id
        where d.kind = 'prescription' and d.created_by_id is null and s.specialite = 'Opticien'`,
    );
    expect(seeded.length).toBeGreaterThan(0);
    for (const { dossier_id } of seeded) {
      const done = await waitForIdle(server, tokens.rivieraAdmin!, dossier_id);
      expect(done.detailRefus).not.toBe(PORTAL_MISSING_PRESCRIPTION);
    }
  });

  it('a hearing-aid file needs no prescription for the simulator', async () => {
    const file = await createDossier(server, tokens.audio!, refs);
    const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token: tokens.audio, body: { pecDossierId: file.id } });
    expect(started.status, started.text).toBe(200);
    const done = await waitForIdle(server, tokens.audio!, file.id);
    expect(done.status).toBe('approved');
    expect((await robotDocuments(file.id)).map((d) => d.kind)).toEqual(['agreement']);
  });
});

describe('POST /api/callbacks/documents', () => {
  /** A file with an external id (given by a DPEC run that the simulator leaves open: -SILENCE). */
  async function fileWithExternalId(token = tokens.audio!, overrides: Record<string, unknown> = {}, shop?: string) {
    const file = await createDossier(
      server,
      token,
      refs,
      { numeroDossierAssure: `T${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}-SILENCE`, ...overrides },
      shop,
    );
    const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: file.id } });
    expect(started.status, started.text).toBe(200);
    return { file, externalId: started.body.externalId as string, runId: started.body.runId as number };
  }

  const letter = (label: string) => testPdf(label).toString('base64');

  it('stores the agreement once: the same content twice is one document, answered 200 with it', async () => {
    const { file, externalId, runId } = await fileWithExternalId();
    const body = { id_pecflow: externalId, run_id: runId, kind: 'agreement', name: 'accord.pdf', content_base64: letter('Accord 1') };
    const first = await postDocument(body);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      kind: 'agreement',
      originalName: 'accord.pdf',
      mimeType: 'application/pdf',
      duplicate: false,
      dossier: `/api/pec_dossiers/${file.id}`,
    });
    const again = await postDocument({ ...body, name: 'accord (2).pdf' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, duplicate: true });
    // Another content is another document (the insurer's letter).
    const other = await postDocument({ ...body, kind: 'insurer_letter', name: 'courrier.pdf', content_base64: letter('Courrier') });
    expect(other.status, other.text).toBe(201);
    expect((await robotDocuments(file.id)).map((d) => d.kind)).toEqual(['agreement', 'insurer_letter']);

    // Stored like an upload: encrypted at rest, with its hash, the robot as its origin.
    const [row] = await sqlRows<{ sha256: string; created_by_id: number | null }>(server, 'select sha256, created_by_id from pec_documents where id = $1', [
      first.body.id,
    ]);
    expect(row).toEqual({ sha256: sha(testPdf('Accord 1')), created_by_id: null });
    const [chunk] = await sqlRows<{ bytes: Buffer }>(server, 'select bytes from pec_document_chunks where document_id = $1 and seq = 0', [first.body.id]);
    expect(Buffer.from(chunk!.bytes).includes(Buffer.from('%PDF-'))).toBe(false);
  });

  it('the same content posted at once is one document too', async () => {
    const { file, externalId } = await fileWithExternalId();
    const body = { id_pecflow: externalId, kind: 'agreement', name: 'accord.pdf', content_base64: letter('Accord simultané') };
    const answers = await Promise.all([postDocument(body), postDocument(body), postDocument(body), postDocument(body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await robotDocuments(file.id)).toHaveLength(1);
  });

  it('refuses a bad or missing signature (401), an unknown file (404), a kind the robot may not post, and bytes that are no PDF, JPEG or PNG (422)', async () => {
    const { file, externalId } = await fileWithExternalId();
    const body = { id_pecflow: externalId, kind: 'agreement', name: 'accord.pdf', content_base64: letter('Refus') };
    const forged = await postDocument(body, signBody(JSON.stringify(body), 'not-the-robot-secret!'));
    expect(forged.status).toBe(401);
    expect(forged.body.detail).toBe(CALLBACK_MESSAGES.badSignature);
    expect((await postDocument(body, '')).status).toBe(401);
    // A signed-in person does not post here (their way is POST /api/pec_documents).
    const byHand = await server.request('POST', '/api/callbacks/documents', { token: tokens.audio, body });
    expect(byHand.status).toBe(401);

    expect((await postDocument({ ...body, id_pecflow: 'PEC-INCONNU-0000' })).status).toBe(404);
    const kind = await postDocument({ ...body, kind: 'prescription' });
    expect(kind.status).toBe(422);
    const text = await postDocument({ ...body, content_base64: Buffer.from('pas un document').toString('base64') });
    expect(text.status).toBe(422);
    expect(text.body.violations[0]).toMatchObject({ propertyPath: 'content_base64' });
    const notBase64 = await postDocument({ ...body, content_base64: '%%%' });
    expect(notBase64.status).toBe(422);
    expect(await robotDocuments(file.id)).toEqual([]);
  });

  it('never reaches a file of another organisation: a run of one file does not open another', async () => {
    const ours = await fileWithExternalId();
    const theirs = await fileWithExternalId(tokens.rivieraAdmin!, prescription, OPTICIAN);
    // Our file's external id with their run, and their external id with our run: refused, nothing stored.
    for (const [externalId, runId] of [
      [ours.externalId, theirs.runId],
      [theirs.externalId, ours.runId],
    ] as const) {
      const res = await postDocument({ id_pecflow: externalId, run_id: runId, kind: 'agreement', name: 'accord.pdf', content_base64: letter(`x${runId}`) });
      expect(res.status, res.text).toBe(409);
    }
    expect(await robotDocuments(ours.file.id)).toEqual([]);
    expect(await robotDocuments(theirs.file.id)).toEqual([]);
    // Another organisation never sees the robot's document of ours.
    const saved = await postDocument({ id_pecflow: ours.externalId, kind: 'agreement', name: 'accord.pdf', content_base64: letter('Horizon seulement') });
    expect(saved.status).toBe(201);
    expect((await server.get(`/api/pec_documents/${saved.body.id}`, tokens.rivieraAdmin)).status).toBe(404);
    expect((await server.get(`/api/pec_documents/${saved.body.id}/content`, tokens.rivieraAdmin)).status).toBe(404);
  });
});
