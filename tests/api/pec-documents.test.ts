// The documents of a PEC file (issue 29): uploaded as multipart/form-data, listed by file, served streamed with their
// headers, deleted by permission (never a billed file's agreement), checked by their bytes, limited in size and
// number with nothing stored when refused, encrypted at rest, every read audited, other organisations answered 404.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, startPecServer, type Refs } from './helpers/pec';
import { DOCUMENT_MAX_PER_FILE, DOCUMENT_MESSAGES } from '#domain/documents';
import { contentDisposition } from '../../server/pec/documentRoutes';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ robotSimDelayMs: 0 }));
}, 300_000);
afterAll(() => server?.close());

/** A well-formed PDF (its objects, cross-reference table and end), with `padding` bytes in a stream to make it large. */
function pdf(padding = 0, extraTrailer = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  const add = (text: string | Buffer) => parts.push(typeof text === 'string' ? Buffer.from(text, 'latin1') : text);
  const length = () => parts.reduce((n, p) => n + p.length, 0);
  const object = (n: number, body: string | Buffer[]) => {
    offsets[n] = length();
    if (typeof body === 'string') add(`${n} 0 obj\n${body}\nendobj\n`);
    else for (const piece of body) add(piece);
  };
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>');
  // Random bytes never spell '/Encrypt' in practice (2^-64 per position).
  object(4, [Buffer.from(`4 0 obj\n<< /Length ${padding} >>\nstream\n`), randomBytes(padding), Buffer.from('\nendstream\nendobj\n')]);
  const xref = length();
  add(`xref\n0 5\n0000000000 65535 f \n${[1, 2, 3, 4].map((n) => `${String(offsets[n]).padStart(10, '0')} 00000 n \n`).join('')}`);
  add(`trailer\n<< /Size 5 /Root 1 0 R ${extraTrailer}>>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const iri = (id: number) => `/api/pec_dossiers/${id}`;

const blobOf = (bytes: Buffer, type: string) => new Blob([new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length)], { type });

async function upload(token: string, dossier: string, kind: string, content: Buffer | Blob, name: string, type = 'application/pdf') {
  const form = new FormData();
  form.set('dossier', dossier);
  form.set('kind', kind);
  form.set('file', content instanceof Blob ? content : blobOf(content, type), name);
  const res = await fetch(`${server.url}/api/pec_documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/ld+json' },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as JsonBody, text, headers: res.headers };
}

/** The content as served: status, headers, and the bytes' length and hash (read as a stream, never kept whole). */
async function download(token: string, id: number, query = '') {
  const res = await fetch(`${server.url}/api/pec_documents/${id}/content${query}`, { headers: { authorization: `Bearer ${token}` } });
  const hash = createHash('sha256');
  let size = 0;
  if (res.body) {
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(piece);
      size += piece.length;
    }
  }
  return { status: res.status, headers: res.headers, size, sha256: hash.digest('hex') };
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const count = async (sql: string, values: unknown[]) => (await server.database.query<{ n: number }>(sql, values))[0]!.n;
const documentsOf = (dossierId: number) => count('select count(*)::int as n from pec_documents where dossier_id = $1', [dossierId]);
const chunksOf = (dossierId: number) =>
  count('select count(*)::int as n from pec_document_chunks c join pec_documents d on d.id = c.document_id where d.dossier_id = $1', [dossierId]);

describe('documents of a PEC file', () => {
  it('uploads, lists by file, serves the same bytes with their headers, and audits every read', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const bytes = pdf(300_000);
    const created = await upload(tokens.audio, iri(file.id), 'prescription', bytes, 'Ordonnance Dupré é.pdf');
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      '@type': 'PecDocument',
      kind: 'prescription',
      originalName: 'Ordonnance Dupré é.pdf',
      size: bytes.length,
      mimeType: 'application/pdf',
      sha256: sha(bytes),
      contentUrl: `/api/pec_documents/${created.body.id}/content`,
      dossier: { '@id': iri(file.id) },
    });
    expect(created.headers.get('location')).toBe(`/api/pec_documents/${created.body.id}`);

    const png = await upload(tokens.audio, iri(file.id), 'insurance_card', PNG, 'carte.png', 'image/png');
    expect(png.status, png.text).toBe(201);
    expect(png.body.mimeType).toBe('image/png');

    const list = await server.get(`/api/pec_documents?dossier=${encodeURIComponent(iri(file.id))}`, tokens.readOnly);
    expect(list.status, list.text).toBe(200);
    expect(list.body.member.map((m: JsonBody) => m.kind)).toEqual(['prescription', 'insurance_card']);
    expect(list.body.member[0].contentUrl).toBe(created.body.contentUrl);

    const readsBefore = await count("select count(*)::int as n from audit_logs where action = 'pec_document.read' and entity_id = $1", [
      String(created.body.id),
    ]);
    const served = await download(tokens.readOnly, created.body.id);
    expect(served.status).toBe(200);
    expect(served.size).toBe(bytes.length);
    expect(served.sha256).toBe(sha(bytes));
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toBe(contentDisposition('inline', 'Ordonnance Dupré é.pdf'));
    expect(served.headers.get('content-disposition')).toContain("filename*=UTF-8''Ordonnance%20Dupr%C3%A9%20%C3%A9.pdf");
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('private, no-store');
    // Opened on its own, a PDF's scripts run in no origin of the application.
    expect(served.headers.get('content-security-policy')).toBe('sandbox');
    const attachment = await download(tokens.audio, created.body.id, '?download=1');
    expect(attachment.headers.get('content-disposition')).toMatch(/^attachment; /);

    const reads = await server.database.query<{ actor_email: string; holding_id: number }>(
      "select actor_email, holding_id from audit_logs where action = 'pec_document.read' and entity_id = $1 order by id",
      [String(created.body.id)],
    );
    expect(reads.length - readsBefore).toBe(2);
    expect(reads.map((r) => r.actor_email).slice(-2)).toEqual(['lecture@audition-horizon.fr', 'audio@audition-horizon.fr']);
    expect(new Set(reads.map((r) => r.holding_id))).toEqual(
      new Set([(await server.database.query<{ holding_id: number }>('select holding_id from pec_dossiers where id = $1', [file.id]))[0]!.holding_id]),
    );
  });

  it('names a document by what its bytes are, without path, control or direction characters', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const named = async (name: string, content = pdf(200), type = 'application/pdf') => {
      const res = await upload(tokens.audio, iri(file.id), 'other', content, name, type);
      expect(res.status, res.text).toBe(201);
      return res.body.originalName as string;
    };
    // A PDF sent as a web page is saved as a PDF, never as "page.html".
    expect(await named('page.html')).toBe('page.html.pdf');
    expect(await named('scan.PDF')).toBe('scan.pdf');
    expect(await named('photo.jpeg.png', PNG, 'image/png')).toBe('photo.jpeg.png');
    // "ordonnance\u202Efdp.exe" would read "ordonnanceexe.pdf" on screen.
    expect(await named('ordonnance\u202Efdp.exe')).toBe('ordonnancefdp.exe.pdf');
    const long = await named(`${'a'.repeat(400)}.pdf`);
    expect(long).toHaveLength(255);
    expect(long.endsWith('.pdf')).toBe(true);
  });

  it('keeps the summary kind for Pecflow’s own print, and an archived file as it was: nothing added, nothing deleted', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const summary = await upload(tokens.audio, iri(file.id), 'summary', pdf(100), 'faux.pdf');
    expect(summary.status).toBe(422);
    expect(summary.body.violations).toEqual([{ propertyPath: 'kind', message: DOCUMENT_MESSAGES.summaryReserved }]);
    const before = await upload(tokens.audio, iri(file.id), 'prescription', pdf(100), 'ordonnance.pdf');
    expect(before.status, before.text).toBe(201);
    await server.database.query("update pec_dossiers set archived = true, archive_reason = 'abandoned' where id = $1", [file.id]);
    const frozen = `La demande ${file.numeroDossier} est archivée : restaurez-la avant de la modifier.`;
    const archived = await upload(tokens.audio, iri(file.id), 'other', pdf(100), 'apres.pdf');
    expect(archived.status).toBe(409);
    expect(archived.body.detail).toBe(frozen);
    // Its documents stay, for whoever may delete documents, the organisation's administrator included.
    for (const token of [tokens.audio, tokens.horizonAdmin]) {
      const deleted = await server.request('DELETE', `/api/pec_documents/${before.body.id}`, { token });
      expect(deleted.status).toBe(409);
      expect(deleted.body.detail).toBe(frozen);
    }
    expect(await documentsOf(file.id)).toBe(1);
    expect((await server.request('GET', `/api/pec_documents/${before.body.id}/content`, { token: tokens.audio })).status).toBe(200);
    // Restored, the file is worked on again.
    await server.database.query('update pec_dossiers set archived = false, archive_reason = null where id = $1', [file.id]);
    expect((await server.request('DELETE', `/api/pec_documents/${before.body.id}`, { token: tokens.audio })).status).toBe(204);
    expect(await documentsOf(file.id)).toBe(0);
  });

  it('keeps the content encrypted at rest, in chunks', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const bytes = pdf(600_000);
    const created = await upload(tokens.audio, iri(file.id), 'standard_quote', bytes, 'devis.pdf');
    expect(created.status, created.text).toBe(201);
    const chunks = await server.database.query<{ seq: number; bytes: Uint8Array }>(
      'select seq, bytes from pec_document_chunks where document_id = $1 order by seq',
      [created.body.id],
    );
    expect(chunks.length).toBe(Math.ceil(bytes.length / (256 * 1024)));
    const stored = Buffer.concat(chunks.map((c) => Buffer.from(c.bytes)));
    expect(stored.includes(Buffer.from('%PDF-1.4'))).toBe(false);
    expect(stored.includes(bytes.subarray(1000, 1064))).toBe(false);
    expect(stored.includes(Buffer.from('startxref'))).toBe(false);
  });

  it('refuses a wrong type by its bytes, a corrupt or encrypted PDF, an oversize file: French 422, nothing stored', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const refused = async (bytes: Buffer, name: string, message: string) => {
      const res = await upload(tokens.audio, iri(file.id), 'prescription', bytes, name);
      expect(res.status, res.text).toBe(422);
      expect(res.body.violations).toEqual([{ propertyPath: 'file', message }]);
      expect(res.body.detail).toBe(message);
    };
    await refused(Buffer.from('Ceci est un texte, pas un PDF.\n'.repeat(20)), 'ordonnance.pdf', DOCUMENT_MESSAGES.wrongType);
    const whole = pdf(10_000);
    await refused(whole.subarray(0, whole.length - 200), 'coupé.pdf', DOCUMENT_MESSAGES.corruptPdf);
    await refused(pdf(1000, '/Encrypt 5 0 R '), 'protégé.pdf', DOCUMENT_MESSAGES.encryptedPdf);
    await refused(pdf(10 * 1024 * 1024), 'énorme.pdf', DOCUMENT_MESSAGES.tooLarge(10));
    // The browser is told the limits before it sends (the system settings'), by who may add documents.
    const limits = await server.get('/api/pec_documents/limits', tokens.audio);
    expect(limits.status, limits.text).toBe(200);
    expect(limits.body).toMatchObject({ maxBytes: 10 * 1024 * 1024, maxPerFile: 30 });
    expect((await server.get('/api/pec_documents/limits', tokens.readOnly)).status).toBe(403);
    await refused(Buffer.alloc(0), 'vide.pdf', DOCUMENT_MESSAGES.fileEmpty);
    expect(await documentsOf(file.id)).toBe(0);
    expect(await chunksOf(file.id)).toBe(0);

    // A PNG named .pdf and sent as application/pdf is a PNG: accepted as what its bytes are.
    const png = await upload(tokens.audio, iri(file.id), 'insurance_card', PNG, 'carte.pdf');
    expect(png.status).toBe(201);
    expect(png.body.mimeType).toBe('image/png');

    const missing = await upload(tokens.audio, '', 'rien', PNG, 'carte.png');
    expect(missing.status).toBe(422);
    expect(missing.body.violations.map((v: JsonBody) => v.propertyPath).sort()).toEqual(['dossier', 'kind']);
  });

  it('refuses the 31st document of a file with nothing stored', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    for (let i = 0; i < DOCUMENT_MAX_PER_FILE; i++) {
      const res = await upload(tokens.audio, iri(file.id), 'other', PNG, `photo-${i}.png`);
      expect(res.status, res.text).toBe(201);
    }
    const chunks = await chunksOf(file.id);
    const res = await upload(tokens.audio, iri(file.id), 'other', pdf(1000), 'trop.pdf');
    expect(res.status, res.text).toBe(422);
    expect(res.body.detail).toBe(DOCUMENT_MESSAGES.tooMany(DOCUMENT_MAX_PER_FILE));
    expect(await documentsOf(file.id)).toBe(DOCUMENT_MAX_PER_FILE);
    expect(await chunksOf(file.id)).toBe(chunks);
  });

  it('deletes by permission, audited; never the agreement a file was billed on', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const doc = await upload(tokens.audio, iri(file.id), 'other', PNG, 'photo.png');
    expect((await server.request('DELETE', `/api/pec_documents/${doc.body.id}`, { token: tokens.readOnly })).status).toBe(403);
    expect((await server.request('DELETE', `/api/pec_documents/${doc.body.id}`, { token: tokens.audio })).status).toBe(204);
    expect(await documentsOf(file.id)).toBe(0);
    expect(await chunksOf(file.id)).toBe(0);
    const trail = await server.database.query<{ actor_email: string; entity_label: string }>(
      "select actor_email, entity_label from audit_logs where action = 'pec_document.delete' and entity_id = $1",
      [String(doc.body.id)],
    );
    expect(trail).toEqual([{ actor_email: 'audio@audition-horizon.fr', entity_label: 'photo.png' }]);

    const agreement = await upload(tokens.audio, iri(file.id), 'agreement', pdf(100), 'accord.pdf');
    await server.database.query("update pec_dossiers set status = 'billed' where id = $1", [file.id]);
    const kept = await server.request('DELETE', `/api/pec_documents/${agreement.body.id}`, { token: tokens.horizonAdmin });
    expect(kept.status).toBe(409);
    expect(kept.body.detail).toBe(DOCUMENT_MESSAGES.agreementOfBilledFile);
    expect(await documentsOf(file.id)).toBe(1);
    // Billed yesterday: an agreement added today was not billed on, and a misfiled one may go.
    await server.database.query("update pec_dossiers set date_facturation_effective = (now() at time zone 'Europe/Paris')::date - 1 where id = $1", [file.id]);
    const later = await upload(tokens.audio, iri(file.id), 'agreement', pdf(120), 'accord-mal-classe.pdf');
    expect((await server.request('DELETE', `/api/pec_documents/${later.body.id}`, { token: tokens.horizonAdmin })).status).toBe(204);
    await server.database.query("update pec_documents set created_at = now() - interval '3 days' where id = $1", [agreement.body.id]);
    expect((await server.request('DELETE', `/api/pec_documents/${agreement.body.id}`, { token: tokens.horizonAdmin })).status).toBe(409);
    // No PUT or PATCH: a document is deleted and added again.
    expect((await server.request('PATCH', `/api/pec_documents/${agreement.body.id}`, { token: tokens.horizonAdmin, body: {} })).status).toBe(404);
  });

  it('answers 404 to another organisation on every route, and hides a file’s documents from who cannot see the file', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const doc = await upload(tokens.audio, iri(file.id), 'prescription', pdf(100), 'ordonnance.pdf');
    const other = tokens.rivieraAdmin;
    expect((await server.get(`/api/pec_documents/${doc.body.id}`, other)).status).toBe(404);
    expect((await download(other, doc.body.id)).status).toBe(404);
    expect((await server.request('DELETE', `/api/pec_documents/${doc.body.id}`, { token: other })).status).toBe(404);
    expect((await server.get(`/api/pec_documents?dossier=${encodeURIComponent(iri(file.id))}`, other)).body.totalItems).toBe(0);
    const foreign = await upload(other, iri(file.id), 'other', PNG, 'intrus.png');
    expect(foreign.status).toBe(422);
    expect(foreign.body.violations).toEqual([{ propertyPath: 'dossier', message: DOCUMENT_MESSAGES.dossierNotFound }]);
    expect(await documentsOf(file.id)).toBe(1);
    // The assistant works in Lyon: a Paris file's documents do not exist for her.
    expect((await server.get(`/api/pec_documents/${doc.body.id}`, tokens.assistant)).status).toBe(404);
    expect((await download(tokens.assistant, doc.body.id)).status).toBe(404);
    expect((await download('not-a-token', doc.body.id)).status).toBe(401);
    expect((await download(tokens.audio, 999_999)).status).toBe(404);
  });

  it('takes a 10 MB document and gives it back byte for byte (its memory target is in `npm run bench -- documents`)', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const bytes = pdf(10 * 1024 * 1024 - 2000);
    const created = await upload(tokens.audio, iri(file.id), 'standard_quote', blobOf(bytes, 'application/pdf'), 'devis-complet.pdf');
    expect(created.status, created.text).toBe(201);
    expect(created.body.size).toBe(bytes.length);
    const served = await download(tokens.audio, created.body.id);
    expect(served.sha256).toBe(sha(bytes));
  });

  it('warns of a missing ordonnance (optics) and devis normalisé (optics and audio) before the request is sent', async () => {
    const codes = async (id: number, token: string) =>
      ((await server.get(`/api/pec_dossiers/${id}`, token)).body.warnings as JsonBody[])
        .map((w) => w.code)
        .filter((c) => c.endsWith('_manquant') || c.endsWith('_manquante'));
    const optical = await createDossier(server, tokens.rivieraAdmin, refs, {}, 'Riviera Nice Médecin');
    expect(await codes(optical.id, tokens.rivieraAdmin)).toEqual(['ordonnance_manquante', 'devis_normalise_manquant']);
    await upload(tokens.rivieraAdmin, iri(optical.id), 'prescription', pdf(100), 'ordonnance.pdf');
    expect(await codes(optical.id, tokens.rivieraAdmin)).toEqual(['devis_normalise_manquant']);
    await upload(tokens.rivieraAdmin, iri(optical.id), 'standard_quote', pdf(100), 'devis.pdf');
    expect(await codes(optical.id, tokens.rivieraAdmin)).toEqual([]);

    const audio = await createDossier(server, tokens.horizonAdmin, refs);
    expect(await codes(audio.id, tokens.horizonAdmin)).toEqual(['devis_normalise_manquant']);
    // Once sent, the request is the insurer's: no more pre-send warnings.
    await server.database.query("update pec_dossiers set status = 'approved' where id = $1", [audio.id]);
    expect(await codes(audio.id, tokens.horizonAdmin)).toEqual([]);
  });
});
