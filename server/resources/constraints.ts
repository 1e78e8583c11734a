// The constraints (and their French messages, spec section 5) that several declarations share.
import type { FieldConstraints } from '#domain/constraints';
import { ENTITY_STATUS_CHOICES } from '#domain/schemas';

/** An optional text (at most `max` characters, 255 by default); a value that is no text is "Texte attendu". */
export const optionalText = (max?: number, maxMessage?: string): FieldConstraints => ({
  ...(max === undefined ? {} : { max }),
  messages: { type: 'Texte attendu', ...(maxMessage ? { max: maxMessage } : {}) },
});

/** A required text of at least `min` characters: `message` when missing, empty or too short. */
export const requiredText = (min: number, message: string, max?: number): FieldConstraints => ({ min, message, ...(max === undefined ? {} : { max }) });

export const optionalEmail: FieldConstraints = { email: true, message: 'Email invalide' };

/** The status of an entity: active unless said otherwise. */
export const entityStatus = { choices: ENTITY_STATUS_CHOICES, default: 'Active', constraints: { messages: { choice: 'Statut invalide' } } };

/** The address block's country (server/resources/address.ts). */
export const COUNTRY = requiredText(2, 'Pays requis', 100);

/** Exactly `count` digits (FINESS, RPPS): `message` whatever is wrong. */
export const digits = (count: number, message: string): FieldConstraints => ({ pattern: `^\\d{${count}}$`, message, messages: { max: message } });

/** A secret written, never read back: empty keeps the stored one; otherwise at least `min` characters. */
export const secret = (min: number, message: string): FieldConstraints => ({
  min,
  message,
  messages: { max: 'Ce secret ne peut pas dépasser 255 caractères' },
});
