// The robot simulator dates what the insurer answers in France's day, not UTC's: a DPEC started just after midnight in
// Paris (still the day before in UTC) is dated that Paris day, and so are its expiry and its billing.
import { describe, expect, it } from 'vitest';
import { CATALOGUE, simulatorCallback } from '../../server/robot/simulator';

const file = { externalId: 'pf-test', numeroDossierAssure: 'T1', networkCode: 'KALIXIA' };

describe('the robot simulator', () => {
  it('dates a DPEC, its expiry and a billing in the Paris day', () => {
    // 00:30 in Paris on 27/11/2026 is 23:30 UTC on the 26th.
    const startedAt = new Date('2026-11-26T23:30:00Z');
    const dpec = simulatorCallback('dpec', file, 1, startedAt);
    expect(dpec.date_creation).toBe('2026-11-27');
    expect(dpec.date_peremption).toBe('2027-02-25');
    expect(String(dpec.num_dossier)).toMatch(/^DPEC-2026-/);
    expect(simulatorCallback('billing', file, 1, startedAt).date_facturation_effective).toBe('2026-11-27');
    // In summer (UTC+2) as well.
    expect(simulatorCallback('billing', file, 1, new Date('2026-06-30T22:15:00Z')).date_facturation_effective).toBe('2026-07-01');
  });

  it('names the devices’ shapes with the typographic apostrophe (the robot results show them)', () => {
    const shapes = new Set(CATALOGUE.map((device) => device.forme));
    expect(shapes).toContain('Contour d’oreille');
    expect([...shapes].filter((shape) => shape.includes("'"))).toEqual([]);
  });
});
