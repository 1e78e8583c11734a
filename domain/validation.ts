// Zod building blocks with French messages, shared by the forms and the API.
import { z } from 'zod';
import { idFromReference } from './iri';
import './zodLocale';

export const TEXT_MAX = 255;
export const LONG_TEXT_MAX = 2000;
export const tooLong = (max: number) => `Ce champ ne peut pas dépasser ${max} caractères`;

/** Empty strings and null mean "no value". */
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** What a text field says of a value that is no text (a number, a list): not that it is missing. */
export const TEXT_EXPECTED = 'Texte attendu';

/** A required text: trimmed, at least `min` characters (message, also when absent), at most `max`. */
/** A field a form must fill, its label marked « * »: its rule refuses it missing and left empty. */
export const requiredIn = (schema: z.ZodObject, field: string) => {
  const rule = schema.shape[field];
  return !!rule && !rule.safeParse(undefined).success && !rule.safeParse('').success;
};

export const requiredText = (min: number, message: string, max = TEXT_MAX, maxMessage = tooLong(max)) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? message : TEXT_EXPECTED) })
    .trim()
    .min(min, message)
    .max(max, maxMessage);

/** An optional text: trimmed; empty becomes null. */
export const optionalText = (max = TEXT_MAX, maxMessage = tooLong(max)) =>
  z
    .preprocess(emptyToUndefined, z.string({ error: TEXT_EXPECTED }).trim().max(max, maxMessage).optional())
    .transform((v) => (v === undefined || v === '' ? null : v));

/**
 * A number typed on one line (a file's, a quote's, an invoice's): no line break, no other control character, no
 * invisible mark that turns the writing direction (it would show another number than the one stored and sent).
 */
const HIDDEN_CHARACTER = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
export const ONE_LINE_NUMBER_MESSAGE = 'Caractère invalide : un numéro s’écrit sur une ligne, sans caractère de contrôle ni marque de sens d’écriture.';
export const oneLine = (value: string | null) => value === null || !HIDDEN_CHARACTER.test(value);

export const optionalEmail = (message = 'Email invalide') =>
  z
    .preprocess(emptyToUndefined, z.string({ error: message }).trim().max(TEXT_MAX, tooLong(TEXT_MAX)).pipe(z.email(message)).optional())
    .transform((v) => v ?? null);

export const requiredEmail = (message = 'Email invalide') =>
  z.string({ error: message }).trim().toLowerCase().max(TEXT_MAX, tooLong(TEXT_MAX)).pipe(z.email(message));

/** An http(s) address (a javascript: or file: URL is no link to show or follow). */
export const httpUrl = (message: string) => z.url({ protocol: /^https?$/, error: message });

export const optionalUrl = (message: string) =>
  z
    .preprocess(emptyToUndefined, z.string({ error: message }).trim().max(TEXT_MAX, tooLong(TEXT_MAX)).pipe(httpUrl(message)).optional())
    .transform((v) => v ?? null);

export const ENTITY_STATUSES = ['Active', 'Inactive'] as const;
export const USER_STATUSES = ['Active', 'Inactive', 'Locked'] as const;
export type EntityStatus = (typeof ENTITY_STATUSES)[number];
export type UserStatus = (typeof USER_STATUSES)[number];

export const entityStatus = () => z.enum(ENTITY_STATUSES, { error: 'Statut invalide' }).default('Active');
export const userStatus = () => z.enum(USER_STATUSES, { error: 'Statut invalide' }).default('Active');

/** A to-one reference written as an IRI (/api/holdings/3), a number or a numeric string; becomes the numeric id. */
export const reference = (collection: string, message: string) =>
  z.unknown().transform((value, ctx) => {
    const id = idFromReference(value, collection);
    if (id === undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return id;
  });

/** An optional to-one reference: empty or null means none. */
export const optionalReference = (collection: string, message: string) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === null || value === '') return null;
      const id = idFromReference(value, collection);
      if (id === undefined) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return id;
    });

/** A to-many reference: a list of IRIs or ids, without duplicates. */
export const referenceList = (collection: string, message: string) =>
  z
    .array(z.unknown(), { error: message })
    .max(1000, message)
    .default([])
    .transform((values, ctx) => {
      const ids: number[] = [];
      for (const value of values) {
        const id = idFromReference(value, collection);
        if (id === undefined) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        if (!ids.includes(id)) ids.push(id);
      }
      return ids;
    });

export const booleanField = (message = 'Valeur oui/non attendue') => z.boolean({ error: message });
