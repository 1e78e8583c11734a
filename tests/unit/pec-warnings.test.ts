// The pure checks behind a file's warnings (server/pec/warningChecks.ts) at their boundaries, and the prerequisites of
// a DPEC run per kind of file (domain/pec.ts), shared by the button and the server.
import { describe, expect, it } from 'vitest';
import { RULE_VALUES } from '../../server/seed/ruleValues';
import { addMonthsToDay, lensLimit, prescriptionWarnings, renewalWarnings, santeWarnings, type Rules } from '../../server/pec/warningChecks';
import { dpecButtonState, missingPrerequisites } from '#domain/pec';
import { pecDossierSchema } from '#domain/pecSchemas';
import type { Lens } from '#domain/optical';

const rules: Rules = Object.fromEntries(RULE_VALUES.map((r) => [r.key, { value: Number(r.value), source: r.source }]));
const validity = {
  audio: { months: 12, source: 'audio' },
  opticalUnder16: { months: 12, source: 'moins de 16 ans' },
  optical16To42: { months: 60, source: '16 à 42 ans' },
  opticalFrom42: { months: 36, source: '42 ans et plus' },
};
const noAmounts = { prixFraisReels: null, baseSs: null, partSs: null, partComplementaire: null, resteCharge: null };
const lens = (type: Lens['type'], sphere: number, cylindre: number, prix: number): Lens => ({
  type,
  sphere,
  cylindre,
  axe: 0,
  addition: null,
  indice: null,
  traitements: [],
  prix,
  codeLpp: null,
});

describe('periods in months', () => {
  it('end on the same day, clamped to the end of a shorter month', () => {
    expect(addMonthsToDay('2022-11-23', 48)).toBe('2026-11-23');
    expect(addMonthsToDay('2024-02-29', 12)).toBe('2025-02-28');
    expect(addMonthsToDay('2026-03-31', -1)).toBe('2026-02-28');
  });
});

describe('renewal', () => {
  const earlier = (date: string, ears: string[], kind: 'audio' | 'optical' = 'audio') => ({ numeroDossier: 'PEC-2022-000001', date, kind, ears });

  it('audio: the same ear within 4 years warns, on the 4th anniversary it does not; another ear does not', () => {
    const base = { kind: 'audio' as const, birthDate: null, rules };
    expect(renewalWarnings({ ...base, on: '2026-11-22', ears: ['droite'], earlier: [earlier('2022-11-23', ['droite'])] })).toHaveLength(1);
    expect(renewalWarnings({ ...base, on: '2026-11-23', ears: ['droite'], earlier: [earlier('2022-11-23', ['droite'])] })).toEqual([]);
    expect(renewalWarnings({ ...base, on: '2026-11-22', ears: ['gauche'], earlier: [earlier('2022-11-23', ['droite'])] })).toEqual([]);
    // The latest delivery counts; an optical file is not a hearing aid.
    const [w] = renewalWarnings({
      ...base,
      on: '2026-01-10',
      ears: [],
      earlier: [earlier('2020-01-01', ['gauche']), earlier('2024-05-02', ['gauche']), earlier('2025-01-01', ['gauche'], 'optical')],
    });
    expect(w).toMatchObject({ side: 'gauche', details: { lastDate: '2024-05-02', allowedFrom: '2028-05-02' } });
    expect(w!.message).toContain('02/05/2024');
  });

  it('optical: 1 year under 16, 2 years from 16 (the age on the day judged), 2 years when the age is unknown', () => {
    const base = { kind: 'optical' as const, ears: [], rules, earlier: [earlier('2025-06-01', [], 'optical')] };
    expect(renewalWarnings({ ...base, on: '2026-06-01', birthDate: '2012-01-01' })).toEqual([]);
    expect(renewalWarnings({ ...base, on: '2026-05-31', birthDate: '2012-01-01' })).toHaveLength(1);
    expect(renewalWarnings({ ...base, on: '2026-06-01', birthDate: '2010-06-01' })).toHaveLength(1);
    expect(renewalWarnings({ ...base, on: '2027-06-01', birthDate: '2000-01-01' })).toEqual([]);
    expect(renewalWarnings({ ...base, on: '2027-05-31', birthDate: null })[0]!.message).toContain('âge non renseigné');
  });

  it('a missing reference value skips the check rather than inventing one', () => {
    expect(renewalWarnings({ kind: 'audio', on: '2026-01-01', birthDate: null, ears: [], earlier: [earlier('2025-01-01', ['droite'])], rules: {} })).toEqual(
      [],
    );
  });
});

describe('prescription too old', () => {
  it('audio: valid through the 12th month, old the day after', () => {
    const base = { kind: 'audio' as const, birthDate: null, validity };
    expect(prescriptionWarnings({ ...base, on: '2026-11-23', datePrescription: '2025-11-23' })).toEqual([]);
    expect(prescriptionWarnings({ ...base, on: '2026-11-24', datePrescription: '2025-11-23' })[0]).toMatchObject({
      code: 'prescription_trop_ancienne',
      source: 'audio',
      details: { validUntil: '2026-11-23' },
    });
    expect(prescriptionWarnings({ ...base, on: '2026-11-24', datePrescription: null })).toEqual([]);
  });

  it('optical: the band of the age on the day judged (16 and 42 included in the older band)', () => {
    const on = '2026-11-23';
    const check = (birthDate: string | null, datePrescription: string) =>
      prescriptionWarnings({ kind: 'optical', on, birthDate, datePrescription, validity }).map((w) => w.source);
    expect(check('2012-01-01', '2025-11-22')).toEqual(['moins de 16 ans']);
    expect(check('2010-11-23', '2022-11-23')).toEqual([]);
    expect(check('2010-11-23', '2021-11-22')).toEqual(['16 à 42 ans']);
    expect(check('1984-11-23', '2023-11-22')).toEqual(['42 ans et plus']);
    expect(check(null, '2023-11-23')).toEqual([]);
    expect(check(null, '2023-11-22')).toEqual(['42 ans et plus']);
  });

  it('generic files have no rule', () => {
    expect(prescriptionWarnings({ kind: 'generic', on: '2026-11-23', birthDate: null, datePrescription: '2000-01-01', validity })).toEqual([]);
  });
});

describe('100 % Santé and amounts', () => {
  it('class A lens bands: sphere and cylinder limits included in the simple band', () => {
    expect(lensLimit(lens('unifocal', -6, 4, 0), rules)!.value).toBe(32.5);
    expect(lensLimit(lens('unifocal', 6.25, 0, 0), rules)!.value).toBe(60);
    expect(lensLimit(lens('unifocal', 0, -4.25, 0), rules)!.value).toBe(60);
    expect(lensLimit(lens('progressif', 4, 0, 0), rules)!.value).toBe(92.5);
    expect(lensLimit(lens('progressif', -4.25, 0, 0), rules)!.value).toBe(122.5);
  });

  it('amounts compared in cents (floating point never invents a difference)', () => {
    const amounts = { prixFraisReels: 0.3, baseSs: null, partSs: 0.1, partComplementaire: 0.2, resteCharge: 0 };
    expect(santeWarnings({ kind: 'audio', devices: [], optical: null, amounts, rules })).toEqual([]);
    const rate = { ...noAmounts, baseSs: 333.33, partSs: 200 };
    expect(santeWarnings({ kind: 'audio', devices: [], optical: null, amounts: rate, rules })).toEqual([]);
    expect(santeWarnings({ kind: 'audio', devices: [], optical: null, amounts: { ...rate, partSs: 199.99 }, rules })[0]!.code).toBe('part_ss_incoherente');
  });

  it('no rate, no limit for a generic file', () => {
    const amounts = { prixFraisReels: 100, baseSs: 100, partSs: 1, partComplementaire: 99, resteCharge: 0 };
    expect(santeWarnings({ kind: 'generic', devices: [], optical: null, amounts, rules })).toEqual([]);
  });
});

describe('prerequisites per kind of file', () => {
  const complete = { numeroDossierAssure: 'P', numeroDevisAssure: 'D', mutual: 3 };
  it("audio and generic files keep the spec's three; optical files also need the prescriber and its date", () => {
    expect(missingPrerequisites(complete)).toEqual([]);
    expect(missingPrerequisites(complete, 'generic')).toEqual([]);
    expect(missingPrerequisites(complete, 'optical')).toEqual(['prescriber', 'datePrescription']);
    expect(missingPrerequisites({ ...complete, prescriber: '/api/prescribers/1', datePrescription: '2026-01-01' }, 'optical')).toEqual([]);
  });

  it('the DPEC button says "Données manquantes" by the same rule', () => {
    expect(dpecButtonState({ canRun: true, dossier: complete, kind: 'optical', executions: [] })).toEqual({ label: 'Données manquantes', disabled: true });
    expect(dpecButtonState({ canRun: true, dossier: complete, kind: 'audio', executions: [] })).toEqual({ label: 'Créer DPEC', disabled: false });
  });

  it('the body refuses a prescription in the future and reads French dates', () => {
    const body = { shop: '/api/shops/1', mutual: '/api/mutuals/1', numeroDossierAssure: 'P', numeroDevisAssure: 'D' };
    expect(pecDossierSchema.safeParse({ ...body, datePrescription: '2999-01-01' }).success).toBe(false);
    expect(pecDossierSchema.parse({ ...body, datePrescription: '01/02/2026', prescriber: '/api/prescribers/4' })).toMatchObject({
      datePrescription: '2026-02-01',
      prescriber: 4,
    });
  });
});
