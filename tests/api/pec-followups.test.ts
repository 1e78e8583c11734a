// Follow-ups that do not slip (issue 28): a file's owner ('Suivi par') and follow-up date, "À relancer" (8 days
// pending, a follow-up date that has come, neither), the aRelancer and suiviPar filters with tenancy, the daily
// notification to each owner (once a day, never to read-only staff), and the notes thread (edit window, mentions,
// another organisation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, startPecServer, type Refs } from './helpers/pec';
import { auditRows, expectProblem, expectViolation, userId } from './helpers/backoffice';
import { notifyFollowUps } from '../../server/pec/followUps';
import { QUEUES } from '../../server/jobs/boss';
import { FOLLOW_UP_MESSAGES, FOLLOW_UP_PENDING_DAYS_KEY, NOTE_MAX, NOTE_MESSAGES } from '#domain/followUps';
import { todayInFrance } from '#domain/pec';

/** A day `years` from today (Paris), yyyy-mm-dd. */
const yearsFromToday = (years: number) => `${Number(todayInFrance().slice(0, 4)) + years}${todayInFrance().slice(4)}`;
const NEXT_MONTH = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
import { BULK_MESSAGES } from '#domain/bulk';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
  for (const key of ['audio', 'assistant', 'horizonAdmin', 'rivieraAdmin'] as const) ids[key] = await userId(server, key);
  ids.readOnly = await userId(server, 'lecture');
});
afterAll(() => server?.close());

const patch = (id: number, body: unknown, token = tokens.audio) =>
  server.request('PATCH', `/api/pec_dossiers/${id}`, { token, body, headers: { 'content-type': 'application/merge-patch+json' } });
const listed = async (query: string, token = tokens.horizonAdmin) => {
  const res = await server.get(`/api/pec_dossiers?${query}&itemsPerPage=200`, token);
  expect(res.status, res.text).toBe(200);
  return res.body.member.map((m: JsonBody) => m.id as number);
};
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
/** A file 'En attente' since `days` days (the status first: its trigger dates the change, then moved back). */
async function pendingFor(days: number, token = tokens.audio) {
  const file = await createDossier(server, token, refs);
  await server.database.query(`update pec_dossiers set status = 'pending' where id = $1`, [file.id]);
  await server.database.query(`update pec_dossiers set status_changed_at = $2 where id = $1`, [file.id, daysAgo(days)]);
  return file.id as number;
}

describe('owner and follow-up date', () => {
  it('the creator follows a new file; any user who sees it may follow it, the change audited', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    expect(file.owner).toMatchObject({ '@id': `/api/users/${ids.audio}`, firstName: 'Sophie', lastName: 'Bernard' });
    expect(file.followUpDate).toBeNull();

    const changed = await patch(file.id, { owner: `/api/users/${ids.horizonAdmin}`, followUpDate: NEXT_MONTH });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.owner['@id']).toBe(`/api/users/${ids.horizonAdmin}`);
    expect(changed.body.followUpDate).toBe(NEXT_MONTH);
    const audit = await auditRows(server, 'pec_dossiers', file.id);
    expect(audit.at(-1)!.changes).toMatchObject({ owner: { before: ids.audio, after: ids.horizonAdmin }, followUpDate: { before: null, after: NEXT_MONTH } });

    // Nobody: the owner may be cleared.
    const cleared = await patch(file.id, { owner: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.owner).toBeNull();
  });

  it('refuses an owner who does not see the file (French 422), another organisation’s user, and read-only staff', async () => {
    const file = await createDossier(server, tokens.audio, refs); // Paris Bastille: the assistant works in Lyon
    expectViolation(await patch(file.id, { owner: `/api/users/${ids.assistant}` }), 'owner', FOLLOW_UP_MESSAGES.ownerCannotSee);
    // Julien sees Paris but only reads: he could not chase the file, and the daily notice would skip him.
    expectViolation(await patch(file.id, { owner: `/api/users/${ids.readOnly}` }), 'owner', FOLLOW_UP_MESSAGES.ownerCannotAct);
    const foreign = await patch(file.id, { owner: `/api/users/${ids.rivieraAdmin}` });
    expect(foreign.status).toBe(422);
    expect(foreign.body.violations[0].propertyPath).toBe('owner');
    expect((await patch(file.id, { followUpDate: NEXT_MONTH }, tokens.readOnly)).status).toBe(403);
    expectViolation(await patch(file.id, { followUpDate: '31/02/2026' }), 'followUpDate', 'Date invalide (jj/mm/aaaa)');
    // A year typed wrong is no reminder: a year back and two ahead at most, both days included.
    const range = FOLLOW_UP_MESSAGES.dateOutOfRange(yearsFromToday(-1).split('-').reverse().join('/'), yearsFromToday(2).split('-').reverse().join('/'));
    expectViolation(await patch(file.id, { followUpDate: '01/01/1900' }), 'followUpDate', range);
    expectViolation(await patch(file.id, { followUpDate: '2206-01-01' }), 'followUpDate', range);
    // Unchanged by the refusals.
    const read = await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio);
    expect(read.body.owner['@id']).toBe(`/api/users/${ids.audio}`);
    expect(read.body.followUpDate).toBeNull();
  });
});

describe('colleagues and bulk assignment', () => {
  const colleagueIds = async (token: string) => {
    const res = await server.get('/api/pec_colleagues', token);
    expect(res.status, res.text).toBe(200);
    return (res.body.member as JsonBody[]).map((c) => c.id as number);
  };

  it('lists the reader’s colleagues: who sees one of their files, of their organisation only', async () => {
    // Léa (Lyon) shares files with the direction, who sees every centre, not with Sophie (Paris, Boulogne).
    const ofAssistant = await colleagueIds(tokens.assistant);
    expect(ofAssistant).toEqual(expect.arrayContaining([ids.horizonAdmin, ids.assistant]));
    expect(ofAssistant).not.toContain(ids.audio);
    // Sophie shares Paris with Julien: a colleague who sees her files (a mention reaches him), who may not follow one.
    expect(await colleagueIds(tokens.audio)).toEqual(expect.arrayContaining([ids.horizonAdmin, ids.audio, ids.readOnly]));
    const julien = ((await server.get('/api/pec_colleagues', tokens.audio)).body.member as JsonBody[]).find((c) => c.id === ids.readOnly);
    expect(julien).toMatchObject({ firstName: 'Julien', lastName: 'Moreau', mayFollow: false });
    expect(await colleagueIds(tokens.audio)).not.toContain(ids.assistant);
    // Each with the reader's centres whose files they see (null: all), so that a bulk 'Assigner à…' offers only who
    // sees every selected file: the direction sees Léa in Lyon only, and Sophie in Paris and Boulogne.
    const ofDirection = (await server.get('/api/pec_colleagues', tokens.horizonAdmin)).body.member as JsonBody[];
    expect(ofDirection.find((c) => c.id === ids.horizonAdmin)!.shopIds).toBeNull();
    expect(ofDirection.find((c) => c.id === ids.assistant)!.shopIds).toEqual([refs.shops['Horizon Lyon Part-Dieu']]);
    expect([...ofDirection.find((c) => c.id === ids.audio)!.shopIds].sort()).toEqual(
      [refs.shops['Horizon Paris Bastille'], refs.shops['Horizon Boulogne']].sort(),
    );
    // Another organisation's users never appear.
    const ofRiviera = await colleagueIds(tokens.rivieraAdmin);
    expect(ofRiviera).toContain(ids.rivieraAdmin);
    for (const id of [ids.horizonAdmin, ids.audio, ids.assistant, ids.readOnly]) expect(ofRiviera).not.toContain(id);
    expect((await server.get('/api/pec_colleagues', 'not-a-token')).status).toBe(401);
  });

  const assign = (body: unknown, token = tokens.horizonAdmin) => server.request('POST', '/api/pec_dossiers/bulk/assign', { token, body });
  const ownerOf = async (id: number) => (await server.get(`/api/pec_dossiers/${id}`, tokens.horizonAdmin)).body.owner?.['@id'] ?? null;

  it('assigns each file its new owner can see; the others keep theirs, with the reason', async () => {
    const paris = (await createDossier(server, tokens.audio, refs)).id as number;
    const lyon = (await createDossier(server, tokens.horizonAdmin, refs, {}, 'Horizon Lyon Part-Dieu')).id as number;
    const foreign = (await createDossier(server, tokens.rivieraAdmin, refs, {}, 'Riviera Nice Médecin')).id as number;
    const res = await assign({ ids: [paris, lyon, foreign].map((id) => `/api/pec_dossiers/${id}`), owner: `/api/users/${ids.assistant}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: JsonBody) => [r['@id'], r.outcome, r.reason])).toEqual([
      [`/api/pec_dossiers/${paris}`, 'refused', FOLLOW_UP_MESSAGES.ownerCannotSee],
      [`/api/pec_dossiers/${lyon}`, 'done', undefined],
      [`/api/pec_dossiers/${foreign}`, 'refused', 'Dossier introuvable'],
    ]);
    expect(await ownerOf(paris)).toBe(`/api/users/${ids.audio}`);
    expect(await ownerOf(lyon)).toBe(`/api/users/${ids.assistant}`);
    const audit = await auditRows(server, 'pec_dossiers', lyon);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['pec_dossier.update', 'pec_dossier.bulk_assign']));

    // Nobody: the owner is cleared.
    const cleared = await assign({ ids: [`/api/pec_dossiers/${lyon}`], owner: null });
    expect(cleared.body.results[0].outcome).toBe('done');
    expect(await ownerOf(lyon)).toBeNull();
  });

  it('refuses a malformed owner and read-only staff whole (422, 403), nothing changed', async () => {
    const file = (await createDossier(server, tokens.audio, refs)).id as number;
    expectViolation(await assign({ ids: [file], owner: 'Julien' }), 'owner', BULK_MESSAGES.ownerInvalid);
    expect(await ownerOf(file)).toBe(`/api/users/${ids.audio}`);
    const readOnly = await assign({ ids: [file], owner: `/api/users/${ids.horizonAdmin}` }, tokens.readOnly);
    expect(readOnly.status).toBe(403);
    expect(await ownerOf(file)).toBe(`/api/users/${ids.audio}`);
  });
});

describe('À relancer', () => {
  it('lists a file 8 days “En attente” and one whose follow-up date has come, not one that is neither', async () => {
    const waiting = await pendingFor(8);
    const recent = await pendingFor(2);
    const dated = (await createDossier(server, tokens.audio, refs)).id as number;
    expect((await patch(dated, { followUpDate: todayInFrance() })).status).toBe(200);
    const later = (await createDossier(server, tokens.audio, refs)).id as number;
    expect((await patch(later, { followUpDate: yearsFromToday(2) })).status).toBe(200);

    const due = await listed('aRelancer=true');
    expect(due).toEqual(expect.arrayContaining([waiting, dated]));
    expect(due).not.toContain(recent);
    expect(due).not.toContain(later);
    const notDue = await listed('aRelancer=false');
    expect(notDue).toContain(recent);
    expect(notDue).not.toContain(waiting);

    // The dashboard's card counts the same list.
    const stats = await server.get('/api/pec_dossiers/stats', tokens.horizonAdmin);
    const total = await server.get('/api/pec_dossiers?aRelancer=true&itemsPerPage=1', tokens.horizonAdmin);
    expect(stats.body.followUpsDue).toBe(total.body.totalItems);

    // Chased, with the next follow-up set later: off the list until that day, however long it has waited.
    const chased = await pendingFor(30);
    expect(await listed('aRelancer=true')).toContain(chased);
    expect((await patch(chased, { followUpDate: yearsFromToday(1) })).status).toBe(200);
    expect(await listed('aRelancer=true')).not.toContain(chased);
    expect(await listed('aRelancer=false')).toContain(chased);

    // The number of days is a system setting: at 10 days the 8-day file is not due any more.
    await server.database.query(`update configs set value = '10'::jsonb where key = $1`, [FOLLOW_UP_PENDING_DAYS_KEY]);
    expect(await listed('aRelancer=true')).not.toContain(waiting);
    await server.database.query(`update configs set value = '7'::jsonb where key = $1`, [FOLLOW_UP_PENDING_DAYS_KEY]);

    // An archived file is never due.
    expect((await patch(waiting, { archived: true, archiveReason: 'abandoned' })).status).toBe(200);
    expect(await listed('aRelancer=true&archived=all')).not.toContain(waiting);
  });

  it('says why: the file shows when its status last changed (read-only, in the list too) and whether it is due now', async () => {
    const waiting = await pendingFor(8);
    const recent = await pendingFor(2);
    const [since] = (await server.database.query(`select status_changed_at from pec_dossiers where id = $1`, [waiting])) as { status_changed_at: Date }[];
    const file = await server.get(`/api/pec_dossiers/${waiting}`, tokens.audio);
    expect(file.status, file.text).toBe(200);
    expect(new Date(file.body.statusChangedAt).getTime()).toBe(new Date(since!.status_changed_at).getTime());
    expect(file.body.followUpDue).toBe(true);
    expect((await server.get(`/api/pec_dossiers/${recent}`, tokens.audio)).body.followUpDue).toBe(false);
    const dated = (await createDossier(server, tokens.audio, refs)).id as number;
    const changed = await patch(dated, { followUpDate: todayInFrance() });
    expect(changed.body.followUpDue).toBe(true);

    const list = await server.get(`/api/pec_dossiers?aRelancer=true&itemsPerPage=200`, tokens.audio);
    const row = list.body.member.find((m: JsonBody) => m.id === waiting);
    expect(new Date(row.statusChangedAt).getTime()).toBe(new Date(since!.status_changed_at).getTime());

    // Read-only: the server keeps the moment of the last status change.
    await patch(waiting, { statusChangedAt: new Date().toISOString(), followUpDue: false });
    expect((await server.get(`/api/pec_dossiers/${waiting}`, tokens.audio)).body).toMatchObject({
      statusChangedAt: file.body.statusChangedAt,
      followUpDue: true,
    });

    const docs = await server.request('GET', '/api/docs.jsonld');
    const cls = docs.body['hydra:supportedClass'].find((c: JsonBody) => c['@id'] === '#PecDossier');
    const property = (title: string) => cls['hydra:supportedProperty'].find((p: JsonBody) => p['hydra:title'] === title);
    expect(property('statusChangedAt')).toMatchObject({ 'hydra:readable': true, 'hydra:writeable': false });
    expect(property('followUpDue')).toMatchObject({ 'hydra:readable': true, 'hydra:writeable': false });
  });

  it('is in the search template of the API docs', async () => {
    const docs = await server.get('/api/pec_dossiers?itemsPerPage=1', tokens.audio);
    const variables = docs.body.search.mapping.map((m: JsonBody) => m.variable);
    expect(variables).toEqual(expect.arrayContaining(['aRelancer', 'suiviPar']));
  });
});

describe('Suivi par', () => {
  it('filters on me, a colleague and nobody, within the reader’s files', async () => {
    const mine = (await createDossier(server, tokens.audio, refs)).id as number;
    const theirs = (await createDossier(server, tokens.horizonAdmin, refs)).id as number;
    const nobody = (await createDossier(server, tokens.audio, refs)).id as number;
    expect((await patch(nobody, { owner: null })).status).toBe(200);

    const me = await listed('suiviPar=me', tokens.audio);
    expect(me).toContain(mine);
    expect(me).not.toContain(theirs);
    expect(me).not.toContain(nobody);
    expect(await listed(`suiviPar=/api/users/${ids.horizonAdmin}`, tokens.audio)).toEqual(expect.arrayContaining([theirs]));
    expect(await listed(`suiviPar=${ids.horizonAdmin}`, tokens.audio)).not.toContain(mine);
    const none = await listed('suiviPar=none', tokens.audio);
    expect(none).toContain(nobody);
    expect(none).not.toContain(mine);
    // Another organisation sees none of these files, whoever follows them.
    expect(await listed(`suiviPar=${ids.audio}`, tokens.rivieraAdmin)).toEqual([]);
    expect(await listed('suiviPar=nonsense', tokens.audio)).toEqual([]);
  });
});

describe('the demo data', () => {
  it('has each file followed by a colleague who sees it and acts on files (never read-only staff)', async () => {
    const files = await server.database.query<{ id: number; shop_id: number; owner_id: number | null }>(
      `select id, shop_id, owner_id from pec_dossiers where holding_id = (select holding_id from users where id = $1) and numero_dossier like 'PEC-%'`,
      [ids.horizonAdmin],
    );
    expect(files.length).toBeGreaterThan(50);
    const mayFollow = new Map<number, number[]>();
    for (const file of files) {
      if (!mayFollow.has(file.shop_id)) {
        const colleagues = await server.get(`/api/pec_dossiers/${file.id}/colleagues`, tokens.horizonAdmin);
        mayFollow.set(
          file.shop_id,
          (colleagues.body.member as JsonBody[]).filter((c) => c.mayFollow).map((c) => c.id),
        );
      }
    }
    const misplaced = files.filter((f) => f.owner_id !== null && !mayFollow.get(f.shop_id)!.includes(f.owner_id));
    expect(misplaced).toEqual([]);
    expect(files.filter((f) => f.owner_id === ids.readOnly)).toEqual([]);
  });
});

describe('the daily notification', () => {
  it('is scheduled every morning', async () => {
    const boss = await server.app.ctx.pec.jobs.instance();
    await server.app.ctx.pec.jobs.schedule(QUEUES.followUpNotice, '30 7 * * *', 'Europe/Paris');
    expect((await boss.getSchedules()).find((s) => s.name === QUEUES.followUpNotice)).toMatchObject({ cron: '30 7 * * *' });
  });

  it('tells each owner their count once a day, however often it runs, and never read-only staff', async () => {
    const followUps = async (userId: number) =>
      server.database.query<{ title: string; link: string; description: string }>(
        `select title, link, description from notifications where user_id = $1 and kind = 'follow_up'`,
        [userId],
      );
    await pendingFor(9);
    // A read-only colleague who follows a due file (they see it) is not notified: they cannot act on it.
    const readOnlyFile = await pendingFor(9);
    await server.database.query(`update pec_dossiers set owner_id = $2 where id = $1`, [readOnlyFile, ids.readOnly]);

    await notifyFollowUps(server.app.ctx);
    await notifyFollowUps(server.app.ctx);
    const [note, ...more] = await followUps(ids.audio);
    expect(more).toEqual([]);
    const due = await server.get('/api/pec_dossiers?aRelancer=true&suiviPar=me&itemsPerPage=1', tokens.audio);
    expect(note!.title).toBe(FOLLOW_UP_MESSAGES.notificationTitle(due.body.totalItems));
    expect(decodeURIComponent(note!.link)).toBe('/pec?filter={"aRelancer":"true","suiviPar":"me"}');
    expect(await followUps(ids.readOnly)).toEqual([]);

    // Two instances the same day (a concurrent run): still one.
    await Promise.all([notifyFollowUps(server.app.ctx), notifyFollowUps(server.app.ctx)]);
    expect(await followUps(ids.audio)).toHaveLength(1);
    // The next day, another.
    await notifyFollowUps(server.app.ctx, new Date(Date.now() + 86_400_000));
    expect(await followUps(ids.audio)).toHaveLength(2);
  });
});

describe('notes', () => {
  const notes = (dossier: number, token = tokens.audio) => server.get(`/api/pec_notes?dossier=/api/pec_dossiers/${dossier}`, token);
  const post = (dossier: number, body: unknown, token = tokens.audio) =>
    server.request('POST', '/api/pec_notes', { token, body: { dossier: `/api/pec_dossiers/${dossier}`, body } });
  const edit = (id: number, body: string, token = tokens.audio) =>
    server.request('PATCH', `/api/pec_notes/${id}`, { token, body: { body }, headers: { 'content-type': 'application/merge-patch+json' } });
  const backdate = (id: number, minutes: number) =>
    server.database.query(`update pec_notes set created_at = now() - make_interval(mins => $2) where id = $1`, [id, minutes]);

  it('a thread of the file: author and time, oldest first, French violations, read-only staff read it', async () => {
    const file = (await createDossier(server, tokens.audio, refs)).id as number;
    const first = await post(file, 'Mutuelle appelée, rappeler jeudi.');
    expect(first.status, first.text).toBe(201);
    expect(first.body.author).toMatchObject({ firstName: 'Sophie', lastName: 'Bernard' });
    expect(first.body.createdAt).toBeTruthy();
    expect((await post(file, 'Relance envoyée.', tokens.horizonAdmin)).status).toBe(201);
    const thread = await notes(file, tokens.readOnly);
    expect(thread.status).toBe(200);
    expect(thread.body.member.map((n: JsonBody) => n.body)).toEqual(['Mutuelle appelée, rappeler jeudi.', 'Relance envoyée.']);

    expectViolation(await post(file, '   '), 'body', NOTE_MESSAGES.required);
    expectViolation(await post(file, 'x'.repeat(NOTE_MAX + 1)), 'body', NOTE_MESSAGES.tooLong);
    expect((await post(file, 'Lecture seule', tokens.readOnly)).status).toBe(403);
    const audit = await auditRows(server, 'pec_notes', first.body.id);
    expect(audit[0]).toMatchObject({ action: 'pec_note.create' });
  });

  it('is refused on an archived file, kept as it was (409): no new note, and its author’s recent one neither changed nor deleted', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    const recent = (await post(file.id as number, 'Écrite avant l’archivage')).body;
    await server.database.query("update pec_dossiers set archived = true, archive_reason = 'abandoned' where id = $1", [file.id]);
    const frozen = `La demande ${file.numeroDossier} est archivée : restaurez-la avant de la modifier.`;
    const res = await server.request('POST', '/api/pec_notes', { token: tokens.audio, body: { dossier: `/api/pec_dossiers/${file.id}`, body: 'Trop tard' } });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(frozen);
    const changed = await edit(recent.id, 'Corrigée après');
    expect(changed.status).toBe(409);
    expect(changed.body.detail).toBe(frozen);
    const deleted = await server.request('DELETE', `/api/pec_notes/${recent.id}`, { token: tokens.audio });
    expect(deleted.status).toBe(409);
    expect(deleted.body.detail).toBe(frozen);
    expect((await notes(file.id as number)).body.member.map((n: JsonBody) => n.body)).toEqual(['Écrite avant l’archivage']);
  });

  it('its author changes or deletes it within 15 minutes, nobody else, never later', async () => {
    const file = (await createDossier(server, tokens.audio, refs)).id as number;
    const note = (await post(file, 'Premier jet')).body;
    // The drawer says « modifiée le … » from updatedAt: a note as written has its createdAt, a change moves it.
    expect(note.updatedAt).toBe(note.createdAt);
    const changed = await edit(note.id, 'Texte corrigé');
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.body).toBe('Texte corrigé');
    expect(Date.parse(changed.body.updatedAt)).toBeGreaterThan(Date.parse(note.createdAt));
    expect(changed.body.createdAt).toBe(note.createdAt);
    expectProblem(await edit(note.id, 'Pas le mien', tokens.horizonAdmin), 403, NOTE_MESSAGES.notAuthor);
    expectProblem(await server.request('DELETE', `/api/pec_notes/${note.id}`, { token: tokens.horizonAdmin }), 403, NOTE_MESSAGES.notAuthor);

    await backdate(note.id, 16);
    expectProblem(await edit(note.id, 'Trop tard'), 409, NOTE_MESSAGES.windowClosed);
    expectProblem(await server.request('DELETE', `/api/pec_notes/${note.id}`, { token: tokens.audio }), 409, NOTE_MESSAGES.windowClosed);

    const fresh = (await post(file, 'À effacer')).body;
    await backdate(fresh.id, 14);
    expect((await server.request('DELETE', `/api/pec_notes/${fresh.id}`, { token: tokens.audio })).status).toBe(204);
    expect((await notes(file)).body.member.map((n: JsonBody) => n.body)).toEqual(['Texte corrigé']);
    const audit = await auditRows(server, 'pec_notes', note.id);
    expect(audit.map((a) => a.action)).toEqual(['pec_note.create', 'pec_note.update']);
  });

  it('an @mention notifies the colleague once, not the author nor someone who does not see the file', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    const colleagues = await server.get(`/api/pec_dossiers/${file.id}/colleagues`, tokens.audio);
    const names = colleagues.body.member.map((c: JsonBody) => `${c.firstName} ${c.lastName}`);
    expect(names).toEqual(expect.arrayContaining(['Marc Lefèvre', 'Sophie Bernard', 'Julien Moreau']));
    expect(names).not.toContain('Léa Petit');

    const mentions = (userId: number) =>
      server.database.query<{ title: string; link: string }>(
        `select title, link from notifications where user_id = $1 and kind = 'mention' and dossier_id = $2`,
        [userId, file.id],
      );
    const note = (await post(file.id, '@Marc Lefèvre peux-tu appeler Allianz ? @Léa Petit @Sophie Bernard')).body;
    const [told] = await mentions(ids.horizonAdmin);
    expect(told).toMatchObject({ title: NOTE_MESSAGES.mentionTitle('Sophie Bernard', file.numeroDossier) });
    // The bell's answer leads to the note itself: the drawer opens at it.
    const bell = await server.get('/api/notifications', tokens.horizonAdmin);
    const mention = bell.body.member.find((n: JsonBody) => n.kind === 'mention' && n.dossierId === file.id);
    expect(mention).toMatchObject({ link: `/pec?id=${file.id}&note=${note.id}`, dossier: `/api/pec_dossiers/${file.id}` });
    expect(await mentions(ids.assistant)).toEqual([]);
    expect(await mentions(ids.audio)).toEqual([]);
    // Editing the note does not notify Marc again.
    expect((await edit(note.id, '@Marc Lefèvre peux-tu appeler Allianz demain ?')).status).toBe(200);
    expect(await mentions(ids.horizonAdmin)).toHaveLength(1);
  });

  it('another organisation never sees a note (404) nor writes on its file (422)', async () => {
    const file = (await createDossier(server, tokens.audio, refs)).id as number;
    const note = (await post(file, 'Interne')).body;
    expect((await server.get(`/api/pec_notes/${note.id}`, tokens.rivieraAdmin)).status).toBe(404);
    expect((await notes(file, tokens.rivieraAdmin)).body.member).toEqual([]);
    expect((await server.request('DELETE', `/api/pec_notes/${note.id}`, { token: tokens.rivieraAdmin })).status).toBe(404);
    expect((await post(file, 'Intrusion', tokens.rivieraAdmin)).status).toBe(422);
    expect((await server.get(`/api/pec_dossiers/${file}/colleagues`, tokens.rivieraAdmin)).status).toBe(404);
    // The assistant (Lyon) does not see this Paris file either.
    expect((await server.get(`/api/pec_notes/${note.id}`, tokens.assistant)).status).toBe(404);
  });
});
