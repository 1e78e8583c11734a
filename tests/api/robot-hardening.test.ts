// What the outside probe of issue 12 found on the robot side: the external robot's error replies never reach people
// verbatim (nor the credentials they may echo), the robot URL rule, a result naming another run than the open one,
// a result entered by hand that ends the run it stands for, repeated results recognised by their meaning, and the
// bound on results entered by hand.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, patientNumber, robotCallback, startPecServer, waitFor, waitForIdle, type Refs } from './helpers/pec';
import { MANUAL_RESULTS_LIMIT } from '#domain/limits';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ robotSimDelayMs: 0 }));
});
afterAll(() => server?.close());

const startDpec = (id: unknown, token = tokens.audio) =>
  server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: id } });
const manual = (type: string, body: unknown, token = tokens.audio) => server.request('POST', `/api/callbacks/${type}`, { token, body });
const executions = (id: number) =>
  server.database.query<{ id: number; run_id: number | null; callback_type: string; completed_at: Date | null }>(
    'select id, run_id, callback_type, completed_at from workflow_executions where dossier_id = $1 order by id',
    [id],
  );
const notificationCount = async (id: number) =>
  (await server.database.query<{ n: number }>('select count(*)::int as n from notifications where dossier_id = $1', [id]))[0]!.n;

/** A file whose DPEC run stays open at its request step (the simulator's "-SILENCE"). */
async function silentRun() {
  const file = await createDossier(server, tokens.audio, refs, { numeroDossierAssure: patientNumber('-SILENCE') });
  const started = await startDpec(file.id);
  expect(started.status, started.text).toBe(200);
  await waitFor(async () => (await executions(file.id)).some((e) => e.callback_type === 'scraping' && e.completed_at) || undefined);
  return { file, externalId: started.body.externalId as string, runId: started.body.runId as number };
}

describe('the external robot’s error replies (item 1)', () => {
  let robot: Server;
  let reply: (job: JsonBody) => { status: number; body: string };
  const configId = async (key: string) =>
    (await server.get('/api/configs?category=integrations', tokens.admin)).body.member.find((c: JsonBody) => c.key === key).id;
  const putSetting = async (key: string, value: unknown) =>
    server.request('PUT', `/api/configs/${await configId(key)}`, { token: tokens.admin, body: { value } });

  beforeAll(async () => {
    robot = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const answer = reply(JSON.parse(body));
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
    const address = robot.address();
    expect((await putSetting('integrations.robot_url', `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/jobs`)).status).toBe(200);
    expect((await putSetting('integrations.robot_mode', 'http')).status).toBe(200);
  });
  afterAll(async () => {
    await putSetting('integrations.robot_mode', 'simulator');
    await new Promise((resolve) => robot.close(resolve));
  });

  it('keeps only the protocol’s error texts, drops any that holds a secret, and nobody reads the credentials', async () => {
    let password = '';
    reply = (job) => {
      password = job.identifiants[0].password;
      // A robot (or a proxy) that echoes its request, secrets included, around its error texts.
      return {
        status: 422,
        body: JSON.stringify({
          errors: [
            { message: `Mot de passe ${password} refusé par le portail` },
            { message: '  Identifiants du portail   Santéclair refusés ' },
            { message: 'x'.repeat(5000) },
          ],
          request: job,
        }),
      };
    };
    const file = await createDossier(server, tokens.audio, refs);
    expect((await startDpec(file.id)).status).toBe(200);
    const done = await waitForIdle(server, tokens.readOnly, file.id);
    expect(password).toMatch(/^Demo-horizon-\d+-secret$/);
    const [failed] = done.workflowExecutions;
    expect(failed.robotResponse.messages).toHaveLength(1);
    expect(failed.robotResponse.messages[0]).toMatch(/^Robot API returned 422: /);
    expect(failed.robotResponse.messages[0].length).toBeLessThan(700);
    // The spec's shortening still applies: the first error text kept, and the network tip.
    expect(failed.error).toEqual({
      title: 'Échec du DPEC',
      message: 'Identifiants du portail Santéclair refusés',
      tip: 'Vérifiez la configuration de la mutuelle dans les paramètres du réseau.',
    });
    // What a read-only user receives for the file, and every notification of it, holds no secret of the job.
    const detail = await server.get(`/api/pec_dossiers/${file.id}`, tokens.readOnly);
    expect(detail.text).not.toContain(password);
    expect(detail.text).not.toContain('identifiants');
    const stored = await server.database.query<{ text: string }>(
      "select coalesce(string_agg(robot_response::text, ' '), '') as text from workflow_executions where dossier_id = $1",
      [file.id],
    );
    expect(stored[0]!.text).not.toContain(password);
    const notes = await server.database.query<{ text: string }>(
      "select coalesce(string_agg(title || ' ' || coalesce(description, ''), ' '), '') as text from notifications where dossier_id = $1",
      [file.id],
    );
    expect(notes[0]!.text).not.toContain(password);
  });

  it('keeps nothing of a reply that is not the protocol’s (an HTML page echoing the request)', async () => {
    let password = '';
    reply = (job) => {
      password = job.identifiants[0].password;
      return { status: 502, body: `<html><body>Bad gateway: ${JSON.stringify(job)}</body></html>` };
    };
    const file = await createDossier(server, tokens.audio, refs);
    expect((await startDpec(file.id)).status).toBe(200);
    const done = await waitForIdle(server, tokens.readOnly, file.id);
    const [failed] = done.workflowExecutions;
    expect(failed.robotResponse.messages).toEqual(['Robot API returned 502: le robot a refusé la demande sans message exploitable.']);
    expect(failed.error.tip).toBe('Vérifiez la configuration de la mutuelle dans les paramètres du réseau.');
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.readOnly)).text).not.toContain(password);
  });

  it('the robot URL is an http(s) address with a host, no credentials, not link-local (422 in French)', async () => {
    const refused = async (value: string, message: string) => {
      const res = await putSetting('integrations.robot_url', value);
      expect(res.status, value).toBe(422);
      expect(res.body.violations).toEqual([{ propertyPath: 'value', message }]);
    };
    await refused('http://robot:motdepasse@robot.exemple.fr/jobs', 'Valeur invalide : l’URL ne doit contenir ni identifiant ni mot de passe.');
    await refused('http://169.254.169.254/latest/meta-data/', 'Valeur invalide : adresse locale de lien (169.254.x.x, fe80::) refusée.');
    await refused('http://[::1', 'Valeur invalide : une URL http(s) est attendue.');
    await refused('file:///etc/passwd', 'Valeur invalide : une URL http(s) est attendue.');
    await refused('gopher://127.0.0.1:6379/_INFO', 'Valeur invalide : une URL http(s) est attendue.');
    // The value in force is unchanged.
    const current = (await server.get('/api/configs?category=integrations', tokens.admin)).body.member.find(
      (c: JsonBody) => c.key === 'integrations.robot_url',
    );
    expect(current.value).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/jobs$/);
  });
});

describe('the robot’s callbacks (item 1)', () => {
  it('a message or a refusal reason holding one of the centre’s secrets is not kept', async () => {
    const { file, externalId, runId } = await silentRun();
    const [row] = await server.database.query<{ password_enc: string }>(
      'select c.password_enc from shop_credentials sc join credential_software c on c.id = sc.credential_id where sc.shop_id = $1 and c.password_enc is not null limit 1',
      [refs.shops['Horizon Paris Bastille']],
    );
    const password = server.app.ctx.secrets.decrypt(row!.password_enc);
    const res = await robotCallback(server, 'dpec', {
      id_pecflow: externalId,
      run_id: runId,
      success: false,
      messages: ['Refus du portail', `login=audio password=${password}`],
      detail_refus: `Mot de passe ${password} expiré`,
    });
    expect(res.status, res.text).toBe(200);
    const detail = await server.get(`/api/pec_dossiers/${file.id}`, tokens.readOnly);
    expect(detail.body.status).toBe('rejected');
    expect(detail.body.detailRefus).toBe('Motif de refus masqué : il contenait un identifiant de connexion du centre.');
    expect(detail.body.workflowExecutions[0].robotResponse.messages).toEqual(['Refus du portail']);
    expect(detail.text).not.toContain(password);
  });
});

describe('a result belongs to a run (item 2)', () => {
  it('a result naming another run than the open one answers 409 and changes nothing, from the robot or by hand', async () => {
    const foreign = await silentRun();
    const first = await silentRun();
    // The file's first run ends by hand; a second one is open.
    expect((await manual('dpec', { id_pecflow: first.externalId, success: false, messages: ['Portail fermé'] })).status).toBe(200);
    const restarted = await startDpec(first.file.id);
    expect(restarted.status, restarted.text).toBe(200);
    const runId = restarted.body.runId as number;
    const { file, externalId } = first;
    await waitFor(async () => (await executions(file.id)).some((e) => e.run_id === runId && e.callback_type === 'dpec' && !e.completed_at) || undefined);
    const before = { executions: await executions(file.id), notifications: await notificationCount(file.id) };
    const approval = { id_pecflow: externalId, success: true, messages: ['Accord'], num_pec: 'PEC-AUTRE-RUN', date_peremption: '2026-12-31' };

    for (const other of [first.runId, foreign.runId, runId + 100_000]) {
      const fromRobot = await robotCallback(server, 'dpec', { ...approval, run_id: other });
      expect(fromRobot.status, fromRobot.text).toBe(409);
      const byHand = await manual('dpec', { ...approval, run_id: other });
      expect(byHand.status).toBe(409);
      expect(byHand.body.detail).toMatch(/appel robot/);
    }
    const detail = (await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body;
    expect(detail).toMatchObject({ status: 'processing', numPec: null, datePeremption: null, runInProgress: { runId, kind: 'dpec', step: 'dpec' } });
    expect(await executions(file.id)).toEqual(before.executions);
    expect(await notificationCount(file.id)).toBe(before.notifications);

    // The open run's own answer is still taken.
    const own = await robotCallback(server, 'dpec', { ...approval, run_id: runId });
    expect(own.status).toBe(200);
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body).toMatchObject({
      status: 'approved',
      numPec: 'PEC-AUTRE-RUN',
      runInProgress: null,
    });
  });

  it('a result entered by hand ends the run it stands for: the file can be edited at once, and no timeout follows', async () => {
    const { file, externalId, runId } = await silentRun();
    const entered = await manual('scraping', {
      id_pecflow: externalId,
      success: true,
      messages: ['Appareils relevés sur le portail'],
      appareil: { droit: { marque: 'Phonak', total_ttc: '1 450,50' } },
    });
    expect(entered.status, entered.text).toBe(200);
    const detail = (await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body;
    expect(detail).toMatchObject({ status: 'draft', totalTtc: 1450.5, runInProgress: null });
    expect((await executions(file.id)).every((e) => e.completed_at !== null && e.run_id === runId)).toBe(true);
    const edit = await server.request('PATCH', `/api/pec_dossiers/${file.id}`, {
      token: tokens.audio,
      body: { commentaire: 'Modifié après la saisie' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(edit.status, edit.text).toBe(200);
    // The run's timeout finds nothing to fail.
    expect(await server.app.ctx.pec.runs.closeRun(runId, ['10 minutes écoulées, l’appel a échoué'], 'timeout')).toBe(false);
    // The request's result entered next is recorded out of any run and settles the file.
    const dpec = await manual('dpec', { id_pecflow: externalId, success: true, num_pec: 'PEC-MAIN-1' });
    expect(dpec.status).toBe(200);
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body).toMatchObject({
      status: 'approved',
      numPec: 'PEC-MAIN-1',
      runInProgress: null,
    });
  });
});

describe('a repeated result has one effect whatever its bytes (item 3)', () => {
  it('the same result with other spacing, key order and number forms makes one execution and one set of notifications', async () => {
    const { file, externalId, runId } = await silentRun();
    const fields = {
      id_pecflow: externalId,
      run_id: runId,
      success: true,
      messages: ['Accord'],
      num_dossier: 'D-7',
      num_pec: 'PEC-SENS-1',
      base_ss: 800,
      part_ss: 480,
      date_peremption: '2026-09-30',
    };
    const first = await robotCallback(server, 'dpec', fields);
    expect(first.status, first.text).toBe(200);
    const notified = await notificationCount(file.id);
    expect(notified).toBeGreaterThan(0);
    const reordered = Object.fromEntries(Object.entries(fields).reverse());
    const copies = [
      JSON.stringify(reordered),
      JSON.stringify(fields, null, 2),
      JSON.stringify({ ...reordered, base_ss: '800,00', part_ss: '480', success: 'true', messages: [' Accord '], detail_refus: null }),
    ];
    for (const rawBody of copies) {
      const again = await robotCallback(server, 'dpec', undefined, { rawBody });
      expect(again.status, again.text).toBe(200);
      expect(again.body.executionId).toBe(first.body.executionId);
    }
    // By hand, re-sent with its keys in another order: recognised too.
    const byHand = await manual('dpec', reordered);
    expect(byHand.body.executionId).toBe(first.body.executionId);
    expect((await executions(file.id)).filter((e) => e.callback_type.startsWith('dpec'))).toHaveLength(1);
    expect(await notificationCount(file.id)).toBe(notified);
    // Another meaning is another result.
    const other = await robotCallback(server, 'dpec', { ...fields, num_pec: 'PEC-SENS-2' });
    expect(other.status).toBe(200);
    expect(other.body.executionId).not.toBe(first.body.executionId);
  });
});

describe('results entered by hand are bounded per file (item 10)', () => {
  it(`accepts ${MANUAL_RESULTS_LIMIT.max} per hour on a file, then answers 429 in French with Retry-After`, async () => {
    const { file, externalId } = await silentRun();
    for (let i = 0; i < MANUAL_RESULTS_LIMIT.max; i++) {
      const res = await manual('scraping', { id_pecflow: externalId, success: false, messages: [`Essai ${i}`] });
      expect(res.status, res.text).toBe(200);
    }
    const notified = await notificationCount(file.id);
    const refused = await manual('dpec', { id_pecflow: externalId, success: true, num_pec: 'PEC-TROP' });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Trop de résultats saisis à la main pour ce dossier \(20 par heure au plus\) : réessayez dans \d+ minutes?\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body.numPec).toBeNull();
    expect((await executions(file.id)).length).toBe(MANUAL_RESULTS_LIMIT.max + 1);
    expect(await notificationCount(file.id)).toBe(notified);
    // The robot's own results are not counted against people.
    expect((await robotCallback(server, 'dpec', { id_pecflow: externalId, success: true, num_pec: 'PEC-ROBOT' })).status).toBe(200);
    // Another file is not affected.
    const other = await silentRun();
    expect((await manual('dpec', { id_pecflow: other.externalId, success: true, num_pec: 'PEC-AUTRE' })).status).toBe(200);
  });
});
