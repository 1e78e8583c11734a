// The French name of an entity as the generated screens use it (its declared label), with agreement: gender
// ("Nouvelle organisation", "Entreprise créée avec succès"), number ("1 centre trouvé", "3 centres trouvés") and
// elision ("Nouvel utilisateur").
import { useTranslate } from 'react-admin';
import type { AdminEntity } from '../dataProvider/adminSchema';

const startsWithVowel = (word: string) => /^[aeiouyàâéèêëîïôûh]/i.test(word);

export function useNouns(label: AdminEntity['label'] | undefined) {
  const translate = useTranslate();
  const singular = label?.singular ?? '';
  const plural = label?.plural ?? '';
  const args = { singular: singular.toLowerCase(), plural: plural.toLowerCase(), element: singular };
  /** A message of pecflow.settings in its feminine (key_f) or elided (key_v) variant when it has one. */
  const say = (key: string, extra: Record<string, unknown> = {}) => {
    const variant = label?.feminine ? '_f' : startsWithVowel(singular) ? '_v' : '';
    const base = `pecflow.settings.${key}`;
    const text = variant ? translate(`${base}${variant}`, { ...args, ...extra, _: '' }) : '';
    return text || translate(base, { ...args, ...extra });
  };
  return { singular, plural, say };
}

/** A record's own name: its name, else the person's name, else its email, login or code; '' when it has none. */
export function ownName(record: Record<string, unknown>): string {
  const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string).trim() : '');
  const person = [text('firstName'), text('lastName')].filter(Boolean).join(' ');
  return text('name') || person || text('email') || text('login') || text('code');
}

/** The number a record is known by ('ID: 12' in its drawer). */
export const recordNumber = (record: Record<string, unknown>) => String(record.originId ?? record.id);

/** How a record is named to a person (a delete confirmation): its own name, else its number. */
export function recordName(record: Record<string, unknown>, singular: string): string {
  return ownName(record) || `${singular} n° ${recordNumber(record)}`;
}
