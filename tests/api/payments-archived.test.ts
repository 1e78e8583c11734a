// An archived file takes no new money (issue 25, domain/archive.ts takesNewMoney): a payment entered by hand, a statement
// line attached or counted in addition are refused (409, saying to restore the file first) and write nothing; a statement
// applied leaves a line naming it to be handled (« Demande archivée »), neither counted on the file nor lost. What takes
// money away or undoes stays possible on it: cancelling a payment, detaching a line, cancelling a statement, setting a
// line aside. Restored, the file takes money again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createBilledFile, startPecServer, type Refs } from './helpers/pec';
import { ARCHIVE_MESSAGES } from '#domain/archive';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

let serial = 0;
/** A reference no demo file uses. */
const ref = (kind: string) => `${kind}-A${++serial}-${Date.now().toString(36).toUpperCase()}`;

/** A billed file of Horizon owing `partComplementaire` (robot fields set directly). */
const billedFile = (partComplementaire = 500) => createBilledFile(server, refs, ref, { token: tokens.audio, partComplementaire });

const patch = (id: number, body: unknown) =>
  server.request('PATCH', `/api/pec_dossiers/${id}`, { token: tokens.horizonAdmin, body, headers: { 'content-type': 'application/merge-patch+json' } });
async function archive(id: number) {
  const res = await patch(id, { archived: true, archiveReason: 'duplicate' });
  expect(res.status, res.text).toBe(200);
}
async function restore(id: number) {
  const res = await patch(id, { archived: false });
  expect(res.status, res.text).toBe(200);
}

const HEADER = 'Date de paiement;Payeur;Référence;Montant;Libellé';
const csv = (...lines: string[]) => [HEADER, ...lines].join('\r\n');
const post = (path: string, content: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.audio}`, accept: 'application/ld+json', 'content-type': 'text/csv' },
    body: content,
  }).then(async (res) => ({ status: res.status, text: await res.text() }));
async function apply(content: string) {
  const res = await post('/api/payment_statements', content);
  expect(res.status, res.text).toBe(201);
  return JSON.parse(res.text) as JsonBody;
}

const pay = (id: number, montant: string, datePaiement = '05/11/2026') =>
  server.request('POST', `/api/pec_dossiers/${id}/payments`, { token: tokens.audio, body: { datePaiement, montant } });
const lineAction = (action: string, id: number, line: number, body?: unknown) =>
  server.request('POST', `/api/payment_statements/${id}/lines/${line}/${action}`, { token: tokens.audio, body });
const attach = (id: number, line: number, dossier: number) => lineAction('attach', id, line, { dossier: `/api/pec_dossiers/${dossier}` });
const lineOf = (statement: JsonBody, line: number) => statement.lines.find((l: JsonBody) => l.line === line);
const statement = async (id: number) => (await server.get(`/api/payment_statements/${id}`, tokens.audio)).body;

const paymentState = async (id: number) => {
  const res = await server.get(`/api/pec_dossiers/${id}`, tokens.audio);
  expect(res.status, res.text).toBe(200);
  const { status, montantPaye, paiementPartiel, montantDu } = res.body;
  return { status, montantPaye, paiementPartiel, montantDu };
};
const UNPAID = { status: 'billed', montantPaye: null, paiementPartiel: false, montantDu: null };
const payments = async (id: number) => {
  const res = await server.get(`/api/pec_payments?dossier=/api/pec_dossiers/${id}`, tokens.audio);
  expect(res.status, res.text).toBe(200);
  return res.body.member as JsonBody[];
};

describe('new money on an archived file', () => {
  it('refuses a payment entered by hand, writing nothing, until the file is restored', async () => {
    const f = await billedFile(500);
    await archive(f.id);
    const refused = await pay(f.id, '200');
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.detail).toBe(ARCHIVE_MESSAGES.newMoney(f.numeroDossier));
    expect(refused.body.detail).toContain('Restaurez la demande pour y compter un paiement.');
    expect(await payments(f.id)).toEqual([]);
    expect(await paymentState(f.id)).toEqual(UNPAID);

    await restore(f.id);
    const paid = await pay(f.id, '200');
    expect(paid.status, paid.text).toBe(200);
    expect(await paymentState(f.id)).toEqual({ status: 'billed', montantPaye: 200, paiementPartiel: true, montantDu: 300 });
  });

  it('leaves a statement line naming an archived file to be handled, in the preview and once applied; it is attached there only once the file is restored', async () => {
    const f = await billedFile(300);
    const other = await billedFile(300);
    await archive(f.id);
    const content = csv(`03/11/2026;Allianz;${f.numPec};300,00;`, `03/11/2026;Allianz;${other.numPec};100,00;`);
    const preview = await post('/api/payment_statements/preview', content);
    expect(preview.status, preview.text).toBe(200);
    const expectedLine = {
      outcome: 'archived',
      outcomeLabel: ARCHIVE_MESSAGES.lineOnArchived(f.numeroDossier),
      // The line says its file is archived: the screen holds what would add money there before anyone tries.
      dossier: { id: f.id, numeroDossier: f.numeroDossier, archived: true },
      difference: null,
    };
    expect(lineOf(JSON.parse(preview.text), 2)).toMatchObject(expectedLine);

    const s = await apply(content);
    expect(s).toMatchObject({ pendingLines: 1, appliedAmount: 100 });
    expect(lineOf(s, 2)).toMatchObject({ ...expectedLine, pending: true });
    expect(s.totals.byOutcome.archived).toEqual({ count: 1, amount: 300 });
    // Not counted on the archived file; the other file is paid as usual.
    expect(await paymentState(f.id)).toEqual(UNPAID);
    expect(await payments(f.id)).toEqual([]);
    expect(await paymentState(other.id)).toMatchObject({ status: 'billed', montantPaye: 100 });

    // Attached to the archived file by hand: refused the same way, nothing changed.
    const refused = await attach(s.id, 2, f.id);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.detail).toBe(ARCHIVE_MESSAGES.newMoney(f.numeroDossier));
    expect(lineOf(await statement(s.id), 2)).toMatchObject({ outcome: 'archived', pending: true });
    expect(await paymentState(f.id)).toEqual(UNPAID);

    await restore(f.id);
    const attached = await attach(s.id, 2, f.id);
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body).toMatchObject({ pendingLines: 0, appliedAmount: 400 });
    expect(lineOf(attached.body, 2)).toMatchObject({ outcome: 'paid', resolution: 'attached', pending: false });
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 300 });
  });

  it('refuses a line of unknown reference attached to an archived file, and a line counted in addition on one', async () => {
    const f = await billedFile(500);
    const first = await apply(csv(`03/11/2026;MGEN;${f.numPec};100,00;`));
    expect(lineOf(first, 2)).toMatchObject({ outcome: 'partial' });
    // The same payment again (two ears paid the same day) and a line the office will attach by hand.
    const again = await apply(csv(`03/11/2026;MGEN;${f.numPec};100,00;2e oreille`, `04/11/2026;MGEN;INCONNU-${f.id};50,00;`));
    expect(lineOf(again, 2)).toMatchObject({ outcome: 'already_applied', dossier: { id: f.id, archived: false } });
    expect(lineOf(again, 3)).toMatchObject({ outcome: 'unknown', pending: true });
    await archive(f.id);
    // The statement read again says the line's file is archived (its « Compter en plus » held on the screen).
    expect(lineOf(await statement(again.id), 2)).toMatchObject({ outcome: 'already_applied', dossier: { id: f.id, archived: true } });

    const attachRefused = await attach(again.id, 3, f.id);
    expect(attachRefused.status, attachRefused.text).toBe(409);
    expect(attachRefused.body.detail).toBe(ARCHIVE_MESSAGES.newMoney(f.numeroDossier));
    const countRefused = await lineAction('count', again.id, 2, { motif: 'Oreille gauche' });
    expect(countRefused.status, countRefused.text).toBe(409);
    expect(countRefused.body.detail).toBe(ARCHIVE_MESSAGES.newMoney(f.numeroDossier));
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: 100, montantDu: 400 });
    expect((await payments(f.id)).length).toBe(1);

    // Restored, the line says so and is counted in addition.
    await restore(f.id);
    expect(lineOf(await statement(again.id), 2)).toMatchObject({ dossier: { id: f.id, archived: false } });
    const counted = await lineAction('count', again.id, 2, { motif: 'Oreille gauche' });
    expect(counted.status, counted.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 200, montantDu: 300 });
  });
});

describe('corrections on an archived file', () => {
  it('cancels a payment, detaches a line, cancels a statement and sets a line aside: a mistake can always be undone', async () => {
    const f = await billedFile(500);
    const s1 = await apply(csv(`03/11/2026;MGEN;${f.numPec};100,00;`));
    const s2 = await apply(csv(`04/11/2026;MGEN;INCONNU-${f.id};150,00;`, `04/11/2026;MGEN;PERDU-${f.id};20,00;`));
    expect((await attach(s2.id, 2, f.id)).status).toBe(200);
    const manual = await pay(f.id, '50', '06/11/2026');
    expect(manual.status, manual.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: 300, montantDu: 200 });
    await archive(f.id);

    const manualId = (await payments(f.id)).find((p) => p.source === 'manual')!.id as number;
    const cancelled = await server.request('POST', `/api/pec_payments/${manualId}/cancel`, { token: tokens.audio, body: { motif: 'Saisi par erreur' } });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 250, montantDu: 250 });

    const detached = await lineAction('detach', s2.id, 2, { motif: 'Mauvaise demande' });
    expect(detached.status, detached.text).toBe(200);
    expect(lineOf(detached.body, 2)).toMatchObject({ outcome: 'unknown', pending: true });
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 100, montantDu: 400 });

    const dismissed = await lineAction('dismiss', s2.id, 3, { motif: 'Remboursé à la mutuelle' });
    expect(dismissed.status, dismissed.text).toBe(200);

    const undone = await server.request('POST', `/api/payment_statements/${s1.id}/undo`, { token: tokens.audio, body: { motif: 'Relevé en double' } });
    expect(undone.status, undone.text).toBe(200);
    expect(await paymentState(f.id)).toEqual(UNPAID);
    expect((await server.get(`/api/pec_dossiers/${f.id}`, tokens.audio)).body.archived).toBe(true);
  });
});
