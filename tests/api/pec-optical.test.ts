// Opticians' files (issue 15, part 1): a file of an optician's centre holds one optical equipment (equipementOptique),
// never devices per ear; the simulator, manual results, validation, tenancy, the CSV export and the demo data follow
// the file's kind. Hearing-aid files are unchanged; an orthopaedist's file stays generic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { attachDocument, createDossier, patientNumber, robotCallback, startPecServer, waitFor, waitForIdle, type Refs } from './helpers/pec';
import { OPTICAL_MESSAGES, OPTICAL_RULES } from '#domain/optical';
import { todayInFrance } from '#domain/pec';
import { EXPORT_HEADER } from '../../server/pec/csv';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;
/** An optician's file needs its prescription before a DPEC run (PRESCRIPTION_REQUIRED): one of Optique Riviera's prescribers. */
let prescription: { prescriber: string; datePrescription: string };

const OPTICIAN = 'Riviera Nice Médecin';
const AUDIO_OF_RIVIERA = 'Riviera Antibes';

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ robotSimDelayMs: 0 }));
  const [prescriber] = await server.database.query<{ id: number }>(
    'select p.id from prescribers p join shops s on s.holding_id = p.holding_id where s.name = $1 order by p.id limit 1',
    [OPTICIAN],
  );
  prescription = { prescriber: `/api/prescribers/${prescriber!.id}`, datePrescription: new Date().toISOString().slice(0, 10) };
});
afterAll(() => server?.close());

const startDpec = (id: number, token = tokens.rivieraAdmin) =>
  server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: id } });
const startBilling = (id: number, token = tokens.rivieraAdmin) =>
  server.request('POST', '/api/robot-frontend/setup-and-billing-pec', { token, body: { pecDossierId: id } });
const manual = (type: string, body: unknown, token = tokens.rivieraAdmin) => server.request('POST', `/api/callbacks/${type}`, { token, body });
const patch = (id: number, body: unknown, token = tokens.rivieraAdmin) =>
  server.request('PATCH', `/api/pec_dossiers/${id}`, { token, body, headers: { 'content-type': 'application/merge-patch+json' } });
const opticalFile = (overrides: Record<string, unknown> = {}, shop = OPTICIAN) =>
  createDossier(server, tokens.rivieraAdmin, refs, { ...prescription, ...overrides }, shop);
const opticalRows = (dossierId: number) =>
  server.database.query<{ classe: string }>('select classe from optical_equipments where dossier_id = $1', [dossierId]);

const onStep = (value: number, rule: { min: number; max: number; step: number }) =>
  value >= rule.min && value <= rule.max && Math.abs(value / rule.step - Math.round(value / rule.step)) < 1e-9;

function expectPlausibleLens(lens: JsonBody) {
  expect(['unifocal', 'progressif']).toContain(lens.type);
  expect(onStep(lens.sphere, OPTICAL_RULES.sphere), `sphere ${lens.sphere}`).toBe(true);
  if (lens.cylindre !== null) {
    expect(onStep(lens.cylindre, OPTICAL_RULES.cylindre)).toBe(true);
    expect(Number.isInteger(lens.axe) && lens.axe >= 0 && lens.axe <= 180).toBe(true);
  }
  if (lens.type === 'progressif') expect(onStep(lens.addition, OPTICAL_RULES.addition)).toBe(true);
  else expect(lens.addition).toBeNull();
  expect(['1.5', '1.6', '1.67']).toContain(lens.indice);
  expect(lens.traitements.length).toBeGreaterThan(0);
  expect(lens.prix).toBeGreaterThan(0);
  expect(lens.codeLpp).toMatch(/^\d{7}$/);
}

/** A file whose DPEC run stays open after the simulator's scraping (patient number ending in -SILENCE). */
async function silentOpticalRun(shop = OPTICIAN, token = tokens.rivieraAdmin) {
  const file = await createDossier(server, token, refs, { ...prescription, numeroDossierAssure: patientNumber('-SILENCE') }, shop);
  const started = await startDpec(file.id, token);
  expect(started.status, started.text).toBe(200);
  await waitFor(async () => {
    const rows = await server.database.query<{ n: number }>(
      "select count(*)::int as n from workflow_executions where dossier_id = $1 and callback_type = 'scraping' and completed_at is not null",
      [file.id],
    );
    return rows[0]!.n > 0;
  });
  return { file, externalId: started.body.externalId as string };
}

describe('an optician’s file through the flow', () => {
  it('create -> DPEC (simulator) -> approved with an optical equipment -> billing -> billed -> paid by a statement', async () => {
    const created = await opticalFile();
    expect(created.status).toBe('draft');
    // The simulated portal refuses an optical request without its prescription (issue 29).
    await attachDocument(server, tokens.rivieraAdmin, created.id, 'prescription');

    const started = await startDpec(created.id);
    expect(started.status, started.text).toBe(200);
    const approved = await waitForIdle(server, tokens.rivieraAdmin, created.id);
    expect(approved.status).toBe('approved');
    expect(approved.fileKind).toBe('optical');
    // No ears on an optician's file: the equipment is the frame and a lens per eye.
    expect(approved.appareils).toEqual([]);
    const equipment = approved.equipementOptique;
    expect(equipment['@type']).toBe('EquipementOptique');
    expect(['A', 'B']).toContain(equipment.classe);
    expect(equipment.monture).toEqual({
      marque: expect.any(String),
      modele: expect.any(String),
      prix: expect.any(Number),
      codeLpp: expect.stringMatching(/^\d{7}$/),
    });
    expect(Object.keys(equipment.verres).sort()).toEqual(['OD', 'OG']);
    expectPlausibleLens(equipment.verres.OD);
    expectPlausibleLens(equipment.verres.OG);
    if (equipment.classe === 'A') expect(equipment.monture.prix).toBeLessThanOrEqual(30);

    // The quote is the frame and the two lenses; the insurer's amounts add up, nothing left to pay in class A.
    const total = equipment.monture.prix + equipment.verres.OD.prix + equipment.verres.OG.prix;
    expect(approved.totalTtc).toBeCloseTo(total, 2);
    expect(approved.prixFraisReels).toBeCloseTo(total, 2);
    expect(approved.partSs).toBeCloseTo(approved.baseSs * 0.6, 2);
    expect(approved.partSs + approved.partComplementaire + approved.resteCharge).toBeCloseTo(approved.prixFraisReels, 2);
    if (equipment.classe === 'A') expect(approved.resteCharge).toBe(0);
    const scraping = approved.workflowExecutions.find((e: JsonBody) => e.callbackType === 'scraping');
    expect(scraping.robotResponse.data.callback_payload.equipement_optique.classe).toBe(equipment.classe);
    expect(scraping.robotResponse.data.callback_payload.appareil).toBeUndefined();

    // The invoice is dated on or after the DPEC's day (the simulator's: today) and not after today (issue 25).
    expect((await patch(created.id, { numBilling: 'FAC-OPT-1', dateBilling: todayInFrance() })).status).toBe(200);
    expect((await startBilling(created.id)).status).toBe(200);
    const billed = await waitFor(async () => {
      const res = await server.get(`/api/pec_dossiers/${created.id}`, tokens.rivieraAdmin);
      return res.body.status === 'billed' ? res.body : undefined;
    });
    expect(billed.statutFacturation).toBe(true);
    expect(billed.equipementOptique).toEqual(equipment);

    // Paid by the insurer's statement (issue 15, part 4): the complementary part, found by the file's PEC number.
    const owed = (billed.partComplementaire as number).toFixed(2).replace('.', ',');
    // Paid today: a payment never precedes its invoice (it would stay 'Antérieur à la facture').
    const today = todayInFrance();
    const statement = [
      'Date de paiement;Payeur;Référence;Montant;Libellé',
      `${today.split('-').reverse().join('/')};Harmonie;${billed.numPec};${owed};Optique`,
    ].join('\r\n');
    const applied = await server.request('POST', '/api/payment_statements', {
      token: tokens.rivieraAdmin,
      rawBody: statement,
      headers: { 'content-type': 'text/csv' },
    });
    expect(applied.status, applied.text).toBe(201);
    expect(applied.body.lines.map((line: JsonBody) => line.outcome)).toEqual(['paid']);
    const paid = await server.get(`/api/pec_dossiers/${created.id}`, tokens.rivieraAdmin);
    expect(paid.body).toMatchObject({ status: 'paid', montantPaye: billed.partComplementaire, datePaiement: today, paiementPartiel: false });
    expect(paid.body.equipementOptique).toEqual(equipment);
    expect(paid.body.appareils).toEqual([]);
  });

  it('takes the optical equipment entered by hand, French numbers included, and replaces the previous one', async () => {
    const { file, externalId } = await silentOpticalRun();
    expect(await opticalRows(file.id)).toHaveLength(1);
    const saved = await manual('scraping', {
      id_pecflow: externalId,
      success: true,
      equipement_optique: {
        classe: 'classe b',
        monture: { marque: 'Lafont', modele: 'Issy', prix: '245,00', code_lpp: '2223342' },
        verres: {
          OD: {
            type: 'Progressif',
            sphere: '-2,25',
            cylindre: '-0,50',
            axe: '90',
            addition: '2',
            indice: '1,67',
            traitements: 'antireflet, durci',
            prix: '329',
            code_lpp: '2240671',
          },
          OG: { type: 'progressif', sphere: '+1,5', cylindre: '', axe: '', addition: 2, indice: '1.6', traitements: [], prix: 329, code_lpp: 2240671 },
        },
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(await opticalRows(file.id)).toEqual([{ classe: 'B' }]);
    const detail = (await server.get(`/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin)).body;
    expect(detail.equipementOptique).toEqual({
      '@type': 'EquipementOptique',
      classe: 'B',
      monture: { marque: 'Lafont', modele: 'Issy', prix: 245, codeLpp: '2223342' },
      verres: {
        OD: {
          type: 'progressif',
          sphere: -2.25,
          cylindre: -0.5,
          axe: 90,
          addition: 2,
          indice: '1.67',
          traitements: ['antireflet', 'durci'],
          prix: 329,
          codeLpp: '2240671',
        },
        OG: { type: 'progressif', sphere: 1.5, cylindre: null, axe: null, addition: 2, indice: '1.6', traitements: [], prix: 329, codeLpp: '2240671' },
      },
    });
    expect(detail.totalTtc).toBe(903);
    expect(detail.appareils).toEqual([]);
  });
});

describe('validation of the optical equipment', () => {
  it('answers 422 with one French violation per implausible value, and writes nothing', async () => {
    const { file, externalId } = await silentOpticalRun();
    const before = await server.get(`/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin);
    const res = await manual('scraping', {
      id_pecflow: externalId,
      success: true,
      equipement_optique: {
        classe: 'C',
        monture: { marque: 'Ray-Ban', prix: '30,555', code_lpp: '221054' },
        verres: {
          OD: { type: 'bifocal', sphere: -2.3, cylindre: -10.25, axe: 181, addition: 4.25, indice: '2,1', prix: -1, code_lpp: 'abc' },
          OG: { sphere: '-1,00', axe: 45.5, addition: 0 },
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([
      { propertyPath: 'equipement_optique.classe', message: OPTICAL_MESSAGES.classe },
      { propertyPath: 'equipement_optique.monture.prix', message: 'Prix invalide : max 2 décimales (ex: 1\u202f450,50)' },
      { propertyPath: 'equipement_optique.monture.code_lpp', message: 'Code LPP invalide : 7 chiffres attendus' },
      { propertyPath: 'equipement_optique.verres.OD.type', message: OPTICAL_MESSAGES.lensType },
      { propertyPath: 'equipement_optique.verres.OD.sphere', message: OPTICAL_RULES.sphere.message },
      { propertyPath: 'equipement_optique.verres.OD.cylindre', message: OPTICAL_RULES.cylindre.message },
      { propertyPath: 'equipement_optique.verres.OD.axe', message: OPTICAL_RULES.axe.message },
      { propertyPath: 'equipement_optique.verres.OD.addition', message: OPTICAL_RULES.addition.message },
      { propertyPath: 'equipement_optique.verres.OD.indice', message: OPTICAL_RULES.indice.message },
      {
        propertyPath: 'equipement_optique.verres.OD.prix',
        message: 'Prix invalide : le montant doit être compris entre 0 et 9\u202f999\u202f999\u202f999,99\u00a0€',
      },
      { propertyPath: 'equipement_optique.verres.OD.code_lpp', message: 'Code LPP invalide : 7 chiffres attendus' },
      { propertyPath: 'equipement_optique.verres.OG.axe', message: OPTICAL_RULES.axe.message },
      { propertyPath: 'equipement_optique.verres.OG.addition', message: OPTICAL_RULES.addition.message },
    ]);
    // A lens with values needs its type.
    const untyped = await manual('scraping', { id_pecflow: externalId, success: true, equipement_optique: { verres: { OG: { sphere: '-1,00' } } } });
    expect(untyped.status).toBe(422);
    expect(untyped.body.violations).toEqual([{ propertyPath: 'equipement_optique.verres.OG.type', message: OPTICAL_MESSAGES.lensTypeRequired }]);
    const after = await server.get(`/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin);
    expect(after.body.equipementOptique).toEqual(before.body.equipementOptique);
    expect(after.body.workflowExecutions).toHaveLength(before.body.workflowExecutions.length);
  });

  it('refuses a NUL character and a quote whose total would overflow, with French 422s, writing nothing', async () => {
    const { file, externalId } = await silentOpticalRun();
    const before = await server.get(`/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin);
    const lens = { type: 'unifocal', sphere: -1, prix: 9999999999.99 };
    const equipment = { classe: 'B', monture: { marque: 'Lafont', prix: 9999999999.99 }, verres: { OD: lens, OG: lens } };
    const nul = await manual('scraping', { id_pecflow: externalId, success: true, equipement_optique: { ...equipment, monture: { marque: 'X\u0000Y' } } });
    expect(nul.status).toBe(422);
    expect(nul.body.violations).toEqual([{ propertyPath: 'equipement_optique.monture.marque', message: 'Caractère invalide (octet nul) dans la valeur.' }]);
    const messages = await manual('scraping', { id_pecflow: externalId, success: false, messages: ['a\u0000'] });
    expect(messages.status).toBe(422);
    expect(messages.body.violations).toEqual([{ propertyPath: 'messages', message: 'Caractère invalide (octet nul) dans la valeur.' }]);
    const overflow = await manual('scraping', { id_pecflow: externalId, success: true, equipement_optique: equipment });
    expect(overflow.status).toBe(422);
    expect(overflow.body.violations).toEqual([
      {
        propertyPath: 'equipement_optique',
        message: 'Montant trop élevé : le montant du devis (monture et verres) dépasserait 9\u202f999\u202f999\u202f999,99\u00a0€.',
      },
    ]);
    const after = await server.get(`/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin);
    expect(after.body.equipementOptique).toEqual(before.body.equipementOptique);
    expect(after.body.totalTtc).toBe(before.body.totalTtc);
    expect(after.body.workflowExecutions).toHaveLength(before.body.workflowExecutions.length);
  });

  it('refuses hearing aids on an optician’s file and an optical equipment on a hearing-aid file (422), robot or person', async () => {
    const { file, externalId } = await silentOpticalRun();
    const devices = await manual('scraping', { id_pecflow: externalId, success: true, appareil: { droit: { marque: 'Phonak', total_ttc: 950 } } });
    expect(devices.status).toBe(422);
    expect(devices.body.violations).toEqual([{ propertyPath: 'appareil', message: OPTICAL_MESSAGES.audioOnOptical }]);
    const bySignedRobot = await robotCallback(server, 'scraping', { id_pecflow: externalId, success: true, appareil: { gauche: { code_lpp: '2391450' } } });
    expect(bySignedRobot.status).toBe(422);
    expect((await server.database.query('select id from appareils where dossier_id = $1', [file.id])).length).toBe(0);
    // An empty appareil object (as some robots send it) is no device: accepted next to the equipment.
    const empty = await manual('scraping', { id_pecflow: externalId, success: true, appareil: { offre_100_sante: 'oui', droit: null, gauche: null } });
    expect(empty.status, empty.text).toBe(200);

    const audio = await silentOpticalRun(AUDIO_OF_RIVIERA);
    const optical = await manual('scraping', {
      id_pecflow: audio.externalId,
      success: true,
      equipement_optique: { classe: 'A', monture: { marque: 'Essentiel Santé', prix: 30 } },
    });
    expect(optical.status).toBe(422);
    expect(optical.body.violations).toEqual([{ propertyPath: 'equipement_optique', message: OPTICAL_MESSAGES.opticalOnAudio }]);
    expect(await opticalRows(audio.file.id)).toEqual([]);
  });
});

describe('tenancy and hearing-aid files', () => {
  it('hides an optician’s file from another organisation (404), its results included', async () => {
    const { file, externalId } = await silentOpticalRun();
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.audio)).status).toBe(404);
    const foreign = await manual('scraping', { id_pecflow: externalId, success: true, equipement_optique: { classe: 'A' } }, tokens.horizonAdmin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Dossier introuvable');
  });

  it('keeps devices per ear on a hearing-aid file, with no optical equipment', async () => {
    const { file } = await silentOpticalRun(AUDIO_OF_RIVIERA);
    const detail = (await server.get(`/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin)).body;
    expect(detail.fileKind).toBe('audio');
    expect(detail.equipementOptique).toBeNull();
    expect(detail.appareils.length).toBeGreaterThanOrEqual(1);
    for (const device of detail.appareils) expect(['droite', 'gauche']).toContain(device.oreille);
  });
});

describe('the CSV export of both kinds', () => {
  it('has the equipment columns: devices per ear for hearing-aid files, frame and lenses for optical ones', async () => {
    const res = await fetch(`${server.url}/api/pec_dossiers/export`, { headers: { authorization: `Bearer ${tokens.rivieraAdmin}` } });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    const header = lines[0]!.split(';');
    expect(header).toEqual(EXPORT_HEADER);
    expect(header.slice(-17)).toEqual([
      'Type de dossier',
      'Classe 100 % Santé',
      'Appareil droit',
      'Code LPP appareil droit',
      'Prix appareil droit',
      'Appareil gauche',
      'Code LPP appareil gauche',
      'Prix appareil gauche',
      'Monture',
      'Code LPP monture',
      'Prix monture',
      'Verre OD',
      'Code LPP verre OD',
      'Prix verre OD',
      'Verre OG',
      'Code LPP verre OG',
      'Prix verre OG',
    ]);
    // No field of the demo data holds a semicolon: a plain split reads the cells.
    const rows = lines.slice(1).map((line) => Object.fromEntries(line.split(';').map((cell, i) => [header[i]!, cell])));
    const optical = rows.filter((r) => r['Centre'] === OPTICIAN && r['Monture']);
    const audio = rows.filter((r) => r['Centre'] === AUDIO_OF_RIVIERA && (r['Appareil droit'] || r['Appareil gauche']));
    expect(optical.length).toBeGreaterThan(10);
    expect(audio.length).toBeGreaterThan(10);
    for (const row of optical) {
      expect(row['Type de dossier']).toBe('Optique');
      expect(['A', 'B']).toContain(row['Classe 100 % Santé']);
      expect(row['Verre OD']).toMatch(/^(Unifocal|Progressif) [+\u2212]?\d+,\d{2}/);
      expect(row['Prix monture']).toMatch(/^\d+,\d{2}$/);
      expect(row['Code LPP verre OG']).toMatch(/^\d{7}$/);
      expect(row['Appareil droit']).toBe('');
    }
    for (const row of audio) {
      expect(row['Type de dossier']).toBe('Audioprothèse');
      expect(row['Monture']).toBe('');
      expect(row['Verre OD']).toBe('');
    }
    // Both classes are among the demo's optical files.
    expect(new Set(optical.map((r) => r['Classe 100 % Santé']))).toEqual(new Set(['A', 'B']));
  });
});

describe('demo data', () => {
  it('gives Riviera Nice Médecin optical files in various states, class A and B, and never devices', async () => {
    const rows = await server.database.query<{ status: string; classe: string | null; devices: number }>(
      `select d.status, o.classe, (select count(*)::int from appareils a where a.dossier_id = d.id) as devices
         from pec_dossiers d join shops s on s.id = d.shop_id left join optical_equipments o on o.dossier_id = d.id
        where s.name = $1`,
      [OPTICIAN],
    );
    expect(rows.every((r) => r.devices === 0)).toBe(true);
    const equipped = rows.filter((r) => r.classe);
    expect(new Set(equipped.map((r) => r.classe))).toEqual(new Set(['A', 'B']));
    for (const status of ['pending', 'approved', 'rejected', 'billed', 'paid'])
      expect(
        equipped.some((r) => r.status === status),
        status,
      ).toBe(true);
  });
});

describe('an orthopaedist’s file stays generic', () => {
  it('has neither devices nor optical equipment, through the simulator, and refuses both by hand', async () => {
    await server.database.query("update shops set specialite = 'Orthopédiste' where name = $1", [AUDIO_OF_RIVIERA]);
    try {
      const created = await opticalFile({}, AUDIO_OF_RIVIERA);
      expect((await startDpec(created.id)).status).toBe(200);
      const approved = await waitForIdle(server, tokens.rivieraAdmin, created.id);
      expect(approved.status).toBe('approved');
      expect(approved).toMatchObject({ fileKind: 'generic', appareils: [], equipementOptique: null });
      const externalId = approved.externalId as string;
      const optical = await manual('scraping', { id_pecflow: externalId, success: true, equipement_optique: { classe: 'A' } });
      expect(optical.body.violations).toEqual([{ propertyPath: 'equipement_optique', message: OPTICAL_MESSAGES.devicesOnGeneric }]);
      const devices = await manual('scraping', { id_pecflow: externalId, success: true, appareil: { droit: { marque: 'Phonak' } } });
      expect(devices.body.violations).toEqual([{ propertyPath: 'appareil', message: OPTICAL_MESSAGES.devicesOnGeneric }]);
    } finally {
      await server.database.query("update shops set specialite = 'Audioprothésiste' where name = $1", [AUDIO_OF_RIVIERA]);
    }
  });
});

describe('the dashboard and the list by kind of file', () => {
  it('counts files per kind, each figure the total of the list filtered by fileKind', async () => {
    const stats = await server.get('/api/pec_dossiers/stats', tokens.rivieraAdmin);
    expect(stats.status).toBe(200);
    const { byKind, total } = stats.body;
    expect(Object.keys(byKind).sort()).toEqual(['audio', 'generic', 'optical']);
    expect(byKind.optical).toBeGreaterThan(0);
    expect(byKind.audio).toBeGreaterThan(0);
    expect(byKind.audio + byKind.optical + byKind.generic).toBe(total);
    for (const kind of ['audio', 'optical', 'generic']) {
      const list = await server.get(`/api/pec_dossiers?fileKind=${kind}&itemsPerPage=100`, tokens.rivieraAdmin);
      expect(list.body.totalItems, kind).toBe(byKind[kind]);
      const expected = kind === 'optical' ? [OPTICIAN] : kind === 'audio' ? [AUDIO_OF_RIVIERA] : [];
      for (const m of list.body.member) expect(expected).toContain(m.shop.name);
    }
    expect((await server.get('/api/pec_dossiers?fileKind=dentaire', tokens.rivieraAdmin)).body.totalItems).toBe(0);
    // A hearing-aid organisation only: no optical file.
    expect((await server.get('/api/pec_dossiers/stats', tokens.horizonAdmin)).body.byKind.optical).toBe(0);
  });
});
