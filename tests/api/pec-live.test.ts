// What the robot's outcomes tell people: notifications (who gets them, reading them), live events (who receives them,
// across server instances), the dashboard's figures and the daily expiry scan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, openEvents, sleep, startPecServer, startSibling, waitFor, waitForIdle, type Refs } from './helpers/pec';
import { QUEUES } from '../../server/jobs/boss';
import { todayInFrance } from '#domain/pec';
import { dashboardFilters } from '../../src/pec/filters';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ robotSimDelayMs: 0 }));
});
afterAll(() => server?.close());

const startDpec = (id: number, token = tokens.audio) =>
  server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: id } });
const notificationsOf = async (token: string) => (await server.get('/api/notifications?limit=100', token)).body;

describe('notifications', () => {
  it('every outcome notifies the users who act on the file (pec.create, its centre), and only them', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    expect((await startDpec(file.id)).status).toBe(200);
    await waitForIdle(server, tokens.audio, file.id);
    const about = (list: JsonBody) => list.member.filter((n: JsonBody) => n.dossierId === file.id);

    // The creator, assigned to the centre, and the organisation's administrator, who sees every centre; both may act.
    for (const who of ['audio', 'horizonAdmin']) {
      const mine = about(
        await waitFor(async () => {
          const list = await notificationsOf(tokens[who]!);
          return about(list).length ? list : undefined;
        }),
      );
      expect(mine, who).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        kind: 'robot_success',
        title: `PEC accordée — ${file.numeroDossier}`,
        read: false,
        dossier: `/api/pec_dossiers/${file.id}`,
      });
      expect(mine[0].description).toMatch(/^N° PEC SANTECLAIR-\d{9}, valable jusqu’au \d{2}\/\d{2}\/\d{4}\.$/);
    }
    // Read-only staff of the centre, another centre's assistant, another organisation and the platform administrator
    // are not notified.
    for (const who of ['readOnly', 'assistant', 'rivieraAdmin', 'admin']) expect(about(await notificationsOf(tokens[who]!)), who).toHaveLength(0);
  });

  it('newest first with the unread count; read one, read all; someone else’s is a 404', async () => {
    const file = await createDossier(server, tokens.audio, refs, { numeroDossierAssure: `DP-${Date.now()}-REFUS` });
    expect((await startDpec(file.id)).status).toBe(200);
    await waitForIdle(server, tokens.audio, file.id);
    const list = await waitFor(async () => {
      const l = await notificationsOf(tokens.audio);
      return l.member.some((n: JsonBody) => n.dossierId === file.id) ? l : undefined;
    });
    const dates = list.member.map((n: JsonBody) => n.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const refusal = list.member.find((n: JsonBody) => n.dossierId === file.id);
    expect(refusal).toMatchObject({
      kind: 'robot_refused',
      title: `PEC refusée — ${file.numeroDossier}`,
      description: 'Équipement hors des garanties du contrat de l’assuré',
    });
    expect(list.unreadCount).toBeGreaterThan(0);

    expect((await server.request('POST', `/api/notifications/${refusal.id}/read`, { token: tokens.rivieraAdmin })).status).toBe(404);
    expect((await server.request('POST', `/api/notifications/${refusal.id}/read`, { token: tokens.audio })).status).toBe(204);
    const after = await notificationsOf(tokens.audio);
    expect(after.member.find((n: JsonBody) => n.id === refusal.id).read).toBe(true);
    // One fewer unread, whatever arrived meanwhile (a robot run of an earlier test may still notify this user).
    const arrived = after.member.filter((n: JsonBody) => !n.read && !list.member.some((m: JsonBody) => m.id === n.id)).length;
    expect(after.unreadCount).toBe(list.unreadCount - 1 + arrived);
    expect((await server.request('POST', '/api/notifications/read-all', { token: tokens.audio })).status).toBe(204);
    expect((await notificationsOf(tokens.audio)).unreadCount).toBe(0);
    // The organisation administrator's copy is still unread.
    expect((await notificationsOf(tokens.horizonAdmin)).member.find((n: JsonBody) => n.dossierId === file.id).read).toBe(false);
  });

  it('the daily scan notifies files expiring within 15 days, once per expiry date', async () => {
    const schedules = await (await server.app.ctx.pec.jobs.instance()).getSchedules();
    expect(schedules.find((s) => s.name === QUEUES.expiryScan)).toMatchObject({ cron: '0 7 * * *' });

    const file = await createDossier(server, tokens.audio, refs);
    const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const later = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const other = await createDossier(server, tokens.audio, refs);
    await server.database.query(`update pec_dossiers set status = 'approved', date_peremption = $2 where id = $1`, [file.id, soon]);
    await server.database.query(`update pec_dossiers set status = 'approved', date_peremption = $2 where id = $1`, [other.id, later]);
    const expiryNotes = async (id: number) =>
      Number(
        (await server.database.query<{ n: number }>(`select count(*)::int as n from notifications where dossier_id = $1 and kind = 'expiry'`, [id]))[0]!.n,
      );

    await server.app.ctx.pec.jobs.send(QUEUES.expiryScan, {});
    await waitFor(async () => (await expiryNotes(file.id)) > 0);
    const [note] = (await notificationsOf(tokens.audio)).member.filter((n: JsonBody) => n.dossierId === file.id && n.kind === 'expiry');
    expect(note.title).toBe(`PEC bientôt périmée — ${file.numeroDossier}`);
    expect(note.description).toMatch(/^L’accord de prise en charge expire le \d{2}\/\d{2}\/\d{4} : facturez avant cette date\.$/);
    const perFile = await expiryNotes(file.id);
    expect(perFile).toBe(2); // audio and the organisation administrator; not the read-only user assigned to the centre

    await server.app.ctx.pec.jobs.send(QUEUES.expiryScan, {});
    await sleep(1500);
    expect(await expiryNotes(file.id)).toBe(perFile);
    expect(await expiryNotes(other.id)).toBe(0);
  });
});

describe('live events', () => {
  it('a subscribed user receives the dossier, workflow and notification changes; another organisation receives nothing', async () => {
    const ticket = await server.request('POST', '/api/events/ticket', { token: tokens.rivieraAdmin });
    expect(ticket.status).toBe(200);
    expect(ticket.body.expiresIn).toBe(60);
    const audio = await openEvents(server.url, { token: tokens.audio });
    const riviera = await openEvents(server.url, { ticket: ticket.body.ticket });
    const assistant = await openEvents(server.url, { token: tokens.assistant });
    try {
      expect(audio.status).toBe(200);
      expect(audio.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(riviera.status).toBe(200);
      await waitFor(
        async () => audio.events.some((e) => e.event === 'ready') && riviera.events.some((e) => e.event === 'ready') && assistant.events.length > 0,
      );

      const file = await createDossier(server, tokens.audio, refs);
      expect((await startDpec(file.id)).status).toBe(200);
      await waitForIdle(server, tokens.audio, file.id);
      const mine = (list: typeof audio.events) => list.filter((e) => e.data.dossierId === file.id);
      await waitFor(async () => mine(audio.events).some((e) => e.event === 'notification'));

      const received = mine(audio.events);
      expect(received[0]).toMatchObject({
        event: 'dossier',
        data: { type: 'dossier.created', dossierId: file.id, status: 'draft', numeroDossier: file.numeroDossier },
      });
      expect(received.map((e) => e.data.type)).toEqual(expect.arrayContaining(['dossier.updated', 'workflow.updated', 'notification.created']));
      expect(received.filter((e) => e.event === 'workflow').map((e) => e.data.callbackType)).toEqual(expect.arrayContaining(['scraping', 'dpec']));
      expect(received.find((e) => e.event === 'dossier' && e.data.status === 'approved')).toBeTruthy();
      const note = received.find((e) => e.event === 'notification')!;
      expect(note.data).toMatchObject({ userId: (await server.get('/api/user/profile', tokens.audio)).body.id, kind: 'robot_success' });

      await sleep(300);
      expect(mine(riviera.events)).toEqual([]);
      expect(riviera.events.filter((e) => e.event !== 'ready')).toEqual([]);
      // Same organisation, another centre: not theirs either.
      expect(mine(assistant.events)).toEqual([]);
    } finally {
      await Promise.all([audio.close(), riviera.close(), assistant.close()]);
    }
  });

  it('refuses a missing or invalid token, and an access token passed as a ticket', async () => {
    expect((await openEvents(server.url, {})).status).toBe(401);
    expect((await openEvents(server.url, { token: 'nope' })).status).toBe(401);
    const asTicket = await openEvents(server.url, { ticket: tokens.audio });
    expect(asTicket.status).toBe(401);
  });

  it('another server instance on the same database sees the changes (LISTEN/NOTIFY)', async () => {
    const sibling = await startSibling(server, { startWorkers: false });
    const stream = await openEvents(sibling.url, { token: tokens.horizonAdmin });
    try {
      await waitFor(async () => stream.events.some((e) => e.event === 'ready'));
      const file = await createDossier(server, tokens.audio, refs);
      await waitFor(async () => stream.events.some((e) => e.data.dossierId === file.id && e.data.type === 'dossier.created'));
    } finally {
      await stream.close();
      await sibling.close();
    }
  });
});

describe('the dashboard figures', () => {
  it('counts per status, expiring soon, robot failures of 7 days, amounts approved and billed this month', async () => {
    const res = await server.get('/api/pec_dossiers/stats', tokens.horizonAdmin);
    expect(res.status).toBe(200);
    const stats = res.body;
    const [holding] = await server.database.query<{ holding_id: number }>('select holding_id from shops where id = $1', [refs.shops['Horizon Paris Bastille']]);
    const h = holding!.holding_id;
    const byStatus = await server.database.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from pec_dossiers where holding_id = $1 group by status',
      [h],
    );
    for (const row of byStatus) expect(stats.byStatus[row.status], row.status).toBe(row.n);
    expect(Object.keys(stats.byStatus).sort()).toEqual(['approved', 'billed', 'draft', 'paid', 'pending', 'processing', 'rejected']);
    expect(stats.total).toBe(byStatus.reduce((a, r) => a + r.n, 0));
    expect(stats.expiringWithinDays).toBe(15);
    expect(stats.expiringSoon).toBeGreaterThanOrEqual(7);
    const [expiring] = await server.database.query<{ n: number }>(
      `select count(*)::int as n from pec_dossiers where holding_id = $1 and statut_facturation = false and status not in ('billed','paid') and date_peremption between current_date and current_date + 14`,
      [h],
    );
    expect(stats.expiringSoon).toBe(expiring!.n);
    const [failures] = await server.database.query<{ n: number }>(
      `select count(distinct dossier_id)::int as n from workflow_executions where holding_id = $1 and outcome in ('error','timeout') and completed_at >= now() - interval '7 days'`,
      [h],
    );
    expect(failures!.n).toBeGreaterThan(0);
    expect(stats.robotFailures7d).toBe(failures!.n);
    expect(stats.robotFailureWindowDays).toBe(7);
    // The figure's link: the list filtered on the same files.
    const failedList = await server.get('/api/pec_dossiers?robotFailedWithinDays=7&itemsPerPage=100', tokens.horizonAdmin);
    expect(failedList.body.totalItems).toBe(stats.robotFailures7d);
    for (const file of failedList.body.member) {
      const [failed] = await server.database.query<{ n: number }>(
        `select count(*)::int as n from workflow_executions where dossier_id = $1 and outcome in ('error','timeout') and completed_at >= now() - interval '7 days'`,
        [Number(String(file['@id']).split('/').pop())],
      );
      expect(failed!.n, file.numeroDossier).toBeGreaterThan(0);
    }
    // A window it cannot read lists nothing rather than everything.
    for (const bad of ['0', 'abc', '9999', '-3']) {
      const res = await server.get(`/api/pec_dossiers?robotFailedWithinDays=${bad}`, tokens.horizonAdmin);
      expect(res.status, bad).toBe(200);
      expect(res.body.totalItems, bad).toBe(0);
    }
    expect(stats.approvedThisMonth).toMatchObject({ count: expect.any(Number), totalTtc: expect.any(Number), partComplementaire: expect.any(Number) });
    expect(stats.approvedThisMonth.count).toBeGreaterThan(0);
    expect(stats.billedThisMonth.count).toBeGreaterThanOrEqual(0);

    const audio = (await server.get('/api/pec_dossiers/stats', tokens.audio)).body;
    expect(audio.total).toBe((await server.get('/api/pec_dossiers', tokens.audio)).body.totalItems);
    expect(audio.total).toBeLessThan(stats.total);
    expect((await server.get('/api/pec_dossiers?robotFailedWithinDays=7', tokens.audio)).body.totalItems).toBe(audio.robotFailures7d);
  });

  it('« dans les 15 prochains jours »: an agreement ending today or 14 days from now counts, 15 days from now or yesterday not; the card’s list the same', async () => {
    const today = todayInFrance();
    const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const figure = async () => (await server.get('/api/pec_dossiers/stats', tokens.horizonAdmin)).body.expiringSoon as number;
    const before = await figure();
    const ends: Record<string, number> = {};
    for (const offset of [-1, 0, 14, 15]) {
      const file = await createDossier(server, tokens.audio, refs);
      await server.database.query(`update pec_dossiers set status = 'approved', date_peremption = $2 where id = $1`, [file.id, day(offset)]);
      ends[offset] = file.id;
    }
    // Today and the 14 days after it: 15 days, as the card says.
    expect((await figure()) - before).toBe(2);
    // The list behind the card, filtered as the dashboard's link filters it: the same files, the same count.
    const { statutFacturation, datePeremption } = dashboardFilters(today).expiring;
    const query = `statutFacturation=${statutFacturation}&datePeremption[after]=${datePeremption.after}&datePeremption[before]=${datePeremption.before}`;
    const list = (await server.get(`/api/pec_dossiers?${query}&itemsPerPage=100`, tokens.horizonAdmin)).body;
    const listed = list.member.map((m: JsonBody) => Number(String(m['@id']).split('/').pop()));
    expect(Object.fromEntries(Object.entries(ends).map(([offset, id]) => [offset, listed.includes(id)]))).toEqual({
      '-1': false,
      '0': true,
      '14': true,
      '15': false,
    });
    expect(list.totalItems).toBe(await figure());
  });
});
