// Bulk actions on selected files (issue 28): one outcome per file through the single action's rules (prerequisites,
// permissions, tenancy), the audit trail, the bound on the selection, bulk billing with a number per file, and robot
// runs queued within the organisation's robot concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, patientNumber, startPecServer, waitFor, waitForIdle, type Refs } from './helpers/pec';
import { ROBOT_CONCURRENCY_KEY } from '#domain/bulk';
import { BULK_MAX_FILES } from '#domain/limits';
import { PEC_MESSAGES, todayInFrance } from '#domain/pec';
import { ARCHIVE_MESSAGES } from '#domain/archive';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ robotSimDelayMs: 0 }));
});
afterAll(() => server?.close());

const bulk = (action: string, body: unknown, token = tokens.audio, on = server) => on.request('POST', `/api/pec_dossiers/bulk/${action}`, { token, body });
const iri = (id: unknown) => `/api/pec_dossiers/${id}`;
const resultOf = (res: { body: JsonBody }, id: unknown) => (res.body.results as JsonBody[]).find((r) => r['@id'] === iri(id));

/** A file whose DPEC is granted (the simulator's default answer). */
async function grantedFile() {
  const file = await createDossier(server, tokens.audio, refs);
  const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token: tokens.audio, body: { pecDossierId: file.id } });
  expect(started.status, started.text).toBe(200);
  const idle = await waitForIdle(server, tokens.audio, file.id as number);
  expect(idle.status).toBe('approved');
  return idle;
}

describe('bulk DPEC', () => {
  it('answers one outcome per file: queued, its French reason, or not found for another organisation’s', async () => {
    const ready = await createDossier(server, tokens.audio, refs);
    const lacking = await createDossier(server, tokens.audio, refs);
    await server.database.query('update pec_dossiers set numero_devis_assure = null where id = $1', [lacking.id]);
    const foreignId = (await createDossier(server, tokens.rivieraAdmin, refs, {}, 'Riviera Nice Médecin')).id;

    const res = await bulk('dpec', { ids: [iri(ready.id), iri(lacking.id), iri(foreignId), 'abc'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toHaveLength(4);
    expect(resultOf(res, ready.id)).toMatchObject({ numeroDossier: ready.numeroDossier, outcome: 'queued' });
    expect(resultOf(res, lacking.id)).toMatchObject({ outcome: 'refused', reason: 'Prérequis manquants : N° Devis Assuré.' });
    // Another organisation's file: refused as if it did not exist, its number never shown.
    expect(resultOf(res, foreignId)).toEqual({ '@id': iri(foreignId), numeroDossier: null, outcome: 'refused', reason: 'Dossier introuvable' });
    expect(res.body.results[3]).toMatchObject({ outcome: 'refused', reason: 'Identifiant de dossier invalide' });

    // The ready file runs; the others are unchanged.
    // Queued first: idle until its turn, so wait for its outcome rather than for idleness.
    await waitFor(async () => (await server.get(iri(ready.id), tokens.audio)).body.status === 'approved', 20_000, 'the queued run');
    expect((await server.get(iri(lacking.id), tokens.audio)).body.status).toBe('draft');
    const foreignRuns = await server.database.query('select 1 from workflow_executions where dossier_id = $1', [foreignId]);
    expect(foreignRuns).toHaveLength(0);

    // In the audit trail: one entry per file named, with the bulk's id and the outcome.
    const audit = await server.database.query<{ entity_id: string | null; changes: JsonBody }>(
      `select entity_id, changes from audit_logs where action = 'pec_dossier.bulk_dpec' and changes->>'bulkId' = $1 order by id`,
      [res.body.bulkId],
    );
    expect(audit.map((a) => [a.entity_id, a.changes.outcome])).toEqual([
      [String(ready.id), 'queued'],
      [String(lacking.id), 'refused'],
      [null, 'refused'],
      [null, 'refused'],
    ]);
    // The single action's own entry is there too, by the bulk's author.
    const started = await server.database.query(`select 1 from audit_logs where action = 'pec_dossier.dpec_start' and entity_id = $1`, [String(ready.id)]);
    expect(started).toHaveLength(1);
  });

  it('refuses whole, writing nothing, someone who may not ask for the action (read-only staff)', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    const count = async () => (await server.database.query<{ n: number }>('select count(*)::int as n from bulk_runs'))[0]!.n;
    const before = await count();
    const bodies: Record<string, JsonBody> = {
      dpec: { ids: [iri(file.id)] },
      billing: { ids: [iri(file.id)], dateBilling: todayInFrance(), numbers: ['X'] },
      archive: { ids: [iri(file.id)], archiveReason: 'abandoned' },
      assign: { ids: [iri(file.id)], owner: null },
    };
    for (const [action, body] of Object.entries(bodies)) {
      const res = await bulk(action, body, tokens.readOnly);
      expect(res.status, action).toBe(403);
      expect(res.body.detail).toBe('Accès refusé : vous n’avez pas la permission nécessaire.');
    }
    expect(await count()).toBe(before);
    expect((await server.get(iri(file.id), tokens.audio)).body).toMatchObject({ status: 'draft', archived: false });
  });

  it('acts once on a file named twice', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    const res = await bulk('dpec', { ids: [iri(file.id), file.id, iri(file.id)] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toEqual([{ '@id': iri(file.id), numeroDossier: file.numeroDossier, outcome: 'queued' }]);
  });

  it('bounds the selection (French 422)', async () => {
    const tooMany = await bulk('dpec', { ids: Array.from({ length: BULK_MAX_FILES + 1 }, (_, i) => iri(i + 1)) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail).toBe(`${BULK_MAX_FILES + 1} dossiers sélectionnés : ${BULK_MAX_FILES} au plus par action groupée.`);
    const none = await bulk('dpec', { ids: [] });
    expect(none.status).toBe(422);
    expect(none.body.detail).toBe('Sélectionnez au moins un dossier.');
    expect((await bulk('explode', { ids: [iri(1)] })).status).toBe(404);
  });
});

describe('bulk billing', () => {
  it('saves one invoice date and a number per file, then queues the billing; a file without a granted DPEC is refused', async () => {
    const first = await grantedFile();
    const second = await grantedFile();
    const draft = await createDossier(server, tokens.audio, refs);
    const today = todayInFrance();
    const res = await bulk('billing', { ids: [first['@id'], second['@id'], iri(draft.id)], dateBilling: today, numbers: ['FAC-101', 'FAC-102', 'FAC-103'] });
    expect(res.status, res.text).toBe(200);
    // Each billed file's summary line says the invoice number it was given; the refused file got none.
    expect(resultOf(res, first.id)).toMatchObject({ outcome: 'queued', numBilling: 'FAC-101' });
    expect(resultOf(res, second.id)).toMatchObject({ outcome: 'queued', numBilling: 'FAC-102' });
    expect(resultOf(res, draft.id)).toMatchObject({ outcome: 'refused', reason: 'Prérequis manquants : DPEC accordé.' });
    expect(resultOf(res, draft.id)).not.toHaveProperty('numBilling');
    // Refused before anything is written: no invoice on the draft.
    expect((await server.get(iri(draft.id), tokens.audio)).body.numBilling).toBeNull();
    for (const [file, number] of [
      [first, 'FAC-101'],
      [second, 'FAC-102'],
    ] as const) {
      const billed = await waitFor(async () => {
        const body = (await server.get(iri(file.id), tokens.audio)).body;
        return body.statutFacturation ? body : undefined;
      });
      expect(billed).toMatchObject({ numBilling: number, dateBilling: today });
    }
  });

  it('writes no invoice on a file the robot then refuses to bill (a run in progress): a refused file is unchanged', async () => {
    const busy = await grantedFile();
    await server.database.query(
      `insert into workflow_executions (holding_id, dossier_id, workflow_name) select holding_id, id, 'DPEC' from pec_dossiers where id = $1`,
      [busy.id],
    );
    const res = await bulk('billing', { ids: [busy['@id']], dateBilling: todayInFrance(), numbers: ['FAC-EN-COURS'] });
    expect(resultOf(res, busy.id)).toMatchObject({ outcome: 'refused', reason: 'Un appel robot est déjà en cours pour ce dossier.' });
    expect(resultOf(res, busy.id).numBilling).toBeUndefined();
    expect((await server.get(iri(busy.id), tokens.audio)).body).toMatchObject({ numBilling: null, dateBilling: null });
  });

  it('leaves a billed or paid file’s invoice as it was, its refusal said', async () => {
    const billed = await grantedFile();
    await server.database.query(
      `update pec_dossiers set status = 'billed', statut_facturation = true, num_billing = 'FAC-ORIGINE', date_billing = $2 where id = $1`,
      [billed.id, todayInFrance()],
    );
    const res = await bulk('billing', { ids: [billed['@id']], dateBilling: todayInFrance(), numbers: ['FAC-PIRATE'] });
    expect(resultOf(res, billed.id)).toMatchObject({ outcome: 'refused', reason: 'Ce dossier est déjà facturé.' });
    expect((await server.get(iri(billed.id), tokens.audio)).body.numBilling).toBe('FAC-ORIGINE');
    // Nor by hand: the statements find the file by this number.
    const patched = await server.request('PATCH', iri(billed.id), {
      token: tokens.horizonAdmin,
      body: { numBilling: 'FAC-PIRATE' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.violations).toEqual([{ propertyPath: 'numBilling', message: PEC_MESSAGES.invoiceLocked }]);
    // The same values again change nothing and are accepted (a form saved whole).
    const same = await server.request('PATCH', iri(billed.id), {
      token: tokens.horizonAdmin,
      body: { numBilling: 'FAC-ORIGINE', commentaire: 'Relu' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(same.status, same.text).toBe(200);
  });

  it('checks the invoice date and the numbers before anything (French 422 per field)', async () => {
    const file = await grantedFile();
    const res = await bulk('billing', { ids: [file['@id']], dateBilling: 'abc', numbers: ['F-1'] });
    expect(res.status).toBe(422);
    expect(res.body.violations.map((v: JsonBody) => v.propertyPath)).toEqual(['dateBilling']);
    const noNumbers = await bulk('billing', { ids: [file['@id']], dateBilling: todayInFrance() });
    expect(noNumbers.body.violations).toEqual([{ propertyPath: 'numbers', message: 'Liste des numéros de facture attendue, un par dossier.' }]);
    const objects = await bulk('dpec', { ids: [{ id: 1 }] });
    expect(objects.body.violations[0].message).toBe('Liste de dossiers attendue : leurs identifiants ou leurs IRI (/api/pec_dossiers/{id}).');
    expect((await server.get(iri(file.id), tokens.audio)).body.numBilling).toBeNull();
  });

  it('refuses an invoice number another file of the organisation has (case ignored), alone or in bulk; another organisation may have it', async () => {
    const [first, second, third] = [await grantedFile(), await grantedFile(), await grantedFile()];
    const number = `FAC-DOUBLE-${first.id}`;
    const patch = (id: unknown, numBilling: string, token = tokens.horizonAdmin) =>
      server.request('PATCH', iri(id), { token, body: { numBilling }, headers: { 'content-type': 'application/merge-patch+json' } });
    expect((await patch(first.id, number)).status).toBe(200);
    const again = await patch(second.id, ` ${number.toLowerCase()} `);
    expect(again.status).toBe(422);
    expect(again.body.violations).toEqual([{ propertyPath: 'numBilling', message: PEC_MESSAGES.invoiceNumberTaken(first.numeroDossier as string) }]);
    // In bulk: the file named with it is refused and unchanged, the other billed.
    const res = await bulk('billing', { ids: [second['@id'], third['@id']], dateBilling: todayInFrance(), numbers: [number, `${number}-B`] });
    expect(resultOf(res, second.id)).toMatchObject({ outcome: 'refused', reason: PEC_MESSAGES.invoiceNumberTaken(first.numeroDossier as string) });
    expect(resultOf(res, third.id)).toMatchObject({ outcome: 'queued' });
    expect((await server.get(iri(second.id), tokens.audio)).body.numBilling).toBeNull();
    // The same number in another organisation is theirs to use.
    const foreign = await createDossier(server, tokens.rivieraAdmin, refs, {}, 'Riviera Nice Médecin');
    expect((await patch(foreign.id, number, tokens.rivieraAdmin)).status).toBe(200);
  });

  it('refuses an invoice number another file has with other spaces or punctuation, as a statement reads it, alone or in bulk', async () => {
    const [first, second, third] = [await grantedFile(), await grantedFile(), await grantedFile()];
    const patch = (id: unknown, numBilling: string) =>
      server.request('PATCH', iri(id), { token: tokens.horizonAdmin, body: { numBilling }, headers: { 'content-type': 'application/merge-patch+json' } });
    const taken = PEC_MESSAGES.invoiceNumberTaken(first.numeroDossier as string);
    expect((await patch(first.id, `FAC-PLI-${first.id}`)).status).toBe(200);
    for (const number of [`FAC PLI ${first.id}`, `fac/pli/${first.id}`, `FACPLI${first.id}`]) {
      const refused = await patch(second.id, number);
      expect(refused.status, number).toBe(422);
      expect(refused.body.violations).toEqual([{ propertyPath: 'numBilling', message: taken }]);
    }
    const res = await bulk('billing', {
      ids: [second['@id'], third['@id']],
      dateBilling: todayInFrance(),
      numbers: [`FAC.PLI.${first.id}`, `FAC-PLI-${third.id}`],
    });
    expect(resultOf(res, second.id)).toMatchObject({ outcome: 'refused', reason: taken });
    expect(resultOf(res, third.id)).toMatchObject({ outcome: 'queued' });
    expect((await server.get(iri(second.id), tokens.audio)).body.numBilling).toBeNull();
  });

  it('refuses a file without its number', async () => {
    const file = await grantedFile();
    const res = await bulk('billing', { ids: [file['@id']], dateBilling: todayInFrance(), numbers: [''] });
    expect(resultOf(res, file.id)).toMatchObject({ outcome: 'refused', reason: 'Numéro de facture manquant pour ce dossier.' });
  });
});

describe('bulk archive', () => {
  it('archives each file its user may archive, with one reason', async () => {
    const own = await createDossier(server, tokens.audio, refs);
    const others = await createDossier(server, tokens.horizonAdmin, refs);
    const res = await bulk('archive', { ids: [iri(own.id), iri(others.id)], archiveReason: 'abandoned' });
    expect(res.status, res.text).toBe(200);
    expect(resultOf(res, own.id)).toMatchObject({ outcome: 'done' });
    expect((await server.get(iri(own.id), tokens.audio)).body).toMatchObject({ archived: true, archiveReason: 'abandoned' });
    // The dialog sends an empty note as null: any reason but 'Autre' needs none; 'Autre' needs one, said in French.
    const third = await createDossier(server, tokens.audio, refs);
    const withNull = await bulk('archive', { ids: [iri(third.id)], archiveReason: 'duplicate', archiveNote: null });
    expect(resultOf(withNull, third.id)).toMatchObject({ outcome: 'done' });
    const fourth = await createDossier(server, tokens.audio, refs);
    const otherWithout = await bulk('archive', { ids: [iri(fourth.id)], archiveReason: 'other', archiveNote: null });
    expect(otherWithout.status).toBe(422);
    expect(otherWithout.body.violations).toEqual([{ propertyPath: 'archiveNote', message: ARCHIVE_MESSAGES.note }]);
    // The rule of the single archive: its author, or delete.pec.
    const other = resultOf(res, others.id)!;
    const single = await server.request('PATCH', iri(others.id), {
      token: tokens.audio,
      body: { archived: true, archiveReason: 'abandoned' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    if (single.status === 200) expect(other.outcome).toBe('done');
    else expect(other).toMatchObject({ outcome: 'refused', reason: single.body.detail });
  });
});

describe('robot concurrency per organisation', () => {
  let slow: TestServer;
  let slowTokens: Record<string, string>;
  let slowRefs: Refs;
  beforeAll(async () => {
    ({ server: slow, refs: slowRefs, tokens: slowTokens } = await startPecServer({ robotSimDelayMs: 400 }));
  });
  afterAll(() => slow?.close());

  it('runs a bulk DPEC of five files at most two at a time with concurrency 2, and all of them', async () => {
    // Through the settings screen's call, as an administrator would: the server reads the new value at once.
    const [setting] = await slow.database.query<{ id: number }>(`select id from configs where key = $1`, [ROBOT_CONCURRENCY_KEY]);
    const put = await slow.request('PUT', `/api/configs/${setting!.id}`, { token: slowTokens.admin, body: { value: 2 } });
    expect(put.status, put.text).toBe(200);
    const files: JsonBody[] = [];
    for (let i = 0; i < 5; i++) files.push(await createDossier(slow, slowTokens.audio, slowRefs, { numeroDossierAssure: patientNumber() }));
    const res = await bulk('dpec', { ids: files.map((f) => iri(f.id)) }, slowTokens.audio, slow);
    expect(res.status, res.text).toBe(200);
    expect((res.body.results as JsonBody[]).map((r) => r.outcome)).toEqual(['queued', 'queued', 'queued', 'queued', 'queued']);
    const ids = files.map((f) => f.id as number);
    let most = 0;
    await waitFor(
      async () => {
        const [row] = await slow.database.query<{ open: number; ended: number }>(
          `select count(*) filter (where completed_at is null)::int as open,
                  count(distinct dossier_id) filter (where completed_at is not null and run_kind = 'dpec' and callback_type = 'dpec')::int as ended
           from workflow_executions where dossier_id = any($1::int[])`,
          [ids],
        );
        most = Math.max(most, row!.open);
        return row!.ended === 5 && row!.open === 0;
      },
      30_000,
      'five runs ended',
    );
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
    const states = await slow.database.query<{ state: string }>(`select state from bulk_runs where bulk_id = $1`, [res.body.bulkId]);
    expect(states.map((s) => s.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
  });
});
