// Files never lost (issue 25): a file with money or an insurer's answer is not deleted (409, every table unchanged) but
// archived with a reason, by its author or delete.pec, and restored by delete.pec; an archived file leaves the default
// list, stays in the archived filter, the export, the money figures and receivables, and the robot refuses it. A plain
// draft is still deleted, its number kept by the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, robotCallback, startPecServer, type Refs } from './helpers/pec';
import { todayInFrance } from '#domain/pec';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

// No workers: a run started here stays open until a result is posted, so each state is the one the test made.
beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

const patch = (id: number, body: unknown, token = tokens.audio) =>
  server.request('PATCH', `/api/pec_dossiers/${id}`, { token, body, headers: { 'content-type': 'application/merge-patch+json' } });
const archive = (id: number, token: string, reason = 'duplicate', note?: string) =>
  patch(id, { archived: true, archiveReason: reason, ...(note === undefined ? {} : { archiveNote: note }) }, token);
const restore = (id: number, token: string) => patch(id, { archived: false }, token);
const remove = (id: number, token = tokens.horizonAdmin) => server.request('DELETE', `/api/pec_dossiers/${id}`, { token });
const startDpec = (id: number, token = tokens.audio) =>
  server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: id } });
const startBilling = (id: number, token = tokens.audio) =>
  server.request('POST', '/api/robot-frontend/setup-and-billing-pec', { token, body: { pecDossierId: id } });
const listed = async (query: string, token = tokens.horizonAdmin) => {
  const res = await server.get(`/api/pec_dossiers?${query}`, token);
  expect(res.status, res.text).toBe(200);
  return res.body.member.map((m: JsonBody) => m.id as number);
};

/** Every table of the application, each as one digest of its rows: what "nothing changed" means. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await server.database.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await server.database.query<{ digest: string }>(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`,
    );
    digests[name] = row!.digest;
  }
  return digests;
}

/** A file put in a robot's state directly (the robot's fields are not writable through the API). */
async function fileIn(state: { status: string; numPec?: string | null; partComplementaire?: number; billedOn?: string }, token = tokens.audio, shop?: string) {
  const created = await createDossier(server, token, refs, {}, shop);
  const billed = state.status === 'billed' || state.status === 'paid';
  await server.database.query(
    `update pec_dossiers set status = $2, num_pec = $3, part_complementaire = $4, statut_facturation = $5, date_facturation_effective = $6,
       num_billing = case when $5 then 'FAC-' || id end, date_billing = $6, date_creation = $7 where id = $1`,
    [
      created.id,
      state.status,
      state.numPec ?? null,
      state.partComplementaire ?? 1220,
      billed,
      billed ? (state.billedOn ?? todayInFrance()) : null,
      todayInFrance(),
    ],
  );
  return created as { id: number; numeroDossier: string; numeroDossierAssure: string; numeroDevisAssure: string };
}

describe('deleting', () => {
  it('refuses a file with money or an insurer’s answer (409 with its number and why), every table unchanged', async () => {
    // The file: billed with a PEC number and an invoice, 650 € paid of 1 220 € expected.
    const billed = await fileIn({ status: 'billed', numPec: 'PEC-ACCORD-401' });
    const paid = await server.request('POST', `/api/pec_dossiers/${billed.id}/payments`, {
      token: tokens.horizonAdmin,
      body: { datePaiement: todayInFrance(), montant: '650,00', libelle: 'Acompte' },
    });
    expect(paid.status, paid.text).toBe(200);
    const fullyPaid = await fileIn({ status: 'paid', numPec: 'PEC-ACCORD-402' });
    const granted = await fileIn({ status: 'approved', numPec: 'PEC-ACCORD-403' });
    // A payment on a file that shows no other sign of it: a row of its payment history (here a cancelled one, from a
    // statement line: a posted payment keeps its file even once reversed).
    const withPayment = await fileIn({ status: 'draft' });
    const [holding] = await server.database.query<{ holding_id: number }>('select holding_id from pec_dossiers where id = $1', [withPayment.id]);
    const [statement] = await server.database.query<{ id: number }>(
      `insert into payment_statements (holding_id, payer, status, lines_count, total_amount, applied_amount) values ($1, 'Allianz', 'applied', 1, 80, 80) returning id`,
      [holding!.holding_id],
    );
    const [line] = await server.database.query<{ id: number }>(
      `insert into payment_statement_lines (statement_id, holding_id, line_number, payment_date, payer, reference, amount, dossier_id, outcome)
       values ($1, $2, 2, $3, 'Allianz', 'REF-1', 80, $4, 'paid') returning id`,
      [statement!.id, holding!.holding_id, todayInFrance(), withPayment.id],
    );
    await server.database.query(
      `insert into pec_payments (holding_id, dossier_id, payment_date, amount, source, statement_id, statement_line_id, payer, reference, reversed_at, reversal_reason)
       values ($1, $2, $3, 80, 'statement', $4, $5, 'Allianz', 'REF-1', now(), 'Relevé annulé')`,
      [holding!.holding_id, withPayment.id, todayInFrance(), statement!.id, line!.id],
    );

    const before = await snapshot();
    const expected: [number, string][] = [
      [billed.id, `Suppression impossible : la demande ${billed.numeroDossier} est facturée.`],
      [fullyPaid.id, `Suppression impossible : la demande ${fullyPaid.numeroDossier} est payée.`],
      [granted.id, `Suppression impossible : la demande ${granted.numeroDossier} porte le numéro de PEC PEC-ACCORD-403.`],
      [withPayment.id, `Suppression impossible : la demande ${withPayment.numeroDossier} a reçu un paiement.`],
    ];
    for (const [id, reason] of expected) {
      const res = await remove(id);
      expect(res.status, res.text).toBe(409);
      expect(res.body.detail).toBe(`${reason} Archivez-la plutôt : elle restera dans l’historique, les exports et les statistiques.`);
    }
    expect(await snapshot()).toEqual(before);

    // The bulk delete asks the same, for each file: the first refusal cancels the batch, the draft before it included.
    const draft = await createDossier(server, tokens.audio, refs);
    const withDraft = await snapshot();
    const bulk = await server.request('POST', '/api/pec_dossiers/bulk-delete', { token: tokens.horizonAdmin, body: { ids: [draft.id, billed.id] } });
    expect(bulk.status).toBe(409);
    expect(bulk.body.detail).toContain(`la demande ${billed.numeroDossier} est facturée`);
    expect(await snapshot()).toEqual(withDraft);

    // Archived instead: a file paid in full has its own reason, « Dossier soldé ».
    const settled = await archive(fullyPaid.id, tokens.horizonAdmin, 'settled');
    expect(settled.status, settled.text).toBe(200);
    expect(settled.body).toMatchObject({ archived: true, archiveReason: 'settled' });
  });

  it('refuses a file that went to the robot or left the drafts, and erases a plain draft, the trail keeping its number', async () => {
    const sent = await createDossier(server, tokens.audio, refs);
    expect((await startDpec(sent.id)).status).toBe(200);
    const run = await server.database.query<{ run_id: number }>('select run_id from workflow_executions where dossier_id = $1', [sent.id]);
    // A technical failure returns it to the drafts: it still went to the robot.
    const failed = await robotCallback(server, 'scraping', {
      id_pecflow: (await server.get(`/api/pec_dossiers/${sent.id}`, tokens.audio)).body.externalId,
      success: false,
      messages: ['Portail indisponible'],
      run_id: run[0]!.run_id,
    });
    expect(failed.status, failed.text).toBe(200);
    expect((await server.get(`/api/pec_dossiers/${sent.id}`, tokens.audio)).body.status).toBe('draft');
    const refused = await remove(sent.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(new RegExp(`^Suppression impossible : la demande ${sent.numeroDossier} a déjà été transmise au robot\\.`));

    const pending = await createDossier(server, tokens.audio, refs);
    expect((await patch(pending.id, { status: 'pending' })).status).toBe(200);
    expect((await remove(pending.id)).body.detail).toMatch(
      new RegExp(`^Suppression impossible : la demande ${pending.numeroDossier} n’est plus un brouillon \\(état « En attente »\\)\\.`),
    );

    const plain = await createDossier(server, tokens.audio, refs);
    expect((await remove(plain.id)).status).toBe(204);
    expect((await server.get(`/api/pec_dossiers/${plain.id}`, tokens.horizonAdmin)).status).toBe(404);
    const trail = await server.get(`/api/audit_logs?entity=pec_dossiers&entityId=${plain.id}&order[id]=asc`, tokens.horizonAdmin);
    expect(trail.body.member.map((e: JsonBody) => [e.action, e.entityLabel])).toEqual([
      ['pec_dossier.create', plain.numeroDossier],
      ['pec_dossier.delete', plain.numeroDossier],
    ]);
    // The trail is searched by the number people know.
    const found = await server.get(`/api/audit_logs?search=${plain.numeroDossier}`, tokens.horizonAdmin);
    expect(found.body.member.map((e: JsonBody) => e.entityId)).toContain(String(plain.id));
  });
});

describe('archiving and restoring', () => {
  it('lets the author archive their own draft with a reason, and delete.pec restore it; nobody else', async () => {
    const mine = await createDossier(server, tokens.assistant, refs, {}, 'Horizon Lyon Part-Dieu');
    const theirs = await createDossier(server, tokens.horizonAdmin, refs, {}, 'Horizon Lyon Part-Dieu');

    // The reason is required, and its text when it is 'Autre'; the archiving is a write of its own.
    expect((await patch(mine.id, { archived: true }, tokens.assistant)).body.violations).toEqual([
      { propertyPath: 'archiveReason', message: 'Choisissez le motif de l’archivage' },
    ]);
    expect((await archive(mine.id, tokens.assistant, 'other', '  ')).body.violations).toEqual([
      { propertyPath: 'archiveNote', message: 'Précisez le motif de l’archivage' },
    ]);
    const mixed = await patch(mine.id, { archived: true, archiveReason: 'duplicate', commentaire: 'et autre chose' }, tokens.assistant);
    expect(mixed.status).toBe(422);
    expect(mixed.body.violations[0].propertyPath).toBe('archived');

    // Someone else's file: an Assistant(e) has no delete right; read-only staff change nothing; another organisation sees nothing.
    const notTheirs = await archive(theirs.id, tokens.assistant);
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.detail).toBe('Seuls l’auteur de la demande et les utilisateurs autorisés à supprimer des demandes peuvent l’archiver.');
    expect((await archive(theirs.id, tokens.readOnly)).status).toBe(403);
    expect((await archive(theirs.id, tokens.rivieraAdmin)).status).toBe(404);
    expect((await server.get(`/api/pec_dossiers/${theirs.id}`, tokens.horizonAdmin)).body.archived).toBe(false);

    const archived = await archive(mine.id, tokens.assistant, 'other', 'Patient parti chez un confrère');
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body).toMatchObject({ archived: true, archiveReason: 'other', archiveNote: 'Patient parti chez un confrère', status: 'draft' });
    expect(Date.parse(archived.body.archivedAt)).toBeGreaterThan(Date.now() - 60_000);

    // Frozen: nothing but its restoration.
    const edit = await patch(mine.id, { commentaire: 'changé' }, tokens.assistant);
    expect(edit.status).toBe(409);
    expect(edit.body.detail).toBe(`La demande ${mine.numeroDossier} est archivée : restaurez-la avant de la modifier.`);
    expect((await patch(mine.id, { status: 'pending' }, tokens.horizonAdmin)).status).toBe(409);
    expect((await archive(mine.id, tokens.assistant)).body.detail).toBe(`La demande ${mine.numeroDossier} est déjà archivée.`);

    // Restoring: delete.pec only, not the author, not an audioprothésiste.
    const byAuthor = await restore(mine.id, tokens.assistant);
    expect(byAuthor.status).toBe(403);
    expect(byAuthor.body.detail).toBe('Seuls les utilisateurs autorisés à supprimer des demandes peuvent restaurer une demande archivée.');
    expect((await restore(mine.id, tokens.audio)).status).toBe(404); // not one of the audioprothésiste's centres
    const audioFile = await createDossier(server, tokens.audio, refs);
    expect((await archive(audioFile.id, tokens.audio, 'abandoned')).status).toBe(200);
    expect((await restore(audioFile.id, tokens.audio)).status).toBe(403);
    expect((await restore(mine.id, tokens.rivieraAdmin)).status).toBe(404);
    const restored = await restore(mine.id, tokens.horizonAdmin);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ archived: false, archivedAt: null, archiveReason: null, archiveNote: null });

    // The trail says archive and restore, with the file's number and what changed.
    const trail = await server.get(`/api/audit_logs?entity=pec_dossiers&entityId=${mine.id}&order[id]=asc`, tokens.horizonAdmin);
    const changes = trail.body.member.filter((e: JsonBody) => e.action !== 'pec_dossier.read' && e.action !== 'pec_dossier.create');
    expect(changes.map((e: JsonBody) => [e.action, e.actorEmail, e.entityLabel])).toEqual([
      ['pec_dossier.archive', 'assistant@audition-horizon.fr', mine.numeroDossier],
      ['pec_dossier.restore', 'direction@audition-horizon.fr', mine.numeroDossier],
    ]);
    expect(changes[0].changes).toMatchObject({
      archived: { before: false, after: true },
      archiveReason: { before: null, after: 'other' },
      archiveNote: { before: null, after: 'Patient parti chez un confrère' },
    });
    expect(changes[1].changes).toMatchObject({ archived: { before: true, after: false }, archiveReason: { before: 'other', after: null } });
  });

  it('keeps an archived file out of the default list, in the archived filter, the export, the money figures and receivables', async () => {
    const stats = async () => (await server.get('/api/pec_dossiers/stats', tokens.horizonAdmin)).body;
    const file = await fileIn({ status: 'billed', numPec: 'PEC-ARCH-1', partComplementaire: 900 });
    const before = await stats();
    const archived = await archive(file.id, tokens.horizonAdmin, 'abandoned');
    expect(archived.status, archived.text).toBe(200);

    expect(await listed(`search=${file.numeroDossierAssure}`)).toEqual([]);
    expect(await listed(`search=${file.numeroDossierAssure}&archived=false`)).toEqual([]);
    expect(await listed(`search=${file.numeroDossierAssure}&archived=true`)).toEqual([file.id]);
    expect(await listed(`search=${file.numeroDossierAssure}&archived=all`)).toEqual([file.id]);
    // A value of the filter it does not know is said, not a silent empty list (nor a 500).
    for (const query of ['archived=nonsense', 'archived=bogus&itemsPerPage=5', 'archived=true&archived=bogus']) {
      const bogus = await server.get(`/api/pec_dossiers?${query}`, tokens.horizonAdmin);
      expect(bogus.status, query).toBe(400);
      expect(bogus.body.detail).toBe('Filtre « archived » invalide : true, false ou all attendu.');
    }
    const archivedOnly = (await server.get('/api/pec_dossiers?archived=true&itemsPerPage=100', tokens.horizonAdmin)).body.member;
    expect(archivedOnly.every((m: JsonBody) => m.archived === true)).toBe(true);
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body).toMatchObject({ archived: true, archiveReason: 'abandoned' });

    // The money stays counted; the work in hand (by status) no longer counts it.
    const after = await stats();
    expect(after.billedThisMonth).toEqual(before.billedThisMonth);
    expect(after.receivables.count).toBe(before.receivables.count);
    expect(after.receivables.amount).toBe(before.receivables.amount);
    expect(after.byStatus.billed).toBe(before.byStatus.billed - 1);
    expect(after.total).toBe(before.total - 1);
    // Each figure is the length of the list behind its link: billed this month and receivables include archived files.
    const monthStart = `${todayInFrance().slice(0, 7)}-01`;
    const billedLink = await server.get(
      `/api/pec_dossiers?statutFacturation=true&dateFacturationEffective[after]=${monthStart}&archived=all`,
      tokens.horizonAdmin,
    );
    expect(billedLink.body.totalItems).toBe(after.billedThisMonth.count);
    expect((await server.get('/api/pec_dossiers?status=billed&archived=all', tokens.horizonAdmin)).body.totalItems).toBe(after.receivables.count);
    expect((await server.get('/api/pec_dossiers?status=billed', tokens.horizonAdmin)).body.totalItems).toBe(after.byStatus.billed);

    // The export keeps it, flagged with its reason, unless asked for the files in hand only.
    const exportCsv = async (query: string) => {
      const res = await fetch(`${server.url}/api/pec_dossiers/export?${query}`, { headers: { authorization: `Bearer ${tokens.horizonAdmin}` } });
      const [header, ...rows] = (await res.text())
        .replace('\uFEFF', '')
        .trim()
        .split('\r\n')
        .map((line) => line.split(';'));
      return rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i]])));
    };
    expect(await exportCsv(`search=${file.numeroDossierAssure}`)).toEqual([
      expect.objectContaining({ 'N° dossier': file.numeroDossier, État: 'Facturé', Archivée: 'Oui', 'Motif d’archivage': 'Abandonnée par le patient' }),
    ]);
    expect(await exportCsv(`search=${file.numeroDossierAssure}&archived=false`)).toEqual([]);
    const inHand = await createDossier(server, tokens.audio, refs);
    expect(await exportCsv(`search=${inHand.numeroDossierAssure}`)).toEqual([expect.objectContaining({ Archivée: 'Non', 'Motif d’archivage': '' })]);
  });

  it('refuses a reason without archiving (422), writing nothing and no audit entry', async () => {
    const file = await fileIn({ status: 'draft' });
    const audits = async () =>
      Number(
        (await server.database.query<{ n: string }>(`select count(*) as n from audit_logs where entity = 'pec_dossiers' and entity_id = $1`, [file.id]))[0]!.n,
      );
    const before = await audits();
    for (const body of [{ archiveReason: 'duplicate' }, { archiveNote: 'Sans archiver' }, { archived: false, archiveReason: 'other' }]) {
      const res = await patch(file.id, body, tokens.horizonAdmin);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.violations).toEqual([
        expect.objectContaining({ propertyPath: 'archiveReason', message: 'Le motif s’indique en archivant la demande (archived: true)' }),
      ]);
    }
    expect(await audits()).toBe(before);
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.horizonAdmin)).body).toMatchObject({ archived: false, archiveReason: null });
  });

  it('is refused while a robot run is in progress', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    expect((await startDpec(file.id)).status).toBe(200);
    const res = await archive(file.id, tokens.horizonAdmin);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('Un appel robot est en cours sur ce dossier : archivage impossible pour le moment.');
  });
});

describe('the robot and an archived file', () => {
  it('starts no DPEC and no billing, and takes no result, from the robot or by hand; the file unchanged', async () => {
    // Granted, then archived as a duplicate: neither the billing nor a late answer may change it.
    const file = await createDossier(server, tokens.audio, refs);
    expect((await startDpec(file.id)).status).toBe(200);
    const { externalId } = (await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body;
    const granted = await server.request('POST', '/api/callbacks/dpec', {
      token: tokens.audio,
      body: { id_pecflow: externalId, success: true, messages: ['Accord'], num_pec: 'PEC-TWIN-1', part_complementaire: 700 },
    });
    expect(granted.status, granted.text).toBe(200);
    expect((await patch(file.id, { numBilling: 'FAC-TWIN-1', dateBilling: todayInFrance() })).status).toBe(200);
    expect((await archive(file.id, tokens.horizonAdmin, 'duplicate')).status).toBe(200);
    const before = await snapshot();

    const dpec = await startDpec(file.id);
    expect(dpec.status).toBe(409);
    expect(dpec.body.detail).toBe(`La demande ${file.numeroDossier} est archivée : le robot ne la traite plus. Restaurez-la d’abord.`);
    expect((await startBilling(file.id)).status).toBe(409);
    const callbackMessage = `La demande ${file.numeroDossier} est archivée : aucun résultat n’y est enregistré. Restaurez-la d’abord, puis saisissez le résultat.`;
    const byHand = await server.request('POST', '/api/callbacks/billing', {
      token: tokens.audio,
      body: { id_pecflow: externalId, success: true, messages: [] },
    });
    expect(byHand.status).toBe(409);
    expect(byHand.body.detail).toBe(callbackMessage);
    const late = await robotCallback(server, 'dpec', { id_pecflow: externalId, success: true, messages: ['Accord tardif'], num_pec: 'PEC-TWIN-2' });
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe(callbackMessage);
    expect(await snapshot()).toEqual(before);

    // Restored, it goes on: the billing starts.
    expect((await restore(file.id, tokens.horizonAdmin)).status).toBe(200);
    expect((await startBilling(file.id)).status).toBe(200);
  });
});
