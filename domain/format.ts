// Formatters for what users read: euros and dates in the French way (spec sections 2 and 9). Dates are formatted by
// the runtime's Intl, in its time zone (the browser's; the server's for its messages), as date-fns did: the list pages
// need no date library to show a date.
import { isValid, parseISO } from 'date-fns';

/**
 * A formatter made when first used: an Intl formatter costs its locale data at construction (those of this module,
 * made as it loaded, held the entry's one long task on a phone, before any page drew).
 */
export function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const amounts = once(() => new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const months = once(() => new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric' }));

/** Beyond this, Intl's own digits (a number's shortest text has an exponent from 1e21; cents are exact to 1e15). */
const LARGEST_BY_HAND = 1e15;

/**
 * The units and cents of a positive number rounded as Intl rounds it: half away from zero on its shortest decimal
 * text (1.005 -> "1", "01", where toFixed reads the binary value, 1.00499…, and gives 1.00).
 */
function unitsAndCents(abs: number): [string, string] {
  const [units = '0', decimals = ''] = (abs < 1e-6 ? '0' : String(abs)).split('.');
  if (decimals.length <= 2) return [units, decimals.padEnd(2, '0')];
  const cents = (BigInt(units + decimals.slice(0, 2)) + (decimals[2]! >= '5' ? 1n : 0n)).toString().padStart(3, '0');
  return [cents.slice(0, -2), cents.slice(-2)];
}

/**
 * 1450.5 -> "1 450,50": the thousands apart by narrow no-break spaces (U+202F), the same on every runtime whatever its
 * locale data (older ones wrote U+00A0): an amount never breaks across lines. The number of formatEuros, and of the
 * messages' examples of an amount to type ('ex : 1 234,56'), never written by hand with a plain space.
 *
 * Written out rather than asked of Intl, as are the days and times below: the page's first Intl formatter loads the
 * runtime's locale data, ≈150 ms of a phone's CPU (4×) in the entry's long task before /pec drew (CPU profile, issue
 * 30). The text is Intl's (tests/unit/amounts.test.ts compares both over a range of amounts and dates).
 */
export function formatAmount(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) >= LARGEST_BY_HAND) {
    return amounts()
      .formatToParts(n)
      .map((part) => (part.type === 'group' ? '\u202f' : part.value))
      .join('');
  }
  const [units, cents] = unitsAndCents(Math.abs(n));
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  return `${sign}${units.replace(/\B(?=(\d{3})+$)/g, '\u202f')},${cents}`;
}

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

const twoDigits = (n: number) => String(n).padStart(2, '0');
/** dd/mm/yyyy of a date in the runtime's time zone, as Intl's fr-FR writes it. */
const day = (date: Date) => `${twoDigits(date.getDate())}/${twoDigits(date.getMonth() + 1)}/${date.getFullYear()}`;
/** HH:mm, 00 to 23. */
const time = (date: Date) => `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;

/** What a date field says of a date that is none (31/02/2026, 20/02/0001). */
export const DATE_MESSAGE = 'Date invalide (jj/mm/aaaa)';

/** What a « Du » / « Au » pair of a list's filters says when its start is after its end (no row could fall in it). */
export const DATE_RANGE_MESSAGE = 'La date de début est après la date de fin';

/** A range whose start day is after its end day; bounds are days (yyyy-mm-dd) or instants, compared by their day. */
export const isReversedRange = (after: string | null | undefined, before: string | null | undefined) =>
  !!after && !!before && after.slice(0, 10) > before.slice(0, 10);

/** dd/mm/yyyy; "Non définie" when empty, "Date invalide" when unreadable. */
export const formatDate = (value: string | Date | null | undefined) => formatWith(value, day);

/** A calendar day as text, yyyy-mm-dd (or the start of a timestamp), read as written: no time zone can move it. */
export const formatIsoDay = (isoDay: string) => isoDay.slice(0, 10).split('-').reverse().join('/');

/** dd/mm/yyyy à HH:mm. */
export const formatDateTime = (value: string | Date | null | undefined) => formatWith(value, (date) => `${day(date)} à ${time(date)}`);

const parisDays = once(() => new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Paris' }));
const parisTimes = once(() => new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Paris' }));

/** A moment as an office in France reads it, whatever the runtime's time zone (the server's PDFs): dd/mm/yyyy à HH:mm. */
export const formatParisDateTime = (moment: Date) => `${parisDays().format(moment)} à ${parisTimes().format(moment)}`;

/** '2026-03' -> "mars 2026". */
export const formatMonth = (month: string) => formatWith(`${month}-01`, (date) => months().format(date));

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
const sizeUnits = SIZE_UNITS.map((unit) =>
  once(() => new Intl.NumberFormat('fr-FR', { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: unit === 'byte' ? 0 : 1 })),
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
  return sizeUnits[unit]!().format(value);
}

/** "Sophie Bernard" -> "SB": first letters of the first and last name. */
export function initialsOf(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]![0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]![0] ?? '') : '';
  return (first + last).toUpperCase();
}

/**
 * A CSV header as files write it, compared without accents, case, spaces or punctuation ("N° PEC" = "n pec" = "NPEC",
 * "Montant (€)" = "Montant"): the statements' and the PEC files' imports read their columns by it.
 */
export const headerKey = (header: string) =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[°€]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** An amount as French Excel reads a number and a form's field shows it to be typed again: 77.9 -> "77,90" (no grouping). */
export const decimalComma = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2).replace('.', ',') : '');
