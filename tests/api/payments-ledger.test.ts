// Money counted once (issue 25): a statement is applied once and so is each of its lines (the example statement
// imported twice, an overlapping statement, two imports sent at the same moment, the database's own refusal), the
// payment history of a file (/api/pec_payments) with its tenancy and permissions, a manual payment cancelled with its
// reason, the accountant's exports, and the migration's backfill of the history on an existing database.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createBilledFile, startPecServer, type Refs } from './helpers/pec';
import {
  AMOUNTS_TO_CHECK_CONFLICT,
  cancelRefusalMessage,
  filePaymentKey,
  foldForKey,
  receivedLineKey,
  SAME_DAY_CONFLICT,
  STATEMENT_MESSAGES,
} from '#domain/payments';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

const EXAMPLE = new Uint8Array(readFileSync(new URL('../../docs/examples/releve-paiements.csv', import.meta.url)));
const OVERLAPPING = new Uint8Array(readFileSync(new URL('../../docs/examples/releve-paiements-chevauchant.csv', import.meta.url)));
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const frenchToday = today.split('-').reverse().join('/');

let serial = 0;
/** A reference no demo file uses. */
const ref = (kind: string) => `${kind}-L${++serial}-${Date.now().toString(36).toUpperCase()}`;

/** A billed file of Horizon's Paris Bastille centre (or `shop`) owing `partComplementaire` (robot fields set directly). */
const billedFile = (partComplementaire = 500, token = tokens.audio, shop?: string) => createBilledFile(server, refs, ref, { token, partComplementaire, shop });

/** Sends a statement as the body (text/csv). */
async function send(path: string, content: string | Uint8Array, token = tokens.horizonAdmin) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/ld+json', 'content-type': 'text/csv' },
    body: content as BodyInit,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}
const preview = (content: string | Uint8Array, token?: string) => send('/api/payment_statements/preview', content, token);
const apply = (content: string | Uint8Array, token?: string) => send('/api/payment_statements', content, token);
const undo = (id: number, token = tokens.horizonAdmin) =>
  server.request('POST', `/api/payment_statements/${id}/undo`, { token, body: { motif: 'Importé deux fois' } });

const HEADER = 'Date de paiement;Payeur;Référence;Montant;Libellé';
const csv = (...lines: string[]) => [HEADER, ...lines].join('\r\n');

const byInvoice = async (numBilling: string) => {
  const [row] = await server.database.query<{ id: number }>('select id from pec_dossiers where num_billing = $1', [numBilling]);
  return row!.id;
};
const paymentState = async (id: number, token = tokens.horizonAdmin) => {
  const res = await server.get(`/api/pec_dossiers/${id}`, token);
  expect(res.status, res.text).toBe(200);
  const { status, montantPaye, datePaiement, paiementPartiel, montantDu } = res.body;
  return { status, montantPaye, datePaiement, paiementPartiel, montantDu };
};
const count = async (table: string, where = 'true') =>
  Number((await server.database.query<{ n: string }>(`select count(*) as n from ${table} where ${where}`))[0]!.n);
/** Every file's stored amount paid against the sum of its payments that count: the rows where they differ. */
const disagreements = () =>
  server.database.query<{ id: number }>(
    `select d.id from pec_dossiers d left join (select dossier_id, sum(amount) as paid, max(payment_date) as last from pec_payments
       where reversed_at is null group by dossier_id) p on p.dossier_id = d.id
     where d.montant_paye is distinct from p.paid or (p.paid is not null and d.date_paiement is distinct from p.last)`,
  );
const history = async (id: number, token = tokens.horizonAdmin) => {
  const res = await server.get(`/api/pec_payments?dossier=/api/pec_dossiers/${id}`, token);
  expect(res.status, res.text).toBe(200);
  return res.body.member as JsonBody[];
};
const manualPayment = (id: number, body: unknown, token = tokens.audio) => server.request('POST', `/api/pec_dossiers/${id}/payments`, { token, body });
const cancel = (paymentId: number, body: unknown, token = tokens.audio) => server.request('POST', `/api/pec_payments/${paymentId}/cancel`, { token, body });

/** The hand-written statements of a migration (its backfill), as the migrator runs them; drizzle-kit's after it left out. */
function handWritten(migration: string) {
  const sql = readFileSync(new URL(`../../server/db/migrations/${migration}`, import.meta.url), 'utf8');
  const start = sql.indexOf('-- ==================== Hand-written');
  const end = sql.indexOf('-- ==================== End of the hand-written block');
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return sql
    .slice(start, end)
    .split('--> statement-breakpoint')
    .filter((s) => s.replace(/--.*$/gm, '').trim());
}

const MIGRATION_0037 = readdirSync(new URL('../../server/db/migrations/', import.meta.url)).find((f) => f.startsWith('0037_'))!;

const EXAMPLE_FILES = ['FAC-DEMO-0001', 'FAC-DEMO-0002', 'FAC-DEMO-0003', 'FAC-DEMO-0004', 'FAC-DEMO-0006', 'FAC-DEMO-0007'];
const statesOf = async (invoices: string[]) => Promise.all(invoices.map(async (n) => [n, await paymentState(await byInvoice(n))] as const));

// First, on the demo data as it comes: the other tests cancel payments, which a database before migration 0019 never did.
describe('existing databases', () => {
  it('migration 0019 backfills the history of statements, manual payments and amounts recorded before it', async () => {
    const backfill = handWritten('0019_payments_ledger.sql');

    // A database as it was before: statements applied (one of them twice, the bug), one undone, manual payments
    // audited, amounts set without a trace; no history, no fingerprints.
    const accents = await billedFile(900);
    const statementCsv = csv(`06/11/2026;Mutuelle  Générale;${accents.numPec};400,00;Réglé`);
    const applied = await apply(statementCsv);
    expect(applied.status, applied.text).toBe(201);
    const undone = await apply(csv(`07/11/2026;Allianz;${accents.numPec};50,00;`));
    expect((await undo(undone.body.id)).status).toBe(200);
    const manual = await billedFile(300);
    expect((await manualPayment(manual.id, { datePaiement: '08/11/2026', montant: 120, libelle: 'Chèque' })).status).toBe(200);
    const stateBefore = await Promise.all([accents.id, manual.id].map((id) => paymentState(id)));
    const legacyTwin = await server.database.query<{ id: number }>(
      `insert into payment_statements (holding_id, payer, status, lines_count, total_amount, applied_amount, created_at)
       select holding_id, payer, status, lines_count, total_amount, applied_amount, created_at + interval '1 minute' from payment_statements where id = $1
       returning id`,
      [applied.body.id],
    );
    await server.database.query(
      `insert into payment_statement_lines (statement_id, holding_id, line_number, payment_date, payer, reference, amount, label, dossier_id, outcome)
       select $2, holding_id, line_number, payment_date, payer, reference, amount, label, dossier_id, outcome from payment_statement_lines where statement_id = $1`,
      [applied.body.id, legacyTwin[0]!.id],
    );
    await server.database.query(`update pec_dossiers set montant_paye = montant_paye + 400 where id = $1`, [accents.id]);
    const counted = await server.database.query<{ id: number; montant_paye: string | null }>(
      'select id, montant_paye from pec_dossiers where montant_paye is not null order by id',
    );
    await server.database.query('delete from pec_payments');
    await server.database.query('update payment_statements set content_hash = null');

    for (const statement of backfill) await server.database.query(statement);

    // Every file's amount paid is the sum of its history again, and no amount changed.
    expect(await disagreements()).toEqual([]);
    expect(await server.database.query('select id, montant_paye from pec_dossiers where montant_paye is not null order by id')).toEqual(counted);
    const rows = await server.database.query<{ dossier_id: number; source: string; amount: string; label: string | null; reversed: boolean; keyed: boolean }>(
      `select dossier_id, source, amount::text, label, reversed_at is not null as reversed, line_key is not null as keyed from pec_payments
        where dossier_id in ($1, $2) order by dossier_id, id`,
      [accents.id, manual.id],
    );
    expect(rows.map((r) => [r.dossier_id, r.source, r.amount, r.label, r.reversed, r.keyed])).toEqual([
      [accents.id, 'statement', '400.00', 'Réglé', false, true],
      [accents.id, 'statement', '50.00', null, true, true],
      // The twin's line counts, as the file counted it, without a key.
      [accents.id, 'statement', '400.00', 'Réglé', false, false],
      [manual.id, 'manual', '120.00', 'Chèque', false, false],
    ]);
    expect(await Promise.all([manual.id].map((id) => paymentState(id)))).toEqual([stateBefore[1]]);
    // The demo's paid files hold their amount as one payment recorded before the history.
    expect(await count('pec_payments', `label = 'Paiement enregistré avant l''historique des paiements'`)).toBeGreaterThan(10);

    // The keys and fingerprints computed in SQL are the server's (the line keys and fingerprints as migrations 0035 and
    // 0037 compute them since): the statement is recognised, and its line too.
    for (const statement of handWritten('0035_statement_line_keys.sql')) await server.database.query(statement);
    for (const statement of handWritten(MIGRATION_0037)) await server.database.query(statement);
    const again = await preview(statementCsv);
    expect(again.body.alreadyImported).toMatchObject({ id: applied.body.id });
    expect(again.body.lines[0].outcome).toBe('already_applied');
    expect((await apply(statementCsv)).status).toBe(409);
    const [twin] = await server.database.query<{ content_hash: string | null }>('select content_hash from payment_statements where id = $1', [
      legacyTwin[0]!.id,
    ]);
    expect(twin!.content_hash).toBeNull();
  });
});

describe('a statement is applied once', () => {
  it('the example statement applied twice changes nothing the second time, and its preview says so; undone, it applies again alike', async () => {
    expect(await disagreements()).toEqual([]);
    const first = await apply(EXAMPLE);
    expect(first.status, first.text).toBe(201);
    const id = first.body.id as number;
    const afterFirst = await statesOf(EXAMPLE_FILES);
    expect(Object.fromEntries(afterFirst)['FAC-DEMO-0002']).toMatchObject({ status: 'billed', montantPaye: 1000, montantDu: 220, paiementPartiel: true });
    const payments = await count('pec_payments');
    const statements = await count('payment_statements');

    const again = await preview(EXAMPLE);
    expect(again.status, again.text).toBe(200);
    expect(again.body.alreadyImported).toMatchObject({ '@id': `/api/payment_statements/${id}`, id, linesCount: 8 });
    expect(again.body.alreadyImported.message).toBe(`Relevé déjà importé le ${frenchToday} (8 lignes)`);
    expect(again.body.lines.map((l: JsonBody) => l.outcome)).toEqual([
      'already_applied',
      'already_applied',
      'already_applied',
      // FAC-DEMO-0004, paid by its payments, was over-paid by the first application: that line too is applied.
      'already_applied',
      // The lines that reached no file were received by the first: they are to be handled there, not twice.
      'already_applied',
      'already_applied',
      'already_applied',
      'already_applied',
    ]);
    expect(again.body.lines[1]).toMatchObject({
      outcomeLabel: `Déjà appliquée (relevé n° ${id} du ${frenchToday})`,
      appliedIn: { '@id': `/api/payment_statements/${id}`, id },
      difference: null,
    });
    expect(again.body.lines[5]).toMatchObject({
      outcomeLabel: `Déjà reçue (relevé n° ${id} du ${frenchToday})`,
      appliedIn: { id },
      dossier: null,
    });
    expect(again.body.totals.applied).toBe(0);
    expect(again.body.totals.pending).toEqual({ count: 0, amount: 0 });

    const refused = await apply(EXAMPLE);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(`Relevé déjà importé le ${frenchToday} (8 lignes). Annulez d’abord le relevé importé pour l’appliquer à nouveau.`);
    expect(await count('pec_payments')).toBe(payments);
    expect(await count('payment_statements')).toBe(statements);
    expect(await statesOf(EXAMPLE_FILES)).toEqual(afterFirst);

    // Undone, then applied again: the same totals, the same files.
    const undone = await undo(id);
    expect(undone.status, undone.text).toBe(200);
    const fresh = await preview(EXAMPLE);
    expect(fresh.body.alreadyImported).toBeNull();
    expect(fresh.body.lines.map((l: JsonBody) => l.outcome)).toEqual(['paid', 'partial', 'overpaid', 'overpaid', 'not_billed', 'unknown', 'partial', 'paid']);
    const second = await apply(EXAMPLE);
    expect(second.status, second.text).toBe(201);
    expect(second.body.totals).toEqual(first.body.totals);
    expect(second.body).toMatchObject({ totalAmount: first.body.totalAmount, appliedAmount: first.body.appliedAmount });
    expect(await statesOf(EXAMPLE_FILES)).toEqual(afterFirst);
    // The first statement's payments stay in the history, cancelled; the second's count.
    const file2 = await history(await byInvoice('FAC-DEMO-0002'));
    expect(file2.filter((p) => p.source === 'statement').map((p) => [p.paymentStatement, p.amount, !!p.reversedAt, p.reversalReason])).toEqual([
      [`/api/payment_statements/${id}`, 1000, true, 'Relevé annulé : Importé deux fois'],
      [`/api/payment_statements/${second.body.id}`, 1000, false, null],
    ]);
    expect(await disagreements()).toEqual([]);
    expect((await undo(second.body.id)).status).toBe(200);
  });

  it('a line repeated in an overlapping statement is already applied, not counted; the new lines are', async () => {
    const first = await apply(EXAMPLE);
    expect(first.status, first.text).toBe(201);
    const file2 = await byInvoice('FAC-DEMO-0002');
    const file7 = await byInvoice('FAC-DEMO-0007');
    const before7 = await paymentState(file7);
    expect(before7).toMatchObject({ status: 'billed', paiementPartiel: true, montantPaye: 660, montantDu: 660 });

    const overlap = await preview(OVERLAPPING);
    expect(overlap.status, overlap.text).toBe(200);
    expect(overlap.body.alreadyImported).toBeNull();
    expect(overlap.body).toMatchObject({ reference: '2026-48', period: '18/11/2026 - 25/11/2026' });
    expect(overlap.body.lines.map((l: JsonBody) => [l.reference, l.outcome, l.difference])).toEqual([
      ['FAC-DEMO-0002', 'already_applied', null],
      ['FAC-DEMO-0002', 'paid', null],
      ['FAC-DEMO-0007', 'paid', null],
    ]);
    expect(overlap.body.lines[0].outcomeLabel).toBe(`Déjà appliquée (relevé n° ${first.body.id} du ${frenchToday})`);
    expect(overlap.body.totals).toMatchObject({ lines: 3, amount: 1880, applied: 880 });
    expect(overlap.body.totals.byOutcome.already_applied).toEqual({ count: 1, amount: 1000 });

    const applied = await apply(OVERLAPPING);
    expect(applied.status, applied.text).toBe(201);
    expect(applied.body).toMatchObject({ reference: '2026-48', period: '18/11/2026 - 25/11/2026', appliedAmount: 880 });
    expect(applied.body.lines[0]).toMatchObject({ outcome: 'already_applied', appliedIn: { id: first.body.id } });
    // 1 000 € once, then the balance: 1 220 € paid of 1 220 €, not 2 220 €.
    expect(await paymentState(file2)).toMatchObject({ status: 'paid', montantPaye: 1220, montantDu: 0, paiementPartiel: false });
    expect(await paymentState(file7)).toMatchObject({ status: 'paid', montantPaye: 1320, montantDu: 0 });
    expect((await history(file2)).filter((p) => !p.reversedAt).map((p) => p.amount)).toEqual([1000, 220]);

    // The same statement number of the same payer is the same statement, whatever its content.
    const renumbered = new TextDecoder().decode(OVERLAPPING).replace('220,00', '221,00');
    const sameNumber = await preview(renumbered);
    expect(sameNumber.body.alreadyImported).toMatchObject({ id: applied.body.id, message: `Relevé déjà importé le ${frenchToday} (3 lignes)` });
    expect((await apply(renumbered)).status).toBe(409);
    // Written otherwise by the insurer's next export: its payer in capitals, its number with a space.
    const rewritten = renumbered.replaceAll('Allianz', 'ALLIANZ').replaceAll(';2026-48;', ';2026 48;');
    expect((await preview(rewritten)).body.alreadyImported).toMatchObject({ id: applied.body.id });
    expect((await apply(rewritten)).status).toBe(409);

    // Undone latest first: the overlapping statement, then the example.
    expect((await undo(first.body.id)).status).toBe(409);
    expect((await undo(applied.body.id)).status).toBe(200);
    expect(await paymentState(file7)).toEqual(before7);
    expect((await undo(first.body.id)).status).toBe(200);
    expect(await disagreements()).toEqual([]);
  });

  it('a line repeated within one statement counts once', async () => {
    const f = await billedFile(900);
    const res = await apply(
      csv(
        `02/11/2026;MGEN;${f.numPec};300,00;Acompte`,
        `02/11/2026;mgen ;${f.numBilling.toLowerCase()};300;Acompte (doublon)`,
        `02/11/2026;MGEN;SANS-DOSSIER-${f.id};45,00;`,
        `02/11/2026;M.G.E.N.;sans-dossier-${f.id};45;`,
      ),
    );
    expect(res.status, res.text).toBe(201);
    const labels = [
      ['partial', 'Paiement partiel'],
      ['already_applied', 'Déjà appliquée (ligne 2 de ce relevé)'],
      ['unknown', 'Référence inconnue'],
      ['already_applied', 'Déjà reçue (ligne 4 de ce relevé)'],
    ];
    expect(res.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel])).toEqual(labels);
    expect(res.body).toMatchObject({ pendingLines: 1 });
    // The statement read again says the same.
    const stored = await server.get(`/api/payment_statements/${res.body.id}`, tokens.horizonAdmin);
    expect(stored.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel])).toEqual(labels);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 300, montantDu: 600 });
  });

  it('applied as previewed: refused (409, nothing written) when a payment recorded since changes what the preview said', async () => {
    const f = await billedFile(900);
    const body = csv(`04/11/2026;Harmonie;${f.numPec};300,00;`, `05/11/2026;Harmonie;${f.numPec};200,00;`);
    const seen = await preview(body);
    expect(seen.body.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect((await preview(body)).body.fingerprint).toBe(seen.body.fingerprint);
    // Typed by hand meanwhile: the first line would now be 'Déjà enregistrée', not the partial payment the preview showed.
    expect((await manualPayment(f.id, { datePaiement: '04/11/2026', montant: 300 })).status).toBe(200);
    const statements = await count('payment_statements');
    const refused = await send(`/api/payment_statements?apercu=${seen.body.fingerprint}`, body);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(STATEMENT_MESSAGES.previewChanged);
    expect(await count('payment_statements')).toBe(statements);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 300 });
    // A bad fingerprint is a 422; the fresh preview's applies, the file paid once for each transfer.
    expect((await send('/api/payment_statements?apercu=nimporte', body)).status).toBe(422);
    const fresh = await preview(body);
    expect(fresh.body.fingerprint).not.toBe(seen.body.fingerprint);
    const applied = await send(`/api/payment_statements?apercu=${fresh.body.fingerprint}`, body);
    expect(applied.status, applied.text).toBe(201);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 500, montantDu: 400 });
    expect(await disagreements()).toEqual([]);
  });

  it('two imports of the same statement sent at the same moment apply it once', async () => {
    const files = [await billedFile(400), await billedFile(600)];
    const body = csv(`03/11/2026;Harmonie;${files[0]!.numPec};400,00;`, `03/11/2026;Harmonie;${files[1]!.numPec};250,00;`);
    const statements = await count('payment_statements');
    const answers = await Promise.all([apply(body), apply(body), apply(body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.detail).toMatch(/^Relevé déjà importé le /);
    expect(await count('payment_statements')).toBe(statements + 1);
    expect(await count('pec_payments', `dossier_id in (${files[0]!.id}, ${files[1]!.id})`)).toBe(2);
    expect(await paymentState(files[0]!.id)).toMatchObject({ status: 'paid', montantPaye: 400 });
    expect(await paymentState(files[1]!.id)).toMatchObject({ status: 'billed', montantPaye: 250, montantDu: 350 });
  });

  it('a copy written with accents, another case or punctuation is the statement already imported, as an identical copy is', async () => {
    const f = await billedFile(800);
    const other = await billedFile(100);
    const original = csv(`13/11/2026;SANTECLAIR;${f.numPec};300,00;Virement`, `13/11/2026;SANTECLAIR;Inconnu-${f.id};12,50;`);
    const first = await apply(original);
    expect(first.status, first.text).toBe(201);
    const identical = await preview(original);
    expect(identical.body.alreadyImported).toMatchObject({ id: first.body.id, linesCount: 2 });

    // « Santéclair » for « SANTECLAIR », the references in lower case with spaces; another label, another line order.
    const copy = csv(`13/11/2026;Santé-Clair;inconnu ${f.id};12,50;`, `13/11/2026;Santéclair;${f.numPec.toLowerCase().replace(/-/g, ' ')};300,00;Réexport`);
    const seen = await preview(copy);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.alreadyImported).toEqual(identical.body.alreadyImported);
    const refused = await apply(copy);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe((await apply(original)).body.detail);
    expect(refused.body.detail).toBe(`Relevé déjà importé le ${frenchToday} (2 lignes). Annulez d’abord le relevé importé pour l’appliquer à nouveau.`);

    // A statement with one more line is another statement: its new line is applied, the others are copies.
    const more = await apply(`${copy}\r\n13/11/2026;Santéclair;${other.numPec};40,00;`);
    expect(more.status, more.text).toBe(201);
    expect(more.body.lines.map((l: JsonBody) => l.outcome)).toEqual(['already_applied', 'already_applied', 'partial']);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 300, montantDu: 500 });
  });

  it('the database itself refuses a second applied copy of a statement or of a line, whatever the application checks', async () => {
    const f = await billedFile(300);
    const res = await apply(csv(`04/11/2026;Harmonie;${f.numPec};100,00;`));
    expect(res.status, res.text).toBe(201);
    const [statement] = await server.database.query<{ holding_id: number; content_hash: string }>(
      'select holding_id, content_hash from payment_statements where id = $1',
      [res.body.id],
    );
    expect(statement!.content_hash).toMatch(/^[0-9a-f]{64}$/);
    const duplicate = server.database.query(
      `insert into payment_statements (holding_id, status, total_amount, applied_amount, content_hash) values ($1, 'applied', 100, 100, $2)`,
      [statement!.holding_id, statement!.content_hash],
    );
    await expect(duplicate).rejects.toMatchObject({ message: expect.stringContaining('payment_statements_applied_content_idx') });
    const [payment] = await server.database.query<JsonBody>('select * from pec_payments where statement_id = $1', [res.body.id]);
    const line = server.database.query(
      `insert into pec_payments (holding_id, dossier_id, payment_date, amount, source, line_key) values ($1, $2, $3, $4, 'statement', $5)`,
      [payment!.holding_id, payment!.dossier_id, '2026-11-04', 100, payment!.line_key],
    );
    await expect(line).rejects.toMatchObject({ message: expect.stringContaining('pec_payments_line_key_idx') });
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 100 });
  });
});

describe('the same payment written differently', () => {
  it('counts once a payment whose statements name its file by invoice number, PEC number or Pecflow ID, its payer written any way', async () => {
    const f = await billedFile(2920);
    const first = await apply(csv(`10/11/2026;Santéclair;${f.numBilling};1 000,00;Virement`));
    expect(first.status, first.text).toBe(201);

    const byPec = csv(`10/11/2026;SANTECLAIR;${f.numPec};1000;`, `12/11/2026;Santéclair;${f.numPec};500,00;`);
    const seen = await preview(byPec);
    expect(seen.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel])).toEqual([
      ['already_applied', `Déjà appliquée (relevé n° ${first.body.id} du ${frenchToday})`],
      ['partial', 'Paiement partiel'],
    ]);
    expect((await apply(byPec)).status).toBe(201);
    const byId = await apply(csv(`10/11/2026;Sante-Clair;${f.numeroDossier.toLowerCase()};1 000,00;`, `12/11/2026;Santéclair SAS;${f.numPec};500;`));
    expect(byId.status).toBe(422);
    expect(byId.body.detail).toBe('Toutes les lignes de ce relevé sont déjà appliquées ou reçues : rien à enregistrer.');

    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: 1500, montantDu: 1420, paiementPartiel: true });
    expect((await history(f.id)).map((p) => p.amount)).toEqual([1000, 500]);
    expect(await disagreements()).toEqual([]);
  });

  it('finds the file a reference names however it is written: spaces, punctuation, case (two files that read alike: ambiguous)', async () => {
    const f = await billedFile(600);
    const numPec = `SANTECLAIR-${Date.now()}${++serial}`;
    await server.database.query('update pec_dossiers set num_pec = $2 where id = $1', [f.id, numPec]);
    // « SANTECLAIR 972783118 » for SANTECLAIR-972783118, « pec 2026 000123 » for PEC-2026-000123, « FAC/L2/… ».
    const spaced = csv(
      `10/11/2026;Santéclair;${numPec.replace('-', ' ')};100,00;`,
      `11/11/2026;Santéclair;${f.numeroDossier.toLowerCase().replace(/-/g, ' ')};50,00;`,
      `12/11/2026;Santéclair;${f.numBilling.replace(/-/g, '/')};25;`,
    );
    const seen = await preview(spaced);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.lines.map((l: JsonBody) => [l.outcome, l.dossier?.id])).toEqual([
      ['partial', f.id],
      ['partial', f.id],
      ['partial', f.id],
    ]);
    const applied = await apply(spaced);
    expect(applied.status, applied.text).toBe(201);
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: 175, montantDu: 425, paiementPartiel: true });
    expect(await disagreements()).toEqual([]);

    // Two files whose invoice numbers differ only by their punctuation: a line naming either is to be handled.
    const [a, b] = [await billedFile(100), await billedFile(100)];
    const invoice = ref('AB');
    await server.database.query('update pec_dossiers set num_billing = $2 where id = $1', [a.id, invoice]);
    await server.database.query('update pec_dossiers set num_billing = $2 where id = $1', [b.id, invoice.replace(/-/g, ' ')]);
    const twins = await preview(csv(`12/11/2026;Santéclair;${invoice};100;`));
    expect(twins.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel, l.dossier])).toEqual([
      ['ambiguous', 'Référence ambiguë (plusieurs demandes)', null],
    ]);
  });

  it('folds a number in the database as the server does (pecflow_fold, the fold of the files’ numbers’ indexes)', async () => {
    const numbers = [
      'SANTECLAIR-972783118',
      'pec 2026 000123',
      'Santé-Clair',
      'Sante\u0301clair',
      'ŌŚȘ ōșř',
      'Straße',
      'ﬁ ½ ١٢٣',
      'İstanbul',
      '«\u00a0N°12\u202f»',
      '—',
    ];
    const folded = async (n: string) => (await server.database.query<{ folded: string }>('select pecflow_fold($1) as folded', [n]))[0]!.folded;
    expect(await Promise.all(numbers.map(folded))).toEqual(numbers.map(foldForKey));
    expect(foldForKey('ŌŚȘ ōșř')).toBe('OSSOSR');
  });

  it('counts once a line to be handled that a later statement brings again once its file is billed, or under its other number', async () => {
    const unplaced = async () => (await server.get('/api/pec_dossiers/stats', tokens.horizonAdmin)).body.unplacedPayments;
    const before = await unplaced();
    const f = await billedFile(700);
    const invoice = ref('FAC');
    await server.database.query(`update pec_dossiers set status = 'approved', num_billing = null, date_facturation_effective = null where id = $1`, [f.id]);
    // Not billed yet, named by its PEC number; and a reference no file has yet.
    const first = await apply(csv(`15/11/2026;Allianz;${f.numPec};300,00;`, `15/11/2026;Allianz;${invoice};400,00;`));
    expect(first.status, first.text).toBe(201);
    expect(first.body.lines.map((l: JsonBody) => l.outcome)).toEqual(['not_billed', 'unknown']);
    // Within one statement, the same payment under its two numbers: received once.
    const within = await preview(csv(`16/11/2026;Allianz;${f.numPec};10,00;`, `16/11/2026;ALLIANZ;${f.numeroDossier};10;`));
    expect(within.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel])).toEqual([
      ['not_billed', 'Pas encore facturé'],
      ['already_applied', 'Déjà reçue (ligne 2 de ce relevé)'],
    ]);
    expect(await unplaced()).toEqual({ count: before.count + 2, amount: before.amount + 700 });

    // Billed since with that invoice number: the same two lines again (by invoice number now) are received already.
    await server.database.query(`update pec_dossiers set status = 'billed', num_billing = $2, date_facturation_effective = '2026-11-10' where id = $1`, [
      f.id,
      invoice,
    ]);
    const again = csv(`15/11/2026;Allianz;${invoice};300,00;`, `15/11/2026;Allianz;${invoice};400,00;`, `17/11/2026;Allianz;${invoice};5,00;`);
    const seen = await preview(again);
    expect(seen.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel, l.dossier])).toEqual([
      ['already_applied', `Déjà reçue (relevé n° ${first.body.id} du ${frenchToday})`, null],
      ['already_applied', `Déjà reçue (relevé n° ${first.body.id} du ${frenchToday})`, null],
      ['partial', 'Paiement partiel', expect.objectContaining({ id: f.id })],
    ]);
    expect((await apply(again)).status).toBe(201);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 5 });
    // Still counted once, where it was received: attached there, it pays the file.
    expect(await unplaced()).toEqual({ count: before.count + 2, amount: before.amount + 700 });
    const attach = await server.request('POST', `/api/payment_statements/${first.body.id}/lines/3/attach`, {
      token: tokens.horizonAdmin,
      body: { dossier: f.id },
    });
    expect(attach.status, attach.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 405, montantDu: 295 });
    expect(await unplaced()).toEqual({ count: before.count + 1, amount: before.amount + 300 });
    expect(await disagreements()).toEqual([]);
  });

  it('takes a payment entered by hand as counted: the statement that lists it, and the same payment entered again', async () => {
    const f = await billedFile(710);
    expect((await manualPayment(f.id, { datePaiement: '25/11/2026', montant: 200, libelle: 'Virement Kalixia reçu' })).status).toBe(200);
    const again = await manualPayment(f.id, { datePaiement: '25/11/2026', montant: 200, libelle: 'Doublon' });
    expect(again.status).toBe(409);
    expect(again.body.detail.replace(/\s/g, ' ')).toBe(
      'Un paiement de 200,00 € du 25/11/2026 est déjà enregistré sur cette demande : voyez son historique des paiements.',
    );
    const statement = await apply(
      csv(`25/11/2026;Kalixia;${f.numBilling};200,00;`, `25/11/2026;Kalixia;${f.numBilling};200,00;Second virement`, `26/11/2026;Kalixia;${f.numPec};60;`),
    );
    expect(statement.status, statement.text).toBe(201);
    expect(statement.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel])).toEqual([
      ['already_applied', `Déjà enregistrée (paiement du 25/11/2026 saisi à la main le ${frenchToday})`],
      // The line repeated within the statement is one payment too.
      ['already_applied', 'Déjà appliquée (ligne 2 de ce relevé)'],
      ['partial', 'Paiement partiel'],
    ]);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 260, montantDu: 450 });
    // And a statement's payment is not entered again by hand.
    const typed = await manualPayment(f.id, { datePaiement: '26/11/2026', montant: 60, libelle: null });
    expect(typed.status).toBe(409);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 260 });
    expect(await disagreements()).toEqual([]);
  });

  it('keeps a payment entered by hand that a statement confirmed ("Déjà enregistrée") until that statement is undone', async () => {
    const f = await billedFile(710);
    expect((await manualPayment(f.id, { datePaiement: '25/11/2026', montant: 200, libelle: 'Virement Kalixia reçu' })).status).toBe(200);
    const manual = (await history(f.id)).find((p) => p.source === 'manual')!;
    // The statement lists that transfer, and a line that names no file (so it records something).
    const statement = await apply(csv(`25/11/2026;Kalixia;${f.numBilling};200,00;`, `25/11/2026;Kalixia;Inconnu-${f.id};15,00;`));
    expect(statement.status, statement.text).toBe(201);
    expect(statement.body.lines[0]).toMatchObject({
      outcome: 'already_applied',
      outcomeLabel: `Déjà enregistrée (paiement du 25/11/2026 saisi à la main le ${frenchToday})`,
    });

    // Cancelled, the 200 € would leave the file and the statement alike.
    const refused = await cancel(manual.id, { motif: 'Saisi par erreur' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail.replace(/\s/g, ' ')).toBe(
      `Annulation impossible : le relevé n° ${statement.body.id} du ${frenchToday} confirme ce paiement et ne l’a pas compté une seconde fois (« Déjà enregistrée »). Annulez d’abord ce relevé.`,
    );
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 200, montantDu: 510 });
    expect((await history(f.id)).find((p) => p.id === manual.id)?.reversedAt).toBeNull();

    // Once the statement is undone, the payment entered by hand is the office's to cancel.
    expect((await undo(statement.body.id)).status).toBe(200);
    const done = await cancel(manual.id, { motif: 'Saisi par erreur' });
    expect(done.status, done.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: null, status: 'billed' });
    expect(await disagreements()).toEqual([]);
  });

  it('migration 0037 gives the statements applied before it the fingerprint the server computes now, from their lines’ keys folded alike', async () => {
    const f = await billedFile(500);
    const body = csv(`14/11/2026;Mutuelle Générale;${f.numPec};200,00;`, `14/11/2026;Mutuelle Générale;Inconnu-${f.id};20,00;`);
    const first = await apply(body);
    expect(first.status, first.text).toBe(201);
    const stored = async () => {
      const [statement] = await server.database.query<{ content_hash: string | null }>('select content_hash from payment_statements where id = $1', [
        first.body.id,
      ]);
      const lines = await server.database.query<{ line_key: string | null }>(
        'select line_key from payment_statement_lines where statement_id = $1 order by line_number',
        [first.body.id],
      );
      return { hash: statement!.content_hash, keys: lines.map((l) => l.line_key) };
    };
    const computed = await stored();
    expect(computed.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(computed.keys).toEqual([
      receivedLineKey({ payer: 'Mutuelle Générale', reference: f.numPec, amount: 200, paymentDate: '2026-11-14' }),
      receivedLineKey({ payer: 'Mutuelle Générale', reference: `Inconnu-${f.id}`, amount: 20, paymentDate: '2026-11-14' }),
    ]);
    const copy = csv(`14/11/2026;MUTUELLE GENERALE;${f.numPec};200;`, `14/11/2026;Mutuelle générale;INCONNU-${f.id};20;`);

    // The database as before it: the fingerprints as migration 0019 computed them (spaces and ASCII case folded), the
    // lines' keys as migration 0035 did. A copy written otherwise was not the same statement then.
    await server.database.query(handWritten('0019_payments_ledger.sql').at(-1)!);
    await server.database.query(handWritten('0035_statement_line_keys.sql')[0]!);
    const before = await stored();
    expect(before.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(before.hash).not.toBe(computed.hash);
    expect((await preview(copy)).body.alreadyImported).toBeNull();

    for (const statement of handWritten(MIGRATION_0037)) await server.database.query(statement);
    expect(await stored()).toEqual(computed);
    expect((await preview(copy)).body.alreadyImported).toMatchObject({ id: first.body.id });
    expect((await apply(copy)).status).toBe(409);
  });

  it('migrations 0035 and 0036 key the payments and lines recorded before them as the server does, and leave a payment counted twice without a key', async () => {
    const f = await billedFile(900);
    const lines = [`06/11/2026;Mutuelle  Générale;${f.numPec};400,00;Réglé`, `06/11/2026;Mutuelle Générale;Inconnu-${f.id};30,00;`];
    const first = await apply(csv(...lines));
    expect(first.status, first.text).toBe(201);
    // A later statement that repeats the payment, and a line twice: their labels were worked out at each reading.
    const copies = await apply(
      csv(`06/11/2026;Mutuelle  Générale;${f.numPec};400,00;`, `07/11/2026;MGEN;${f.numPec};50,00;`, `07/11/2026;MGEN;${f.numPec};50;`),
    );
    expect(copies.status, copies.text).toBe(201);
    const labels = copies.body.lines.map((l: JsonBody) => l.outcomeLabel);
    expect(labels).toEqual([`Déjà appliquée (relevé n° ${first.body.id} du ${frenchToday})`, 'Paiement partiel', 'Déjà appliquée (ligne 3 de ce relevé)']);
    await server.database.query(`update payment_statement_lines set outcome_label = null where statement_id = $1`, [copies.body.id]);
    // As before it: the payment keyed with its reference, no line keys, and the same 400 € counted again by a
    // statement that named the file by its invoice number (the fault it closes).
    await server.database.query(`update pec_payments set line_key = upper(payer || '|' || reference) where statement_id = $1`, [first.body.id]);
    await server.database.query(`update payment_statement_lines set line_key = null where statement_id = $1`, [first.body.id]);
    const [twice] = await server.database.query<{ id: number }>(
      `insert into pec_payments (holding_id, dossier_id, payment_date, amount, source, payer, reference, line_key)
       select holding_id, dossier_id, payment_date, amount, source, 'MUTUELLE GENERALE', $2, 'MUTUELLE GENERALE|' || $2 from pec_payments
        where statement_id = $1 returning id`,
      [first.body.id, f.numBilling],
    );
    // And again by a statement whose payer named itself otherwise, keyed by its payer as migration 0035 left it.
    const [otherPayer] = await server.database.query<{ id: number }>(
      `insert into pec_payments (holding_id, dossier_id, payment_date, amount, source, payer, reference, line_key)
       select holding_id, dossier_id, payment_date, amount, source, 'MGEN SA', $2, 'MGENSA|40000|2026-11-06' from pec_payments
        where statement_id = $1 returning id`,
      [first.body.id, f.numPec],
    );
    await server.database.query(`update pec_dossiers set montant_paye = 1250, montant_du = 0 where id = $1`, [f.id]);

    for (const statement of handWritten('0035_statement_line_keys.sql')) await server.database.query(statement);
    for (const statement of handWritten('0036_payment_key_without_payer.sql')) await server.database.query(statement);
    expect((await server.get(`/api/payment_statements/${copies.body.id}`, tokens.horizonAdmin)).body.lines.map((l: JsonBody) => l.outcomeLabel)).toEqual(
      labels,
    );

    const keys = await server.database.query<{ id: number; line_key: string | null }>(
      'select id, line_key from pec_payments where dossier_id = $1 order by id',
      [f.id],
    );
    expect(keys.map((k) => k.line_key)).toEqual([
      filePaymentKey({ amount: 400, paymentDate: '2026-11-06' }),
      filePaymentKey({ amount: 50, paymentDate: '2026-11-07' }),
      null,
      null,
    ]);
    expect(keys.slice(2).map((k) => k.id)).toEqual([twice!.id, otherPayer!.id]);
    const lineKeys = await server.database.query<{ line_key: string }>(
      'select line_key from payment_statement_lines where statement_id = $1 order by line_number',
      [first.body.id],
    );
    expect(lineKeys.map((l) => l.line_key)).toEqual([
      receivedLineKey({ payer: 'Mutuelle  Générale', reference: f.numPec, amount: 400, paymentDate: '2026-11-06' }),
      receivedLineKey({ payer: 'Mutuelle Générale', reference: `Inconnu-${f.id}`, amount: 30, paymentDate: '2026-11-06' }),
    ]);
    // The server recognises both, however the next statement writes them.
    const again = await preview(csv(`06/11/2026;MUTUELLE GENERALE;${f.numBilling};400;`, `06/11/2026;mutuelle generale;INCONNU-${f.id};30;`));
    expect(again.body.lines.map((l: JsonBody) => [l.outcome, l.appliedIn?.id])).toEqual([
      ['already_applied', first.body.id],
      ['already_applied', first.body.id],
    ]);
  });
});

describe('a second payment of the same amount on the same day', () => {
  const countLine = (statement: number, line: number, body: unknown, token = tokens.horizonAdmin) =>
    server.request('POST', `/api/payment_statements/${statement}/lines/${line}/count`, { token, body });

  it('is recorded by hand once the office says what distinguishes it, once however many times it is sent', async () => {
    const f = await billedFile(2000);
    expect((await manualPayment(f.id, { datePaiement: '25/11/2026', montant: 730, libelle: 'Oreille droite' })).status).toBe(200);
    const twin = await manualPayment(f.id, { datePaiement: '25/11/2026', montant: 730, libelle: 'Oreille gauche' });
    expect(twin.status).toBe(409);
    expect(twin.body).toMatchObject({ conflict: SAME_DAY_CONFLICT, sameDayPayments: 1 });
    expect(twin.body.detail.replace(/\s/g, ' ')).toBe(
      'Un paiement de 730,00 € du 25/11/2026 est déjà enregistré sur cette demande : voyez son historique des paiements.',
    );
    // Said to be distinct without saying why: 422 on the reason, nothing recorded.
    const unexplained = await manualPayment(f.id, { datePaiement: '25/11/2026', montant: 730, paiementsDuJour: 1, motifDistinct: '  ' });
    expect(unexplained.status).toBe(422);
    expect(unexplained.body.violations).toEqual([{ propertyPath: 'motifDistinct', message: STATEMENT_MESSAGES.distinctReason }]);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 730 });

    // Sent twice at the same moment (a double click): one is recorded, the other finds two payments where it saw one.
    const second = {
      datePaiement: '25/11/2026',
      montant: 730,
      libelle: 'Oreille gauche',
      paiementsDuJour: 1,
      motifDistinct: 'Oreille gauche, second virement',
    };
    const answers = await Promise.all([manualPayment(f.id, second), manualPayment(f.id, second)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const late = answers.find((a) => a.status === 409)!;
    expect(late.body).toMatchObject({ conflict: SAME_DAY_CONFLICT, sameDayPayments: 2 });
    expect(late.body.detail.replace(/\s/g, ' ')).toBe(
      '2 paiements de 730,00 € du 25/11/2026 sont déjà enregistrés sur cette demande : voyez son historique des paiements.',
    );
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: 1460, montantDu: 540 });
    expect((await history(f.id)).map((p) => [p.amount, p.label, p.distinctReason])).toEqual([
      [730, 'Oreille droite', null],
      [730, 'Oreille gauche', 'Oreille gauche, second virement'],
    ]);
    const audit = await server.get(`/api/audit_logs?entity=pec_dossiers&entityId=${f.id}&action=pec_dossier.payment`, tokens.horizonAdmin);
    expect(audit.body.member.map((m: JsonBody) => m.changes.paiement.after.paiementDistinct).sort()).toEqual(['Oreille gauche, second virement', undefined]);

    // The insurer's statement lists both transfers: each line is one of the payments typed, nothing more is counted.
    const seen = await preview(csv(`25/11/2026;Kalixia;${f.numBilling};730,00;OD`, `25/11/2026;Kalixia;${f.numBilling};730,00;OG`));
    expect(seen.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel])).toEqual([
      ['already_applied', `Déjà enregistrée (paiement du 25/11/2026 saisi à la main le ${frenchToday})`],
      ['already_applied', `Déjà enregistrée (paiement du 25/11/2026 saisi à la main le ${frenchToday})`],
    ]);
    expect(await disagreements()).toEqual([]);
  });

  it('a statement line confirming one of two payments typed leaves either cancellable, not both', async () => {
    const f = await billedFile(2000);
    expect((await manualPayment(f.id, { datePaiement: '24/11/2026', montant: 730, libelle: 'Oreille droite' })).status).toBe(200);
    const distinct = { datePaiement: '24/11/2026', montant: 730, libelle: 'Oreille gauche', paiementsDuJour: 1, motifDistinct: 'Oreille gauche' };
    expect((await manualPayment(f.id, distinct)).status).toBe(200);
    const confirming = await apply(csv(`24/11/2026;Kalixia;${f.numBilling};730,00;OD`, `24/11/2026;Kalixia;Inconnu-${f.id};15,00;`));
    expect(confirming.status, confirming.text).toBe(201);
    expect(confirming.body.lines.map((l: JsonBody) => l.outcome)).toEqual(['already_applied', 'unknown']);
    // One line accounts for one of the two: either may be cancelled, which the history says before it is tried.
    const [right, left] = await history(f.id);
    expect([right!.cancelRefusal, left!.cancelRefusal]).toEqual([null, null]);
    expect((await cancel(left!.id, { motif: 'Saisi deux fois' })).status).toBe(200);
    // The one left is the line's payment: cancelled, the money would leave both.
    const kept = (await history(f.id)).find((p) => p.id === right!.id)!;
    expect(kept.cancelRefusal).toMatchObject({ rule: 'confirmedByStatement', statements: [{ id: confirming.body.id }] });
    const refused = await cancel(right!.id, { motif: 'Erreur' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(cancelRefusalMessage(kept.cancelRefusal));
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 730 });
    expect(await disagreements()).toEqual([]);
  });

  it('a payment typed after the statement that confirmed its twin stands for the line once the twin is cancelled', async () => {
    const f = await billedFile(2000);
    expect((await manualPayment(f.id, { datePaiement: '23/11/2026', montant: 150 })).status).toBe(200);
    const confirming = await apply(csv(`23/11/2026;Kalixia;${f.numBilling};150,00;`, `23/11/2026;Kalixia;Inconnu-${f.id};15,00;`));
    expect(confirming.body.lines.map((l: JsonBody) => l.outcome)).toEqual(['already_applied', 'unknown']);
    const later = { datePaiement: '23/11/2026', montant: 150, paiementsDuJour: 1, motifDistinct: 'Second virement' };
    expect((await manualPayment(f.id, later)).status).toBe(200);
    const [first, second] = await history(f.id);
    expect([first!.cancelRefusal, second!.cancelRefusal]).toEqual([null, null]);
    expect((await cancel(first!.id, { motif: 'Saisi deux fois' })).status).toBe(200);
    // The statement's line is now this payment's: cancelled, the insurer's 150 € would be counted nowhere.
    const kept = (await history(f.id)).find((p) => p.id === second!.id)!;
    expect(kept.cancelRefusal).toMatchObject({ rule: 'confirmedByStatement', statements: [{ id: confirming.body.id }] });
    expect((await cancel(second!.id, { motif: 'Erreur' })).status).toBe(409);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 150 });
    expect(await disagreements()).toEqual([]);
  });

  it('a statement line taken for one already counted is counted as a distinct payment with its reason, once, and undone with its statement', async () => {
    const f = await billedFile(1460);
    const other = await billedFile(300);
    const statement = await apply(csv(`20/11/2026;Santéclair;${f.numPec};730,00;Oreille droite`, `20/11/2026;Santéclair;${f.numPec};730,00;Oreille gauche`));
    expect(statement.status, statement.text).toBe(201);
    const id = statement.body.id as number;
    expect(statement.body.lines.map((l: JsonBody) => [l.line, l.outcome, l.outcomeLabel])).toEqual([
      [2, 'partial', 'Paiement partiel'],
      [3, 'already_applied', 'Déjà appliquée (ligne 2 de ce relevé)'],
    ]);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 730, montantDu: 730 });

    // Only a line taken for one already counted, with a reason, by who records payments of this organisation.
    expect((await countLine(id, 2, { motif: 'Oreille gauche' })).status).toBe(409);
    const unexplained = await countLine(id, 3, { motif: '' });
    expect(unexplained.status).toBe(422);
    expect(unexplained.body.violations).toEqual([{ propertyPath: 'motif', message: STATEMENT_MESSAGES.distinctReason }]);
    expect((await countLine(id, 3, { motif: 'Oreille gauche' }, tokens.rivieraAdmin)).status).toBe(404);
    expect((await countLine(id, 3, { motif: 'Oreille gauche' }, tokens.readOnly)).status).toBe(403);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 730 });

    // Counted twice at the same moment: once (the other told the line is handled already).
    const answers = await Promise.all([countLine(id, 3, { motif: 'Oreille gauche' }), countLine(id, 3, { motif: 'Oreille gauche' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.detail).toBe(STATEMENT_MESSAGES.lineResolved);
    const counted = answers.find((a) => a.status === 200)!.body;
    expect(counted.lines[1]).toMatchObject({
      outcome: 'paid',
      outcomeLabel: `Payé intégralement (paiement distinct compté le ${frenchToday} : Oreille gauche)`,
      resolution: 'counted',
      appliedIn: null,
    });
    expect(counted.totals).toMatchObject({ applied: 1460 });
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 1460, montantDu: 0 });
    expect((await history(f.id)).map((p) => [p.source, p.amount, p.distinctReason])).toEqual([
      ['statement', 730, null],
      ['statement', 730, 'Oreille gauche'],
    ]);
    const trail = await server.get(`/api/audit_logs?entity=payment_statements&entityId=${id}&action=payment_statement.line_count`, tokens.horizonAdmin);
    expect(trail.body.member.map((m: JsonBody) => [m.changes.ligne, m.changes.paiementDistinct])).toEqual([[3, 'Oreille gauche']]);

    // The same statement exported again with a new line: its two lines are the two payments, counted once each.
    const again = csv(
      `20/11/2026;Santéclair;${f.numPec};730,00;Oreille droite`,
      `20/11/2026;Santéclair;${f.numPec};730,00;Oreille gauche`,
      `21/11/2026;Santéclair;${other.numPec};100,00;`,
    );
    const seen = await preview(again);
    expect(seen.body.lines.map((l: JsonBody) => l.outcome)).toEqual(['already_applied', 'already_applied', 'partial']);
    // One line more than the file has such payments: each payment accounts for one line, the third repeats line 2.
    const thrice = await preview(
      csv(`20/11/2026;Santéclair;${f.numPec};730,00;`, `20/11/2026;Santéclair;${f.numPec};730,00;`, `20/11/2026;Santéclair;${f.numPec};730,00;`),
    );
    expect(thrice.body.lines.map((l: JsonBody) => l.outcomeLabel)).toEqual([
      `Déjà appliquée (relevé n° ${id} du ${frenchToday})`,
      `Déjà appliquée (relevé n° ${id} du ${frenchToday})`,
      'Déjà appliquée (ligne 2 de ce relevé)',
    ]);
    const second = await apply(again);
    expect(second.status, second.text).toBe(201);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 1460 });
    expect(await disagreements()).toEqual([]);

    // Undone (the later statement first), the statement takes its counted line with it.
    expect((await undo(second.body.id)).status).toBe(200);
    const undone = await undo(id);
    expect(undone.status, undone.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: null });
    expect((await history(f.id)).every((p) => p.reversedAt !== null)).toBe(true);
    expect((await countLine(id, 3, { motif: 'Oreille gauche' })).status).toBe(409);
    expect(await disagreements()).toEqual([]);
  });

  it('a line to be handled attached to a file that holds the same payment: refused, then attached as a distinct payment', async () => {
    const f = await billedFile(1460);
    expect((await manualPayment(f.id, { datePaiement: '20/11/2026', montant: 730, libelle: 'Oreille droite' })).status).toBe(200);
    const statement = await apply(csv(`20/11/2026;Santéclair;INCONNU-${f.id};730,00;Oreille gauche`));
    expect(statement.body.lines[0]).toMatchObject({ outcome: 'unknown' });
    const attach = (body: JsonBody) =>
      server.request('POST', `/api/payment_statements/${statement.body.id}/lines/2/attach`, { token: tokens.horizonAdmin, body: { dossier: f.id, ...body } });
    const refused = await attach({});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ conflict: SAME_DAY_CONFLICT, sameDayPayments: 1 });
    const attached = await attach({ paiementsDuJour: 1, motifDistinct: 'Oreille gauche' });
    expect(attached.status, attached.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 1460 });
    expect((await history(f.id)).map((p) => p.distinctReason)).toEqual([null, 'Oreille gauche']);
  });
});

describe('a file paid in full', () => {
  it('takes a new payment of a statement as an over-payment (Trop-perçu), applied and counted once', async () => {
    const f = await billedFile(500);
    const first = await apply(csv(`02/11/2026;Allianz;${f.numPec};500,00;Solde`));
    expect(first.status, first.text).toBe(201);
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 500, montantDu: 0 });

    // Another payment (a new line: another amount and day) on the paid file: applied, the excess shown.
    const second = csv(`05/11/2026;Allianz;${f.numPec};120,00;Deuxième virement`);
    const shown = await preview(second);
    expect(shown.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel, l.difference])).toEqual([['overpaid', 'Trop-perçu', 120]]);
    expect(shown.body.totals.applied).toBe(120);
    const applied = await apply(second);
    expect(applied.status, applied.text).toBe(201);
    expect(await paymentState(f.id)).toEqual({ status: 'paid', montantPaye: 620, datePaiement: '2026-11-05', paiementPartiel: false, montantDu: 0 });
    expect((await server.get(`/api/pec_dossiers?payment=overpaid&itemsPerPage=100`, tokens.horizonAdmin)).body.member.map((m: JsonBody) => m.id)).toContain(
      f.id,
    );
    expect((await history(f.id)).map((p: JsonBody) => p.amount).sort()).toEqual([120, 500]);
    expect(await disagreements()).toEqual([]);

    // The same line again is the same payment: not counted twice.
    const again = await preview(csv(`05/11/2026;Allianz;${f.numPec};120,00;Réexport`, `06/11/2026;Allianz;INCONNU-${f.id};10;`));
    expect(again.body.lines[0].outcome).toBe('already_applied');
    // Undone, the over-payment goes: the file is paid exactly again.
    expect((await undo(applied.body.id)).status).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 500, datePaiement: '2026-11-02', montantDu: 0 });
  });
});

describe('a manual payment', () => {
  it('far above what the file was to receive (a zero too many) is recorded only once confirmed; twice what it owes needs nothing', async () => {
    const f = await billedFile(1300);
    const typo = { datePaiement: '20/11/2026', montant: '130000,00', libelle: 'Virement' };
    const refused = await manualPayment(f.id, typo);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ conflict: AMOUNTS_TO_CHECK_CONFLICT, expected: 1300 });
    expect(refused.body.detail.replace(/\s/g, ' ')).toBe(
      '130 000,00 €, c’est très supérieur à ce que la demande devait recevoir (1 300,00 €) : vérifiez le montant, puis confirmez-le.',
    );
    expect(await history(f.id)).toEqual([]);
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: null });
    // A confirmation that is not a yes is a bad request, not a confirmation.
    const garbled = await manualPayment(f.id, { ...typo, montantVerifie: 'oui' });
    expect(garbled.status).toBe(422);
    expect(garbled.body.violations).toEqual([{ propertyPath: 'montantVerifie', message: 'Confirmation du montant invalide : montantVerifie=true attendu.' }]);

    // Confirmed: recorded once, the excess an over-payment.
    const confirmed = await manualPayment(f.id, { ...typo, montantVerifie: true });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 130000 });
    expect((await history(f.id)).map((p) => p.amount)).toEqual([130000]);

    // Exactly twice what a file was to receive is an over-payment to see, not a typo to confirm.
    const g = await billedFile(500);
    expect((await manualPayment(g.id, { datePaiement: '20/11/2026', montant: '1000,00' })).status).toBe(200);
  });

  it('a line attached to a file that was to receive far less is attached only once confirmed', async () => {
    const f = await billedFile(100);
    const statement = await apply(csv(`20/11/2026;Santéclair;INCONNU-${f.id};1300,00;Oreille droite`));
    expect(statement.body.lines[0]).toMatchObject({ outcome: 'unknown' });
    const attach = (body: JsonBody) =>
      server.request('POST', `/api/payment_statements/${statement.body.id}/lines/2/attach`, { token: tokens.horizonAdmin, body: { dossier: f.id, ...body } });
    const refused = await attach({});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ conflict: AMOUNTS_TO_CHECK_CONFLICT, expected: 100 });
    expect(await history(f.id)).toEqual([]);
    expect((await server.get(`/api/payment_statements/${statement.body.id}`, tokens.horizonAdmin)).body.lines[0]).toMatchObject({ resolution: null });
    const attached = await attach({ montantVerifie: true });
    expect(attached.status, attached.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 1300 });
    expect(await disagreements()).toEqual([]);
  });

  it('dated before the file’s invoice is refused (422, on its date, in French), writing nothing; the invoice day is accepted', async () => {
    const f = await billedFile(300);
    await server.database.query(`update pec_dossiers set date_billing = '2026-10-10' where id = $1`, [f.id]);
    const payments = await count('pec_payments', `dossier_id = ${f.id}`);
    const early = await manualPayment(f.id, { datePaiement: '2026-10-09', montant: '100,00' });
    expect(early.status, early.text).toBe(422);
    expect(early.body.violations).toEqual([
      expect.objectContaining({ propertyPath: 'datePaiement', message: 'La date de paiement ne peut pas précéder la date de facture (10/10/2026)' }),
    ]);
    expect(await count('pec_payments', `dossier_id = ${f.id}`)).toBe(payments);
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: null });
    const onTheDay = await manualPayment(f.id, { datePaiement: '2026-10-10', montant: '100,00' });
    expect(onTheDay.status, onTheDay.text).toBe(200);
    expect(onTheDay.body).toMatchObject({ montantPaye: 100, datePaiement: '2026-10-10', paiementPartiel: true });
  });
});

describe('the payment history of a file', () => {
  it('lists every payment; a manual one cancelled with its reason restores the amount due, stays in the history and is audited', async () => {
    const f = await billedFile(800);
    const statement = await apply(csv(`05/11/2026;Allianz;${f.numPec};300,00;Lot 7`), tokens.audio);
    expect(statement.status, statement.text).toBe(201);
    const paid = await manualPayment(f.id, { datePaiement: '12/11/2026', montant: '600,50', libelle: 'Chèque 881' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', montantPaye: 900.5, montantDu: 0 });

    const rows = await history(f.id, tokens.audio);
    expect(rows.map((p) => [p.source, p.paymentDate, p.amount, p.label, p.reversedAt])).toEqual([
      ['statement', '2026-11-05', 300, 'Lot 7', null],
      ['manual', '2026-11-12', 600.5, 'Chèque 881', null],
    ]);
    expect(rows[0]).toMatchObject({
      '@type': 'PecPayment',
      paymentStatement: `/api/payment_statements/${statement.body.id}`,
      payer: 'Allianz',
      reference: f.numPec,
    });
    expect(rows[1]).toMatchObject({
      dossier: { '@id': `/api/pec_dossiers/${f.id}`, numeroDossier: f.numeroDossier },
      createdBy: { firstName: expect.any(String) },
    });
    expect(rows[1]!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The over-payment shows in the list's filter.
    const overpaid = await server.get('/api/pec_dossiers?payment=overpaid&itemsPerPage=100', tokens.audio);
    expect(overpaid.body.member.map((m: JsonBody) => m.id)).toContain(f.id);

    const manual = rows[1]!;
    const done = await cancel(manual.id, { motif: 'Chèque sans provision' });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ '@id': manual['@id'], reversalReason: 'Chèque sans provision', reversedBy: { firstName: expect.any(String) } });
    expect(done.body.reversedAt).toBeTruthy();
    expect(await paymentState(f.id)).toEqual({ status: 'billed', montantPaye: 300, datePaiement: '2026-11-05', paiementPartiel: true, montantDu: 500 });
    const overpaidAfter = await server.get('/api/pec_dossiers?payment=overpaid&itemsPerPage=100', tokens.audio);
    expect(overpaidAfter.body.member.map((m: JsonBody) => m.id)).not.toContain(f.id);
    // The posted row still exists, reversed.
    const [row] = await server.database.query<{ amount: string; reversed_at: Date | null; reversal_reason: string }>(
      'select amount, reversed_at, reversal_reason from pec_payments where id = $1',
      [manual.id],
    );
    expect(row).toMatchObject({ reversal_reason: 'Chèque sans provision' });
    expect(row!.reversed_at).toBeTruthy();
    expect((await history(f.id)).map((p) => !!p.reversedAt)).toEqual([false, true]);
    // Audited: on the file with the payment and its reason, and on the payment.
    const trail = await server.get(`/api/pec_dossiers/${f.id}/history`, tokens.horizonAdmin);
    expect(trail.body.member.at(-1)).toMatchObject({
      action: 'pec_dossier.payment_cancel',
      changes: {
        status: { before: 'paid', after: 'billed' },
        montantDu: { before: 0, after: 500 },
        annulation: { after: { paiement: manual['@id'], montant: 600.5, date: '2026-11-12', motif: 'Chèque sans provision' } },
      },
    });
    const audit = await server.get(`/api/audit_logs?entity=pec_payments&entityId=${manual.id}`, tokens.horizonAdmin);
    expect(audit.body.member.map((m: JsonBody) => [m.action, m.changes.reversalReason.after])).toEqual([['pec_payment.cancel', 'Chèque sans provision']]);
    expect(await disagreements()).toEqual([]);
  });

  it('refuses bad input with a French 4xx and changes nothing', async () => {
    const f = await billedFile(700);
    expect((await manualPayment(f.id, { datePaiement: '10/11/2026', montant: 200 })).status).toBe(200);
    const statement = await apply(csv(`11/11/2026;MGEN;${f.numPec};100,00;`), tokens.audio);
    expect(statement.status, statement.text).toBe(201);
    const [manual, line] = await history(f.id);
    const state = await paymentState(f.id);
    const rows = await count('pec_payments');
    const reversed = await count('pec_payments', 'reversed_at is not null');

    const noReason = await cancel(manual!.id, {});
    expect(noReason.status).toBe(422);
    expect(noReason.body.violations).toEqual([{ propertyPath: 'motif', message: 'Le motif de l’annulation est requis' }]);
    expect((await cancel(manual!.id, { motif: '   ' })).body.violations).toEqual([{ propertyPath: 'motif', message: 'Le motif de l’annulation est requis' }]);
    // A reason that is no text is said so, not said missing.
    expect((await cancel(manual!.id, { motif: 5 })).body.violations).toEqual([{ propertyPath: 'motif', message: 'Texte attendu' }]);
    const unknown = await cancel(999999, { motif: 'Erreur' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('Paiement introuvable.');
    expect((await cancel(0, { motif: 'Erreur' })).status).toBe(404);
    const fromStatement = await cancel(line!.id, { motif: 'Erreur' });
    expect(fromStatement.status).toBe(409);
    expect(fromStatement.body.detail).toBe(
      `Ce paiement vient du relevé n° ${statement.body.id} : il ne s’annule qu’avec son relevé (Paiements, « Annuler le relevé »).`,
    );
    // A statement applied after the manual payment: undo it first.
    const later = await cancel(manual!.id, { motif: 'Erreur' });
    expect(later.status).toBe(409);
    expect(later.body.detail).toBe(
      `Annulation impossible : le relevé n° ${statement.body.id} a été appliqué à ce dossier depuis ce paiement. Annulez d’abord ce relevé.`,
    );
    expect(await paymentState(f.id)).toEqual(state);
    expect(await count('pec_payments')).toBe(rows);
    expect(await count('pec_payments', 'reversed_at is not null')).toBe(reversed);

    expect((await undo(statement.body.id, tokens.audio)).status).toBe(200);
    expect((await cancel(manual!.id, { motif: 'Saisi sur le mauvais dossier' })).status).toBe(200);
    const twice = await cancel(manual!.id, { motif: 'Encore' });
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe('Ce paiement a déjà été annulé.');
    const [again] = await server.database.query<{ reversal_reason: string }>('select reversal_reason from pec_payments where id = $1', [manual!.id]);
    expect(again!.reversal_reason).toBe('Saisi sur le mauvais dossier');
    expect(await paymentState(f.id)).toEqual({ status: 'billed', montantPaye: null, datePaiement: null, paiementPartiel: false, montantDu: null });
  });

  it('says with each payment whether its cancellation would be refused and why, by the rule the cancellation applies', async () => {
    const f = await billedFile(900);
    expect((await manualPayment(f.id, { datePaiement: '10/11/2026', montant: 200, libelle: 'Chèque 12' })).status).toBe(200);
    const [typed] = await history(f.id);
    expect(typed).toMatchObject({ source: 'manual', cancelRefusal: null });

    // A statement applied to the file since: the history says why, and the cancellation answers those very words.
    const statement = await apply(csv(`11/11/2026;MGEN;${f.numPec};100,00;`), tokens.audio);
    expect(statement.status, statement.text).toBe(201);
    const [blocked, line] = await history(f.id);
    expect(blocked).toMatchObject({ id: typed!.id, cancelRefusal: { rule: 'laterStatement', statements: [{ id: statement.body.id }] } });
    expect(line).toMatchObject({ source: 'statement', cancelRefusal: { rule: 'fromStatement', statements: [{ id: statement.body.id }] } });
    // The payment's own read says the same.
    expect((await server.get(`/api/pec_payments/${typed!.id}`, tokens.audio)).body.cancelRefusal).toEqual(blocked!.cancelRefusal);
    const refused = await cancel(typed!.id, { motif: 'Erreur' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(cancelRefusalMessage(blocked!.cancelRefusal));
    expect(refused.body.detail).toBe(
      `Annulation impossible : le relevé n° ${statement.body.id} a été appliqué à ce dossier depuis ce paiement. Annulez d’abord ce relevé.`,
    );
    expect((await cancel(line!.id, { motif: 'Erreur' })).body.detail).toBe(cancelRefusalMessage(line!.cancelRefusal));

    // The statement undone, the payment can be cancelled again; cancelled, it says so.
    expect((await undo(statement.body.id, tokens.audio)).status).toBe(200);
    expect((await history(f.id))[0]).toMatchObject({ id: typed!.id, cancelRefusal: null });
    const done = await cancel(typed!.id, { motif: 'Saisi deux fois' });
    expect(done.status, done.text).toBe(200);
    expect(done.body.cancelRefusal).toEqual({ rule: 'alreadyCancelled', statements: [] });
    expect(cancelRefusalMessage(done.body.cancelRefusal)).toBe('Ce paiement a déjà été annulé.');

    // A statement that found a payment typed by hand on its file ('Déjà enregistrée') holds it too, named with its day.
    expect((await manualPayment(f.id, { datePaiement: '12/11/2026', montant: 150 })).status).toBe(200);
    const kept = (await history(f.id)).find((p) => p.amount === 150)!;
    const confirming = await apply(csv(`12/11/2026;MGEN;${f.numBilling};150,00;`, `12/11/2026;MGEN;Inconnu-${f.id};15,00;`), tokens.audio);
    expect(confirming.status, confirming.text).toBe(201);
    const confirmed = (await history(f.id)).find((p) => p.id === kept.id)!;
    expect(confirmed.cancelRefusal).toMatchObject({ rule: 'confirmedByStatement', statements: [{ id: confirming.body.id, createdAt: expect.any(String) }] });
    const message = cancelRefusalMessage(confirmed.cancelRefusal);
    expect(message).toContain(`le relevé n° ${confirming.body.id} du ${frenchToday} confirme ce paiement`);
    expect((await cancel(kept.id, { motif: 'Erreur' })).body.detail).toBe(message);
    expect(await disagreements()).toEqual([]);
  });

  it('keeps the history within the file’s readers: another organisation 404, a read-only user reads but cannot cancel (403)', async () => {
    const f = await billedFile(500);
    expect((await manualPayment(f.id, { datePaiement: '10/11/2026', montant: 120 })).status).toBe(200);
    const [payment] = await history(f.id);
    const lyon = await billedFile(500, tokens.horizonAdmin, 'Horizon Lyon Part-Dieu');
    expect((await manualPayment(lyon.id, { datePaiement: '10/11/2026', montant: 80 }, tokens.horizonAdmin)).status).toBe(200);
    const [lyonPayment] = await history(lyon.id);

    // Another organisation: nothing listed, the payment does not exist, its cancellation neither.
    const riviera = await server.get(`/api/pec_payments?dossier=/api/pec_dossiers/${f.id}`, tokens.rivieraAdmin);
    expect(riviera.status).toBe(200);
    expect(riviera.body.member).toEqual([]);
    expect((await server.get(`/api/pec_payments/${payment!.id}`, tokens.rivieraAdmin)).status).toBe(404);
    const foreign = await cancel(payment!.id, { motif: 'Erreur' }, tokens.rivieraAdmin);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(f.numeroDossier);
    // A centre the user is not assigned to: the same.
    expect((await server.get(`/api/pec_payments/${lyonPayment!.id}`, tokens.audio)).status).toBe(404);
    expect((await server.get('/api/pec_payments?itemsPerPage=100', tokens.audio)).body.member.map((p: JsonBody) => p.id)).not.toContain(lyonPayment!.id);
    expect((await cancel(lyonPayment!.id, { motif: 'Erreur' })).status).toBe(404);

    // Read-only staff read the history (the file's read permission) but record nothing; nor do assistants.
    expect((await history(f.id, tokens.readOnly)).map((p) => p.id)).toEqual([payment!.id]);
    const readOnly = await cancel(payment!.id, { motif: 'Erreur' }, tokens.readOnly);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.detail).toMatch(/permission/);
    expect((await cancel(payment!.id, { motif: 'Erreur' }, tokens.assistant)).status).toBe(403);
    expect((await server.request('POST', '/api/pec_payments', { token: tokens.audio, body: { amount: 1 } })).status).toBe(404);
    expect((await server.request('DELETE', `/api/pec_payments/${payment!.id}`, { token: tokens.horizonAdmin })).status).toBe(404);
    expect(await paymentState(f.id)).toMatchObject({ montantPaye: 120, paiementPartiel: true });
    expect((await history(f.id))[0]!.reversedAt).toBeNull();
  });

  it('a file marked paid by hand stays paid when one of its payments is cancelled', async () => {
    const f = await billedFile(500);
    expect((await manualPayment(f.id, { datePaiement: '10/11/2026', montant: 100 }, tokens.horizonAdmin)).status).toBe(200);
    const marked = await server.request('PATCH', `/api/pec_dossiers/${f.id}`, {
      token: tokens.horizonAdmin,
      body: { status: 'paid' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toMatchObject({ status: 'paid', montantPaye: 100, paiementPartiel: false, montantDu: 0 });
    const [payment] = await history(f.id);
    expect((await cancel(payment!.id, { motif: 'Doublon' }, tokens.horizonAdmin)).status).toBe(200);
    expect(await paymentState(f.id)).toEqual({ status: 'paid', montantPaye: null, datePaiement: null, paiementPartiel: false, montantDu: null });
  });
});

/** A CSV answer's rows (no cell of these tests holds a semicolon). */
async function csvRows(path: string, token: string) {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = (await res.text()).replace(/^\uFEFF/, '');
  const [header, ...lines] = text.split('\r\n').filter(Boolean);
  const columns = header?.split(';') ?? [];
  return {
    status: res.status,
    headers: res.headers,
    text,
    columns,
    rows: lines.map((line) => Object.fromEntries(line.split(';').map((cell, i) => [columns[i]!, cell]))),
  };
}

describe('exports for the accountant', () => {
  it('the PEC export has the money columns and the prescriber', async () => {
    const [prescriber] = await server.database.query<{ id: number; civility: string; first_name: string; last_name: string; rpps: string }>(
      `select p.id, p.civility, p.first_name, p.last_name, p.rpps from prescribers p join holdings h on h.id = p.holding_id
        where h.name = 'Audition Horizon' order by p.id limit 1`,
    );
    const partial = await billedFile(1234.5);
    await server.database.query('update pec_dossiers set prescriber_id = $2 where id = $1', [partial.id, prescriber!.id]);
    expect((await manualPayment(partial.id, { datePaiement: '03/11/2026', montant: '1 000' })).status).toBe(200);
    expect((await manualPayment(partial.id, { datePaiement: '08/11/2026', montant: '34,50' })).status).toBe(200);
    const over = await billedFile(100);
    expect((await manualPayment(over.id, { datePaiement: '09/11/2026', montant: '130,25' })).status).toBe(200);
    const unpaid = await billedFile(80);

    const res = await csvRows('/api/pec_dossiers/export?status[]=billed&status[]=paid&order[createdAt]=desc', tokens.horizonAdmin);
    expect(res.status).toBe(200);
    const money = ['Montant attendu', 'Montant payé', 'Date du dernier paiement', 'Montant restant dû', 'Trop-perçu', 'Prescripteur', 'RPPS du prescripteur'];
    expect(res.columns.slice(res.columns.indexOf('Motif de refus') + 1, res.columns.indexOf('Motif de refus') + 1 + money.length)).toEqual(money);
    const row = (numero: string) => res.rows.find((r) => r['N° dossier'] === numero)!;
    expect(row(partial.numeroDossier)).toMatchObject({
      'Montant attendu': '1234,50',
      'Montant payé': '1034,50',
      'Date du dernier paiement': '08/11/2026',
      'Montant restant dû': '200,00',
      'Trop-perçu': '',
      Prescripteur: [prescriber!.civility, prescriber!.first_name, prescriber!.last_name].filter(Boolean).join(' '),
      'RPPS du prescripteur': prescriber!.rpps,
    });
    expect(row(over.numeroDossier)).toMatchObject({ 'Montant payé': '130,25', 'Montant restant dû': '0,00', 'Trop-perçu': '30,25', Prescripteur: '' });
    expect(row(unpaid.numeroDossier)).toMatchObject({
      'Montant attendu': '80,00',
      'Montant payé': '',
      'Date du dernier paiement': '',
      'Montant restant dû': '80,00',
    });
  });

  it('the receivables export: one line per billed file, in the dashboard’s age buckets, with what is still due', async () => {
    const daysAgo = (n: number) => {
      const d = new Date(`${today}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() - n);
      return d.toISOString().slice(0, 10);
    };
    const recent = await billedFile(400);
    await server.database.query('update pec_dossiers set date_facturation_effective = $2 where id = $1', [recent.id, daysAgo(10)]);
    expect((await manualPayment(recent.id, { datePaiement: today, montant: '150' })).status).toBe(200);
    const old = await billedFile(250);
    await server.database.query('update pec_dossiers set date_facturation_effective = $2 where id = $1', [old.id, daysAgo(95)]);

    const res = await csvRows('/api/pec_dossiers/receivables/export', tokens.horizonAdmin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="creances-${today}.csv"`);
    expect(res.columns).toEqual([
      'Ancienneté',
      'N° dossier',
      'Centre',
      'Mutuelle',
      'N° PEC',
      'N° facture',
      'Date de facturation',
      'Jours depuis la facturation',
      'Montant attendu',
      'Montant payé',
      'Date du dernier paiement',
      'Montant restant dû',
    ]);
    const row = (numero: string) => res.rows.find((r) => r['N° dossier'] === numero)!;
    expect(row(recent.numeroDossier)).toMatchObject({
      Ancienneté: 'Moins de 30 jours',
      Centre: 'Horizon Paris Bastille',
      'N° PEC': recent.numPec,
      'Jours depuis la facturation': '10',
      'Montant attendu': '400,00',
      'Montant payé': '150,00',
      'Date du dernier paiement': frenchToday,
      'Montant restant dû': '250,00',
    });
    expect(row(old.numeroDossier)).toMatchObject({ Ancienneté: 'Plus de 90 jours', 'Jours depuis la facturation': '95', 'Montant restant dû': '250,00' });

    // The same files and amounts as the dashboard's receivables, bucket by bucket.
    const stats = (await server.get('/api/pec_dossiers/stats', tokens.horizonAdmin)).body.receivables;
    expect(res.rows).toHaveLength(stats.count);
    const due = (rows: Record<string, string>[]) =>
      Math.round(rows.reduce((sum, r) => sum + Number(r['Montant restant dû']!.replace(',', '.')), 0) * 100) / 100;
    expect(due(res.rows)).toBe(stats.amount);
    const labels: Record<string, string> = {
      under30: 'Moins de 30 jours',
      from30to60: '30 à 60 jours',
      from60to90: '60 à 90 jours',
      over90: 'Plus de 90 jours',
    };
    for (const age of stats.byAge) {
      const inBucket = res.rows.filter((r) => r['Ancienneté'] === labels[age.key]);
      expect(inBucket.length, age.key).toBe(age.count);
      expect(due(inBucket), age.key).toBe(age.amount);
    }

    // A centre's staff export their centres; read-only staff may not export.
    const audio = await csvRows('/api/pec_dossiers/receivables/export', tokens.audio);
    expect(audio.status).toBe(200);
    for (const r of audio.rows) expect(['Horizon Paris Bastille', 'Horizon Boulogne']).toContain(r['Centre']);
    expect((await csvRows('/api/pec_dossiers/receivables/export', tokens.readOnly)).status).toBe(403);
    const trail = await server.get('/api/audit_logs?action=pec_dossier.receivables_export', tokens.horizonAdmin);
    expect(trail.body.member.map((m: JsonBody) => m.changes.count)).toContain(res.rows.length);
  });
});
