// Formatters for what users read: euros and dates in the French way (spec sections 2 and 9). Dates are formatted by
// the runtime's Intl, in its time zone (the browser's; the server's for its messages), as date-fns did: the list pages
// need no date library to show a date.
import { isValid, parseISO } from 'date-fns';

const amounts = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const days = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' });
const times = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const months = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric' });

/**
 * 1450.5 -> "1 450,50": the thousands apart by narrow no-break spaces (U+202F), the same on every runtime whatever its
 * locale data (older ones wrote U+00A0): an amount never breaks across lines. The number of formatEuros, and of the
 * messages' examples of an amount to type ('ex : 1 234,56'), never written by hand with a plain space.
 */
export const formatAmount = (n: number) =>
  amounts
    .formatToParts(n)
    .map((part) => (part.type === 'group' ? '\u202f' : part.value))
    .join('');

/** 1450.5 -> "1 450,50 €", a no-break space (U+00A0) before the sign: never broken across lines. Empty values give the fallback. */
export function formatEuros(value: number | string | null | undefined, fallback = 'Non défini'): string {
  if (value === null || value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? `${formatAmount(n)}\u00a0€` : fallback;
}

/** The date of an ISO text ('2026-03-01' is that day at midnight here) or a Date; "Non définie" when empty, "Date invalide" when unreadable. */
function formatWith(value: string | Date | null | undefined, write: (date: Date) => string): string {
  if (value === null || value === undefined || value === '') return 'Non définie';
  const date = value instanceof Date ? value : parseISO(value);
  return isValid(date) ? write(date) : 'Date invalide';
}

/** dd/mm/yyyy; "Non définie" when empty, "Date invalide" when unreadable. */
export const formatDate = (value: string | Date | null | undefined) => formatWith(value, (date) => days.format(date));

/** A calendar day as text, yyyy-mm-dd (or the start of a timestamp), read as written: no time zone can move it. */
export const formatIsoDay = (isoDay: string) => isoDay.slice(0, 10).split('-').reverse().join('/');

/** dd/mm/yyyy à HH:mm. */
export const formatDateTime = (value: string | Date | null | undefined) => formatWith(value, (date) => `${days.format(date)} à ${times.format(date)}`);

const parisDays = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Paris' });
const parisTimes = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Paris' });

/** A moment as an office in France reads it, whatever the runtime's time zone (the server's PDFs): dd/mm/yyyy à HH:mm. */
export const formatParisDateTime = (moment: Date) => `${parisDays.format(moment)} à ${parisTimes.format(moment)}`;

/** '2026-03' -> "mars 2026". */
export const formatMonth = (month: string) => formatWith(`${month}-01`, (date) => months.format(date));

const sizeUnits = (['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const).map(
  (unit) => new Intl.NumberFormat('fr-FR', { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: unit === 'byte' ? 0 : 1 }),
);

/** A size in bytes the French way, by 1 024: 512 -> "512 o", 1536 -> "1,5 ko", 2621440 -> "2,5 Mo". */
export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'Non définie';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < sizeUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return sizeUnits[unit]!.format(value);
}

/** "Sophie Bernard" -> "SB": first letters of the first and last name. */
export function initialsOf(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]![0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]![0] ?? '') : '';
  return (first + last).toUpperCase();
}
