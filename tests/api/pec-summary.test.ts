// "Imprimer le récapitulatif" (issue 29, part 5): POST /api/pec_dossiers/{id}/summary answers the file's summary as a
// PDF made on the server; its text (pdftotext) names the centre, the insured, the PEC number and the amounts in French
// formats; who may not read the file gets 403 or 404; every print is in the audit trail.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPecServer } from './helpers/pec';
import { mergePatch, sqlRows } from './helpers/backoffice';
import type { TestServer } from './helpers/server';
import { formatDate, formatEuros } from '#domain/format';

const run = promisify(execFile);
let server: TestServer;
let tokens: Record<string, string>;
let dir: string;

beforeAll(async () => {
  ({ server, tokens } = await startPecServer());
  dir = await mkdtemp(join(tmpdir(), 'pecflow-summary-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const print = (id: number, token?: string) =>
  fetch(`${server.url}/api/pec_dossiers/${id}/summary`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The PDF's text as pdftotext reads it (layout kept: a label and its value on one line). */
async function textOf(pdf: Buffer, name: string) {
  const file = join(dir, `${name}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run('pdftotext', ['-layout', file, '-']);
  // pdftotext writes the no-break spaces of the amounts as it likes: compared as plain spaces.
  const plain = (value: string) => value.replace(/[\u00a0\u202f]/g, ' ');
  const { stdout: info } = await run('pdfinfo', [file]);
  return { text: plain(stdout), plain, pages: Number(/Pages:\s+(\d+)/.exec(info)![1]), file };
}

/** An approved hearing-aid file of Audition Horizon with its devices and amounts (demo data). */
async function approvedAudioFile() {
  const [file] = await sqlRows<{
    id: number;
    numero_dossier: string;
    num_pec: string;
    date_peremption: string;
    part_ss: string;
    prix_frais_reels: string | null;
    part_complementaire: string;
    reste_charge: string;
    shop: string;
    finess: string | null;
  }>(
    server,
    `select d.id, d.numero_dossier, d.num_pec, d.date_peremption::text, d.part_ss, d.prix_frais_reels, d.part_complementaire, d.reste_charge, s.name as shop, s.finess
     from pec_dossiers d join shops s on s.id = d.shop_id join holdings h on h.id = d.holding_id
     where h.name = 'Audition Horizon' and d.status = 'approved' and d.num_pec is not null and d.part_complementaire is not null and d.reste_charge is not null
       and exists (select 1 from appareils a where a.dossier_id = d.id and a.code_lpp is not null)
     order by d.id limit 1`,
  );
  return file!;
}

describe('the summary to print', () => {
  it('is a one- or two-page PDF with the centre, the insured, the PEC, the devices and the amounts in French formats', async () => {
    const file = await approvedAudioFile();
    const patched = await server.request('PATCH', `/api/pec_dossiers/${file.id}`, {
      token: tokens.horizonAdmin,
      headers: mergePatch,
      body: { nomAssure: 'Lefèvre', prenomAssure: 'Hélène', numeroAdherent: 'AD778899' },
    });
    expect(patched.status, patched.text).toBe(200);

    const res = await print(file.id, tokens.horizonAdmin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`recapitulatif-${file.numero_dossier}.pdf`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { text, plain, pages, file: path } = await textOf(pdf, 'audio');
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(2);
    expect(text).toContain('Récapitulatif de prise en charge');
    expect(text).toContain(file.shop);
    if (file.finess) expect(text).toContain(`FINESS ${file.finess}`);
    expect(text).toMatch(/Nom\s+Lefèvre/);
    expect(text).toMatch(/Prénom\s+Hélène/);
    expect(text).toContain('AD778899');
    expect(text).toContain(file.numero_dossier);
    expect(text).toMatch(new RegExp(`N° PEC\\s+${file.num_pec}`));
    expect(text).toContain(formatDate(file.date_peremption));
    // Euros as the screens write them: "1 234,50 €", the narrow no-break spaces of Intl kept (the font has them).
    for (const amount of [file.part_ss, file.part_complementaire, file.reste_charge]) expect(text).toContain(plain(formatEuros(Number(amount))));
    expect(formatEuros(1234.5)).toBe('1\u202f234,50\u00a0€');
    expect(text).toMatch(/Reste à charge\s+\S/);
    // The insurer's real-cost price, as the screen shows it: the amounts add up on paper too.
    expect(text).toMatch(new RegExp(`Prix frais réels\\s+${file.prix_frais_reels === null ? '—' : plain(formatEuros(Number(file.prix_frais_reels)))}`));
    const [device] = await sqlRows<{ code_lpp: string; prix_ttc: string }>(
      server,
      'select code_lpp, prix_ttc from appareils where dossier_id = $1 and code_lpp is not null limit 1',
      [file.id],
    );
    expect(text).toContain(device!.code_lpp);
    expect(text).toContain(plain(formatEuros(Number(device!.prix_ttc))));
    expect(text).toContain('Signatures');

    // Page 1 as a PNG, for a person to look at the layout (kept in the system's temporary folder while the test runs).
    await run('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', path, join(dir, 'page')]);
    expect((await readFile(join(dir, 'page-1.png'))).subarray(1, 4).toString('latin1')).toBe('PNG');

    const [audit] = await sqlRows<{ action: string; entity_label: string }>(
      server,
      `select action, entity_label from audit_logs where action = 'pec_dossier.summary' and entity_id = $1`,
      [String(file.id)],
    );
    expect(audit).toEqual({ action: 'pec_dossier.summary', entity_label: file.numero_dossier });

    // Stored with the file as a 'Récapitulatif' document, whose content is the PDF printed.
    const documents = await server.get(`/api/pec_documents?dossier=${encodeURIComponent(`/api/pec_dossiers/${file.id}`)}`, tokens.horizonAdmin);
    expect(documents.status, documents.text).toBe(200);
    const summary = documents.body.member.find((d: { kind: string }) => d.kind === 'summary');
    expect(summary).toMatchObject({ originalName: `recapitulatif-${file.numero_dossier}.pdf` });
    const stored = await fetch(`${server.url}${summary.contentUrl}`, { headers: { authorization: `Bearer ${tokens.horizonAdmin}` } });
    expect(Buffer.from(await stored.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('prints an optician’s frame and lenses with their LPP codes', async () => {
    const [file] = await sqlRows<{ id: number; code_lpp: string }>(
      server,
      `select d.id, e.monture_code_lpp as code_lpp from pec_dossiers d join optical_equipments e on e.dossier_id = d.id
       join holdings h on h.id = d.holding_id where h.name = 'Optique Riviera' and e.monture_code_lpp is not null order by d.id limit 1`,
    );
    const res = await print(file!.id, tokens.rivieraAdmin);
    expect(res.status).toBe(200);
    const { text } = await textOf(Buffer.from(await res.arrayBuffer()), 'optical');
    expect(text).toContain('Équipement optique');
    expect(text).toContain('Monture');
    expect(text).toContain(file!.code_lpp);
    expect(text).toContain('Œil droit (OD)');
  });

  it('answers 401 signed out, 404 to another organisation and for a file that does not exist', async () => {
    const file = await approvedAudioFile();
    expect((await print(file.id)).status).toBe(401);
    expect((await print(file.id, tokens.rivieraAdmin)).status).toBe(404);
    expect((await print(99_999_999, tokens.horizonAdmin)).status).toBe(404);
    expect((await print(file.id, tokens.readOnly)).status).toBe(200);
  });

  it('keeps one summary per file, the last printed, and only for who may add documents', async () => {
    const file = await approvedAudioFile();
    const summaries = async () =>
      sqlRows<{ id: number }>(server, `select id from pec_documents where dossier_id = $1 and kind = 'summary' order by id`, [file.id]);
    const before = await summaries();
    const printsBefore = (await sqlRows(server, `select 1 from audit_logs where action = 'pec_dossier.summary' and entity_id = $1`, [String(file.id)])).length;
    // Read-only staff print it for the patient; nothing is added to the file (they may not add documents).
    for (let i = 0; i < 3; i++) expect((await print(file.id, tokens.readOnly)).status).toBe(200);
    expect(await summaries()).toEqual(before);
    // Printed twice: the second replaces the first.
    expect((await print(file.id, tokens.horizonAdmin)).status).toBe(200);
    const [first] = await summaries();
    expect((await print(file.id, tokens.horizonAdmin)).status).toBe(200);
    const kept = await summaries();
    expect(kept).toHaveLength(1);
    expect(kept[0]!.id).not.toBe(first!.id);
    const chunks = await sqlRows(server, 'select 1 from pec_document_chunks where document_id = $1', [first!.id]);
    expect(chunks).toEqual([]);
    // Each print is audited, kept or not.
    const prints = await sqlRows(server, `select 1 from audit_logs where action = 'pec_dossier.summary' and entity_id = $1`, [String(file.id)]);
    expect(prints).toHaveLength(printsBefore + 5);
  });

  it('prints an archived file without touching its documents (an archived file is kept as it was)', async () => {
    const file = await approvedAudioFile();
    const documents = async () =>
      sqlRows<{ id: number; kind: string }>(server, `select id, kind from pec_documents where dossier_id = $1 order by id`, [file.id]);
    expect((await print(file.id, tokens.horizonAdmin)).status).toBe(200);
    const archive = await server.request('PATCH', `/api/pec_dossiers/${file.id}`, {
      token: tokens.horizonAdmin,
      headers: mergePatch,
      body: { archived: true, archiveReason: 'settled' },
    });
    expect(archive.status, archive.text).toBe(200);
    const before = await documents();
    expect(before.filter((d) => d.kind === 'summary')).toHaveLength(1);

    const printed = await print(file.id, tokens.horizonAdmin);
    expect(printed.status).toBe(200);
    expect(
      Buffer.from(await printed.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // Neither the previous summary replaced nor a new one added: the same documents, the same ids.
    expect(await documents()).toEqual(before);
    const [audit] = await sqlRows<{ changes: { kept: { after: boolean } } }>(
      server,
      `select changes from audit_logs where action = 'pec_dossier.summary' and entity_id = $1 order by id desc limit 1`,
      [String(file.id)],
    );
    expect(audit!.changes.kept).toEqual({ after: false });

    const restore = await server.request('PATCH', `/api/pec_dossiers/${file.id}`, {
      token: tokens.horizonAdmin,
      headers: mergePatch,
      body: { archived: false },
    });
    expect(restore.status, restore.text).toBe(200);
  });
});
