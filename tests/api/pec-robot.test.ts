// The robot protocol: starting runs (rights, prerequisites, one run at a time), callbacks (signature, replay, manual
// results with French prices, errors), the timeout, a restart in the middle of a run, and the external (http) robot
// chosen through the system settings.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
import {
  ACCOUNTS,
  createDossier,
  demoRefs,
  patientNumber,
  robotCallback,
  signBody,
  sleep,
  startPecServer,
  startSibling,
  waitFor,
  waitForIdle,
  type Refs,
} from './helpers/pec';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ robotSimDelayMs: 0 }));
});
afterAll(() => server?.close());

const startDpec = (id: unknown, token = tokens.audio, on = server) =>
  on.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: id } });
const startBilling = (id: unknown, token = tokens.audio) =>
  server.request('POST', '/api/robot-frontend/setup-and-billing-pec', { token, body: { pecDossierId: id } });
const manual = (type: string, body: unknown, token = tokens.audio) => server.request('POST', `/api/callbacks/${type}`, { token, body });
const executions = (id: number) =>
  server.database.query<{ id: number; callback_type: string; completed_at: Date | null }>(
    'select id, callback_type, completed_at from workflow_executions where dossier_id = $1 order by id',
    [id],
  );

/** A file whose DPEC run stays open: the simulator retrieves the data and never gives its final answer. */
async function silentRun(token = tokens.audio) {
  const file = await createDossier(server, token, refs, { numeroDossierAssure: patientNumber('-SILENCE') });
  const started = await startDpec(file.id, token);
  expect(started.status, started.text).toBe(200);
  await waitFor(async () => (await executions(file.id)).some((e) => e.callback_type === 'scraping' && e.completed_at) || undefined);
  return { file, externalId: started.body.externalId as string };
}

describe('starting a run', () => {
  it('answers at once with the external id, and one run at a time', async () => {
    const { file, externalId } = await silentRun();
    const again = await startDpec(file.id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Un appel robot est déjà en cours pour ce dossier.');
    const detail = await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio);
    expect(detail.body.status).toBe('processing');
    expect(detail.body.externalId).toBe(externalId);
    expect(detail.body.runInProgress).toMatchObject({ kind: 'dpec', step: 'dpec' });
    // The open step reads "en cours": completed_at null, the type of the step.
    expect(detail.body.workflowExecutions[0]).toMatchObject({ completedAt: null, success: null, robotResponse: { data: { callback_type: 'dpec' } } });
  });

  it('needs pec.create, a file the user sees, and a valid id', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    expect((await startDpec(file.id, tokens.readOnly)).status).toBe(403);
    const foreign = await startDpec(file.id, tokens.rivieraAdmin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Dossier introuvable');
    const invalid = await startDpec('abc');
    expect(invalid.status).toBe(422);
    expect(invalid.body.violations[0]).toEqual({ propertyPath: 'pecDossierId', message: 'Identifiant de dossier invalide' });
    // The IRI form is accepted.
    const viaIri = await startDpec(`/api/pec_dossiers/${file.id}`);
    expect(viaIri.status).toBe(200);
  });

  it('lists the missing prerequisites (422)', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    await server.database.query('update pec_dossiers set numero_devis_assure = null, mutual_id = null where id = $1', [file.id]);
    const res = await startDpec(file.id);
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe('Prérequis manquants : N° Devis Assuré, Mutuelle sélectionnée.');
    expect(res.body.missing).toEqual(['numeroDevisAssure', 'mutual']);
    expect(res.body.violations).toEqual([
      { propertyPath: 'numeroDevisAssure', message: 'Le numéro de devis est requis' },
      { propertyPath: 'mutual', message: 'Une mutuelle doit être sélectionnée' },
    ]);
    expect((await executions(file.id)).length).toBe(0);
  });

  it('bills only after a granted DPEC, with the invoice number and date', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    const res = await startBilling(file.id);
    expect(res.status).toBe(422);
    expect(res.body.violations.map((v: JsonBody) => v.message)).toEqual([
      'Le DPEC doit être accordé avant la facturation',
      'Le numéro de facture logiciel est requis',
      'La date de facture logiciel est requise',
    ]);
  });
});

describe('callbacks', () => {
  it('refuse a forged signature (401) and change nothing', async () => {
    const { file, externalId } = await silentRun();
    const body = { id_pecflow: externalId, success: true, num_pec: 'FORGED-1', messages: ['ok'] };
    const forged = await robotCallback(server, 'dpec', body, { signature: signBody(JSON.stringify(body), 'not-the-secret') });
    expect(forged.status).toBe(401);
    expect(forged.body.detail).toBe('Signature du robot invalide');
    const tampered = await robotCallback(server, 'dpec', body, {
      rawBody: JSON.stringify({ ...body, num_pec: 'OTHER' }),
      signature: signBody(JSON.stringify(body), server.config.robotCallbackSecret),
    });
    expect(tampered.status).toBe(401);
    const anonymous = await server.request('POST', '/api/callbacks/dpec', { body });
    expect(anonymous.status).toBe(401);
    const after = await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio);
    expect(after.body.numPec).toBeNull();
    expect(after.body.status).toBe('processing');
  });

  it('a repeated delivery has one effect', async () => {
    const { file, externalId } = await silentRun();
    const body = {
      id_pecflow: externalId,
      success: true,
      messages: ['Accord'],
      num_dossier: 'D-1',
      num_pec: 'PEC-REPLAY-1',
      prix_frais_reels: 1900,
      base_ss: 800,
      part_ss: 480,
      part_complementaire: 1420,
      reste_charge: 0,
      date_peremption: '2026-09-30',
    };
    const first = await robotCallback(server, 'dpec', body);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ executionId: expect.any(Number), processing_time: expect.any(Number) });
    const before = await server.database.query<{ n: number }>('select count(*)::int as n from notifications where dossier_id = $1', [file.id]);
    const second = await robotCallback(server, 'dpec', body);
    expect(second.status).toBe(200);
    expect(second.body.executionId).toBe(first.body.executionId);
    const rows = await executions(file.id);
    expect(rows.filter((e) => e.callback_type === 'dpec')).toHaveLength(1);
    const after = await server.database.query<{ n: number }>('select count(*)::int as n from notifications where dossier_id = $1', [file.id]);
    expect(after[0]!.n).toBe(before[0]!.n);
    const detail = await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio);
    expect(detail.body).toMatchObject({
      status: 'approved',
      numPec: 'PEC-REPLAY-1',
      partComplementaire: 1420,
      datePeremption: '2026-09-30',
      runInProgress: null,
    });
  });

  it('answer 404 "Dossier introuvable" for an unknown id, 403 "Accès refusé" without pec.create, 404 for another organisation', async () => {
    const { externalId } = await silentRun();
    const unknown = await robotCallback(server, 'scraping', { id_pecflow: 'pf-inconnu', success: true, messages: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('Dossier introuvable');
    const readOnly = await manual('scraping', { id_pecflow: externalId, success: true }, tokens.readOnly);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.detail).toBe('Accès refusé');
    const foreign = await manual('scraping', { id_pecflow: externalId, success: true }, tokens.rivieraAdmin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Dossier introuvable');
    expect((await manual('nimporte', { id_pecflow: externalId, success: true })).status).toBe(404);
    const invalid = await manual('dpec', { success: 'peut-être' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.violations.map((v: JsonBody) => v.message)).toEqual([
      'L’identifiant du dossier (id_pecflow) est requis',
      'Le champ success doit valoir true ou false',
    ]);
  });

  it('manual results accept French prices, refuse more than 2 decimals, and drop empty message lines', async () => {
    const { file, externalId } = await silentRun();
    const tooPrecise = await manual('scraping', { id_pecflow: externalId, success: true, appareil: { droit: { marque: 'Phonak', total_ttc: '1 450,505' } } });
    expect(tooPrecise.status).toBe(422);
    expect(tooPrecise.body.violations).toEqual([{ propertyPath: 'appareil.droit.total_ttc', message: 'Prix invalide : max 2 décimales (ex: 1\u202f450,50)' }]);
    const negative = await manual('dpec', { id_pecflow: externalId, success: true, base_ss: '-5', part_ss: 1e15 });
    expect(negative.body.violations).toEqual([
      { propertyPath: 'base_ss', message: 'Prix invalide : le montant doit être compris entre 0 et 9\u202f999\u202f999\u202f999,99\u00a0€' },
      { propertyPath: 'part_ss', message: 'Prix invalide : le montant doit être compris entre 0 et 9\u202f999\u202f999\u202f999,99\u00a0€' },
    ]);

    const scraping = await manual('scraping', {
      id_pecflow: externalId,
      success: true,
      messages: 'Saisie depuis le portail\n\n  \nDevis vérifié',
      appareil: {
        offre_100_sante: 'non',
        droit: {
          fabricant: 'Sonova',
          marque: 'Phonak',
          modele: 'Audéo Sphere Infinio 90',
          total_ttc: '1 450,50',
          code_lpp: '2397315',
          premier_appareillage: 'oui',
          forme: 'Contour à écouteur déporté',
          classe: 'II',
        },
        gauche: {
          fabricant: 'Sonova',
          marque: 'Phonak',
          modele: 'Audéo Sphere Infinio 90',
          total_ttc: '1 450,5',
          code_lpp: '2397315',
          premier_appareillage: 'oui',
          forme: 'Contour à écouteur déporté',
          classe: 'II',
        },
      },
    });
    expect(scraping.status, scraping.text).toBe(200);
    const dpec = await manual('dpec', {
      id_pecflow: externalId,
      success: true,
      messages: ['Accord obtenu par téléphone'],
      num_pec: 'PEC-MANUEL-7',
      prix_frais_reels: '2 901,00',
      base_ss: '800',
      part_ss: '480',
      part_complementaire: '2 421',
      reste_charge: '0',
      date_peremption: '30/09/2026',
    });
    expect(dpec.status, dpec.text).toBe(200);

    const detail = (await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body;
    expect(detail).toMatchObject({
      status: 'approved',
      numPec: 'PEC-MANUEL-7',
      totalTtc: 2901,
      prixFraisReels: 2901,
      partComplementaire: 2421,
      datePeremption: '2026-09-30',
    });
    expect(detail.appareils.map((a: JsonBody) => [a.oreille, a.prixTtc, a.premierAppareillage, a.offre100Sante])).toEqual([
      ['droite', 1450.5, 'oui', 'non'],
      ['gauche', 1450.5, 'oui', 'non'],
    ]);
    const entered = detail.workflowExecutions.find((e: JsonBody) => e.id === scraping.body.executionId);
    expect(entered.robotResponse.messages).toEqual(['Saisie depuis le portail', 'Devis vérifié']);
    expect(entered.workflow.name).toContain('robot');
    expect(entered.robotResponse.data.callback_type).toBe('scraping');
  });

  it('a billing result entered by hand needs a granted DPEC, like the billing run', async () => {
    const { file, externalId } = await silentRun();
    const billed = await manual('billing', { id_pecflow: externalId, success: true, messages: [], date_facturation_effective: '2026-01-01' });
    expect(billed.status).toBe(409);
    expect(billed.body.detail).toBe('Facturation impossible : le DPEC de ce dossier n’est pas accordé (état « En cours »).');
    const detail = (await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).body;
    expect(detail).toMatchObject({ statutFacturation: false, dateFacturationEffective: null });
    expect((await executions(file.id)).some((e) => e.callback_type.startsWith('billing'))).toBe(false);
    // A failed billing is only a trace; it bills nothing and is accepted.
    expect((await manual('billing', { id_pecflow: externalId, success: false, messages: ['Portail fermé'] })).status).toBe(200);
  });
});

describe('the timeout', () => {
  it('fails a run with no final callback, and the file leaves processing', async () => {
    // Long enough for the retrieval's callback to come first on a loaded machine (the request then never comes).
    const quick = await startTestServer({ robotSimDelayMs: 0, robotRunTimeoutMs: 4000 });
    try {
      const token = await quick.login(ACCOUNTS.audio);
      const quickRefs = await demoRefs(quick);
      const file = await createDossier(quick, token, quickRefs, { numeroDossierAssure: patientNumber('-SILENCE') });
      expect((await startDpec(file.id, token, quick)).status).toBe(200);
      const after = await waitForIdle(quick, token, file.id, 45_000);
      expect(after.status).toBe('draft');
      const [last] = after.workflowExecutions;
      expect(last).toMatchObject({
        success: false,
        outcome: 'timeout',
        robotResponse: { messages: ['10 minutes écoulées, l’appel a échoué'], data: { callback_type: 'dpec_error' } },
      });
      expect(last.error.message).toBe('10 minutes écoulées, l’appel a échoué');
      const notes = await quick.get('/api/notifications', token);
      expect(notes.body.member.find((n: JsonBody) => n.dossierId === file.id)).toMatchObject({
        kind: 'robot_timeout',
        title: `Échec du DPEC — ${file.numeroDossier}`,
      });
      // A late answer after the timeout is still recorded, once, outside the run.
      const late = await robotCallback(quick, 'dpec', { id_pecflow: after.externalId, success: true, num_pec: 'LATE-1' });
      expect(late.status).toBe(200);
      expect((await quick.get(`/api/pec_dossiers/${file.id}`, token)).body.status).toBe('approved');
    } finally {
      await quick.close();
    }
  }, 60_000);
});

describe('a restart in the middle of runs', () => {
  it('loses no run: the next server finishes the waiting jobs', async () => {
    const slow = await startTestServer({ robotSimDelayMs: 1500 });
    let sibling: Awaited<ReturnType<typeof startSibling>> | undefined;
    try {
      const token = await slow.login(ACCOUNTS.audio);
      const slowRefs = await demoRefs(slow);
      const files = [];
      for (let i = 0; i < 3; i++) files.push(await createDossier(slow, token, slowRefs));
      for (const file of files) expect((await startDpec(file.id, token, slow)).status).toBe(200);
      // Stop before the simulator's first callback (1.5 s): the jobs wait in the queue.
      await slow.app.close();
      const running = await slow.database.query<{ n: number }>(
        'select count(*)::int as n from workflow_executions where completed_at is null and dossier_id = any($1)',
        [files.map((f) => f.id)],
      );
      expect(running[0]!.n).toBe(3);

      sibling = await startSibling(slow, { robotSimDelayMs: 0 });
      const next = {
        ...slow,
        url: sibling.url,
        app: sibling.app,
        get: (p: string, t?: string) =>
          fetch(`${sibling!.url}${p}`, { headers: { authorization: `Bearer ${t}` } }).then(async (r) => ({ status: r.status, body: await r.json() })),
      } as unknown as TestServer;
      for (const file of files) {
        const done = await waitForIdle(next, token, file.id, 25_000);
        expect(done.status).toBe('approved');
        expect(done.workflowExecutions.map((e: JsonBody) => e.robotResponse.data.callback_type)).toEqual(['dpec', 'scraping']);
      }
    } finally {
      await sibling?.close();
      await slow.close();
    }
  });
});

describe('the external robot (http mode, chosen in the system settings)', () => {
  let robot: Server;
  let robotUrl: string;
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  let answer: { status: number; body: string } = { status: 202, body: '{"accepted":true}' };

  beforeAll(async () => {
    robot = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
    const address = robot.address();
    robotUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/jobs`;
    const configs = await server.get('/api/configs?category=integrations', tokens.admin);
    const id = (key: string) => configs.body.member.find((c: JsonBody) => c.key === key).id;
    expect((await server.request('PUT', `/api/configs/${id('integrations.robot_url')}`, { token: tokens.admin, body: { value: robotUrl } })).status).toBe(200);
    expect((await server.request('PUT', `/api/configs/${id('integrations.robot_mode')}`, { token: tokens.admin, body: { value: 'http' } })).status).toBe(200);
  });
  afterAll(async () => {
    const configs = await server.get('/api/configs?category=integrations', tokens.admin);
    const mode = configs.body.member.find((c: JsonBody) => c.key === 'integrations.robot_mode');
    await server.request('PUT', `/api/configs/${mode.id}`, { token: tokens.admin, body: { value: 'simulator' } });
    await new Promise((resolve) => robot.close(resolve));
  });

  it('posts the signed job with the centre’s decrypted credentials; the robot’s callbacks finish the run', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    const started = await startDpec(file.id);
    expect(started.status).toBe(200);
    const job = await waitFor(async () => received.find((r) => JSON.parse(r.body).id_pecflow === started.body.externalId));
    expect(job.headers['x-pecflow-signature']).toBe(signBody(job.body, server.config.robotCallbackSecret));
    const payload = JSON.parse(job.body);
    expect(payload).toMatchObject({
      action: 'setup_and_create_dpec',
      run_id: started.body.runId,
      dossier: { numero_dossier: file.numeroDossier, numero_dossier_assure: file.numeroDossierAssure, numero_devis_assure: file.numeroDevisAssure },
      centre: { nom: 'Horizon Paris Bastille', finess: '750061234' },
      mutuelle: { nom: 'Allianz' },
      reseau: { nom: 'Santéclair' },
    });
    expect(payload.callback_urls.dpec).toMatch(/\/api\/callbacks\/dpec$/);
    expect(payload.identifiants.length).toBeGreaterThan(0);
    expect(payload.identifiants[0].password).toMatch(/^Demo-horizon-\d+-secret$/);

    // The robot answers through the callback URLs it was given.
    const post = async (url: string, body: unknown) => {
      const raw = JSON.stringify(body);
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-robot-signature': signBody(raw, server.config.robotCallbackSecret) },
        body: raw,
      });
      expect(res.status).toBe(200);
    };
    await post(payload.callback_urls.scraping, {
      id_pecflow: payload.id_pecflow,
      run_id: payload.run_id,
      success: true,
      messages: ['ok'],
      appareil: { droit: { marque: 'Oticon', modele: 'Intent 1', total_ttc: 2190, code_lpp: '2393984', classe: 'II' } },
    });
    await post(payload.callback_urls.dpec, { id_pecflow: payload.id_pecflow, run_id: payload.run_id, success: true, messages: ['ok'], num_pec: 'EXT-1' });
    const done = await waitForIdle(server, tokens.audio, file.id);
    expect(done).toMatchObject({ status: 'approved', numPec: 'EXT-1', totalTtc: 2190 });
  });

  it('a refusal of the robot API fails the run with the first error and the network tip', async () => {
    answer = { status: 422, body: '{"errors":[{"message":"Identifiants du portail Santéclair refusés"},{"message":"second"}]}' };
    const file = await createDossier(server, tokens.audio, refs);
    expect((await startDpec(file.id)).status).toBe(200);
    const done = await waitForIdle(server, tokens.audio, file.id);
    expect(done.status).toBe('draft');
    const [failed] = done.workflowExecutions;
    expect(failed.robotResponse.messages[0]).toMatch(/^Robot API returned 422: /);
    expect(failed.error).toEqual({
      title: 'Échec du DPEC',
      message: 'Identifiants du portail Santéclair refusés',
      tip: 'Vérifiez la configuration de la mutuelle dans les paramètres du réseau.',
    });
    await sleep(10);
  });
});
