// The insured on a file (issue 29, part 4): last name, first name and contract number (numéro d'adhérent), optional,
// validated with French messages, searchable within the organisation, sent to the robot with the DPEC job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDossier, startPecServer, waitForIdle, type Refs } from './helpers/pec';
import { expectViolation, mergePatch, sqlRows } from './helpers/backoffice';
import type { JsonBody, TestServer } from './helpers/server';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer());
});
afterAll(async () => server?.close());

const list = (query: string, token = tokens.horizonAdmin) => server.get(`/api/pec_dossiers?${query}`, token);
const numbers = (res: { body: JsonBody }) => res.body.member.map((m: JsonBody) => m.numeroDossier);

describe('the insured on a file', () => {
  it('is optional, saved trimmed, read back, changed and cleared', async () => {
    const without = await createDossier(server, tokens.horizonAdmin!, refs);
    expect(without).toMatchObject({ nomAssure: null, prenomAssure: null, numeroAdherent: null });

    const created = await createDossier(server, tokens.horizonAdmin!, refs, {
      nomAssure: '  Le Guédec-D’Arvor ',
      prenomAssure: 'Marie Anne',
      // As printed on the card, spaced: kept without its spaces.
      numeroAdherent: ' 12AB 345 67 ',
    });
    const read = await server.get(`/api/pec_dossiers/${created.id}`, tokens.horizonAdmin);
    expect(read.body).toMatchObject({ nomAssure: 'Le Guédec-D’Arvor', prenomAssure: 'Marie Anne', numeroAdherent: '12AB34567' });

    const changed = await server.request('PATCH', `/api/pec_dossiers/${created.id}`, {
      token: tokens.horizonAdmin,
      headers: mergePatch,
      body: { nomAssure: "O'Neil", numeroAdherent: '' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ nomAssure: "O'Neil", prenomAssure: 'Marie Anne', numeroAdherent: null });
  });

  it('refuses digits in a name, punctuation in a contract number and over-long values, in French, and stores nothing', async () => {
    const body = {
      shop: `/api/shops/${refs.shops['Horizon Paris Bastille']}`,
      mutual: `/api/mutuals/${refs.mutuals['Allianz']!.id}`,
      numeroDossierAssure: 'P-ASSURE-KO',
      numeroDevisAssure: 'D-ASSURE-KO',
    };
    const res = await server.request('POST', '/api/pec_dossiers', {
      token: tokens.horizonAdmin,
      body: { ...body, nomAssure: 'Durand2', prenomAssure: 'Jean!', numeroAdherent: '12-34 56' },
    });
    expectViolation(res, 'nomAssure', 'Le nom ne peut contenir que des lettres, des espaces, des traits d’union et des apostrophes');
    expectViolation(res, 'prenomAssure', 'Le prénom ne peut contenir que des lettres, des espaces, des traits d’union et des apostrophes');
    expectViolation(res, 'numeroAdherent', 'Le numéro d’adhérent ne peut contenir que des chiffres et des lettres');

    const long = await server.request('POST', '/api/pec_dossiers', {
      token: tokens.horizonAdmin,
      body: { ...body, nomAssure: 'a'.repeat(101), numeroAdherent: '1'.repeat(31) },
    });
    expectViolation(long, 'nomAssure', 'Ce champ ne peut pas dépasser 100 caractères');
    expectViolation(long, 'numeroAdherent', 'Ce champ ne peut pas dépasser 30 caractères');

    const typed = await server.request('POST', '/api/pec_dossiers', { token: tokens.horizonAdmin, body: { ...body, numeroAdherent: 1234 } });
    expect(typed.status, typed.text).toBe(422);
    const stored = await sqlRows(server, `select id from pec_dossiers where numero_dossier_assure = 'P-ASSURE-KO'`);
    expect(stored).toEqual([]);
  });

  it('is found by contract number and by last name (accents and case aside), within the organisation only', async () => {
    const file = await createDossier(server, tokens.horizonAdmin!, refs, { nomAssure: 'Bérégovoy', prenomAssure: 'Zoé', numeroAdherent: 'ZX98765' });
    expect(numbers(await list('search=zx98765'))).toEqual([file.numeroDossier]);
    expect(numbers(await list('search=BEREGOVOY'))).toEqual([file.numeroDossier]);
    // Renamed: the old name no longer finds it.
    await server.request('PATCH', `/api/pec_dossiers/${file.id}`, { token: tokens.horizonAdmin, headers: mergePatch, body: { nomAssure: 'Mitterrand' } });
    expect(numbers(await list('search=beregovoy'))).toEqual([]);
    expect(numbers(await list('search=mitterrand'))).toContain(file.numeroDossier);
    // Another organisation neither finds it nor reads it.
    expect((await list('search=ZX98765', tokens.rivieraAdmin)).body.totalItems).toBe(0);
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin)).status).toBe(404);
  });

  it('travels with the DPEC job', async () => {
    const file = await createDossier(server, tokens.horizonAdmin!, refs, { nomAssure: 'Martin', prenomAssure: 'Louise', numeroAdherent: 'AD20260042' });
    const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', {
      token: tokens.horizonAdmin,
      body: { pecDossierId: `/api/pec_dossiers/${file.id}` },
    });
    expect(started.status, started.text).toBe(200);
    const [step] = await sqlRows(server, 'select * from workflow_executions where id = $1', [started.body.runId]);
    const payload = await server.app.ctx.pec.drivers.jobPayload({
      ...(step as object),
      dossierId: file.id,
      runId: started.body.runId,
      runKind: 'dpec',
    } as Parameters<typeof server.app.ctx.pec.drivers.jobPayload>[0]);
    expect(payload.assure).toEqual({ nom: 'Martin', prenom: 'Louise', numero_adherent: 'AD20260042' });
    await waitForIdle(server, tokens.horizonAdmin!, file.id);
  });
});
