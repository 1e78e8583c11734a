// Prescriptions on PEC files (issue 15): the prescriber (an organisation's Prescripteur) and the prescription date,
// the beneficiary's birth date; validated (no date in the future, another organisation's prescriber refused), shown
// on the file, sent to the robot, required before a DPEC run only for optical files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, format, parseISO } from 'date-fns';
import { todayInFrance } from '#domain/pec';
import { createDossier, startPecServer, waitForIdle, type Refs } from './helpers/pec';
import { expectViolation, mergePatch, sqlRows } from './helpers/backoffice';
import type { TestServer } from './helpers/server';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;
let horizonPrescriber: number;
let rivieraPrescriber: number;

const NICE = 'Riviera Nice Médecin';
const tomorrow = () => format(addDays(parseISO(todayInFrance()), 1), 'yyyy-MM-dd');
const startDpec = (id: number, token = tokens.horizonAdmin!) =>
  server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: `/api/pec_dossiers/${id}` } });

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer());
  const rows = await sqlRows<{ id: number; name: string }>(
    server,
    `select p.id, h.name from prescribers p join holdings h on h.id = p.holding_id where p.rpps = (select min(rpps) from prescribers q where q.holding_id = p.holding_id)`,
  );
  horizonPrescriber = rows.find((r) => r.name === 'Audition Horizon')!.id;
  rivieraPrescriber = rows.find((r) => r.name === 'Optique Riviera')!.id;
});
afterAll(async () => server?.close());

describe('the prescription on a file', () => {
  it('is saved and read back: the prescriber embedded with its name and RPPS, the dates as days', async () => {
    const created = await createDossier(server, tokens.horizonAdmin!, refs, {
      prescriber: `/api/prescribers/${horizonPrescriber}`,
      datePrescription: '2026-01-15',
      dateNaissanceBeneficiaire: '15/03/1950',
    });
    const res = await server.get(`/api/pec_dossiers/${created.id}`, tokens.horizonAdmin);
    expect(res.status).toBe(200);
    expect(res.body.prescriber).toMatchObject({ '@id': `/api/prescribers/${horizonPrescriber}`, id: horizonPrescriber });
    expect(res.body.prescriber.lastName).toEqual(expect.any(String));
    expect(res.body.prescriber.rpps).toMatch(/^\d{11}$/);
    expect(res.body.datePrescription).toBe('2026-01-15');
    expect(res.body.dateNaissanceBeneficiaire).toBe('1950-03-15');
    // A draft without documents only lacks its devis normalisé (pec-documents.test.ts).
    expect(res.body.warnings.map((w: { code: string }) => w.code)).toEqual(['devis_normalise_manquant']);

    const cleared = await server.request('PATCH', `/api/pec_dossiers/${created.id}`, {
      token: tokens.horizonAdmin,
      headers: mergePatch,
      body: { prescriber: null, datePrescription: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.prescriber).toBeNull();
    expect(cleared.body.datePrescription).toBeNull();
  });

  it('refuses a prescription date or a birth date in the future, with French messages', async () => {
    const res = await server.request('POST', '/api/pec_dossiers', {
      token: tokens.horizonAdmin,
      body: {
        shop: `/api/shops/${refs.shops['Horizon Paris Bastille']}`,
        mutual: `/api/mutuals/${refs.mutuals['Allianz']!.id}`,
        numeroDossierAssure: 'P-FUTUR',
        numeroDevisAssure: 'D-FUTUR',
        datePrescription: tomorrow(),
        dateNaissanceBeneficiaire: tomorrow(),
      },
    });
    expectViolation(res, 'datePrescription', 'La date de prescription ne peut pas être dans le futur');
    expectViolation(res, 'dateNaissanceBeneficiaire', 'La date de naissance ne peut pas être dans le futur');
    const today = await createDossier(server, tokens.horizonAdmin!, refs, { datePrescription: todayInFrance() });
    expect(today.datePrescription).toBe(todayInFrance());
  });

  it("refuses another organisation's prescriber with a 422, for an organisation user and for a platform administrator", async () => {
    const body = { prescriber: `/api/prescribers/${rivieraPrescriber}` };
    const asUser = await server.request('POST', '/api/pec_dossiers', {
      token: tokens.horizonAdmin,
      body: {
        shop: `/api/shops/${refs.shops['Horizon Paris Bastille']}`,
        mutual: `/api/mutuals/${refs.mutuals['Allianz']!.id}`,
        numeroDossierAssure: 'P-X',
        numeroDevisAssure: 'D-X',
        ...body,
      },
    });
    expect(asUser.status, asUser.text).toBe(422);
    expect(asUser.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['prescriber']);

    const file = await createDossier(server, tokens.horizonAdmin!, refs);
    const asAdmin = await server.request('PATCH', `/api/pec_dossiers/${file.id}`, { token: tokens.admin, headers: mergePatch, body });
    expectViolation(asAdmin, 'prescriber', 'Le prescripteur doit appartenir à l’organisation du dossier');
    const [row] = await sqlRows<{ prescriber_id: number | null }>(server, 'select prescriber_id from pec_dossiers where id = $1', [file.id]);
    expect(row!.prescriber_id).toBeNull();
  });

  it('keeps a prescriber while files name it (409), then lets it go', async () => {
    const created = await server.request('POST', '/api/prescribers', {
      token: tokens.horizonAdmin,
      body: { civility: 'Dr', lastName: 'Temporaire', specialty: 'ORL', rpps: '39999999999' },
    });
    expect(created.status, created.text).toBe(201);
    const file = await createDossier(server, tokens.horizonAdmin!, refs, { prescriber: created.body['@id'] });
    const refused = await server.request('DELETE', `/api/prescribers/${created.body.id}`, { token: tokens.horizonAdmin });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.detail).toContain('1 demande de PEC est liée à ce prescripteur');
    await server.request('DELETE', `/api/pec_dossiers/${file.id}`, { token: tokens.horizonAdmin });
    expect((await server.request('DELETE', `/api/prescribers/${created.body.id}`, { token: tokens.horizonAdmin })).status).toBe(204);
  });
});

describe('prerequisites of a DPEC run per specialty', () => {
  it('an optical file needs its prescriber and prescription date; the 422 lists them', async () => {
    const file = await createDossier(server, tokens.rivieraAdmin!, refs, {}, NICE);
    const refused = await startDpec(file.id, tokens.rivieraAdmin);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.missing).toEqual(['prescriber', 'datePrescription']);
    expect(refused.body.detail).toBe('Prérequis manquants : Prescripteur, Date de prescription.');

    await server.request('PATCH', `/api/pec_dossiers/${file.id}`, {
      token: tokens.rivieraAdmin,
      headers: mergePatch,
      body: { prescriber: `/api/prescribers/${rivieraPrescriber}` },
    });
    const stillMissing = await startDpec(file.id, tokens.rivieraAdmin);
    expect(stillMissing.body.missing).toEqual(['datePrescription']);

    await server.request('PATCH', `/api/pec_dossiers/${file.id}`, {
      token: tokens.rivieraAdmin,
      headers: mergePatch,
      body: { datePrescription: '2026-09-01' },
    });
    const started = await startDpec(file.id, tokens.rivieraAdmin);
    expect(started.status, started.text).toBe(200);
    await waitForIdle(server, tokens.rivieraAdmin!, file.id);
  });

  it("an audio file keeps the spec's three prerequisites: it starts without a prescription", async () => {
    const file = await createDossier(server, tokens.horizonAdmin!, refs);
    expect(file.prescriber).toBeNull();
    const started = await startDpec(file.id);
    expect(started.status, started.text).toBe(200);
    await waitForIdle(server, tokens.horizonAdmin!, file.id);
  });
});

describe('what the robot receives', () => {
  it('the job names the prescriber (name, RPPS, specialty) and carries the prescription date', async () => {
    const file = await createDossier(server, tokens.horizonAdmin!, refs, {
      prescriber: `/api/prescribers/${horizonPrescriber}`,
      datePrescription: '2026-10-02',
      dateNaissanceBeneficiaire: '1948-06-30',
    });
    const started = await startDpec(file.id);
    expect(started.status, started.text).toBe(200);
    const [step] = await sqlRows(server, 'select * from workflow_executions where id = $1', [started.body.runId]);
    const [prescriber] = await sqlRows<{ last_name: string; first_name: string | null; rpps: string; specialty: string; civility: string }>(
      server,
      'select last_name, first_name, rpps, specialty, civility from prescribers where id = $1',
      [horizonPrescriber],
    );
    const payload = await server.app.ctx.pec.drivers.jobPayload({
      ...(step as object),
      dossierId: file.id,
      runId: started.body.runId,
      runKind: 'dpec',
    } as Parameters<typeof server.app.ctx.pec.drivers.jobPayload>[0]);
    expect(payload.prescripteur).toEqual({
      civilite: prescriber!.civility,
      nom: prescriber!.last_name,
      prenom: prescriber!.first_name,
      rpps: prescriber!.rpps,
      specialite: prescriber!.specialty,
    });
    expect(payload.dossier).toMatchObject({ date_prescription: '2026-10-02', date_naissance_beneficiaire: '1948-06-30' });
    await waitForIdle(server, tokens.horizonAdmin!, file.id);
  });
});
