// Notifications go to who acts on them (issue 12, item 11): the file's creator and the users of its centre who may act
// on it (pec.create), never read-only staff; and each user chooses which kinds they receive
// (GET and PATCH /api/user/notification-preferences), which the server obeys when it creates them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, patientNumber, startPecServer, waitForIdle, type Refs } from './helpers/pec';
import { NOTIFICATION_KINDS } from '#domain/notifications';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ robotSimDelayMs: 0 }));
});
afterAll(() => server?.close());

const PATH = '/api/user/notification-preferences';
const patch = (body: unknown, token: string) => server.request('PATCH', PATH, { token, body, headers: { 'content-type': 'application/merge-patch+json' } });

/** Who was notified of the file, by email, with the kinds. */
async function notified(fileId: number) {
  const rows = await server.database.query<{ email: string; kind: string }>(
    'select u.email, n.kind from notifications n join users u on u.id = n.user_id where n.dossier_id = $1 order by u.email',
    [fileId],
  );
  return rows;
}

/** A DPEC run of the simulator to its end; `suffix` chooses the outcome. */
async function run(suffix = '', token = tokens.audio) {
  const file = await createDossier(server, token, refs, { numeroDossierAssure: patientNumber(suffix) });
  const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: file.id } });
  expect(started.status, started.text).toBe(200);
  return waitForIdle(server, token, file.id);
}

describe('who is notified of a robot outcome', () => {
  it('the creator and the users who may act on the file; never read-only staff nor users who do not see it', async () => {
    const done = await run();
    expect(done.status).toBe('approved');
    const rows = await notified(done.id);
    const emails = rows.map((r) => r.email);
    expect(emails).toContain('audio@audition-horizon.fr'); // the creator
    expect(emails).toContain('direction@audition-horizon.fr'); // pec.* on every centre of the organisation
    expect(emails).not.toContain('lecture@audition-horizon.fr'); // sees the centre, read-only
    expect(emails).not.toContain('assistant@audition-horizon.fr'); // may act, but on another centre
    expect(emails.some((e) => !e.endsWith('@audition-horizon.fr'))).toBe(false);
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['robot_success']));
    // Each recipient holds pec.create and sees the file's centre (or the whole organisation).
    const [{ holding_id: holdingId }] = (await server.database.query<{ holding_id: number }>('select holding_id from pec_dossiers where id = $1', [
      done.id,
    ])) as [{ holding_id: number }];
    const holders = await server.database.query<{ email: string }>(
      `select u.email from users u
        where u.status = 'Active' and u.holding_id = $1
          and exists (select 1 from user_roles ur join roles r on r.id = ur.role_id, unnest(r.permissions) p
                      where ur.user_id = u.id and p in ('pec.create', 'pec.*', 'admin.*'))
          and (exists (select 1 from user_shops us where us.user_id = u.id and us.shop_id = $2)
               or exists (select 1 from user_roles ur join roles r on r.id = ur.role_id, unnest(r.permissions) p
                          where ur.user_id = u.id and p in ('settings.shops.view', 'settings.shops.*', 'settings.*', 'admin.*')))
        order by u.email`,
      [holdingId, refs.shops['Horizon Paris Bastille']],
    );
    expect(emails).toEqual(holders.map((h) => h.email));
    // The read-only user's bell stays empty of this file.
    const bell = await server.get('/api/notifications?itemsPerPage=100', tokens.readOnly);
    expect(bell.body.member.some((n: JsonBody) => n.dossierId === done.id)).toBe(false);
  });
});

describe('each user chooses the kinds they receive', () => {
  it('lists every kind with its French label, all received by default', async () => {
    const res = await server.get(PATH, tokens.assistant);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.preferences)).toEqual([...NOTIFICATION_KINDS]);
    expect(Object.values(res.body.preferences).every((v) => v === true)).toBe(true);
    expect(res.body.kinds.map((k: JsonBody) => k.label)).toEqual([
      'DPEC accordé',
      'DPEC en attente',
      'DPEC refusé',
      'Erreur technique',
      'Délai dépassé',
      'Facturation effectuée',
      'PEC bientôt périmée',
      'Dossiers à relancer',
      'Mention dans une note',
    ]);
    expect((await server.get(PATH)).status).toBe(401);
  });

  it('refuses unknown kinds and non-boolean values (422, French) and changes nothing', async () => {
    const res = await patch({ robot_success: 'non', inconnu: false }, tokens.audio);
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([
      { propertyPath: 'robot_success', message: 'Valeur oui/non attendue (true ou false).' },
      { propertyPath: 'inconnu', message: 'Type de notification inconnu : inconnu.' },
    ]);
    expect((await patch([false], tokens.audio)).status).toBe(422);
    expect((await server.get(PATH, tokens.audio)).body.preferences.robot_success).toBe(true);
  });

  it('a kind turned off is no longer created for that user, and is kept; the others still receive it', async () => {
    const off = await patch({ robot_success: false, robot_refused: false }, tokens.audio);
    expect(off.status, off.text).toBe(200);
    expect(off.body.preferences).toMatchObject({ robot_success: false, robot_refused: false, robot_error: true });
    // A second change keeps the first (a partial update).
    expect((await patch({ robot_refused: true }, tokens.audio)).body.preferences).toMatchObject({ robot_success: false, robot_refused: true });
    expect((await server.get(PATH, tokens.audio)).body.preferences).toMatchObject({ robot_success: false, robot_refused: true, robot_error: true });
    // Someone else's choice is theirs alone.
    expect((await server.get(PATH, tokens.horizonAdmin)).body.preferences.robot_success).toBe(true);

    const granted = await run();
    const grantedTo = (await notified(granted.id)).map((r) => r.email);
    expect(grantedTo).not.toContain('audio@audition-horizon.fr');
    expect(grantedTo).toContain('direction@audition-horizon.fr');

    const refused = await run('-REFUS');
    expect(refused.status).toBe('rejected');
    expect(await notified(refused.id)).toContainEqual({ email: 'audio@audition-horizon.fr', kind: 'robot_refused' });

    expect((await patch({ robot_success: true, robot_refused: true }, tokens.audio)).body.preferences.robot_success).toBe(true);
  });
});
