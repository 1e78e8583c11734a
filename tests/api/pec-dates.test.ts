// Dates that can be true (issue 25): an invoice dated neither after today (Paris) nor before the DPEC's day; a DPEC
// dated no later than today and an agreement ending after it; a billing not after today; payments not after today. Each
// refusal is a French 422 on its field that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/server';
import { createDossier, robotCallback, startPecServer, type Refs } from './helpers/pec';
import { todayInFrance } from '#domain/pec';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

/** yyyy-mm-dd, `days` after today in France (before it when negative). */
const day = (days: number) => {
  const date = new Date(`${todayInFrance()}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};
const french = (isoDay: string) => isoDay.split('-').reverse().join('/');
const patch = (id: number, body: unknown) =>
  server.request('PATCH', `/api/pec_dossiers/${id}`, { token: tokens.audio, body, headers: { 'content-type': 'application/merge-patch+json' } });
const get = async (id: number) => (await server.get(`/api/pec_dossiers/${id}`, tokens.audio)).body;
const callback = (type: string, body: Record<string, unknown>) => server.request('POST', `/api/callbacks/${type}`, { token: tokens.audio, body });

/** A file whose DPEC run is open (no workers: nothing answers it). */
async function runOpen() {
  const file = await createDossier(server, tokens.audio, refs);
  const started = await server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token: tokens.audio, body: { pecDossierId: file.id } });
  expect(started.status, started.text).toBe(200);
  return { file, externalId: started.body.externalId as string };
}

describe('the invoice date', () => {
  it('is refused after today and before the DPEC’s day, per field, the file unchanged', async () => {
    const { file, externalId } = await runOpen();
    const dpecDay = day(-10);
    const granted = await callback('dpec', {
      id_pecflow: externalId,
      success: true,
      messages: ['Accord'],
      num_pec: `PEC-${file.id}`,
      date_creation: french(dpecDay),
      date_peremption: day(80),
    });
    expect(granted.status, granted.text).toBe(200);
    const before = await get(file.id);
    expect(before).toMatchObject({ status: 'approved', dateCreation: dpecDay, numBilling: null, dateBilling: null });

    const future = await patch(file.id, { numBilling: 'FAC-DATES-1', dateBilling: french(day(1)) });
    expect(future.status).toBe(422);
    expect(future.body.violations).toEqual([{ propertyPath: 'dateBilling', message: 'La date de facture ne peut pas être dans le futur' }]);
    const early = await patch(file.id, { numBilling: 'FAC-DATES-1', dateBilling: day(-11) });
    expect(early.status).toBe(422);
    expect(early.body.violations).toEqual([
      { propertyPath: 'dateBilling', message: `La date de facture ne peut pas précéder la date du DPEC (${french(dpecDay)})` },
    ]);
    // Nothing written, not even the number sent with the refused date.
    const after = await get(file.id);
    expect({ ...after, warnings: undefined }).toEqual({ ...before, warnings: undefined });

    for (const good of [dpecDay, todayInFrance()]) {
      const ok = await patch(file.id, { numBilling: 'FAC-DATES-1', dateBilling: good });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.dateBilling).toBe(good);
    }
  });

  it('is judged against the day the DPEC was granted when the insurer gave no creation date', async () => {
    const { file, externalId } = await runOpen();
    expect((await callback('dpec', { id_pecflow: externalId, success: true, messages: [], num_pec: `PEC-${file.id}` })).status).toBe(200);
    const granted = await get(file.id);
    expect(granted.dateCreation).toBeNull();
    const grantedOn = todayInFrance(new Date(granted.dateValidation));
    const refused = await patch(file.id, { numBilling: 'FAC-D2', dateBilling: day(-1) });
    expect(refused.body.violations).toEqual([
      { propertyPath: 'dateBilling', message: `La date de facture ne peut pas précéder la date du DPEC (${french(grantedOn)})` },
    ]);
  });
});

describe('the DPEC’s dates', () => {
  it('refuses an agreement that ends before the DPEC, and a DPEC dated in the future, by hand and from the robot', async () => {
    const { file, externalId } = await runOpen();
    const before = await get(file.id);
    const ends = await callback('dpec', {
      id_pecflow: externalId,
      success: true,
      messages: [],
      num_pec: 'PEC-X',
      date_creation: day(-5),
      date_peremption: day(-5),
    });
    expect(ends.status).toBe(422);
    expect(ends.body.violations).toEqual([
      { propertyPath: 'date_peremption', message: `La date de péremption doit être postérieure à la date du DPEC (${french(day(-5))})` },
    ]);
    const future = await robotCallback(server, 'dpec', { id_pecflow: externalId, success: true, messages: [], num_pec: 'PEC-X', date_creation: day(2) });
    expect(future.status).toBe(422);
    expect(future.body.violations).toEqual([{ propertyPath: 'date_creation', message: 'La date du DPEC ne peut pas être dans le futur' }]);
    expect(await get(file.id)).toMatchObject({ status: before.status, numPec: null, dateCreation: null, datePeremption: null });

    // A later result giving only the expiry is judged against the DPEC's day already on the file.
    expect((await callback('dpec', { id_pecflow: externalId, success: true, messages: [], num_pec: 'PEC-Y', date_creation: day(-3) })).status).toBe(200);
    const late = await callback('dpec', { id_pecflow: externalId, success: true, messages: ['Prolongation'], date_peremption: day(-4) });
    expect(late.status).toBe(422);
    expect(late.body.violations[0]).toEqual({
      propertyPath: 'date_peremption',
      message: `La date de péremption doit être postérieure à la date du DPEC (${french(day(-3))})`,
    });
    expect((await get(file.id)).datePeremption).toBeNull();
  });

  it('refuses a billing dated after today', async () => {
    const { externalId } = await runOpen();
    const res = await callback('billing', { id_pecflow: externalId, success: false, messages: [], date_facturation_effective: day(1) });
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([{ propertyPath: 'date_facturation_effective', message: 'La date de facturation ne peut pas être dans le futur' }]);
  });
});

describe('payment dates', () => {
  it('are refused after today by a statement and by hand', async () => {
    const file = await createDossier(server, tokens.audio, refs);
    await server.database.query(`update pec_dossiers set status = 'billed', statut_facturation = true, num_pec = $2, part_complementaire = 500 where id = $1`, [
      file.id,
      `PEC-PAY-${file.id}`,
    ]);
    const byHand = await server.request('POST', `/api/pec_dossiers/${file.id}/payments`, {
      token: tokens.audio,
      body: { datePaiement: french(day(1)), montant: '100' },
    });
    expect(byHand.status).toBe(422);
    expect(byHand.body.violations[0].propertyPath).toBe('datePaiement');
    const statement = await fetch(`${server.url}/api/payment_statements`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.audio}`, 'content-type': 'text/csv' },
      body: `Date de paiement;Payeur;Référence;Montant\r\n${french(day(1))};Allianz;PEC-PAY-${file.id};100,00`,
    });
    expect(statement.status).toBe(422);
    expect((await get(file.id)).montantPaye).toBeNull();
  });
});
