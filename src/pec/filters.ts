// The PEC list's filters as the URL and the API read them: days picked by the user, the dashboard's figures and the
// links that open the list filtered the same way. Pure functions (no React), tested in tests/unit/pec-filters.test.ts.
import { receivableAgeRange, type PaymentFilter, type ReceivableAge } from '#domain/payments';
import { expiryWarningWindow, todayInFrance } from '#domain/pec';

/** "+02:00" for a local date (its own offset, summer or winter time). */
function offsetOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * A day picked in the filter as the instant that starts it (after) or ends it (before) in the user's time zone, so
 * "created on the 1st" means the user's 1st, not the server's. The URL keeps the day readable: 2026-08-01T00:00:00+02:00.
 */
export function dayBound(isoDay: string, bound: 'after' | 'before'): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  const time = bound === 'after' ? 'T00:00:00' : 'T23:59:59.999';
  return `${isoDay}${time}${offsetOf(new Date(y, m - 1, d, bound === 'after' ? 0 : 23, bound === 'after' ? 0 : 59))}`;
}

// ---------- dates as the server counts them (Europe/Paris) ----------

const PARIS = 'Europe/Paris';

/** yyyy-mm-dd in Paris: the server's own rule. */
export const parisDay = todayInFrance;

/** The instant of midnight in Paris on that day, as an ISO string (the stats' month start). */
export function parisMidnight(isoDay: string): string {
  const guess = Date.parse(`${isoDay}T00:00:00Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: PARIS,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(guess))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`);
  return new Date(guess - (wall - guess)).toISOString();
}

/** The list's order until the user picks another (spec section 2: newest first). */
export const DEFAULT_SORT = { field: 'createdAt', order: 'DESC' } as const;

/** The link of a file: its drawer over the list (/pec/12). */
export const pecFilePath = (id: number | string) => `/pec/${id}`;

/** The payment statements' page, and the link of one statement: its drawer over the list (/payment_statements/12). */
export const STATEMENTS_PATH = '/payment_statements';
export const statementPath = (id: number | string) => `${STATEMENTS_PATH}/${id}`;
/** The statements' list with these filters (react-admin's list parameters in the URL). */
export const statementsListLink = (filter: Record<string, unknown>) => `${STATEMENTS_PATH}?${new URLSearchParams({ filter: JSON.stringify(filter) })}`;

/**
 * The columns an address of the PEC list asks for, read by src/pec/useColumnsFromUrl.ts: `columns` shows them beside
 * the user's (a dashboard's drill-down), `onlyColumns` shows them alone, in that order (a saved view's address).
 */
export const COLUMNS_PARAM = 'columns';
export const ONLY_COLUMNS_PARAM = 'onlyColumns';

type ListSort = { field: string; order: 'ASC' | 'DESC' };

/** react-admin's list parameters in the URL. */
function listParams(filter: Record<string, unknown>, sort?: ListSort): URLSearchParams {
  const params = new URLSearchParams({ filter: JSON.stringify(filter) });
  if (sort) {
    params.set('sort', sort.field);
    params.set('order', sort.order);
  }
  return params;
}

/** The PEC list with these filters and sort, and columns to show beside the user's. */
export function pecListLink(filter: Record<string, unknown>, sort?: ListSort, columns?: readonly string[]): string {
  const params = listParams(filter, sort);
  if (columns?.length) params.set(COLUMNS_PARAM, columns.join(','));
  return `/pec?${params}`;
}

/** The PEC list as a saved view shows it: its filters, sort and, when it names any, its columns alone in its order. */
export function pecViewAddress(filter: Record<string, unknown>, sort: ListSort | undefined, columns: readonly string[]): string {
  const params = listParams(filter, sort);
  if (columns.length) params.set(ONLY_COLUMNS_PARAM, columns.join(','));
  return `/pec?${params}`;
}

/** The columns that matter on the dashboard's drill-downs (issue 28): what is owed and since when, or when it expires. */
export const DRILL_DOWN_COLUMNS = {
  receivables: ['amountDue', 'dateFacturationEffective'],
  expiring: ['datePeremption'],
} as const;

/** The list's `archived` filter that lists every file, archived or not (the default leaves archived ones out). */
export const WITH_ARCHIVED = { archived: 'all' } as const;

/** The filters behind each figure of the stats. */
export function dashboardFilters(today = parisDay()) {
  const monthStart = `${today.slice(0, 7)}-01`;
  const expiry = expiryWarningWindow(today);
  return {
    status: (status: string) => ({ status }),
    expiring: { statutFacturation: false, datePeremption: { after: expiry.first, before: expiry.last } },
    // The money counts archived files too (issue 25): its links list them, as the stats count them.
    approvedThisMonth: { dateValidation: { after: parisMidnight(monthStart) }, ...WITH_ARCHIVED },
    billedThisMonth: { statutFacturation: true, dateFacturationEffective: { after: monthStart }, ...WITH_ARCHIVED },
    // Billed, not yet paid: all of them, by days since billing, and the payment discrepancies (issue 15).
    receivables: { status: 'billed', ...WITH_ARCHIVED },
    receivableAge: (age: ReceivableAge) => ({ status: 'billed', dateFacturationEffective: receivableAgeRange(today, age), ...WITH_ARCHIVED }),
    payment: (payment: PaymentFilter) => ({ payment, ...WITH_ARCHIVED }),
  };
}
