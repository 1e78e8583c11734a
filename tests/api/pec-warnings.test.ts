// Warnings on PEC files (issue 15), computed by the server and read in the file's `warnings`: renewal too early (audio
// per ear over 4 years, optical per age over 1 or 2 years), prescription too old, 100 % Santé limits of the insurer's
// answer, amounts that do not add up; each raised and not raised at its boundary. A warning never blocks, and the DPEC
// start's audit entry lists the warnings present. Earlier files, devices and optical equipment are set up through the
// database (the robot's results are covered by pec-robot.test.ts).
import { addDays, format, parseISO } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonthsToDay, RULE_KEYS } from '../../server/pec/warningChecks';
import type { Lens } from '#domain/optical';
import { todayInFrance } from '#domain/pec';
import { createDossier, patientNumber, startPecServer, waitForIdle, type Refs } from './helpers/pec';
import { auditRows, mergePatch, sqlRows } from './helpers/backoffice';
import type { JsonBody, TestServer } from './helpers/server';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

const NICE = 'Riviera Nice Médecin';
const today = () => todayInFrance();
const monthsAgo = (months: number) => addMonthsToDay(today(), -months);
const shiftDays = (day: string, days: number) => format(addDays(parseISO(day), days), 'yyyy-MM-dd');
const french = (day: string) => day.split('-').reverse().join('/');

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer());
});
afterAll(async () => server?.close());

type Ear = 'droite' | 'gauche';

async function audio(patient: string, overrides: Record<string, unknown> = {}) {
  return createDossier(server, tokens.horizonAdmin!, refs, { numeroDossierAssure: patient, ...overrides });
}
async function optical(patient: string, overrides: Record<string, unknown> = {}) {
  return createDossier(server, tokens.rivieraAdmin!, refs, { numeroDossierAssure: patient, ...overrides }, NICE);
}
/** The file billed on `day` (as the billing callback leaves it). */
async function billed(id: number, day: string, status = 'billed') {
  await sqlRows(server, `update pec_dossiers set status = $2, statut_facturation = true, date_facturation_effective = $3 where id = $1`, [id, status, day]);
}
async function devices(id: number, list: [Ear, 'I' | 'II', number][]) {
  for (const [ear, classe, price] of list) {
    await sqlRows(
      server,
      `insert into appareils (holding_id, dossier_id, oreille, classe, prix_ttc) select holding_id, id, $2, $3, $4 from pec_dossiers where id = $1`,
      [id, ear, classe, price],
    );
  }
}
async function answer(id: number, a: { prixFraisReels: number; baseSs: number; partSs: number; partComplementaire: number; resteCharge: number }) {
  await sqlRows(
    server,
    `update pec_dossiers set prix_frais_reels = $2, base_ss = $3, part_ss = $4, part_complementaire = $5, reste_charge = $6 where id = $1`,
    [id, a.prixFraisReels, a.baseSs, a.partSs, a.partComplementaire, a.resteCharge],
  );
}
const lens = (type: 'unifocal' | 'progressif', sphere: number, prix: number): Lens => ({
  type,
  sphere,
  cylindre: -0.5,
  axe: 90,
  addition: type === 'progressif' ? 2 : null,
  indice: '1.6',
  traitements: [],
  prix,
  codeLpp: null,
});
/** The optical equipment row as the optical flow writes it (helper "optical" builds the write itself). */
async function equipment(id: number, e: { classe: 'A' | 'B'; frame: number; od: Lens | null; og: Lens | null }) {
  await sqlRows(
    server,
    `insert into optical_equipments (holding_id, dossier_id, classe, monture_prix, verre_od, verre_og)
     select holding_id, id, $2, $3, $4::jsonb, $5::jsonb from pec_dossiers where id = $1`,
    [id, e.classe, e.frame, e.od && JSON.stringify(e.od), e.og && JSON.stringify(e.og)],
  );
}
async function warningsOf(id: number, token = tokens.horizonAdmin!): Promise<JsonBody[]> {
  const res = await server.get(`/api/pec_dossiers/${id}`, token);
  expect(res.status, res.text).toBe(200);
  return withoutDocumentWarnings(res.body.warnings);
}
/** The documents' warnings (a draft without its ordonnance or devis normalisé) are tested in pec-documents.test.ts. */
const DOCUMENT_WARNINGS = ['ordonnance_manquante', 'devis_normalise_manquant'];
const withoutDocumentWarnings = (warnings: JsonBody[]) => warnings.filter((w) => !DOCUMENT_WARNINGS.includes(w.code));
const codes = (warnings: JsonBody[]) => warnings.map((w) => `${w.code}${w.side ? `:${w.side}` : ''}`).sort();

describe('renouvellement anticipé — audio, per ear, 4 years', () => {
  it('warns one day before 4 years for the same ear, with the date of the last one; not at 4 years', async () => {
    const patient = patientNumber();
    const earlier = await audio(patient);
    await devices(earlier.id, [['droite', 'I', 950]]);
    const lastDay = shiftDays(monthsAgo(48), 1);
    await billed(earlier.id, lastDay);
    const current = await audio(patient);

    const [warning, ...rest] = await warningsOf(current.id);
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ code: 'renouvellement_anticipe', side: 'droite' });
    expect(warning.message).toMatch(/^Oreille droite appareillée le /);
    expect(warning.message).toContain(french(lastDay));
    expect(warning.message).toContain(earlier.numeroDossier);
    expect(warning.source).toContain('Arrêté du 14 novembre 2018');
    expect(warning.details).toMatchObject({ lastDate: lastDay, allowedFrom: shiftDays(today(), 1), periodMonths: 48 });

    await billed(earlier.id, monthsAgo(48));
    expect(await warningsOf(current.id)).toEqual([]);
  });

  it("compares the same ear only once the file's devices are known, and only billed or paid files of the organisation", async () => {
    const patient = patientNumber();
    const earlier = await audio(patient);
    await devices(earlier.id, [['droite', 'I', 900]]);
    await billed(earlier.id, monthsAgo(12), 'paid');
    const current = await audio(patient);
    expect(codes(await warningsOf(current.id))).toEqual(['renouvellement_anticipe:droite']);
    await devices(current.id, [['gauche', 'I', 900]]);
    expect(await warningsOf(current.id)).toEqual([]);

    // A draft or refused earlier file delivered nothing; another organisation's file is not this patient's history.
    const draftPatient = patientNumber();
    await audio(draftPatient);
    const other = await optical(draftPatient);
    await billed(other.id, monthsAgo(1));
    const again = await audio(draftPatient);
    expect(await warningsOf(again.id)).toEqual([]);
  });

  it('a file without a patient number (written before the number was required) has no history', async () => {
    const earlier = await audio(patientNumber());
    await devices(earlier.id, [['droite', 'I', 900]]);
    await billed(earlier.id, monthsAgo(12));
    const current = await audio(patientNumber());
    await sqlRows(server, `update pec_dossiers set numero_dossier_assure = '' where id = any($1::int[])`, [[earlier.id, current.id]]);
    expect(await warningsOf(current.id)).toEqual([]);
  });
});

describe('renouvellement anticipé — optical, by age', () => {
  it('2 years from 16: warns one day before, not on the day', async () => {
    const patient = patientNumber();
    const earlier = await optical(patient);
    const current = await optical(patient, { dateNaissanceBeneficiaire: '1985-05-05' });
    await billed(earlier.id, shiftDays(monthsAgo(24), 1));
    const [warning] = await warningsOf(current.id, tokens.rivieraAdmin);
    expect(warning).toMatchObject({ code: 'renouvellement_anticipe', details: { periodMonths: 24 } });
    expect(warning.message).toContain('tous les 2 ans (16 ans et plus)');
    expect(warning.source).toContain('Arrêté du 3 décembre 2018');
    await billed(earlier.id, monthsAgo(24));
    expect(await warningsOf(current.id, tokens.rivieraAdmin)).toEqual([]);
  });

  it('1 year under 16', async () => {
    const patient = patientNumber();
    const earlier = await optical(patient);
    const child = await optical(patient, { dateNaissanceBeneficiaire: shiftDays(monthsAgo(10 * 12), 0) });
    await billed(earlier.id, shiftDays(monthsAgo(12), 1));
    expect(codes(await warningsOf(child.id, tokens.rivieraAdmin))).toEqual(['renouvellement_anticipe']);
    await billed(earlier.id, monthsAgo(12));
    expect(await warningsOf(child.id, tokens.rivieraAdmin)).toEqual([]);
  });
});

describe('prescription trop ancienne', () => {
  it('audio: valid 12 months (system setting); warns the day after', async () => {
    const file = await audio(patientNumber(), { datePrescription: monthsAgo(12) });
    expect(await warningsOf(file.id)).toEqual([]);
    const old = shiftDays(monthsAgo(12), -1);
    await server.request('PATCH', `/api/pec_dossiers/${file.id}`, { token: tokens.horizonAdmin, headers: mergePatch, body: { datePrescription: old } });
    const [warning] = await warningsOf(file.id);
    expect(warning).toMatchObject({ code: 'prescription_trop_ancienne', details: { validityMonths: 12 } });
    expect(warning.message).toBe(`Datée du ${french(old)}, elle est valable 1 an pour une aide auditive, soit jusqu’au ${french(shiftDays(today(), -1))}.`);
    expect(warning.source).toContain('LPP titre II chapitre 3');
  });

  it('the validity follows the system setting', async () => {
    const [setting] = await sqlRows<{ id: number }>(server, `select id from configs where key = 'general.prescription_validity_months.audio'`);
    const file = await audio(patientNumber(), { datePrescription: monthsAgo(7) });
    expect(await warningsOf(file.id)).toEqual([]);
    const put = await server.request('PUT', `/api/configs/${setting!.id}`, { token: tokens.admin, body: { value: 6 } });
    expect(put.status, put.text).toBe(200);
    expect(codes(await warningsOf(file.id))).toEqual(['prescription_trop_ancienne']);
    await server.request('PUT', `/api/configs/${setting!.id}`, { token: tokens.admin, body: { value: 12 } });
  });

  it('optical: by age band (5 years from 16 to 42, 3 years from 42)', async () => {
    const young = await optical(patientNumber(), { datePrescription: monthsAgo(48), dateNaissanceBeneficiaire: '2000-01-01' });
    expect(await warningsOf(young.id, tokens.rivieraAdmin)).toEqual([]);
    const older = await optical(patientNumber(), { datePrescription: monthsAgo(48), dateNaissanceBeneficiaire: '1970-01-01' });
    const [warning] = await warningsOf(older.id, tokens.rivieraAdmin);
    expect(warning).toMatchObject({ code: 'prescription_trop_ancienne', details: { validityMonths: 36 } });
    expect(warning.source).toContain('D. 4362-12-1');
  });
});

describe("100 % Santé and the insurer's amounts", () => {
  const consistent = { prixFraisReels: 1900, baseSs: 800, partSs: 480, partComplementaire: 1420, resteCharge: 0 };

  it('a class I hearing aid: 950,00 € per ear is the limit, 950,01 € is above it', async () => {
    const file = await audio(patientNumber());
    await devices(file.id, [
      ['droite', 'I', 950],
      ['gauche', 'I', 950],
    ]);
    await answer(file.id, consistent);
    expect(await warningsOf(file.id)).toEqual([]);
    await sqlRows(server, `update appareils set prix_ttc = 950.01 where dossier_id = $1 and oreille = 'gauche'`, [file.id]);
    await answer(file.id, { ...consistent, prixFraisReels: 1900.01, partComplementaire: 1420.01 });
    const [warning, ...rest] = await warningsOf(file.id);
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ code: 'classe_1_prix_limite', side: 'gauche', details: { price: 950.01, limit: 950 } });
    expect(warning.message).toContain('950,01');
  });

  it('follows a reference value changed in the database at the very next reading (the server keeps them until then)', async () => {
    const file = await audio(patientNumber());
    await devices(file.id, [['droite', 'I', 930]]);
    expect(await warningsOf(file.id)).toEqual([]);
    const setLimit = (limit: number) => sqlRows(server, 'update pec_rule_values set value = $2 where key = $1', [RULE_KEYS.audioClass1PriceLimit, limit]);
    await setLimit(900);
    try {
      const [warning] = await warningsOf(file.id);
      expect(warning).toMatchObject({ code: 'classe_1_prix_limite', side: 'droite', details: { price: 930, limit: 900 } });
    } finally {
      await setLimit(950);
    }
    expect(await warningsOf(file.id)).toEqual([]);
  });

  it('a class II aid has no price limit', async () => {
    const file = await audio(patientNumber());
    await devices(file.id, [['droite', 'II', 2500]]);
    expect(await warningsOf(file.id)).toEqual([]);
  });

  it('a reste à charge on a 100 % Santé equipment: 0,00 € is right, 0,01 € is not; on class II it is allowed', async () => {
    const file = await audio(patientNumber());
    await devices(file.id, [['droite', 'I', 900]]);
    await answer(file.id, { prixFraisReels: 900, baseSs: 400, partSs: 240, partComplementaire: 660, resteCharge: 0 });
    expect(await warningsOf(file.id)).toEqual([]);
    await answer(file.id, { prixFraisReels: 900, baseSs: 400, partSs: 240, partComplementaire: 659.99, resteCharge: 0.01 });
    expect(codes(await warningsOf(file.id))).toEqual(['reste_a_charge_100_sante']);

    const mixed = await audio(patientNumber());
    await devices(mixed.id, [
      ['droite', 'I', 900],
      ['gauche', 'II', 1500],
    ]);
    await answer(mixed.id, { prixFraisReels: 2400, baseSs: 800, partSs: 480, partComplementaire: 1500, resteCharge: 420 });
    expect(await warningsOf(mixed.id)).toEqual([]);
  });

  it('amounts adding up to the cent raise nothing; one cent off is "montants incohérents"', async () => {
    const file = await audio(patientNumber());
    await answer(file.id, { prixFraisReels: 1900, baseSs: 800, partSs: 480, partComplementaire: 1419.99, resteCharge: 0.01 });
    expect(await warningsOf(file.id)).toEqual([]);
    await answer(file.id, { prixFraisReels: 1900, baseSs: 800, partSs: 480, partComplementaire: 1419.98, resteCharge: 0.01 });
    const [warning] = await warningsOf(file.id);
    expect(warning).toMatchObject({ code: 'montants_incoherents', details: { prixFraisReels: 1900, sum: 1899.99 } });
    expect(warning.message).toMatch(/^Le prix frais réels \(/);
  });

  it('the Sécurité sociale share is 60 % of its base: 480,00 € of 800,00 €, not 480,01 €', async () => {
    const file = await audio(patientNumber());
    await answer(file.id, { prixFraisReels: 1900, baseSs: 800, partSs: 480.01, partComplementaire: 1419.99, resteCharge: 0 });
    const [warning] = await warningsOf(file.id);
    expect(warning).toMatchObject({ code: 'part_ss_incoherente', details: { partSs: 480.01, baseSs: 800, ratePercent: 60, expected: 480 } });
  });

  it('a class A optical equipment: frame 30,00 € and lens limits per correction band, one cent above each warns', async () => {
    const file = await optical(patientNumber());
    await equipment(file.id, { classe: 'A', frame: 30, od: lens('unifocal', -2, 32.5), og: lens('progressif', -5, 122.5) });
    expect(await warningsOf(file.id, tokens.rivieraAdmin)).toEqual([]);

    const above = await optical(patientNumber());
    await equipment(above.id, { classe: 'A', frame: 30.01, od: lens('unifocal', -2, 32.51), og: lens('progressif', -3, 92.51) });
    const warnings = await warningsOf(above.id, tokens.rivieraAdmin);
    expect(codes(warnings)).toEqual(['classe_a_prix_limite', 'classe_a_prix_limite:OD', 'classe_a_prix_limite:OG']);
    expect(warnings.find((w) => !w.side)!.details).toMatchObject({ element: 'monture', price: 30.01, limit: 30 });
    expect(warnings.find((w) => w.side === 'OG')!.details).toMatchObject({ element: 'verre', limit: 92.5 });

    const classB = await optical(patientNumber());
    await equipment(classB.id, { classe: 'B', frame: 180, od: lens('progressif', -2, 300), og: null });
    await answer(classB.id, { prixFraisReels: 480, baseSs: 0.1, partSs: 0.06, partComplementaire: 300, resteCharge: 179.94 });
    expect(await warningsOf(classB.id, tokens.rivieraAdmin)).toEqual([]);
  });

  it("the simulator's answers are consistent: a granted DPEC leaves no warning", async () => {
    const file = await audio(patientNumber());
    const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token: tokens.horizonAdmin, body: { pecDossierId: file.id } });
    expect(started.status, started.text).toBe(200);
    const done = await waitForIdle(server, tokens.horizonAdmin!, file.id);
    expect(done.status).toBe('approved');
    expect(done.appareils.length).toBeGreaterThan(0);
    expect(withoutDocumentWarnings(done.warnings)).toEqual([]);
  });
});

describe('a warning never blocks', () => {
  it('the DPEC starts anyway, and its audit entry lists the warnings present at that moment', async () => {
    const old = shiftDays(monthsAgo(12), -1);
    const file = await audio(patientNumber(), { datePrescription: old });
    expect(codes(await warningsOf(file.id))).toEqual(['prescription_trop_ancienne']);
    const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token: tokens.audio, body: { pecDossierId: file.id } });
    expect(started.status, started.text).toBe(200);
    const entry = (await auditRows(server, 'pec_dossiers', file.id)).find((e) => e.action === 'pec_dossier.dpec_start')!;
    expect(entry.actor_email).toBe('audio@audition-horizon.fr');
    expect(withoutDocumentWarnings(entry.changes.warnings)).toEqual([{ code: 'prescription_trop_ancienne', message: expect.stringContaining(french(old)) }]);
    await waitForIdle(server, tokens.horizonAdmin!, file.id);

    const clean = await audio(patientNumber());
    await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token: tokens.audio, body: { pecDossierId: clean.id } });
    const cleanEntry = (await auditRows(server, 'pec_dossiers', clean.id)).find((e) => e.action === 'pec_dossier.dpec_start')!;
    expect(withoutDocumentWarnings(cleanEntry.changes.warnings ?? [])).toEqual([]);
    await waitForIdle(server, tokens.horizonAdmin!, clean.id);
  });

  it('another organisation cannot read a file or its warnings (404)', async () => {
    const file = await audio(patientNumber());
    expect((await server.get(`/api/pec_dossiers/${file.id}`, tokens.rivieraAdmin)).status).toBe(404);
  });
});
