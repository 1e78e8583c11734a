// « Détacher »: a statement line attached (or counted) by hand by mistake goes back to what it was before, its payment
// reversed with the reason (never deleted), its file's state derived again, the statement's totals following; once,
// also sent several times at once; refused while its file changed since, once its statement is cancelled, for a line
// handled before its state was kept (migration 0041), outside the organisation (404) and to read-only staff (403).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createBilledFile, startPecServer, type Refs } from './helpers/pec';
import { STATEMENT_MESSAGES } from '#domain/payments';
import { formatEuros } from '#domain/format';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

let serial = 0;
/** A reference no demo file uses. */
const ref = (kind: string) => `${kind}-D${++serial}-${Date.now().toString(36).toUpperCase()}`;
const frenchToday = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());

/** A billed file of Horizon's Paris Bastille centre (or `shop`) owing `partComplementaire` (robot fields set directly). */
const billedFile = (partComplementaire = 500, token = tokens.audio, shop?: string) => createBilledFile(server, refs, ref, { token, partComplementaire, shop });

const HEADER = 'Date de paiement;Payeur;Référence;Montant;Libellé';
const csv = (...lines: string[]) => [HEADER, ...lines].join('\r\n');

async function apply(content: string, token = tokens.audio) {
  const res = await fetch(`${server.url}/api/payment_statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/ld+json', 'content-type': 'text/csv' },
    body: content,
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text) as JsonBody;
}

const lineAction = (action: string, id: number, line: number, body?: unknown, token = tokens.audio) =>
  server.request('POST', `/api/payment_statements/${id}/lines/${line}/${action}`, { token, body });
const attach = (id: number, line: number, dossier: number) => lineAction('attach', id, line, { dossier: `/api/pec_dossiers/${dossier}` });
const detach = (id: number, line: number, motif: unknown = 'Mauvaise demande', token = tokens.audio) => lineAction('detach', id, line, { motif }, token);
const undo = (id: number) => server.request('POST', `/api/payment_statements/${id}/undo`, { token: tokens.audio, body: { motif: 'Relevé importé deux fois' } });
const lineOf = (statement: JsonBody, line: number) => statement.lines.find((l: JsonBody) => l.line === line);
const statement = async (id: number) => (await server.get(`/api/payment_statements/${id}`, tokens.audio)).body;

const paymentState = async (id: number) => {
  const res = await server.get(`/api/pec_dossiers/${id}`, tokens.audio);
  expect(res.status, res.text).toBe(200);
  const { status, montantPaye, datePaiement, paiementPartiel, montantDu } = res.body;
  return { status, montantPaye, datePaiement, paiementPartiel, montantDu };
};
const UNPAID = { status: 'billed', montantPaye: null, datePaiement: null, paiementPartiel: false, montantDu: null };
const history = async (id: number) => {
  const res = await server.get(`/api/pec_payments?dossier=/api/pec_dossiers/${id}`, tokens.audio);
  expect(res.status, res.text).toBe(200);
  return res.body.member as JsonBody[];
};
/** Every file's stored amount paid against the sum of its payments that count: the files where they differ. */
const disagreements = () =>
  server.database.query<{ id: number }>(
    `select d.id from pec_dossiers d left join (select dossier_id, sum(amount) as paid, max(payment_date) as last from pec_payments
       where reversed_at is null group by dossier_id) p on p.dossier_id = d.id
     where d.montant_paye is distinct from p.paid or (p.paid is not null and d.date_paiement is distinct from p.last)`,
  );

describe('« Détacher » a line attached to the wrong file', () => {
  it('puts the file and the line back as they were, reverses the payment with its reason, once; the line is then attached to the right file, and the statement still undoes', async () => {
    const imported = await billedFile(100);
    const wrong = await billedFile(300);
    const right = await billedFile(300);
    const s = await apply(
      csv(
        `02/11/2026;Allianz;${imported.numPec};100,00;`,
        `03/11/2026;Allianz;INCONNU-${right.id};300,00;Lot 4`,
        `03/11/2026;Allianz;PERDU-${right.id};50,00;`,
      ),
    );
    const id = s.id as number;
    expect(s).toMatchObject({ pendingLines: 2, appliedAmount: 100 });
    const pendingBefore = lineOf(s, 3);
    expect(pendingBefore).toMatchObject({ outcome: 'unknown', outcomeLabel: 'Référence inconnue', pending: true, dossier: null, difference: null });

    const attached = await attach(id, 3, wrong.id);
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body).toMatchObject({ pendingLines: 1, appliedAmount: 400 });
    expect(await paymentState(wrong.id)).toMatchObject({ status: 'paid', montantPaye: 300, montantDu: 0 });

    // Why is required (the French 422, nothing changed); only an attached or counted line; who records payments; its organisation.
    for (const motif of [undefined, '', '   ']) {
      const refused = await lineAction('detach', id, 3, motif === undefined ? {} : { motif });
      expect(refused.status).toBe(422);
      expect(refused.body.violations).toEqual([{ propertyPath: 'motif', message: 'Le motif du détachement est requis' }]);
    }
    for (const line of [2, 4]) {
      const refused = await detach(id, line);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(STATEMENT_MESSAGES.lineNotDetachable);
    }
    for (const token of [tokens.assistant, tokens.readOnly]) expect((await detach(id, 3, 'Mauvaise demande', token)).status).toBe(403);
    const foreign = await detach(id, 3, 'Mauvaise demande', tokens.rivieraAdmin);
    const missing = await detach(999_999, 3, 'Mauvaise demande');
    expect(foreign.status).toBe(404);
    // Another organisation's statement reads as one that does not exist, byte for byte.
    expect(foreign.text).toBe(missing.text);
    expect((await detach(id, 99)).status).toBe(404);
    expect(await paymentState(wrong.id)).toMatchObject({ status: 'paid', montantPaye: 300 });

    // Sent several times at once (a double click, two tabs): detached once, the others told so.
    const answers = await Promise.all([1, 2, 3].map(() => detach(id, 3, 'Rattachée à la mauvaise demande')));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.detail).toBe(STATEMENT_MESSAGES.lineDetached);
    const detached = answers.find((a) => a.status === 200)!.body;

    // The line as it was before its attach, to be handled again; the totals follow.
    expect(lineOf(detached, 3)).toEqual(pendingBefore);
    expect(detached).toMatchObject({ pendingLines: 2, appliedAmount: 100 });
    expect(detached.totals).toMatchObject({ applied: 100, pending: { count: 2, amount: 350 } });
    expect((await server.get('/api/payment_statements?aTraiter=true', tokens.audio)).body.member.map((m: JsonBody) => m.id)).toContain(id);

    // The file back to what it owed; its payment still in its history, reversed with the reason.
    expect(await paymentState(wrong.id)).toEqual(UNPAID);
    const [payment, ...others] = await history(wrong.id);
    expect(others).toEqual([]);
    expect(payment).toMatchObject({
      source: 'statement',
      amount: 300,
      paymentStatement: `/api/payment_statements/${id}`,
      reversalReason: 'Détachée du relevé : Rattachée à la mauvaise demande',
      reversedBy: { firstName: expect.any(String) },
    });
    expect(payment!.reversedAt).toBeTruthy();
    expect(payment!.cancelRefusal).toMatchObject({ rule: 'fromStatement' });

    // Audited on the statement and on the file.
    const trail = await server.get(`/api/audit_logs?entity=payment_statements&entityId=${id}&action=payment_statement.line_detach`, tokens.horizonAdmin);
    expect(trail.body.member.map((m: JsonBody) => m.changes)).toEqual([
      {
        ligne: 3,
        montant: 300,
        dossier: { before: `/api/pec_dossiers/${wrong.id}`, after: null },
        resultat: { before: 'paid', after: 'unknown' },
        resolution: { before: 'attached', after: null },
        motif: 'Rattachée à la mauvaise demande',
      },
    ]);
    const fileTrail = await server.get(`/api/pec_dossiers/${wrong.id}/history`, tokens.horizonAdmin);
    expect(fileTrail.body.member.at(-1)).toMatchObject({
      action: 'pec_dossier.payment_detach',
      changes: {
        status: { before: 'paid', after: 'billed' },
        montantPaye: { before: 300, after: null },
        ligne: 3,
        annulation: { after: { paiement: payment!['@id'], montant: 300, date: '2026-11-03', motif: 'Rattachée à la mauvaise demande' } },
      },
    });

    // Attached again, to the right file.
    const again = await attach(id, 3, right.id);
    expect(again.status, again.text).toBe(200);
    expect(lineOf(again.body, 3)).toMatchObject({ outcome: 'paid', resolution: 'attached', dossier: { id: right.id } });
    expect(again.body).toMatchObject({ pendingLines: 1, appliedAmount: 400 });
    expect(await paymentState(right.id)).toMatchObject({ status: 'paid', montantPaye: 300, datePaiement: '2026-11-03', montantDu: 0 });
    expect(await paymentState(wrong.id)).toEqual(UNPAID);

    // The statement still undoes as a whole; the detached payment keeps its own reason, counted nowhere.
    const undone = await undo(id);
    expect(undone.status, undone.text).toBe(200);
    for (const f of [imported, wrong, right]) expect(await paymentState(f.id)).toEqual(UNPAID);
    expect((await history(wrong.id)).map((p) => p.reversalReason)).toEqual(['Détachée du relevé : Rattachée à la mauvaise demande']);
    expect((await history(right.id)).map((p) => p.reversalReason)).toEqual(['Relevé annulé : Relevé importé deux fois']);
    expect(undone.body.totals.pending).toEqual({ count: 0, amount: 0 });
    expect(await disagreements()).toEqual([]);
  });

  it('takes a line counted as a distinct payment back to « Déjà appliquée », countable again', async () => {
    const f = await billedFile(1460);
    const s = await apply(csv(`20/11/2026;Santéclair;${f.numPec};730,00;Oreille droite`, `20/11/2026;Santéclair;${f.numPec};730,00;Oreille gauche`));
    const id = s.id as number;
    const copy = lineOf(s, 3);
    expect(copy).toMatchObject({ outcome: 'already_applied', outcomeLabel: 'Déjà appliquée (ligne 2 de ce relevé)', dossier: { id: f.id } });
    const counted = await lineAction('count', id, 3, { motif: 'Oreille gauche' });
    expect(counted.status, counted.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 1460 });

    const detached = await detach(id, 3, 'Un seul appareil');
    expect(detached.status, detached.text).toBe(200);
    expect(lineOf(detached.body, 3)).toEqual(copy);
    expect(detached.body).toMatchObject({ pendingLines: 0, appliedAmount: 730 });
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: 730, paiementPartiel: true, montantDu: 730 });
    expect((await history(f.id)).map((p) => [p.amount, p.distinctReason, p.reversalReason])).toEqual([
      [730, null, null],
      [730, 'Oreille gauche', 'Détachée du relevé : Un seul appareil'],
    ]);
    expect((await detach(id, 3)).body.detail).toBe(STATEMENT_MESSAGES.lineDetached);
    expect((await lineAction('count', id, 3, { motif: 'Oreille gauche, vraiment' })).status).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 1460 });
    expect(await disagreements()).toEqual([]);
  });
});

describe('« Détacher » refused, changing nothing', () => {
  it('while the file changed since: a later line of the statement, a later statement, a manual payment, « Payé » by hand (named, undone first)', async () => {
    const f = await billedFile(1000);
    const s = await apply(csv(`03/11/2026;MGEN;INCONNU-A-${f.id};300,00;`, `04/11/2026;MGEN;INCONNU-B-${f.id};200,00;`));
    const id = s.id as number;
    expect((await attach(id, 2, f.id)).status).toBe(200);
    expect((await attach(id, 3, f.id)).status).toBe(200);
    const paidBoth = await paymentState(f.id);
    expect(paidBoth).toMatchObject({ montantPaye: 500, montantDu: 500 });

    const later = await detach(id, 2);
    expect(later.status).toBe(409);
    expect(later.body.detail).toBe(
      `Détachement impossible : le paiement de la demande ${f.numeroDossier} a changé depuis que cette ligne l’a payée. Détachez d’abord la ligne 3 de ce relevé.`,
    );
    expect(await paymentState(f.id)).toEqual(paidBoth);
    expect(lineOf(await statement(id), 2)).toMatchObject({ resolution: 'attached' });

    // A later statement paid it: named; undone, the line detaches.
    const next = await apply(['Date de paiement;Payeur;Référence;Montant;N° de relevé', `05/11/2026;MGEN;${f.numPec};50,00;R-${f.id}`].join('\r\n'));
    const refused = await detach(id, 3);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Détachement impossible : le paiement de la demande ${f.numeroDossier} a changé depuis que cette ligne l’a payée. Relevé appliqué depuis : n° ${next.id} du ${frenchToday()} (réf. R-${f.id}). Annulez d’abord ce relevé.`,
    );
    expect((await undo(next.id)).status).toBe(200);

    // A payment entered by hand since.
    const manual = await server.request('POST', `/api/pec_dossiers/${f.id}/payments`, {
      token: tokens.audio,
      body: { datePaiement: '10/11/2026', montant: 20 },
    });
    expect(manual.status, manual.text).toBe(200);
    const byHand = await detach(id, 3);
    expect(byHand.status).toBe(409);
    expect(byHand.body.detail).toBe(
      `Détachement impossible : le paiement de la demande ${f.numeroDossier} a changé depuis que cette ligne l’a payée. Paiement saisi à la main depuis : ${formatEuros(20)} du 10/11/2026. Annulez-le d’abord dans l’historique des paiements de la demande.`,
    );
    const manualId = (await history(f.id)).find((p) => p.source === 'manual')!.id;
    expect((await server.request('POST', `/api/pec_payments/${manualId}/cancel`, { token: tokens.audio, body: { motif: 'Erreur' } })).status).toBe(200);

    // Marked 'Payé' by hand: final.
    const marked = await server.request('PATCH', `/api/pec_dossiers/${f.id}`, {
      token: tokens.audio,
      body: { status: 'paid' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(marked.status, marked.text).toBe(200);
    const final = await detach(id, 3);
    expect(final.status).toBe(409);
    expect(final.body.detail).toBe(
      `Détachement impossible : la demande ${f.numeroDossier} a été marquée « Payé » à la main depuis. « Payé » est un état final : cette ligne ne peut plus être détachée.`,
    );
    expect((await statement(id)).appliedAmount).toBe(500);
    expect(await disagreements()).toEqual([]);
  });

  it('while a later statement took its payment as already applied, once the statement is cancelled, and for a line attached before its state was kept', async () => {
    const f = await billedFile(300);
    const s = await apply(csv(`03/11/2026;MGEN;INCONNU-${f.id};300,00;`, `03/11/2026;MGEN;AUTRE-${f.id};40,00;`));
    const id = s.id as number;
    expect((await attach(id, 2, f.id)).status).toBe(200);
    const copy = await apply(csv(`03/11/2026;MGEN;${f.numPec};300,00;`, `06/11/2026;MGEN;NOUVEAU-${f.id};1,00;`));
    expect(lineOf(copy, 2)).toMatchObject({ outcome: 'already_applied', appliedIn: { id } });
    const copied = await detach(id, 2);
    expect(copied.status).toBe(409);
    expect(copied.body.detail).toBe(
      `Détachement impossible : le relevé n° ${copy.id} du ${frenchToday()} reprend le paiement de cette ligne comme déjà appliqué. Annulez d’abord ce relevé.`,
    );
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 300 });
    expect((await undo(copy.id)).status).toBe(200);

    // Attached before migration 0041 kept its state: nothing guessed, the whole statement is cancelled instead.
    await server.database.query(`update payment_statement_lines set before_payment = null where statement_id = $1 and line_number = 2`, [id]);
    const unknown = await detach(id, 2);
    expect(unknown.status).toBe(409);
    expect(unknown.body.detail).toBe(STATEMENT_MESSAGES.detachUnknownBefore);
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 300 });
    expect(lineOf(await statement(id), 2)).toMatchObject({ resolution: 'attached', outcome: 'paid' });

    // Cancelled with its statement: its lines are no longer handled.
    expect((await undo(id)).status).toBe(200);
    const undone = await detach(id, 2);
    expect(undone.status).toBe(409);
    expect(undone.body.detail).toBe(STATEMENT_MESSAGES.lineOfUndone);
    expect(await paymentState(f.id)).toEqual(UNPAID);
  });

  it('a later statement holding copies of two payments of the same amount and day: refused while it holds both, allowed once it holds one', async () => {
    const f = await billedFile(1460);
    const s = await apply(csv(`20/11/2026;Santéclair;${f.numPec};730,00;Oreille droite`, `20/11/2026;Santéclair;${f.numPec};730,00;Oreille gauche`));
    const id = s.id as number;
    expect((await lineAction('count', id, 3, { motif: 'Oreille gauche' })).status).toBe(200);

    // Both payments re-exported: detached, one of those copies would count nowhere.
    const both = await apply(
      csv(`20/11/2026;Santéclair;${f.numPec};730,00;`, `20/11/2026;Santéclair;${f.numPec};730,00;`, `21/11/2026;Santéclair;NOUVEAU-${f.id};1,00;`),
    );
    expect([lineOf(both, 2), lineOf(both, 3)]).toMatchObject([
      { outcome: 'already_applied', appliedIn: { id } },
      { outcome: 'already_applied', appliedIn: { id } },
    ]);
    const refused = await detach(id, 3, 'Un seul appareil');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Détachement impossible : le relevé n° ${both.id} du ${frenchToday()} reprend le paiement de cette ligne comme déjà appliqué. Annulez d’abord ce relevé.`,
    );
    expect(await paymentState(f.id)).toMatchObject({ status: 'paid', montantPaye: 1460 });
    expect((await undo(both.id)).status).toBe(200);

    // One of them re-exported: the payment that stays is the one it names.
    const one = await apply(csv(`20/11/2026;Santéclair;${f.numPec};730,00;`, `21/11/2026;Santéclair;NOUVEAU-${f.id};1,00;`));
    expect(lineOf(one, 2)).toMatchObject({ outcome: 'already_applied', appliedIn: { id } });
    const detached = await detach(id, 3, 'Un seul appareil');
    expect(detached.status, detached.text).toBe(200);
    expect(await paymentState(f.id)).toMatchObject({ status: 'billed', montantPaye: 730, paiementPartiel: true, montantDu: 730 });
    // The copy still stands for a payment the file holds: cancelling the statement it copies is refused as before.
    expect((await undo(id)).status).toBe(409);
    expect(await disagreements()).toEqual([]);
  });

  it('on a file of a centre the reader does not see: 403, detached by who sees it', async () => {
    const hidden = await billedFile(300, tokens.horizonAdmin, 'Horizon Lyon Part-Dieu'); // a centre audio@ is not assigned to
    const s = await apply(csv(`03/11/2026;MGEN;INCONNU-${hidden.id};300,00;`), tokens.horizonAdmin);
    expect((await lineAction('attach', s.id, 2, { dossier: hidden.id }, tokens.horizonAdmin)).status).toBe(200);
    const refused = await detach(s.id, 2, 'Mauvaise demande', tokens.audio);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(STATEMENT_MESSAGES.detachOutOfScope);
    expect(lineOf(await statement(s.id), 2)).toMatchObject({ resolution: 'attached' });
    expect((await detach(s.id, 2, 'Mauvaise demande', tokens.horizonAdmin)).status).toBe(200);
    expect((await server.get(`/api/pec_dossiers/${hidden.id}`, tokens.horizonAdmin)).body).toMatchObject({ status: 'billed', montantPaye: null });
  });
});
