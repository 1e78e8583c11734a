// The whole life of a file through the built-in simulator, over HTTP, with no mock: create -> DPEC (scraping then
// dpec callbacks) -> approved -> invoice -> billing -> billed, then each simulator failure outcome.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
import { ACCOUNTS, createDossier, demoRefs, patientNumber, waitFor, waitForIdle, type Refs } from './helpers/pec';
import { OBSOLETE_LPP_CODES } from '../../server/robot/simulator';
import { shapeRobotError, todayInFrance } from '#domain/pec';

// An invoice is dated between the DPEC's day (the simulator's: the day of the run) and today (issue 25).
const invoiceDay = () => todayInFrance();

let server: TestServer;
let refs: Refs;
let audio: string;

beforeAll(async () => {
  server = await startTestServer({ robotSimDelayMs: 0 });
  refs = await demoRefs(server);
  audio = await server.login(ACCOUNTS.audio);
});
afterAll(() => server?.close());

const startDpec = (id: number, token = audio) => server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: id } });
const startBilling = (id: number, token = audio) => server.request('POST', '/api/robot-frontend/setup-and-billing-pec', { token, body: { pecDossierId: id } });
const stepsOf = (file: JsonBody) => file.workflowExecutions.map((e: JsonBody) => e.robotResponse?.data?.callback_type);

describe('create -> DPEC -> approved -> billing -> billed', () => {
  it('runs the whole flow through the simulator', async () => {
    const created = await createDossier(server, audio, refs);
    expect(created.status).toBe('draft');
    expect(created.numeroDossier).toMatch(/^PEC-\d{4}-\d{6}$/);
    expect(created.externalId).toBeNull();

    const started = await startDpec(created.id);
    expect(started.status, started.text).toBe(200);
    expect(started.body.externalId).toMatch(/^pf-/);
    expect(started.body.status).toBe('processing');

    // The answer comes at once; the run is recorded open.
    const during = await server.get(`/api/pec_dossiers/${created.id}`, audio);
    expect(during.body.externalId).toBe(started.body.externalId);

    const approved = await waitForIdle(server, audio, created.id);
    expect(approved.status).toBe('approved');
    expect(approved.numPec).toMatch(/^SANTECLAIR-\d{9}$/);
    expect(approved.numDossierDpec).toMatch(/^DPEC-\d{4}-\d{8}$/);
    expect(approved.dateValidation).not.toBeNull();
    expect(approved.datePeremption).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // Devices per ear, plausible, with amounts that add up.
    expect(approved.appareils.length).toBeGreaterThanOrEqual(1);
    let total = 0;
    for (const device of approved.appareils) {
      expect(['droite', 'gauche']).toContain(device.oreille);
      expect(device.codeLpp).toMatch(/^\d{7}$/);
      expect(OBSOLETE_LPP_CODES.has(device.codeLpp)).toBe(false);
      expect(['I', 'II']).toContain(device.classe);
      if (device.classe === 'I') expect(device.prixTtc).toBeLessThanOrEqual(950);
      expect(device.marque).toBeTruthy();
      expect(device.modele).toBeTruthy();
      total += device.prixTtc;
    }
    const ears = approved.appareils.length;
    expect(approved.totalTtc).toBeCloseTo(total, 2);
    expect(approved.prixFraisReels).toBeCloseTo(total, 2);
    expect(approved.baseSs).toBe(400 * ears);
    expect(approved.partSs).toBe(240 * ears);
    expect(approved.partSs + approved.partComplementaire + approved.resteCharge).toBeCloseTo(approved.prixFraisReels, 2);

    // Both steps recorded by the robot, newest first, with the spec's shape.
    expect(stepsOf(approved)).toEqual(['dpec', 'scraping']);
    for (const execution of approved.workflowExecutions) {
      expect(execution.workflow.name).toContain('robot');
      expect(execution.success).toBe(true);
      expect(execution.completedAt).not.toBeNull();
      expect(execution.robotResponse.data.callback_payload.messages).toEqual(execution.robotResponse.messages);
    }

    // Billing needs the invoice number and date first.
    const early = await startBilling(created.id);
    expect(early.status).toBe(422);
    expect(early.body.violations.map((v: JsonBody) => v.message)).toEqual([
      'Le numéro de facture logiciel est requis',
      'La date de facture logiciel est requise',
    ]);

    const patched = await server.request('PATCH', `/api/pec_dossiers/${created.id}`, {
      token: audio,
      body: { numBilling: 'FAC-2026-0042', dateBilling: invoiceDay() },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.numBilling).toBe('FAC-2026-0042');
    expect(patched.body.status).toBe('approved');

    const billing = await startBilling(created.id);
    expect(billing.status, billing.text).toBe(200);
    expect(billing.body.externalId).toBe(started.body.externalId);

    const billed = await waitFor(async () => {
      const res = await server.get(`/api/pec_dossiers/${created.id}`, audio);
      return res.body.status === 'billed' ? res.body : undefined;
    });
    expect(billed.statutFacturation).toBe(true);
    expect(billed.robotFailure).toBeNull();
    expect(billed.dateFacturationEffective).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(stepsOf(billed)).toEqual(['billing', 'dpec', 'scraping']);

    // Billed once: the button's state and the server agree.
    const again = await startBilling(created.id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Ce dossier est déjà facturé.');
  });
});

describe('simulator outcomes, by the patient number suffix', () => {
  const run = async (suffix: string) => {
    const file = await createDossier(server, audio, refs, { numeroDossierAssure: patientNumber(suffix) });
    const started = await startDpec(file.id);
    expect(started.status, started.text).toBe(200);
    return waitForIdle(server, audio, file.id);
  };

  it('-ERRSCRAP: the retrieval fails, the file returns to draft with the DPEC technical error', async () => {
    const file = await run('-ERRSCRAP');
    expect(file.status).toBe('draft');
    expect(stepsOf(file)).toEqual(['scraping_error']);
    const [execution] = file.workflowExecutions;
    expect(execution.success).toBe(false);
    expect(execution.robotResponse.messages[0]).toContain('scrapping_error');
    expect(execution.error).toEqual({
      title: 'Échec du DPEC',
      message: 'Erreur technique du service DPEC',
      tip: 'Contactez votre administrateur si le problème persiste.',
    });
    expect(file.appareils).toEqual([]);
  });

  it('-ERRDPEC: the request fails technically; the "Robot API returned" text is shortened with the network tip', async () => {
    const file = await run('-ERRDPEC');
    expect(file.status).toBe('draft');
    expect(stepsOf(file)).toEqual(['dpec_error', 'scraping']);
    const failed = file.workflowExecutions[0];
    expect(failed.robotResponse.messages[0]).toContain('Robot API returned 502');
    expect(failed.error.message).toBe('Mutuelle non reconnue par le portail du réseau');
    expect(failed.error.tip).toBe('Vérifiez la configuration de la mutuelle dans les paramètres du réseau.');
    // The devices retrieved by the first step stay.
    expect(file.appareils.length).toBeGreaterThan(0);
    // The list row and the file both carry the failure, for the list's mark and the dashboard's card.
    expect(file.robotFailure).toMatchObject({ kind: 'dpec', at: expect.any(String) });
    expect(shapeRobotError(file.robotFailure.messages, file.robotFailure.kind).message).toBe('Mutuelle non reconnue par le portail du réseau');
    const listed = await server.get(`/api/pec_dossiers?search=${encodeURIComponent(file.numeroDossier)}`, audio);
    expect(listed.body.member.map((row: JsonBody) => row.robotFailure)).toEqual([file.robotFailure]);
  });

  it('-REFUS: the insurer refuses, the file is rejected with the reason', async () => {
    const file = await run('-REFUS');
    expect(file.status).toBe('rejected');
    expect(file.detailRefus).toBe('Équipement hors des garanties du contrat de l’assuré');
    expect(stepsOf(file)).toEqual(['dpec_error', 'scraping']);
    expect(file.workflowExecutions[0].outcome).toBe('refused');
    expect(file.workflowExecutions[0].error.title).toBe('PEC refusée');
    // A refusal is the insurer's answer, not a failure of the robot.
    expect(file.robotFailure).toBeNull();
  });

  it('-ATTENTE: the insurer has not answered, the file is pending without a PEC number', async () => {
    const file = await run('-ATTENTE');
    expect(file.status).toBe('pending');
    expect(file.numPec).toBeNull();
    expect(file.numDossierDpec).toMatch(/^DPEC-/);
    expect(stepsOf(file)).toEqual(['dpec', 'scraping']);
    expect(file.workflowExecutions[0].outcome).toBe('pending');
  });

  it('-ERRFACT: the DPEC is granted, then the billing fails and the file stays approved', async () => {
    const file = await run('-ERRFACT');
    expect(file.status).toBe('approved');
    const day = invoiceDay();
    await server.request('PATCH', `/api/pec_dossiers/${file.id}`, {
      token: audio,
      body: { numBilling: 'FAC-1', dateBilling: day.split('-').reverse().join('/') },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect((await startBilling(file.id)).status).toBe(200);
    const after = await waitForIdle(server, audio, file.id);
    expect(after.status).toBe('approved');
    expect(after.statutFacturation).toBe(false);
    expect(after.dateBilling).toBe(day);
    expect(after.workflowExecutions[0].robotResponse.data.callback_type).toBe('billing_error');
    expect(after.workflowExecutions[0].error).toEqual({
      title: 'Échec de la facturation',
      message: 'Erreur technique lors de la facturation',
      tip: 'Vérifiez que le DPEC est bien validé.',
    });
    expect(after.robotFailure.kind).toBe('billing');
    expect(shapeRobotError(after.robotFailure.messages, after.robotFailure.kind).message).toBe('Erreur technique lors de la facturation');
  });

  it('a DPEC can be tried again after a technical failure, and runs the same way', async () => {
    const file = await run('-ERRSCRAP');
    const retry = await startDpec(file.id);
    expect(retry.status).toBe(200);
    const after = await waitForIdle(server, audio, file.id);
    expect(stepsOf(after)).toEqual(['scraping_error', 'scraping_error']);
    expect(new Set(after.workflowExecutions.map((e: JsonBody) => e.runId)).size).toBe(2);
  });
});
