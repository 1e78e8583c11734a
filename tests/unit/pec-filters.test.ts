// The PEC list's filters as the URL and the API read them, and the dashboard's links (src/pec/filters.ts), plus the
// query string of the CSV export (src/dataProvider/pec.ts).
import { describe, expect, it } from 'vitest';
import { listQueryString, pecNumericId } from '../../src/dataProvider/pec';
import { dashboardFilters, dayBound, parisDay, parisMidnight, pecListLink, statementsListLink } from '../../src/pec/filters';
import { PENDING_STATEMENT_FILTER } from '#domain/payments';
import { addDays, endsWithinExpiryWarning, expiryWarningWindow } from '#domain/pec';

describe('dayBound', () => {
  it("covers the whole day in the browser's time zone, keeping the day readable", () => {
    const after = dayBound('2026-08-01', 'after');
    const before = dayBound('2026-08-01', 'before');
    expect(after).toMatch(/^2026-08-01T00:00:00[+-]\d{2}:\d{2}$/);
    expect(before).toMatch(/^2026-08-01T23:59:59\.999[+-]\d{2}:\d{2}$/);
    expect(new Date(after).getTime()).toBe(new Date(2026, 7, 1).getTime());
    expect(new Date(before).getTime()).toBe(new Date(2026, 7, 1, 23, 59, 59, 999).getTime());
  });
});

describe('dates as the server counts them (Europe/Paris)', () => {
  it('gives the Paris day of an instant', () => {
    expect(parisDay(new Date('2026-11-20T23:30:00Z'))).toBe('2026-11-21');
    expect(parisDay(new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-11-21', 15)).toBe('2026-12-06');
    expect(addDays('2026-12-25', 10)).toBe('2027-01-04');
    expect(addDays('2027-01-04', -10)).toBe('2026-12-25');
  });

  it('gives midnight in Paris in winter and in summer time', () => {
    expect(parisMidnight('2026-11-01')).toBe('2026-10-31T23:00:00.000Z');
    expect(parisMidnight('2026-07-01')).toBe('2026-06-30T22:00:00.000Z');
  });
});

describe('agreements expiring « dans les 15 prochains jours »', () => {
  it('are those ending today or within the 14 days after it, both included: 15 days', () => {
    expect(expiryWarningWindow('2026-11-21')).toEqual({ first: '2026-11-21', last: '2026-12-05' });
    expect(expiryWarningWindow('2026-12-25')).toEqual({ first: '2026-12-25', last: '2027-01-08' });
    // A file's chip says the same, by the days left.
    expect([-1, 0, 14, 15].map(endsWithinExpiryWarning)).toEqual([false, true, true, false]);
  });
});

describe("the dashboard's filters and links", () => {
  it('filters each figure as the stats count it', () => {
    const filters = dashboardFilters('2026-11-21');
    expect(filters.status('pending')).toEqual({ status: 'pending' });
    expect(filters.expiring).toEqual({ statutFacturation: false, datePeremption: { after: '2026-11-21', before: '2026-12-05' } });
    // The money counts archived files too (issue 25): so do the lists behind its figures; the work in hand does not.
    expect(filters.approvedThisMonth).toEqual({ dateValidation: { after: '2026-10-31T23:00:00.000Z' }, archived: 'all' });
    expect(filters.billedThisMonth).toEqual({ statutFacturation: true, dateFacturationEffective: { after: '2026-11-01' }, archived: 'all' });
    expect(filters.receivables).toEqual({ status: 'billed', archived: 'all' });
    expect(filters.receivableAge('over90')).toMatchObject({ status: 'billed', archived: 'all' });
    expect(filters.payment('partial')).toEqual({ payment: 'partial', archived: 'all' });
  });

  it("opens the list with react-admin's list parameters", () => {
    const link = new URL(pecListLink({ status: 'approved' }, { field: 'datePeremption', order: 'ASC' }), 'http://x');
    expect(link.pathname).toBe('/pec');
    expect(JSON.parse(link.searchParams.get('filter')!)).toEqual({ status: 'approved' });
    expect(link.searchParams.get('sort')).toBe('datePeremption');
    expect(link.searchParams.get('order')).toBe('ASC');
    expect(new URL(pecListLink({}), 'http://x').searchParams.has('sort')).toBe(false);
  });

  it('opens the statements list filtered the same way (À traiter)', () => {
    const link = new URL(statementsListLink({ [PENDING_STATEMENT_FILTER]: 'true' }), 'http://x');
    expect(link.pathname).toBe('/payment_statements');
    expect(JSON.parse(link.searchParams.get('filter')!)).toEqual({ aTraiter: 'true' });
  });
});

describe('listQueryString (the export of the current view)', () => {
  it('writes ranges, lists and the order as the API reads them, and skips empty values', () => {
    const query = listQueryString(
      { status: 'pending', search: '', createdAt: { after: '2026-08-01T00:00:00+02:00', before: undefined }, id: [4, 9], statutFacturation: false },
      { field: 'totalTtc', order: 'ASC' },
    );
    expect([...new URLSearchParams(query)]).toEqual([
      ['status', 'pending'],
      ['createdAt[after]', '2026-08-01T00:00:00+02:00'],
      ['id[0]', '4'],
      ['id[1]', '9'],
      ['statutFacturation', 'false'],
      ['order[totalTtc]', 'asc'],
    ]);
  });
});

describe('pecNumericId', () => {
  it("reads the number of a record's IRI or origin id", () => {
    expect(pecNumericId({ id: '/api/pec_dossiers/42' })).toBe(42);
    expect(pecNumericId({ id: '/api/pec_dossiers/42', originId: '42' })).toBe(42);
    expect(pecNumericId({ id: 7 })).toBe(7);
    expect(pecNumericId(undefined)).toBeUndefined();
  });
});
