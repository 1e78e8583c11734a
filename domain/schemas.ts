// The back-office entities' enumerations with their French labels (spec section 5). Their validation is their
// declarations' field constraints (server/resources/<x>.ts), and what no constraint can say is in ./rules.ts.
import type { Choice } from './constraints';
import { USER_STATUSES, type UserStatus } from './validation';

/** Enumeration values with their French labels, in the order given. */
export const choicesOf = <T extends string>(labels: Record<T, string>, ids: readonly T[] = Object.keys(labels) as T[]): Choice[] =>
  ids.map((id) => ({ id, name: labels[id] }));

export const STATUS_LABELS: Record<UserStatus, string> = { Active: '✅ Activé', Inactive: '❌ Désactivé', Locked: '🔒 Bloqué' };
export const ENTITY_STATUS_CHOICES = choicesOf(STATUS_LABELS, ['Active', 'Inactive']);
export const USER_STATUS_CHOICES = choicesOf(STATUS_LABELS, USER_STATUSES);

export const SPECIALITES = ['Audioprothésiste', 'Opticien', 'Orthopédiste'] as const;

export const SOFTWARE_TYPES = ['general', 'mutual', 'network', 'medical', 'billing'] as const;
export const SOFTWARE_TYPE_LABELS: Record<(typeof SOFTWARE_TYPES)[number], string> = {
  general: 'Général',
  mutual: 'Mutuelle',
  network: 'Réseau',
  medical: 'Médical',
  billing: 'Facturation',
};
/** The form offers the first three; medical and billing are accepted from the API. */
export const SOFTWARE_FORM_TYPES = ['general', 'mutual', 'network'] as const;

export const CONTEXT_TYPES = ['general', 'mutual', 'network'] as const;
export const ENVIRONMENTS = ['production', 'test'] as const;
export const ENVIRONMENT_LABELS: Record<(typeof ENVIRONMENTS)[number], string> = { production: 'Production', test: 'Test' };
