// Payments reconciled (issue 15): a statement with every kind of line previewed (nothing written), applied (files
// paid, partial flag and amount due, totals) and undone (files back); the CSV variants portals export; tenancy,
// permissions, the manual payment, and the dashboard's receivables against the list they link to.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { SEEDED_ROLES, type SeededRoleKey } from '#domain/roles';
import { statementTemplate } from '#domain/payments';
import { createDossier, startPecServer, type Refs } from './helpers/pec';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

let serial = 0;
/** A reference no demo file uses. */
const ref = (kind: string) => `${kind}-T${++serial}-${Date.now().toString(36).toUpperCase()}`;

interface FileSetup {
  status?: string;
  partComplementaire?: number | null;
  numPec?: string;
  numBilling?: string;
  billedOn?: string;
}

/** A file of Horizon's Paris Bastille centre (or `shop`), put in the state a test needs (robot fields set directly). */
async function file(setup: FileSetup = {}, token = tokens.audio, shop = 'Horizon Paris Bastille'): Promise<{ id: number; numPec: string; numBilling: string }> {
  const created = await createDossier(server, token, refs, {}, shop);
  const numPec = setup.numPec ?? ref('PEC');
  const numBilling = setup.numBilling ?? ref('FAC');
  const status = setup.status ?? 'billed';
  await server.database.query(
    `update pec_dossiers set status = $2, num_pec = $3, num_billing = $4, part_complementaire = $5,
       statut_facturation = $6, date_facturation_effective = $7 where id = $1`,
    [
      created.id,
      status,
      numPec,
      numBilling,
      setup.partComplementaire === undefined ? 500 : setup.partComplementaire,
      status === 'billed' || status === 'paid',
      status === 'billed' || status === 'paid' ? (setup.billedOn ?? '2026-10-01') : null,
    ],
  );
  return { id: created.id, numPec, numBilling };
}

/** Sends a statement as the body (or as a multipart upload) with the bytes as they are. */
async function send(path: string, content: string | Uint8Array, token: string, options: { type?: string; multipart?: boolean } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/ld+json' };
  let body: BodyInit;
  if (options.multipart) {
    const form = new FormData();
    form.append('file', new Blob([content as BlobPart], { type: 'text/csv' }), 'releve.csv');
    body = form;
  } else {
    body = content as BodyInit;
    headers['content-type'] = options.type ?? 'text/csv';
  }
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

/** Today as a French reader says it (Paris): the day a statement is imported. */
const frenchToday = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());

const HEADER = 'Date de paiement;Payeur;Référence;Montant;Libellé';
const csv = (...lines: string[]) => [HEADER, ...lines].join('\r\n');

const paymentState = async (id: number) => {
  const res = await server.get(`/api/pec_dossiers/${id}`, tokens.audio);
  expect(res.status).toBe(200);
  const { status, montantPaye, datePaiement, paiementPartiel, montantDu } = res.body;
  return { status, montantPaye, datePaiement, paiementPartiel, montantDu };
};
const UNPAID = { montantPaye: null, datePaiement: null, paiementPartiel: false, montantDu: null };
const statementsCount = async () => Number((await server.database.query<{ n: string }>('select count(*) as n from payment_statements'))[0]!.n);

/** A statement with every kind of line. */
async function everyKind() {
  const full = await file({ partComplementaire: 500 });
  const partial = await file({ partComplementaire: 800 });
  const over = await file({ partComplementaire: 200 });
  const twice = await file({ partComplementaire: 600 });
  const paid = await file({ status: 'paid' });
  const approved = await file({ status: 'approved' });
  const elsewhere = await file({ partComplementaire: 300 }, tokens.rivieraAdmin, 'Riviera Nice Médecin');
  const body = csv(
    `02/11/2026;Allianz;${full.numPec};500,00;Lot 12`,
    `02/11/2026;Allianz;${partial.numPec};300,00;`,
    `02/11/2026;Allianz;${over.numPec.toLowerCase()};250;Trop versé`,
    `02/11/2026;Allianz;${twice.numBilling};400,00;Acompte`,
    `05/11/2026;Allianz;${twice.numBilling};200,00;Solde`,
    `02/11/2026;Allianz;${paid.numPec};100,00;`,
    `02/11/2026;Allianz;${approved.numPec};100,00;`,
    `02/11/2026;Allianz;${elsewhere.numPec};300,00;`,
    `02/11/2026;Allianz;INCONNU-42;1 234,56;`,
  );
  return { body, full, partial, over, twice, paid, approved, elsewhere };
}

/** 'Annuler le relevé' asks why. */
const UNDO = { motif: 'Relevé importé sur le mauvais compte' };

const outcomes = (res: { body: JsonBody }) => res.body.lines.map((l: JsonBody) => [l.line, l.outcome, l.outcomeLabel, l.difference]);

describe('a statement with every kind of line', () => {
  it('is previewed without writing anything, applied all at once, and undone as a whole', async () => {
    const s = await everyKind();
    const before = await statementsCount();

    const preview = await send('/api/payment_statements/preview', s.body, tokens.audio);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body['@type']).toBe('PaymentStatementPreview');
    expect(outcomes(preview)).toEqual([
      [2, 'paid', 'Payé intégralement', null],
      [3, 'partial', 'Paiement partiel', 500],
      [4, 'overpaid', 'Trop-perçu', 50],
      [5, 'partial', 'Paiement partiel', 200],
      [6, 'paid', 'Payé intégralement', null],
      [7, 'already_paid', 'Déjà payé', null],
      [8, 'not_billed', 'Pas encore facturé', null],
      // Another organisation's file is no file of the caller's.
      [9, 'unknown', 'Référence inconnue', null],
      [10, 'unknown', 'Référence inconnue', null],
    ]);
    expect(preview.body.lines[0].dossier.id).toBe(s.full.id);
    expect(preview.body.lines[7].dossier).toBeNull();
    expect(preview.body.lines[8].amount).toBe(1234.56);
    expect(preview.body.totals).toMatchObject({ lines: 9, amount: 3384.56, applied: 1650 });
    expect(preview.body.totals.byOutcome.partial).toEqual({ count: 2, amount: 700 });
    // Nothing written.
    expect(await statementsCount()).toBe(before);
    expect(await paymentState(s.full.id)).toEqual({ status: 'billed', ...UNPAID });

    const applied = await send('/api/payment_statements', s.body, tokens.audio);
    expect(applied.status, applied.text).toBe(201);
    expect(applied.body['@id']).toMatch(/^\/api\/payment_statements\/\d+$/);
    expect(applied.body).toMatchObject({ status: 'applied', payer: 'Allianz', linesCount: 9, totalAmount: 3384.56, appliedAmount: 1650 });
    expect(outcomes(applied)).toEqual(outcomes(preview));
    expect(applied.body.totals).toEqual(preview.body.totals);

    expect(await paymentState(s.full.id)).toEqual({ status: 'paid', montantPaye: 500, datePaiement: '2026-11-02', paiementPartiel: false, montantDu: 0 });
    expect(await paymentState(s.partial.id)).toEqual({ status: 'billed', montantPaye: 300, datePaiement: '2026-11-02', paiementPartiel: true, montantDu: 500 });
    expect(await paymentState(s.over.id)).toEqual({ status: 'paid', montantPaye: 250, datePaiement: '2026-11-02', paiementPartiel: false, montantDu: 0 });
    expect(await paymentState(s.twice.id)).toEqual({ status: 'paid', montantPaye: 600, datePaiement: '2026-11-05', paiementPartiel: false, montantDu: 0 });
    expect((await paymentState(s.approved.id)).status).toBe('approved');
    expect((await server.get(`/api/pec_dossiers/${s.elsewhere.id}`, tokens.rivieraAdmin)).body.status).toBe('billed');

    // Kept, listed and audited.
    const id = applied.body.id as number;
    const list = await server.get('/api/payment_statements', tokens.audio);
    expect(list.status).toBe(200);
    expect(list.body.member.map((m: JsonBody) => m.id)).toContain(id);
    const trail = await server.get(`/api/audit_logs?entity=payment_statements&entityId=${id}`, tokens.horizonAdmin);
    expect(trail.body.member.map((m: JsonBody) => m.action)).toEqual(['payment_statement.apply']);
    const history = await server.get(`/api/pec_dossiers/${s.partial.id}/history`, tokens.horizonAdmin);
    expect(history.body.member.at(-1)).toMatchObject({ action: 'pec_dossier.payment', changes: { paiementPartiel: { before: false, after: true } } });

    // Undone with its reason only: a posted payment is never withdrawn silently.
    for (const body of [undefined, { motif: '   ' }]) {
      const refused = await server.request('POST', `/api/payment_statements/${id}/undo`, { token: tokens.audio, body });
      expect(refused.status).toBe(422);
      expect(refused.body.violations).toEqual([{ propertyPath: 'motif', message: 'Le motif de l’annulation est requis' }]);
    }
    expect(await paymentState(s.full.id)).toMatchObject({ status: 'paid' });
    const undone = await server.request('POST', `/api/payment_statements/${id}/undo`, { token: tokens.audio, body: UNDO });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toMatchObject({ status: 'undone', undoReason: UNDO.motif });
    expect(undone.body.undoneAt).toBeTruthy();
    const undoTrail = await server.get(`/api/audit_logs?entity=payment_statements&entityId=${id}&action=payment_statement.undo`, tokens.horizonAdmin);
    expect(undoTrail.body.member[0].changes).toMatchObject({ motif: UNDO.motif });
    const fullHistory = await server.get(`/api/pec_payments?dossier=/api/pec_dossiers/${s.full.id}`, tokens.horizonAdmin);
    expect(fullHistory.body.member.map((p: JsonBody) => p.reversalReason)).toEqual([`Relevé annulé : ${UNDO.motif}`]);
    for (const f of [s.full, s.partial, s.over, s.twice]) expect(await paymentState(f.id)).toEqual({ status: 'billed', ...UNPAID });
    expect((await paymentState(s.paid.id)).status).toBe('paid');
    const again = await server.request('POST', `/api/payment_statements/${id}/undo`, { token: tokens.audio, body: UNDO });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Ce relevé a déjà été annulé.');
    // Its lines still say what they had done, as no longer in force.
    const kept = await server.get(`/api/payment_statements/${id}`, tokens.audio);
    expect(kept.body.undoable).toBe(false);
    expect(outcomes(kept).slice(0, 2)).toEqual([
      [2, 'paid', 'Annulée avec le relevé — était : Payé intégralement', null],
      // Nor a gap of its file any more.
      [3, 'partial', 'Annulée avec le relevé — était : Paiement partiel', null],
    ]);
  });

  it('refuses an undo that would overwrite a later payment, and changes nothing', async () => {
    const f = await file({ partComplementaire: 400 });
    const applied = await send('/api/payment_statements', csv(`03/11/2026;MGEN;${f.numPec};100,00;`), tokens.audio);
    expect(applied.status, applied.text).toBe(201);
    const manual = await server.request('POST', `/api/pec_dossiers/${f.id}/payments`, {
      token: tokens.audio,
      body: { datePaiement: '10/11/2026', montant: '300' },
    });
    expect(manual.status, manual.text).toBe(200);
    expect(manual.body).toMatchObject({ status: 'paid', montantPaye: 400, paiementPartiel: false });

    const refused = await server.request('POST', `/api/payment_statements/${applied.body.id}/undo`, { token: tokens.audio, body: UNDO });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('Annulation impossible');
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 400 });
    expect((await server.get(`/api/payment_statements/${applied.body.id}`, tokens.audio)).body.status).toBe('applied');
  });

  it('says plainly that a statement whose file was marked paid by hand since can no longer be undone', async () => {
    const f = await file({ partComplementaire: 500 });
    const applied = await send('/api/payment_statements', csv(`02/11/2026;Allianz;${f.numPec};200,00;`), tokens.audio);
    expect(applied.status, applied.text).toBe(201);
    const marked = await server.request('PATCH', `/api/pec_dossiers/${f.id}`, {
      token: tokens.audio,
      body: { status: 'paid' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(marked.status, marked.text).toBe(200);
    const refused = await server.request('POST', `/api/payment_statements/${applied.body.id}/undo`, { token: tokens.audio, body: UNDO });
    expect(refused.status).toBe(409);
    const { numeroDossier } = (await server.get(`/api/pec_dossiers/${f.id}`, tokens.audio)).body;
    expect(refused.body.detail).toBe(
      `Annulation impossible : ce dossier a été marqué « Payé » à la main depuis l’import (${numeroDossier}). « Payé » est un état final : ce relevé ne peut plus être annulé.`,
    );
  });

  it('names the later statements that block an undo (number, day, reference)', async () => {
    const f = await file({ partComplementaire: 400 });
    const first = await send('/api/payment_statements', csv(`03/11/2026;MGEN;${f.numPec};100,00;`), tokens.audio);
    expect(first.status, first.text).toBe(201);
    const second = await send(
      '/api/payment_statements',
      ['Date de paiement;Payeur;Référence;Montant;N° de relevé', `04/11/2026;MGEN;${f.numPec};50,00;R-${f.id}`].join('\r\n'),
      tokens.audio,
    );
    expect(second.status, second.text).toBe(201);
    const day = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());
    const numero = (await server.get(`/api/pec_dossiers/${f.id}`, tokens.audio)).body.numeroDossier;
    const refused = await server.request('POST', `/api/payment_statements/${first.body.id}/undo`, { token: tokens.audio, body: UNDO });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Annulation impossible : le paiement de ce dossier a changé depuis l’import (${numero}). Relevé appliqué depuis : n° ${second.body.id} du ${day} (réf. R-${f.id}). Annulez d’abord ce relevé.`,
    );
    // Undone latest first, the first one then undoes.
    expect((await server.request('POST', `/api/payment_statements/${second.body.id}/undo`, { token: tokens.audio, body: UNDO })).status).toBe(200);
    expect((await server.request('POST', `/api/payment_statements/${first.body.id}/undo`, { token: tokens.audio, body: UNDO })).status).toBe(200);
  });

  it('applies a statement that matches no billed file: its lines are to be handled, and nothing is paid', async () => {
    const before = await statementsCount();
    const unplacedBefore = (await server.get('/api/pec_dossiers/stats', tokens.audio)).body.unplacedPayments;
    const body = csv(`02/11/2026;Allianz;RIEN-DU-TOUT-${serial};10,00;`, `03/11/2026;Allianz;RIEN-NON-PLUS-${serial};290,00;`);
    const preview = await send('/api/payment_statements/preview', body, tokens.audio);
    expect(preview.body.totals).toMatchObject({ applied: 0, pending: { count: 2, amount: 300 } });
    const res = await send('/api/payment_statements', body, tokens.audio);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ appliedAmount: 0, pendingLines: 2 });
    expect(res.body.lines.map((l: JsonBody) => [l.outcome, l.pending])).toEqual([
      ['unknown', true],
      ['unknown', true],
    ]);
    expect(await statementsCount()).toBe(before + 1);
    expect((await server.get('/api/pec_dossiers/stats', tokens.audio)).body.unplacedPayments).toEqual({
      count: unplacedBefore.count + 2,
      amount: unplacedBefore.amount + 300,
    });
    // The same lines again, in a statement of their own: all received already, nothing to record.
    const again = await send('/api/payment_statements', csv(`03/11/2026;ALLIANZ;rien-non-plus-${serial};290;`), tokens.audio);
    expect(again.status).toBe(422);
    expect(again.body.detail).toBe('Toutes les lignes de ce relevé sont déjà appliquées ou reçues : rien à enregistrer.');
    expect(await statementsCount()).toBe(before + 1);
  });
});

describe('lines to be handled (« À traiter »)', () => {
  const attach = (id: number, line: number, dossier: unknown, token = tokens.audio) =>
    server.request('POST', `/api/payment_statements/${id}/lines/${line}/attach`, { token, body: { dossier } });
  const dismiss = (id: number, line: number, motif: unknown, token = tokens.audio) =>
    server.request('POST', `/api/payment_statements/${id}/lines/${line}/dismiss`, { token, body: { motif } });
  const unplaced = async () => (await server.get('/api/pec_dossiers/stats', tokens.audio)).body.unplacedPayments;
  const reopen = (id: number, line: number, token = tokens.audio) => server.request('POST', `/api/payment_statements/${id}/lines/${line}/reopen`, { token });
  const lineOf = (statement: JsonBody, line: number) => statement.lines.find((l: JsonBody) => l.line === line);
  const paymentsOf = async (dossierId: number) =>
    Number(
      (await server.database.query<{ n: string }>('select count(*) as n from pec_payments where dossier_id = $1 and reversed_at is null', [dossierId]))[0]!.n,
    );
  const listed = async (filter: string) => (await server.get(`/api/payment_statements?${filter}`, tokens.audio)).body.member.map((m: JsonBody) => m.id);

  it('counts them, attaches one to a billed file once (also sent twice at once), sets one aside with its reason, and undoes with the statement', async () => {
    const settled = await file({ partComplementaire: 100 });
    const approved = await file({ status: 'approved' });
    const target = await file({ partComplementaire: 300 });
    const other = await file({ partComplementaire: 500 });
    const unplacedBefore = await unplaced();
    const applied = await send(
      '/api/payment_statements',
      csv(
        `02/11/2026;Allianz;${settled.numPec};100,00;`,
        `02/11/2026;Allianz;INCONNU-${target.id};300,00;`,
        `02/11/2026;Allianz;${approved.numPec};80,00;`,
        `02/11/2026;Allianz;INCONNU-${other.id};50,00;`,
        `02/11/2026;Allianz;HORS-PECFLOW-${other.id};20,00;`,
      ),
      tokens.audio,
    );
    expect(applied.status, applied.text).toBe(201);
    const id = applied.body.id as number;
    expect(applied.body).toMatchObject({ pendingLines: 4, appliedAmount: 100 });
    expect(applied.body.totals.pending).toEqual({ count: 4, amount: 450 });
    // The dashboard's "Paiements reçus à rattacher" counts them, for who handles payments only.
    expect(await unplaced()).toEqual({ count: unplacedBefore.count + 4, amount: unplacedBefore.amount + 450 });
    expect((await server.get('/api/pec_dossiers/stats', tokens.assistant)).body.unplacedPayments).toBeNull();
    expect((await server.get('/api/pec_dossiers/stats', tokens.rivieraAdmin)).body.unplacedPayments).toEqual({ count: 0, amount: 0 });
    expect(applied.body.lines.map((l: JsonBody) => [l.line, l.pending])).toEqual([
      [2, false],
      [3, true],
      [4, true],
      [5, true],
      [6, true],
    ]);
    expect(await listed('aTraiter=true')).toContain(id);
    expect(await listed('aTraiter=false')).not.toContain(id);

    // A line applied already, a file of another organisation, a file not billed, a payment before the invoice: refused.
    expect((await attach(id, 2, `/api/pec_dossiers/${target.id}`)).status).toBe(409);
    const elsewhere = await file({}, tokens.rivieraAdmin, 'Riviera Nice Médecin');
    const foreign = await attach(id, 3, `/api/pec_dossiers/${elsewhere.id}`);
    expect(foreign.status).toBe(422);
    expect(foreign.body.violations).toEqual([{ propertyPath: 'dossier', message: 'Choisissez la demande facturée à laquelle rattacher ce paiement' }]);
    const notBilled = await attach(id, 4, `/api/pec_dossiers/${approved.id}`);
    expect(notBilled.status).toBe(422);
    expect(notBilled.body.violations[0]).toMatchObject({
      propertyPath: 'dossier',
      message: 'Seule une demande facturée et pas encore soldée peut recevoir un paiement.',
    });
    const late = await file({ partComplementaire: 300, billedOn: '2026-11-10' });
    expect((await attach(id, 3, `/api/pec_dossiers/${late.id}`)).body.violations[0].message).toBe(
      'Ce paiement est daté d’avant la facture de cette demande : choisissez une autre demande.',
    );
    expect((await attach(id, 3, 'pas un dossier')).status).toBe(422);
    expect(await paymentState(target.id)).toEqual({ status: 'billed', ...UNPAID });

    // Attached: a payment of the file from this statement, once.
    const attached = await attach(id, 3, `/api/pec_dossiers/${target.id}`);
    expect(attached.status, attached.text).toBe(200);
    const day = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());
    expect(lineOf(attached.body, 3)).toMatchObject({
      outcome: 'paid',
      outcomeLabel: `Payé intégralement (rattachée le ${day})`,
      resolution: 'attached',
      pending: false,
      dossier: { id: target.id },
    });
    expect(attached.body).toMatchObject({ pendingLines: 3, appliedAmount: 400 });
    expect(attached.body.totals.pending).toEqual({ count: 3, amount: 150 });
    expect(await unplaced()).toEqual({ count: unplacedBefore.count + 3, amount: unplacedBefore.amount + 150 });
    expect(await paymentState(target.id)).toEqual({ status: 'paid', montantPaye: 300, datePaiement: '2026-11-02', paiementPartiel: false, montantDu: 0 });
    const twice = await attach(id, 3, `/api/pec_dossiers/${other.id}`);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe('Cette ligne a déjà été traitée entre-temps (par un collègue, ou dans un autre onglet).');

    // The same line sent twice at the same moment (a double click, two tabs): one payment.
    const both = await Promise.all([attach(id, 5, `/api/pec_dossiers/${other.id}`), attach(id, 5, `/api/pec_dossiers/${other.id}`)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await paymentsOf(other.id)).toBe(1);
    expect(await paymentState(other.id)).toMatchObject({ status: 'billed', montantPaye: 50, paiementPartiel: true, montantDu: 450 });

    // Once the file is billed, the line that named it is attached to it.
    await server.database.query(
      `update pec_dossiers set status = 'billed', statut_facturation = true, date_facturation_effective = '2026-10-01', part_complementaire = 80 where id = $1`,
      [approved.id],
    );
    expect((await attach(id, 4, approved.id)).status).toBe(200);

    // Set aside with its reason.
    const noReason = await dismiss(id, 6, '  ');
    expect(noReason.status).toBe(422);
    expect(noReason.body.violations).toEqual([{ propertyPath: 'motif', message: 'Le motif est requis' }]);
    for (const token of [tokens.assistant, tokens.readOnly]) expect((await dismiss(id, 6, 'Remboursé', token)).status).toBe(403);
    expect((await dismiss(id, 6, 'Remboursé', tokens.rivieraAdmin)).status).toBe(404);
    const dismissed = await dismiss(id, 6, 'Remboursé à l’assureur');
    expect(dismissed.status, dismissed.text).toBe(200);
    expect(lineOf(dismissed.body, 6)).toMatchObject({
      outcome: 'unknown',
      outcomeLabel: 'Classée : Remboursé à l’assureur',
      resolution: 'dismissed',
      pending: false,
    });
    expect(dismissed.body).toMatchObject({ pendingLines: 0, appliedAmount: 530 });
    // Counted as set aside ('Classée'), no longer under the outcome that left it to be handled.
    expect(dismissed.body.totals).toMatchObject({ pending: { count: 0, amount: 0 }, dismissed: { count: 1, amount: 20 } });
    expect(dismissed.body.totals.byOutcome.unknown).toEqual({ count: 0, amount: 0 });
    expect(await listed('aTraiter=true')).not.toContain(id);
    expect((await attach(id, 99, target.id)).status).toBe(404);

    // Set aside by mistake: back to be handled (only a line set aside, by who may handle payments, of its organisation).
    for (const token of [tokens.assistant, tokens.readOnly]) expect((await reopen(id, 6, token)).status).toBe(403);
    expect((await reopen(id, 6, tokens.rivieraAdmin)).status).toBe(404);
    const notDismissed = await reopen(id, 3);
    expect(notDismissed.status).toBe(409);
    expect(notDismissed.body.detail).toBe('Seule une ligne classée peut être remise à traiter.');
    const reopened = await reopen(id, 6);
    expect(reopened.status, reopened.text).toBe(200);
    expect(lineOf(reopened.body, 6)).toMatchObject({ outcome: 'unknown', outcomeLabel: 'Référence inconnue', resolution: null, pending: true });
    // Again (another tab): it says the line is back already, not that only a line set aside may come back.
    const again = await reopen(id, 6);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Cette ligne a déjà été remise à traiter entre-temps (par un collègue, ou dans un autre onglet).');
    expect(reopened.body).toMatchObject({ pendingLines: 1, appliedAmount: 530 });
    expect(reopened.body.totals.pending).toEqual({ count: 1, amount: 20 });
    expect(reopened.body.totals.dismissed).toEqual({ count: 0, amount: 0 });
    expect(reopened.body.totals.byOutcome.unknown).toEqual({ count: 1, amount: 20 });
    expect(await listed('aTraiter=true')).toContain(id);
    expect((await reopen(id, 6)).status).toBe(409);
    expect((await dismiss(id, 6, 'Remboursé à l’assureur')).status).toBe(200);

    const trail = await server.get(`/api/audit_logs?entity=payment_statements&entityId=${id}`, tokens.horizonAdmin);
    expect(trail.body.member.map((m: JsonBody) => m.action).sort()).toEqual([
      'payment_statement.apply',
      'payment_statement.line_attach',
      'payment_statement.line_attach',
      'payment_statement.line_attach',
      'payment_statement.line_dismiss',
      'payment_statement.line_dismiss',
      'payment_statement.line_reopen',
    ]);
    const reopenEntry = trail.body.member.find((m: JsonBody) => m.action === 'payment_statement.line_reopen');
    expect(reopenEntry.changes).toMatchObject({ ligne: 6, motif: { before: 'Remboursé à l’assureur', after: null } });

    // Undone, its attached payments go with it; its lines are no longer to be handled.
    const undone = await server.request('POST', `/api/payment_statements/${id}/undo`, { token: tokens.audio, body: UNDO });
    expect(undone.status, undone.text).toBe(200);
    for (const f of [settled, target, other, approved]) expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: null });
    expect(undone.body.totals.pending).toEqual({ count: 0, amount: 0 });
    expect(await unplaced()).toEqual(unplacedBefore);
    expect((await dismiss(id, 6, 'Encore')).status).toBe(409);
    expect((await reopen(id, 6)).status).toBe(409);
  });

  it('leaves a payment dated before its file’s invoice to be handled, as Rattacher would refuse that file', async () => {
    const late = await file({ partComplementaire: 300, billedOn: '2026-11-10' });
    const earlier = await file({ partComplementaire: 300, billedOn: '2026-10-01' });
    const body = csv(`04/11/2026;Allianz;${late.numBilling};300,00;`, `10/11/2026;Allianz;${late.numPec};1,00;`);
    const preview = await send('/api/payment_statements/preview', body, tokens.audio);
    expect(preview.status, preview.text).toBe(200);
    // The invoice day counts: a payment on the day of the invoice is applied.
    expect(outcomes(preview)).toEqual([
      [2, 'before_invoice', 'Antérieur à la facture', null],
      [3, 'partial', 'Paiement partiel', 299],
    ]);
    expect(preview.body.totals.pending).toEqual({ count: 1, amount: 300 });

    const applied = await send('/api/payment_statements', body, tokens.audio);
    expect(applied.status, applied.text).toBe(201);
    expect(applied.body).toMatchObject({ pendingLines: 1, appliedAmount: 1 });
    expect(lineOf(applied.body, 2)).toMatchObject({ pending: true, dossier: { id: late.id } });
    expect(await paymentState(late.id)).toMatchObject({ montantPaye: 1, montantDu: 299 });
    expect((await attach(applied.body.id, 2, late.id)).body.violations[0].message).toBe(
      'Ce paiement est daté d’avant la facture de cette demande : choisissez une autre demande.',
    );
    const attached = await attach(applied.body.id, 2, earlier.id);
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body).toMatchObject({ pendingLines: 0, appliedAmount: 301 });
    expect(await paymentState(earlier.id)).toMatchObject({ status: 'paid', montantPaye: 300 });
  });

  it('names a reference two files carry as ambiguous, to be handled, and pays neither', async () => {
    // Two insurers may give one PEC number.
    const shared = ref('PEC');
    const [first, second] = [await file({ numPec: shared }), await file({ numPec: shared })];
    const other = await file({ partComplementaire: 10 });
    const applied = await send(
      '/api/payment_statements',
      csv(`02/11/2026;Allianz;${shared};100,00;`, `02/11/2026;Allianz;${other.numPec};10,00;`),
      tokens.audio,
    );
    expect(applied.status, applied.text).toBe(201);
    expect(outcomes(applied)).toEqual([
      [2, 'ambiguous', 'Référence ambiguë (plusieurs demandes)', null],
      [3, 'paid', 'Payé intégralement', null],
    ]);
    expect(applied.body).toMatchObject({ pendingLines: 1, appliedAmount: 10 });
    for (const f of [first, second]) expect(await paymentState(f.id)).toEqual({ status: 'billed', ...UNPAID });
    expect((await attach(applied.body.id, 2, second.id)).status).toBe(200);
    expect(await paymentState(second.id)).toMatchObject({ montantPaye: 100 });
  });

  it('counts a line that reached no file once: an overlapping statement brings it as received, neither to be handled nor attached again', async () => {
    const target = await file({ partComplementaire: 300 });
    const second = await file({ partComplementaire: 300 });
    const line = `03/11/2026;MGEN;INCONNU-BIS-${target.id};120,00;`;
    const waiting = `03/11/2026;MGEN;INCONNU-TER-${target.id};45,00;`;
    const first = await send('/api/payment_statements', csv(line, waiting, `03/11/2026;MGEN;${target.numPec};10,00;`), tokens.audio);
    expect(first.status, first.text).toBe(201);
    expect((await attach(first.body.id, 2, target.id)).status).toBe(200);
    const unplacedBefore = await unplaced();

    // The next statement repeats both (accents, case and spaces aside): received in the first, handled there.
    const overlap = csv(line.replace('MGEN', 'M.G.E.N.'), waiting.replace('INCONNU', 'inconnu'), `04/11/2026;MGEN;${target.numPec};20,00;`);
    const preview = await send('/api/payment_statements/preview', overlap, tokens.audio);
    expect(preview.body.lines.map((l: JsonBody) => [l.outcome, l.outcomeLabel, l.dossier, l.appliedIn?.id])).toEqual([
      ['already_applied', `Déjà reçue (relevé n° ${first.body.id} du ${frenchToday()})`, null, first.body.id],
      ['already_applied', `Déjà reçue (relevé n° ${first.body.id} du ${frenchToday()})`, null, first.body.id],
      ['partial', 'Paiement partiel', expect.objectContaining({ id: target.id }), undefined],
    ]);
    expect(preview.body.totals.pending).toEqual({ count: 0, amount: 0 });
    const applied = await send('/api/payment_statements', overlap, tokens.audio);
    expect(applied.status, applied.text).toBe(201);
    expect(applied.body).toMatchObject({ pendingLines: 0, appliedAmount: 20 });
    expect(lineOf(applied.body, 2)).toMatchObject({ outcomeLabel: `Déjà reçue (relevé n° ${first.body.id} du ${frenchToday()})`, pending: false });
    // Not to be handled: attached to no file, the same file or another.
    for (const dossier of [target.id, second.id]) {
      const refused = await attach(applied.body.id, 2, dossier);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe('Cette ligne n’est pas à traiter : son paiement est déjà compté, sur un dossier ou dans un autre relevé.');
    }
    expect(await unplaced()).toEqual(unplacedBefore);
    expect(await paymentState(target.id)).toMatchObject({ montantPaye: 150 });
    expect(await paymentState(second.id)).toMatchObject({ montantPaye: null });

    // Undone latest first: the first statement holds lines the second counted on.
    const refused = await server.request('POST', `/api/payment_statements/${first.body.id}/undo`, { token: tokens.audio, body: UNDO });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Annulation impossible : le relevé n° ${applied.body.id} du ${frenchToday()} reprend des lignes comptées dans celui-ci. Annulez d’abord ce relevé.`,
    );
    expect((await server.request('POST', `/api/payment_statements/${applied.body.id}/undo`, { token: tokens.audio, body: UNDO })).status).toBe(200);
    expect((await server.request('POST', `/api/payment_statements/${first.body.id}/undo`, { token: tokens.audio, body: UNDO })).status).toBe(200);
  });

  it('keeps a line that reached no file to be handled once when two statements bring it at the same moment', async () => {
    const line = `05/11/2026;Harmonie;PERDU-${serial}-${Date.now()};75,00;`;
    const [a, b] = await Promise.all([
      send('/api/payment_statements', csv(line, `05/11/2026;Harmonie;AUTRE-A-${serial};1,00;`), tokens.audio),
      send('/api/payment_statements', csv(line, `05/11/2026;Harmonie;AUTRE-B-${serial};2,00;`), tokens.audio),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([lineOf(a.body, 2).pending, lineOf(b.body, 2).pending].sort()).toEqual([false, true]);
  });
});

describe('the CSV as portals export it', () => {
  it('matches a file by its Pecflow ID too (an office that writes it on its invoices), in any letter case', async () => {
    const f = await file({ partComplementaire: 200 });
    const numero = (await server.get(`/api/pec_dossiers/${f.id}`, tokens.audio)).body.numeroDossier as string;
    const preview = await send('/api/payment_statements/preview', csv(`02/11/2026;Allianz;${numero.toLowerCase()};200,00;`), tokens.audio);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.lines[0]).toMatchObject({ outcome: 'paid', dossier: { id: f.id, numeroDossier: numero } });
  });

  it('reads commas, quoted French decimals, thousands and other date forms', async () => {
    const f = await file({ partComplementaire: 1234.56 });
    const body = ['Date,Organisme payeur,N° PEC,Montant (€),Commentaire', `2026-11-04,Harmonie,${f.numPec},"1 234,56",Virement`].join('\n');
    const res = await send('/api/payment_statements/preview', body, tokens.audio);
    expect(res.status, res.text).toBe(200);
    expect(res.body.lines).toEqual([
      expect.objectContaining({ line: 2, paymentDate: '2026-11-04', payer: 'Harmonie', amount: 1234.56, label: 'Virement', outcome: 'paid' }),
    ]);
    const dotted = await send('/api/payment_statements/preview', csv(`04-11-2026;Harmonie;${f.numPec};1.234,56;`), tokens.audio);
    expect(dotted.body.lines[0]).toMatchObject({ paymentDate: '2026-11-04', amount: 1234.56, outcome: 'paid' });
    // Two digits for the year, as some portals export: this century's.
    const short = await send('/api/payment_statements/preview', csv(`04/11/26;Harmonie;${f.numPec};1 234,56;`), tokens.audio);
    expect(short.body.lines[0]).toMatchObject({ paymentDate: '2026-11-04', outcome: 'paid' });
  });

  it('reads Windows-1252 as well as UTF-8 (with or without BOM), as the body or a multipart upload', async () => {
    const f = await file({ partComplementaire: 90 });
    const text = csv(`02/11/2026;Mutuelle Générale;${f.numPec};90,00;Réglé à échéance`);
    const latin1 = Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
    // é is 0xE9 in Windows-1252: not valid UTF-8.
    expect(latin1.includes(0xe9)).toBe(true);
    const utf8Bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    for (const [bytes, multipart] of [
      [latin1, false],
      [utf8Bom, false],
      [latin1, true],
    ] as const) {
      const res = await send('/api/payment_statements/preview', bytes, tokens.audio, { multipart });
      expect(res.status, res.text).toBe(200);
      expect(res.body.lines[0]).toMatchObject({ payer: 'Mutuelle Générale', label: 'Réglé à échéance', outcome: 'paid' });
    }
    const uploaded = await send('/api/payment_statements', latin1, tokens.audio, { multipart: true });
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body.fileName).toBe('releve.csv');
  });

  it('reads UTF-16 with its byte-order mark (Excel’s « Texte Unicode », tab-separated), not taken for an audio file', async () => {
    const f = await file({ partComplementaire: 90 });
    const tabbed = [HEADER, `02/11/2026;Mutuelle Générale;${f.numPec};90,00;Réglé à échéance`].map((l) => l.replaceAll(';', '\t')).join('\r\n');
    const littleEndian = new Uint8Array([0xff, 0xfe, ...Buffer.from(tabbed, 'utf16le')]);
    const bigEndian = new Uint8Array([0xfe, 0xff, ...Buffer.from(csv(`02/11/2026;Mutuelle Générale;${f.numPec};90,00;Réglé à échéance`), 'utf16le').swap16()]);
    for (const [bytes, multipart] of [
      [littleEndian, false],
      [littleEndian, true],
      [bigEndian, false],
    ] as const) {
      const res = await send('/api/payment_statements/preview', bytes, tokens.audio, { multipart });
      expect(res.status, res.text).toBe(200);
      expect(res.body.lines).toEqual([
        expect.objectContaining({ line: 2, payer: 'Mutuelle Générale', amount: 90, label: 'Réglé à échéance', outcome: 'paid' }),
      ]);
    }
  });

  it('refuses bad lines with their numbers and columns in French, and writes nothing', async () => {
    const f = await file();
    const before = await statementsCount();
    const body = csv(`02/11/2026;Allianz;${f.numPec};500,00;`, `31/02/2026;Allianz;${f.numPec};abc;`, `;;;-5;`);
    for (const path of ['/api/payment_statements/preview', '/api/payment_statements']) {
      const res = await send(path, body, tokens.audio);
      expect(res.status).toBe(422);
      expect(res.body.detail.split('\n')[0]).toBe('Relevé refusé : 2 lignes en erreur, rien n’a été enregistré.');
      expect(res.body.violations).toEqual([
        { propertyPath: 'ligne 3', message: 'Colonne « Date de paiement » : date illisible « 31/02/2026 » (jj/mm/aaaa attendu)' },
        { propertyPath: 'ligne 3', message: 'Colonne « Montant » : montant illisible « abc » (un montant positif, ex : 1\u202f234,56)' },
        { propertyPath: 'ligne 4', message: 'Colonne « Date de paiement » : la date est requise' },
        { propertyPath: 'ligne 4', message: 'Colonne « Payeur » : valeur requise' },
        { propertyPath: 'ligne 4', message: 'Colonne « Référence » : valeur requise' },
        { propertyPath: 'ligne 4', message: 'Colonne « Montant » : montant illisible « -5 » (un montant positif, ex : 1\u202f234,56)' },
      ]);
    }
    expect(await statementsCount()).toBe(before);
    expect(await paymentState(f.id)).toEqual({ status: 'billed', ...UNPAID });

    const noColumns = await send('/api/payment_statements/preview', 'Date;Montant\n02/11/2026;10', tokens.audio);
    expect(noColumns.status).toBe(422);
    expect(noColumns.body.violations[0].message).toContain('Colonnes manquantes : Payeur, Référence.');
    expect((await send('/api/payment_statements/preview', '', tokens.audio)).status).toBe(422);
    expect((await send('/api/payment_statements/preview', HEADER, tokens.audio)).body.detail).toBe('Le fichier ne contient aucune ligne de paiement.');
    // Not a CSV (a picture, a workbook), whatever its name: said so, not « Fichier CSV illisible à la ligne 4 ».
    const png = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    for (const multipart of [false, true]) {
      const notCsv = await send('/api/payment_statements/preview', png, tokens.audio, { multipart });
      expect(notCsv.status).toBe(422);
      expect(notCsv.body.violations).toEqual([
        {
          propertyPath: 'fichier',
          message:
            'Ce fichier n’est pas un fichier CSV (c’est un fichier PNG) : exportez le relevé au format CSV depuis le portail de l’assureur ou votre tableur.',
        },
      ]);
    }
    const huge = await send('/api/payment_statements/preview', 'x'.repeat(2 * 1024 * 1024 + 70 * 1024), tokens.audio);
    expect(huge.status).toBe(413);
  });

  it('says the limits: an amount too large, a file too large in Mo; refuses control characters in a cell', async () => {
    const f = await file();
    const before = await statementsCount();
    const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
    const tooLarge = await send('/api/payment_statements/preview', csv(`02/11/2026;Allianz;${f.numPec};12 345 678 901,00;`), tokens.audio);
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.violations.map((v: JsonBody) => [v.propertyPath, spaced(v.message)])).toEqual([
      ['ligne 2', 'Colonne « Montant » : montant « 12 345 678 901,00 » trop élevé (9 999 999 999,99 € au plus)'],
    ]);

    // Control characters (a bell, an escape, a vertical tab): refused on their line and column, by their code.
    const controlled = csv(`02/11/2026;Allianz\u0007;${f.numPec};500,00;`, `02/11/2026;Allianz;${f.numPec};500,00;Lot\u001b12 \u000bsuite`);
    for (const path of ['/api/payment_statements/preview', '/api/payment_statements']) {
      const res = await send(path, controlled, tokens.audio);
      expect(res.status, res.text).toBe(422);
      expect(res.body.violations).toEqual([
        { propertyPath: 'ligne 2', message: 'Colonne « Payeur » : caractère de contrôle invalide (U+0007) : retirez-le du fichier' },
        { propertyPath: 'ligne 3', message: 'Colonne « Libellé » : caractère de contrôle invalide (U+001B) : retirez-le du fichier' },
      ]);
    }
    // A tab and a line break inside a quoted cell are the CSV's own: read as before.
    const quoted = await send('/api/payment_statements/preview', csv(`02/11/2026;"Allianz\tVie";${f.numPec};500,00;"Lot 12\r\nsuite"`), tokens.audio);
    expect(quoted.status, quoted.text).toBe(200);
    expect(quoted.body.lines[0]).toMatchObject({ payer: 'Allianz\tVie', label: 'Lot 12\r\nsuite', outcome: 'paid' });

    // A file over 2 Mo, sent as the body (beyond the upload's margin, or within it) or as a form: its limit, in Mo.
    for (const [content, multipart] of [
      ['x'.repeat(2 * 1024 * 1024 + 70 * 1024), false],
      ['x'.repeat(2 * 1024 * 1024 + 10), false],
      ['x'.repeat(2 * 1024 * 1024 + 10), true],
      ['x'.repeat(2 * 1024 * 1024 + 70 * 1024), true],
    ] as const) {
      const res = await send('/api/payment_statements', content, tokens.audio, { multipart });
      expect(res.status).toBe(413);
      expect(res.body.detail).toBe('Le relevé dépasse 2 Mo : découpez-le.');
    }
    expect(await statementsCount()).toBe(before);
  });
});

describe('tenancy and permissions', () => {
  it('keeps statements within their organisation', async () => {
    const f = await file();
    const applied = await send('/api/payment_statements', csv(`02/11/2026;Allianz;${f.numPec};500,00;`), tokens.audio);
    const id = applied.body.id;
    expect((await server.get(`/api/payment_statements/${id}`, tokens.rivieraAdmin)).status).toBe(404);
    expect((await server.request('POST', `/api/payment_statements/${id}/undo`, { token: tokens.rivieraAdmin, body: UNDO })).status).toBe(404);
    const theirs = await server.get('/api/payment_statements', tokens.rivieraAdmin);
    expect(theirs.body.member.map((m: JsonBody) => m.id)).not.toContain(id);
    // Another organisation's file by its own PEC number: unknown to Horizon, even for its administrator.
    const other = await file({}, tokens.rivieraAdmin, 'Riviera Nice Médecin');
    const preview = await send('/api/payment_statements/preview', csv(`02/11/2026;Allianz;${other.numPec};500,00;`), tokens.horizonAdmin);
    expect(preview.body.lines[0].outcome).toBe('unknown');
    const manual = await server.request('POST', `/api/pec_dossiers/${other.id}/payments`, {
      token: tokens.horizonAdmin,
      body: { datePaiement: '02/11/2026', montant: 10 },
    });
    expect(manual.status).toBe(404);
  });

  it('needs billing.payment: held by administrators and audioprothésistes, not by assistants or read-only staff', async () => {
    const f = await file();
    const body = csv(`02/11/2026;Allianz;${f.numPec};500,00;`);
    for (const token of [tokens.assistant, tokens.readOnly]) {
      expect((await send('/api/payment_statements/preview', body, token)).status).toBe(403);
      expect((await send('/api/payment_statements', body, token)).status).toBe(403);
      expect((await server.get('/api/payment_statements', token)).status).toBe(403);
      expect((await server.request('POST', `/api/pec_dossiers/${f.id}/payments`, { token, body: { datePaiement: '02/11/2026', montant: 10 } })).status).toBe(
        403,
      );
    }
    const roles = await server.database.query<{ seed_key: string; permissions: string[] }>(
      'select seed_key, permissions from roles where seed_key is not null',
    );
    const holds = Object.fromEntries(roles.map((r) => [r.seed_key, r.permissions.includes('billing.payment') || r.permissions.includes('admin.*')]));
    expect(holds).toMatchObject({ organisationAdmin: true, audioprothesiste: true, assistant: false, readOnly: false });
    const catalogue = await server.get('/api/permissions', tokens.audio);
    const entry = (catalogue.body.member ?? catalogue.body).find?.((p: JsonBody) => p.key === 'billing.payment');
    expect(entry).toMatchObject({ label: 'Enregistrer les paiements', module: 'billing' });
    expect((await paymentState(f.id)).status).toBe('billed');
  });
});

describe('manual payment', () => {
  it('checks its form, adds up partial payments, and refuses a file that is not billed', async () => {
    const f = await file({ partComplementaire: 700 });
    const pay = (body: unknown, id = f.id) => server.request('POST', `/api/pec_dossiers/${id}/payments`, { token: tokens.audio, body });
    const empty = await pay({});
    expect(empty.status).toBe(422);
    expect(Object.fromEntries(empty.body.violations.map((v: JsonBody) => [v.propertyPath, v.message]))).toEqual({
      datePaiement: 'La date de paiement est requise',
      montant: 'Le montant est requis',
    });
    expect((await pay({ datePaiement: '31/02/2026', montant: '0' })).body.violations.map((v: JsonBody) => v.message)).toEqual([
      'Date invalide (jj/mm/aaaa)',
      'Le montant doit être supérieur à 0',
    ]);

    const first = await pay({ datePaiement: '2026-11-03', montant: '200,50', libelle: 'Chèque 1234' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ status: 'billed', montantPaye: 200.5, paiementPartiel: true, montantDu: 499.5, datePaiement: '2026-11-03' });
    const second = await pay({ datePaiement: '12/11/2026', montant: 499.5 });
    expect(second.body).toMatchObject({ status: 'paid', montantPaye: 700, paiementPartiel: false, montantDu: 0, datePaiement: '2026-11-12' });
    const third = await pay({ datePaiement: '12/11/2026', montant: 1 });
    expect(third.status).toBe(409);
    expect(third.body.detail).toBe('Seule une demande facturée et pas encore soldée peut recevoir un paiement.');

    const history = await server.get(`/api/pec_dossiers/${f.id}/history`, tokens.horizonAdmin);
    const payments = history.body.member.filter((m: JsonBody) => m.action === 'pec_dossier.payment');
    expect(payments).toHaveLength(2);
    expect(payments[0].changes.paiement.after).toEqual({ date: '2026-11-03', montant: 200.5, libelle: 'Chèque 1234', resultat: 'partial' });
  });
});

describe('receivables', () => {
  it('counts what the list behind each figure shows', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    const daysAgo = (n: number) => {
      const d = new Date(`${today}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() - n);
      return d.toISOString().slice(0, 10);
    };
    // A file on each side of each boundary.
    for (const n of [0, 29, 30, 59, 60, 89, 90, 200]) await file({ billedOn: daysAgo(n) });
    const partial = await file({ partComplementaire: 300 });
    await server.request('POST', `/api/pec_dossiers/${partial.id}/payments`, { token: tokens.horizonAdmin, body: { datePaiement: today, montant: 100 } });
    const over = await file({ partComplementaire: 300 });
    await server.request('POST', `/api/pec_dossiers/${over.id}/payments`, { token: tokens.horizonAdmin, body: { datePaiement: today, montant: 350 } });

    const stats = await server.get('/api/pec_dossiers/stats', tokens.horizonAdmin);
    expect(stats.status).toBe(200);
    const r = stats.body.receivables;
    const total = async (query: string) => (await server.get(`/api/pec_dossiers?${query}`, tokens.horizonAdmin)).body.totalItems;
    expect(r.count).toBe(await total('status=billed'));
    const ranges: Record<string, [string | undefined, string | undefined]> = {
      under30: [daysAgo(29), undefined],
      from30to60: [daysAgo(59), daysAgo(30)],
      from60to90: [daysAgo(89), daysAgo(60)],
      over90: [undefined, daysAgo(90)],
    };
    for (const age of r.byAge) {
      const [after, before] = ranges[age.key]!;
      const query = ['status=billed', after && `dateFacturationEffective[after]=${after}`, before && `dateFacturationEffective[before]=${before}`]
        .filter(Boolean)
        .join('&');
      expect(age.count, age.key).toBe(await total(query));
      expect(age.count).toBeGreaterThanOrEqual(2);
    }
    expect(r.byAge.reduce((sum: number, a: JsonBody) => sum + a.count, 0)).toBe(r.count);
    expect(r.partial.count).toBe(await total('payment=partial'));
    expect(r.partial.count).toBeGreaterThanOrEqual(1);
    expect(r.overpaid.count).toBe(await total('payment=overpaid'));
    expect(r.overpaid.count).toBeGreaterThanOrEqual(1);
    const [sum] = await server.database.query<{ due: string }>(
      `select sum(coalesce(montant_du, part_complementaire)) as due from pec_dossiers d join holdings h on h.id = d.holding_id
        where h.name = 'Audition Horizon' and d.status = 'billed'`,
    );
    expect(r.amount).toBe(Math.round(Number(sum!.due) * 100) / 100);
  });
});

describe('the demo statement', () => {
  it('docs/examples/releve-paiements.csv shows every kind of line on the demo data', async () => {
    const bytes = readFileSync(new URL('../../docs/examples/releve-paiements.csv', import.meta.url));
    const res = await send('/api/payment_statements/preview', new Uint8Array(bytes), tokens.horizonAdmin);
    expect(res.status, res.text).toBe(200);
    expect(res.body.lines.map((l: JsonBody) => l.outcome)).toEqual(['paid', 'partial', 'overpaid', 'overpaid', 'not_billed', 'unknown', 'partial', 'paid']);
    // FAC-DEMO-0004, paid in full by its history: a new payment is an over-payment of all of it.
    expect(res.body.lines[3].difference).toBe(1200);
    expect(res.body.lines[1].difference).toBe(220);
    expect(res.body.lines[2].difference).toBe(30);
    // The demo's own partly paid file.
    const partial = await server.get('/api/pec_dossiers?payment=partial', tokens.horizonAdmin);
    expect(partial.body.member.map((m: JsonBody) => m.numBilling)).toContain('FAC-DEMO-0007');
  });
});

describe('the template of the import page', () => {
  it('is read whole: every column recognised, its one line previewed with its statement number and period', async () => {
    const res = await send('/api/payment_statements/preview', new TextEncoder().encode(statementTemplate('2026-11-20')), tokens.horizonAdmin);
    expect(res.status, res.text).toBe(200);
    expect(res.body.lines).toHaveLength(1);
    expect(res.body.lines[0]).toMatchObject({ paymentDate: '2026-11-20', payer: 'Allianz', reference: 'FAC-2026-000123', amount: 1420, outcome: 'unknown' });
    expect(res.body.lines[0].label).toBe('Virement du relevé 2026-47');
    expect(res.body).toMatchObject({ reference: '2026-47', period: 'Novembre 2026' });
  });
});

describe('existing databases', () => {
  it('migration 0014 renames pec.billing to billing.payment and gives it to the seeded administrators and audioprothésistes', async () => {
    const seeded = (key: SeededRoleKey) => server.database.query<{ permissions: string[] }>('select permissions from roles where seed_key = $1', [key]);
    const before = new Map<SeededRoleKey, string[]>();
    for (const key of ['organisationAdmin', 'audioprothesiste', 'assistant'] as const) before.set(key, (await seeded(key))[0]!.permissions);
    // The roles as a database seeded before the key existed holds them, under the names they had then (migration 0040
    // gave the organisation administrator its typographic apostrophe since).
    await server.database.query(`update roles set permissions = array_remove(permissions, 'billing.payment') where holding_id is null`);
    await server.database.query(`update roles set name = 'Administrateur d''organisation' where seed_key = 'organisationAdmin'`);
    await server.database.query(`update roles set permissions = array_append(permissions, 'pec.billing') where seed_key = 'audioprothesiste'`);
    const [custom] = await server.database.query<{ id: number }>(
      `insert into roles (holding_id, name, permissions) select holding_id, 'Comptable', '{pec.view,pec.billing}' from shops limit 1 returning id`,
    );

    const migration = readFileSync(new URL('../../server/db/migrations/0014_payment_statements.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint').filter((s) => s.includes('UPDATE "roles"'))) await server.database.query(statement);

    for (const [key, permissions] of before) expect((await seeded(key))[0]!.permissions.sort(), key).toEqual([...permissions].sort());
    await server.database.query(`update roles set name = $1 where seed_key = 'organisationAdmin'`, [SEEDED_ROLES.organisationAdmin.name]);
    const [comptable] = await server.database.query<{ permissions: string[] }>('select permissions from roles where id = $1', [custom!.id]);
    expect(comptable!.permissions).toEqual(['pec.view', 'billing.payment']);
  });
});

describe('what an outside probe tried', () => {
  const lyon = 'Horizon Lyon Part-Dieu'; // a centre audio@ is not assigned to

  it('keeps a statement’s files within the reader’s centres: lines masked, undo refused with 403', async () => {
    const mine = await file();
    const hidden = await file({}, tokens.horizonAdmin, lyon);
    expect((await server.get(`/api/pec_dossiers/${hidden.id}`, tokens.audio)).status).toBe(404);
    const applied = await send(
      '/api/payment_statements',
      csv(`02/11/2026;Allianz;${mine.numPec};500,00;Virement A`, `02/11/2026;Allianz;${hidden.numPec};500,00;Virement B`),
      tokens.horizonAdmin,
    );
    expect(applied.status, applied.text).toBe(201);
    const id = applied.body.id;

    const director = await server.get(`/api/payment_statements/${id}`, tokens.horizonAdmin);
    expect(director.body.lines[1]).toMatchObject({ reference: hidden.numPec, dossier: { id: hidden.id } });
    const seen = await server.get(`/api/payment_statements/${id}`, tokens.audio);
    expect(seen.status).toBe(200);
    expect(seen.body.lines[0]).toMatchObject({ reference: mine.numPec, dossier: { id: mine.id }, label: 'Virement A' });
    expect(seen.body.lines[1]).toMatchObject({ reference: 'Dossier d’un centre non visible', dossier: null, label: null, amount: 500, outcome: 'paid' });
    expect(seen.text).not.toContain(hidden.numPec);
    expect(seen.body.totals.amount).toBe(1000);
    // The statement says who may undo it, so the page offers 'Annuler le relevé' only to them.
    expect(director.body.undoable).toBe(true);
    expect(seen.body.undoable).toBe(false);
    // The statement says who may undo it, so the page offers 'Annuler le relevé' only to them.
    expect(director.body.undoable).toBe(true);
    expect(seen.body.undoable).toBe(false);

    const undo = await server.request('POST', `/api/payment_statements/${id}/undo`, { token: tokens.audio, body: UNDO });
    expect(undo.status).toBe(403);
    expect(undo.body.detail).toContain('centres que vous ne voyez pas');
    expect((await paymentState(mine.id)).status).toBe('paid');
    expect((await server.get(`/api/pec_dossiers/${hidden.id}`, tokens.horizonAdmin)).body.status).toBe('paid');
    expect((await server.get(`/api/payment_statements/${id}`, tokens.horizonAdmin)).body.status).toBe('applied');

    // Matching uses the reader's files only: the hidden file is unknown to audio@.
    const other = await file({}, tokens.horizonAdmin, lyon);
    const preview = await send('/api/payment_statements/preview', csv(`02/11/2026;Allianz;${other.numPec};500,00;`), tokens.audio);
    expect(preview.body.lines[0]).toMatchObject({ outcome: 'unknown', dossier: null });
    expect((await server.request('POST', `/api/payment_statements/${id}/undo`, { token: tokens.horizonAdmin, body: UNDO })).status).toBe(200);
  });

  it('refuses NUL characters in a statement and a manual payment with a French 422, writing nothing', async () => {
    const f = await file();
    const before = await statementsCount();
    for (const body of [csv(`02/11/2026;Allianz;${f.numPec}\0X;500,00;`), csv(`02/11/2026;Y\0Z;${f.numPec};500,00;`)]) {
      for (const path of ['/api/payment_statements/preview', '/api/payment_statements']) {
        const res = await send(path, body, tokens.audio);
        expect(res.status, res.text).toBe(422);
        expect(res.body.violations[0]).toEqual({ propertyPath: 'ligne 2', message: expect.stringContaining('Caractère invalide (octet nul) dans la valeur.') });
      }
    }
    const manual = await server.request('POST', `/api/pec_dossiers/${f.id}/payments`, {
      token: tokens.audio,
      body: { datePaiement: '02/11/2026', montant: 10, libelle: 'a\u0000b' },
    });
    expect(manual.status).toBe(422);
    expect(manual.body.violations).toEqual([{ propertyPath: 'libelle', message: 'Caractère invalide (octet nul) dans la valeur.' }]);
    expect(await statementsCount()).toBe(before);
    expect(await paymentState(f.id)).toEqual({ status: 'billed', ...UNPAID });
  });

  it('names the amount that would overflow instead of a bare “Valeur invalide.”', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `02/11/2026;Allianz;REF-${i};99999999,99;`);
    for (const path of ['/api/payment_statements/preview', '/api/payment_statements']) {
      const res = await send(path, csv(...lines), tokens.audio);
      expect(res.status).toBe(422);
      expect(res.body.violations).toEqual([
        { propertyPath: 'fichier', message: 'Montant trop élevé : le total du relevé dépasserait 9\u202f999\u202f999\u202f999,99\u00a0€.' },
      ]);
    }
    const f = await file({ partComplementaire: 700 });
    const pay = (montant: number) =>
      server.request('POST', `/api/pec_dossiers/${f.id}/payments`, { token: tokens.audio, body: { datePaiement: '02/11/2026', montant } });
    expect((await pay(200)).status).toBe(200);
    const overflow = await pay(9999999999.99);
    expect(overflow.status).toBe(422);
    expect(overflow.body.violations[0].propertyPath).toBe('montant');
    expect(overflow.body.violations[0].message).toMatch(
      /^Montant trop élevé : le montant payé du dossier .+ dépasserait 9\u202f999\u202f999\u202f999,99\u00a0€\.$/,
    );
    expect((await paymentState(f.id)).montantPaye).toBe(200);
  });

  it('refuses a payment dated after today (Paris), accepts today', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    const f = await file({ partComplementaire: 700 });
    const pay = (datePaiement: string) =>
      server.request('POST', `/api/pec_dossiers/${f.id}/payments`, { token: tokens.audio, body: { datePaiement, montant: 10 } });
    const future = await pay('2099-01-01');
    expect(future.status).toBe(422);
    expect(future.body.violations).toEqual([{ propertyPath: 'datePaiement', message: 'La date de paiement ne peut pas être postérieure à aujourd’hui' }]);
    expect((await pay(today)).status).toBe(200);
    const res = await send('/api/payment_statements/preview', csv(`20/11/2035;Allianz;${f.numPec};5,00;`), tokens.audio);
    expect(res.status).toBe(422);
    expect(res.body.violations[0].message).toBe(
      'Colonne « Date de paiement » : date « 20/11/2035 » postérieure à aujourd’hui (un paiement est daté du jour où il est reçu)',
    );
  });

  it('reads several values of one condition filter as any of them, and ignores an impossible day', async () => {
    const partial = await file({ partComplementaire: 300 });
    await server.request('POST', `/api/pec_dossiers/${partial.id}/payments`, { token: tokens.audio, body: { datePaiement: '02/11/2026', montant: 100 } });
    const over = await file({ partComplementaire: 300 });
    await server.request('POST', `/api/pec_dossiers/${over.id}/payments`, { token: tokens.audio, body: { datePaiement: '02/11/2026', montant: 350 } });
    const ids = async (query: string) => {
      const res = await server.get(`/api/pec_dossiers?${query}&itemsPerPage=500`, tokens.horizonAdmin);
      expect(res.status).toBe(200);
      return res.body.member.map((m: JsonBody) => m.id);
    };
    const both = await ids('payment[]=partial&payment[]=overpaid');
    expect(both).toEqual(expect.arrayContaining([partial.id, over.id]));
    expect(both.length).toBe((await ids('payment=partial')).length + (await ids('payment=overpaid')).length);
    // Paid in full: the exact payment only, neither the partial nor the over-paid one (issue 28's payment state).
    const exact = await file({ partComplementaire: 300 });
    await server.request('POST', `/api/pec_dossiers/${exact.id}/payments`, { token: tokens.audio, body: { datePaiement: '02/11/2026', montant: 300 } });
    const paid = await ids('payment=paid');
    expect(paid).toContain(exact.id);
    expect(paid).not.toContain(partial.id);
    expect(paid).not.toContain(over.id);
    // Every payment state together is every billed-or-paid file with money expected, each once.
    const states = await Promise.all(['unpaid', 'partial', 'paid', 'overpaid'].map((state) => ids(`payment=${state}`)));
    expect(new Set(states.flat()).size).toBe(states.flat().length);

    const billedEnd = await file({ billedOn: '2026-03-02' });
    const all = await ids('status=billed');
    expect(all).toContain(billedEnd.id);
    // 2026-02-31 does not exist: the bound is ignored, not read as 3 March.
    expect(await ids('status=billed&dateFacturationEffective[after]=2026-02-31')).toEqual(all);
    expect(await ids('status=billed&dateFacturationEffective[after]=2026-03-03')).not.toContain(billedEnd.id);
  });
});

describe('what the outside review of issue 25 tried', () => {
  it('names a bad manual payment amount as an amount (not a “Prix” with its decimals), and writes nothing', async () => {
    const f = await file({ partComplementaire: 700 });
    const pay = (montant: unknown) =>
      server.request('POST', `/api/pec_dossiers/${f.id}/payments`, { token: tokens.audio, body: { datePaiement: '02/11/2026', montant } });
    const messageOf = async (montant: unknown) => {
      const res = await pay(montant);
      expect(res.status, res.text).toBe(422);
      expect(res.body.violations.map((v: JsonBody) => v.propertyPath)).toEqual(['montant']);
      return res.body.violations[0].message;
    };
    expect(await messageOf(-5)).toBe('Le montant doit être supérieur à 0');
    expect(await messageOf('-100,00')).toBe('Le montant doit être supérieur à 0');
    expect(await messageOf('abc')).toBe('Montant illisible : un montant positif avec 2 décimales au plus (ex : 1\u202f234,56)');
    expect(await messageOf('12,345')).toBe('Montant illisible : un montant positif avec 2 décimales au plus (ex : 1\u202f234,56)');
    expect(await messageOf(12_000_000_000)).toBe('Le montant ne peut pas dépasser 9\u202f999\u202f999\u202f999,99\u00a0€');
    expect(await paymentState(f.id)).toEqual({ status: 'billed', ...UNPAID });
    expect((await server.get(`/api/pec_payments?dossier=/api/pec_dossiers/${f.id}`, tokens.audio)).body.totalItems).toBe(0);
  });
  it('tells a statement without its columns which headers each missing one accepts, never “voir le README”', async () => {
    const res = await send('/api/payment_statements/preview', 'Date;Montant\n02/11/2026;10', tokens.audio);
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([
      {
        propertyPath: 'fichier',
        message:
          'Colonnes manquantes : Payeur, Référence. En-têtes reconnus pour « Payeur » : Payeur, Organisme payeur, Organisme, Assureur, Mutuelle, ' +
          'Complémentaire, Émetteur ; pour « Référence » : Référence, Réf, Référence dossier, N° PEC, Numéro PEC, N° prise en charge, N° facture, ' +
          'Numéro de facture, Facture.',
      },
    ]);
    expect(res.text).not.toContain('README');
  });
});

describe('a line paid far above what its file was to receive (a typo in the insurer’s file)', () => {
  const paymentsOf = async (dossierId: number) =>
    Number((await server.database.query<{ n: string }>('select count(*) as n from pec_payments where dossier_id = $1', [dossierId]))[0]!.n);

  it('is flagged in the preview, refused without confirmation (nothing written), applied once with it; a usual over-payment is not', async () => {
    const typo = await file({ partComplementaire: 1300 });
    const usual = await file({ partComplementaire: 500 });
    const twice = await file({ partComplementaire: 400 });
    const body = csv(
      `02/11/2026;Itelis;${typo.numPec};99 999 999,99;`,
      // 10 € over, and twice what the file owes (a transfer sent twice at once): usual over-payments.
      `02/11/2026;Itelis;${usual.numPec};510,00;`,
      `02/11/2026;Itelis;${twice.numPec};800,00;`,
      // No file: to be handled, not concerned.
      `02/11/2026;Itelis;INCONNU-${typo.id};99 999 999,99;`,
    );
    const before = await statementsCount();

    const preview = await send('/api/payment_statements/preview', body, tokens.audio);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.lines.map((l: JsonBody) => [l.line, l.outcome, l.difference, l.warning, l.warningText])).toEqual([
      [
        2,
        'overpaid',
        99_998_699.99,
        'amountFarAboveExpected',
        'Montant très supérieur à ce que la demande devait recevoir (1\u202f300,00\u00a0€) : vérifiez la ligne',
      ],
      [3, 'overpaid', 10, null, null],
      [4, 'overpaid', 400, null, null],
      [5, 'unknown', null, null, null],
    ]);

    // Applied without the confirmation, with or without the preview's fingerprint: refused, naming the line; nothing written.
    for (const path of ['/api/payment_statements', `/api/payment_statements?apercu=${preview.body.fingerprint}`]) {
      const refused = await send(path, body, tokens.audio);
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body).toMatchObject({
        detail:
          'Relevé non appliqué : la ligne 2 paie bien plus que ce que sa demande devait recevoir. Vérifiez ce montant, puis confirmez-le pour appliquer le relevé.',
        conflict: 'amountsToCheck',
        lines: [2],
      });
    }
    expect(await statementsCount()).toBe(before);
    for (const f of [typo, usual, twice]) {
      expect(await paymentState(f.id)).toEqual({ status: 'billed', ...UNPAID });
      expect(await paymentsOf(f.id)).toBe(0);
    }
    // A confirmation that is not one is refused in French.
    const garbled = await send(`/api/payment_statements?apercu=${preview.body.fingerprint}&montantsVerifies=oui`, body, tokens.audio);
    expect(garbled.status, garbled.text).toBe(422);
    expect(garbled.body.violations).toEqual([
      expect.objectContaining({ propertyPath: 'montantsVerifies', message: 'Confirmation des montants invalide : montantsVerifies=1 attendu.' }),
    ]);
    expect(await statementsCount()).toBe(before);

    // Confirmed: applied as previewed, once.
    const confirmed = `/api/payment_statements?apercu=${preview.body.fingerprint}&montantsVerifies=1`;
    const applied = await send(confirmed, body, tokens.audio);
    expect(applied.status, applied.text).toBe(201);
    expect(applied.body.appliedAmount).toBeCloseTo(100_001_309.99, 2);
    expect(await statementsCount()).toBe(before + 1);
    expect(await paymentState(typo.id)).toMatchObject({ status: 'paid', montantPaye: 99_999_999.99, montantDu: 0 });
    const again = await send(confirmed, body, tokens.audio);
    expect(again.status, again.text).toBe(409);
    expect(again.body.detail).toContain('Relevé déjà importé le');
    expect(await statementsCount()).toBe(before + 1);
    expect(await paymentsOf(typo.id)).toBe(1);
  });

  it('names every line to be checked, and applies a statement with none without any confirmation', async () => {
    const [first, second] = [await file({ partComplementaire: 100 }), await file({ partComplementaire: 0 })];
    const refused = await send(
      '/api/payment_statements',
      csv(`02/11/2026;Itelis;${first.numPec};201,00;`, `02/11/2026;Itelis;${second.numPec};5,00;`),
      tokens.audio,
    );
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({
      detail:
        'Relevé non appliqué : les lignes 2, 3 paient bien plus que ce que leur demande devait recevoir. Vérifiez ces montants, puis confirmez-les pour appliquer le relevé.',
      lines: [2, 3],
    });
    // Exactly twice what the file owes is not beyond it.
    const exact = await send('/api/payment_statements', csv(`02/11/2026;Itelis;${first.numPec};200,00;`), tokens.audio);
    expect(exact.status, exact.text).toBe(201);
    expect(await paymentState(first.id)).toMatchObject({ status: 'paid', montantPaye: 200 });
  });
});
