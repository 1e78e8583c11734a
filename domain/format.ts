// Formatters for what users read: euros and dates in the French way (spec sections 2 and 9).
import { format, isValid, parseISO } from 'date-fns';
import { fr } from 'date-fns/locale';

const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });

/** 1450.5 -> "1 450,50 €". Empty values give the fallback. */
export function formatEuros(value: number | string | null | undefined, fallback = 'Non défini'): string {
  if (value === null || value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? euros.format(n) : fallback;
}

/** dd/mm/yyyy; "Non définie" when empty, "Date invalide" when unreadable. */
export function formatDate(value: string | Date | null | undefined, pattern = 'dd/MM/yyyy'): string {
  if (value === null || value === undefined || value === '') return 'Non définie';
  const date = value instanceof Date ? value : parseISO(value);
  return isValid(date) ? format(date, pattern, { locale: fr }) : 'Date invalide';
}

export const formatDateTime = (value: string | Date | null | undefined) => formatDate(value, "dd/MM/yyyy 'à' HH:mm");

/** "Sophie Bernard" -> "SB": first letters of the first and last name. */
export function initialsOf(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]![0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]![0] ?? '') : '';
  return (first + last).toUpperCase();
}
