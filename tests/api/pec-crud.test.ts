// POST, PUT, PATCH and DELETE /api/pec_dossiers: each French validation message, the readable number, the centre and
// mutual rules, the lifecycle of the status (allowed and refused changes), the permissions. No workers: a run started
// here stays in progress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, startPecServer, type Refs } from './helpers/pec';
import { hashPassword } from '../../server/auth/passwords';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

const post = (body: unknown, token = tokens.audio) => server.request('POST', '/api/pec_dossiers', { token, body });
const put = (id: number, body: unknown, token = tokens.audio) => server.request('PUT', `/api/pec_dossiers/${id}`, { token, body });
const patch = (id: number, body: unknown, token = tokens.audio) =>
  server.request('PATCH', `/api/pec_dossiers/${id}`, { token, body, headers: { 'content-type': 'application/merge-patch+json' } });
const messages = (res: { body: JsonBody }) => Object.fromEntries((res.body.violations ?? []).map((v: JsonBody) => [v.propertyPath, v.message]));
const shopIri = (name = 'Horizon Paris Bastille') => `/api/shops/${refs.shops[name]}`;
const mutualIri = (name = 'Allianz') => `/api/mutuals/${refs.mutuals[name]!.id}`;

/** The body the edit form sends back: the file's fields with references as IRIs. */
const formOf = (file: JsonBody) => ({
  numeroDossier: file.numeroDossier,
  shop: file.shop['@id'],
  mutual: file.mutual['@id'],
  numeroDossierAssure: file.numeroDossierAssure,
  numeroDevisAssure: file.numeroDevisAssure,
  commentaire: file.commentaire,
  status: file.status,
});

describe('create', () => {
  it('answers each French message of the PEC form', async () => {
    const res = await post({});
    expect(res.status).toBe(422);
    expect(res.body['@type']).toBe('ConstraintViolationList');
    expect(messages(res)).toEqual({
      shop: 'Un centre doit être sélectionné',
      mutual: 'Une mutuelle doit être sélectionnée',
      numeroDossierAssure: 'Le numéro de dossier patient est requis',
      numeroDevisAssure: 'Le numéro de devis est requis',
    });
    const blank = await post({ shop: shopIri(), mutual: mutualIri(), numeroDossierAssure: '   ', numeroDevisAssure: '', network: 'pas-un-iri' });
    expect(messages(blank)).toEqual({
      numeroDossierAssure: 'Le numéro de dossier patient est requis',
      numeroDevisAssure: 'Le numéro de devis est requis',
      network: 'Une plateforme doit être sélectionnée',
    });
  });

  it('refuses a line break, a control character or an invisible direction mark inside a number, field by field', async () => {
    const refused = 'Caractère invalide : un numéro s’écrit sur une ligne, sans caractère de contrôle ni marque de sens d’écriture.';
    const res = await post({
      shop: shopIri(),
      mutual: mutualIri(),
      numeroDossier: 'PEC\r\nX-Injecte: 1',
      numeroDossierAssure: 'P\u202e1234',
      numeroDevisAssure: 'DEV\u000b12',
    });
    expect(res.status, res.text).toBe(422);
    expect(messages(res)).toEqual({ numeroDossier: refused, numeroDossierAssure: refused, numeroDevisAssure: refused });
    const file = await createDossier(server, tokens.audio, refs);
    expect(messages(await patch(file.id, { numBilling: 'FAC\n12', dateBilling: '31/05/2026' }))).toEqual({ numBilling: refused });
    expect(messages(await put(file.id, { ...formOf(file), numeroDevisAssure: 'DEV\u200f12' }))).toEqual({ numeroDevisAssure: refused });
    // Letters of every language, spaces and punctuation stay numbers as people type them.
    const kept = await patch(file.id, { numeroDevisAssure: 'DEV n° 12/ß-Ω' });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.numeroDevisAssure).toBe('DEV n° 12/ß-Ω');
  });

  it('creates a draft with a readable number, trimmed numbers and the mutual’s network', async () => {
    const res = await post({
      shop: shopIri(),
      mutual: mutualIri('AXA'),
      numeroDossierAssure: '  DP-777001 ',
      numeroDevisAssure: ' DEV-9 ',
      commentaire: 'RAS',
      status: 'approved',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/pec_dossiers/${res.body.id}`);
    expect(res.body).toMatchObject({
      status: 'draft',
      numeroDossierAssure: 'DP-777001',
      numeroDevisAssure: 'DEV-9',
      commentaire: 'RAS',
      statutFacturation: false,
    });
    expect(res.body.numeroDossier).toMatch(/^PEC-\d{4}-\d{6}$/);
    expect(res.body.network).toMatchObject({ id: refs.networks['Itelis'], name: 'Itelis' });
    expect(res.body.mutual).toMatchObject({ name: 'AXA', networkId: refs.networks['Itelis'], network: { id: refs.networks['Itelis'], name: 'Itelis' } });
    // Numbers follow each other.
    const next = await post({ shop: shopIri(), mutual: mutualIri(), numeroDossierAssure: 'DP-1', numeroDevisAssure: 'D-1' });
    const n = (numero: string) => Number(numero.slice(-6));
    expect(n(next.body.numeroDossier)).toBe(n(res.body.numeroDossier) + 1);
  });

  it('skips the next numbers when they were typed by hand', async () => {
    const first = await post({ shop: shopIri(), mutual: mutualIri(), numeroDossierAssure: 'DP-5', numeroDevisAssure: 'D-5' });
    const [, year, value] = /^PEC-(\d{4})-(\d{6})$/.exec(first.body.numeroDossier)!;
    const numero = (n: number) => `PEC-${year}-${String(n).padStart(6, '0')}`;
    for (const n of [Number(value) + 1, Number(value) + 2]) {
      const typed = await post({ numeroDossier: numero(n), shop: shopIri(), mutual: mutualIri(), numeroDossierAssure: 'DP-6', numeroDevisAssure: 'D-6' });
      expect(typed.status, typed.text).toBe(201);
    }
    const next = await post({ shop: shopIri(), mutual: mutualIri(), numeroDossierAssure: 'DP-7', numeroDevisAssure: 'D-7' });
    expect(next.status, next.text).toBe(201);
    expect(next.body.numeroDossier).toBe(numero(Number(value) + 3));
  });

  it('keeps a number typed by hand, unique within the organisation only', async () => {
    const res = await post({ numeroDossier: 'HZ-2026-A1', shop: shopIri(), mutual: mutualIri(), numeroDossierAssure: 'DP-2', numeroDevisAssure: 'D-2' });
    expect(res.body.numeroDossier).toBe('HZ-2026-A1');
    const twice = await post({ numeroDossier: 'HZ-2026-A1', shop: shopIri(), mutual: mutualIri(), numeroDossierAssure: 'DP-3', numeroDevisAssure: 'D-3' });
    expect(twice.status).toBe(422);
    expect(messages(twice)).toEqual({ numeroDossier: 'Ce numéro de dossier existe déjà dans votre organisation' });
    const elsewhere = await post(
      { numeroDossier: 'HZ-2026-A1', shop: shopIri('Riviera Nice Médecin'), mutual: mutualIri(), numeroDossierAssure: 'DP-4', numeroDevisAssure: 'D-4' },
      tokens.rivieraAdmin,
    );
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });

  it('refuses a mutual outside the chosen network, and a centre the user does not see', async () => {
    const mismatch = await post({
      shop: shopIri(),
      network: `/api/networks/${refs.networks['Kalixia']}`,
      mutual: mutualIri('AXA'),
      numeroDossierAssure: 'DP-5',
      numeroDevisAssure: 'D-5',
    });
    expect(mismatch.status).toBe(422);
    expect(messages(mismatch)).toEqual({ mutual: 'La mutuelle doit appartenir au réseau choisi' });
    const matching = await post({
      shop: shopIri(),
      network: `/api/networks/${refs.networks['Itelis']}`,
      mutual: mutualIri('AXA'),
      numeroDossierAssure: 'DP-5',
      numeroDevisAssure: 'D-5',
    });
    expect(matching.status).toBe(201);
    // Versailles is not one of this user's centres; Nice is another organisation's.
    for (const shop of ['Horizon Versailles', 'Riviera Nice Médecin']) {
      const res = await post({ shop: shopIri(shop), mutual: mutualIri(), numeroDossierAssure: 'DP-6', numeroDevisAssure: 'D-6' });
      expect(res.status).toBe(422);
      expect(messages(res).shop).toMatch(/introuvable ou hors de votre périmètre/);
    }
    // The organisation administrator sees every centre of the organisation.
    expect(
      (await post({ shop: shopIri('Horizon Versailles'), mutual: mutualIri(), numeroDossierAssure: 'DP-6', numeroDevisAssure: 'D-6' }, tokens.horizonAdmin))
        .status,
    ).toBe(201);
  });

  it('needs settings.pec.create', async () => {
    const res = await post(
      { shop: shopIri('Horizon Paris Bastille'), mutual: mutualIri(), numeroDossierAssure: 'DP-7', numeroDevisAssure: 'D-7' },
      tokens.readOnly,
    );
    expect(res.status).toBe(403);
  });
});

describe('edit', () => {
  it('PUT replaces the fields and keeps the status when it is not changed', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    const res = await put(file.id, { ...formOf(file), commentaire: 'Modifié', numeroDevisAssure: ' DEV-NEW ', mutual: mutualIri('MAAF') });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'draft', commentaire: 'Modifié', numeroDevisAssure: 'DEV-NEW', numeroDossier: file.numeroDossier });
    expect(res.body.mutual.name).toBe('MAAF');
    const { status: _status, ...withoutStatus } = formOf(file);
    const kept = await put(file.id, withoutStatus);
    expect(kept.body.status).toBe('draft');
    const invalid = await put(file.id, { ...formOf(file), numeroDossierAssure: '' });
    expect(messages(invalid)).toEqual({ numeroDossierAssure: 'Le numéro de dossier patient est requis' });
  });

  it('PATCH merge-patch saves the invoice number and date, with the billing dialog’s messages', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    const empty = await patch(file.id, { numBilling: '', dateBilling: '' });
    expect(empty.status).toBe(422);
    expect(messages(empty)).toEqual({ numBilling: 'Le numéro de facture logiciel est requis', dateBilling: 'La date de facture logiciel est requise' });
    const ok = await patch(file.id, { numBilling: ' FAC-12 ', dateBilling: '31/05/2026' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({
      numBilling: 'FAC-12',
      dateBilling: '2026-05-31',
      commentaire: file.commentaire,
      numeroDossierAssure: file.numeroDossierAssure,
    });
    const bad = await patch(file.id, { dateBilling: '31/02/2026' });
    expect(messages(bad)).toEqual({ dateBilling: 'Date invalide (jj/mm/aaaa)' });
  });

  it('needs pec.edit, and another organisation’s file is a 404', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    // Lecture seule sees the file (its centres include the creator's) but may not change it.
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.readOnly)).status).toBe(200);
    expect((await put(file.id, formOf(file), tokens.readOnly)).status).toBe(403);
    expect((await put(file.id, formOf(file), tokens.rivieraAdmin)).status).toBe(404);
  });
});

describe('the lifecycle of the status', () => {
  const move = async (file: JsonBody, status: string, token = tokens.horizonAdmin) => put(file.id, { ...formOf(file), status }, token);

  it('allows the changes along the order, and back to draft from rejected', async () => {
    let file = await createDossier(server, tokens.horizonAdmin, refs);
    for (const status of ['pending', 'approved', 'billed', 'paid']) {
      const res = await move(file, status);
      expect(res.status, `${file.status} -> ${status}: ${res.text}`).toBe(200);
      expect(res.body.status).toBe(status);
      file = res.body;
    }
    expect(file.statutFacturation).toBe(true);
    expect(file.dateFacturationEffective).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(file.dateValidation).not.toBeNull();

    let refused = await createDossier(server, tokens.horizonAdmin, refs);
    refused = (await move(refused, 'pending')).body;
    refused = (await move(refused, 'rejected')).body;
    expect(refused.status).toBe('rejected');
    const back = await move(refused, 'draft');
    expect(back.status).toBe(200);
    expect(back.body.status).toBe('draft');
  });

  it('refuses any other change with a French reason', async () => {
    const file = await createDossier(server, tokens.horizonAdmin, refs);
    const skip = await move(file, 'approved');
    expect(skip.status).toBe(422);
    expect(messages(skip)).toEqual({
      status: 'Changement d’état impossible : de « Brouillon » vers « Approuvé ». Depuis « Brouillon », seul « En attente » est possible.',
    });
    const robotOnly = await move(file, 'processing');
    expect(messages(robotOnly).status).toBe(
      'Changement d’état impossible : de « Brouillon » vers « En cours ». Depuis « Brouillon », seul « En attente » est possible.',
    );
    const unknown = await move(file, 'archived');
    expect(messages(unknown)).toEqual({ status: 'État invalide' });

    const pending = (await move(file, 'pending')).body;
    const backwards = await move(pending, 'draft');
    expect(messages(backwards).status).toBe(
      'Changement d’état impossible : de « En attente » vers « Brouillon ». Depuis « En attente », seuls « Approuvé » ou « Refusé » sont possibles.',
    );
    let paid = pending;
    for (const status of ['approved', 'billed', 'paid']) paid = (await move(paid, status)).body;
    const final = await move(paid, 'draft');
    expect(messages(final).status).toBe('Changement d’état impossible : de « Payé » vers « Brouillon ». « Payé » est un état final.');
  });

  it('recording a payment needs billing.payment', async () => {
    // An editor without billing.payment, in the organisation, assigned to the centre.
    const [holding] = await server.database.query<{ holding_id: number }>('select holding_id from shops where id = $1', [refs.shops['Horizon Paris Bastille']]);
    const [role] = await server.database.query<{ id: number }>(
      `insert into roles (holding_id, name, permissions) values ($1, 'Éditeur PEC', '{pec.view,pec.edit}') returning id`,
      [holding!.holding_id],
    );
    const [user] = await server.database.query<{ id: number }>(
      `insert into users (holding_id, email, password_hash, first_name, last_name) values ($1, 'editeur@audition-horizon.fr', $2, 'Éric', 'Diteur') returning id`,
      [holding!.holding_id, await hashPassword('Pecflow2026!')],
    );
    await server.database.query('insert into user_roles (user_id, role_id) values ($1, $2)', [user!.id, role!.id]);
    await server.database.query('insert into user_shops (user_id, shop_id) values ($1, $2)', [user!.id, refs.shops['Horizon Paris Bastille']]);
    const editor = await server.login('editeur@audition-horizon.fr');

    let file = await createDossier(server, tokens.audio, refs);
    for (const status of ['pending', 'approved', 'billed']) file = (await move(file, status, editor)).body;
    expect(file.status).toBe('billed');
    const refused = await move(file, 'paid', editor);
    expect(refused.status).toBe(422);
    expect(messages(refused)).toEqual({ status: 'Enregistrer un paiement demande la permission « Enregistrer les paiements ».' });
    expect((await move(file, 'paid', tokens.audio)).body.status).toBe('paid');
  });
});

describe('delete', () => {
  it('needs delete.pec, asks nothing else, and is refused while a robot run is in progress', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    expect((await server.request('DELETE', `/api/pec_dossiers/${file.id}`, { token: tokens.audio })).status).toBe(403);
    expect((await server.request('DELETE', `/api/pec_dossiers/${file.id}`, { token: tokens.rivieraAdmin })).status).toBe(404);

    const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token: tokens.audio, body: { pecDossierId: file.id } });
    expect(started.status, started.text).toBe(200);
    const busy = await server.request('DELETE', `/api/pec_dossiers/${file.id}`, { token: tokens.horizonAdmin });
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toBe('Suppression impossible : un appel robot est en cours sur ce dossier.');
    const edit = await put(file.id, formOf({ ...file, status: 'processing' }));
    expect(edit.status).toBe(409);

    const other = await createDossier(server, tokens.audio, refs);
    const res = await server.request('DELETE', `/api/pec_dossiers/${other.id}`, { token: tokens.horizonAdmin });
    expect(res.status).toBe(204);
    expect((await server.get(`/api/pec_dossiers/${other.id}`, tokens.horizonAdmin)).status).toBe(404);
    const trail = await server.database.query<{ action: string }>(
      `select action from audit_logs where entity = 'pec_dossiers' and entity_id = $1 order by id`,
      [String(other.id)],
    );
    expect(trail.map((t) => t.action)).toEqual(['pec_dossier.create', 'pec_dossier.delete']);
  });
});
