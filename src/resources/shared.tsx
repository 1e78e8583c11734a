// Pieces several entities declare alike: the status column, filter and choices; labelled enumerations.
import { StatusBadge } from '../settings/fields';
import { ENTITY_STATUSES, USER_STATUSES } from '../domain/validation';
import { iriOf } from '../domain/iri';
import { readAuthStore } from '../authProvider/session';
import type { Choice, Column, FilterDefinition } from './types';

/** Enumeration values with their French labels from pecflow.settings.{prefix}.{value}. */
export const labelled = (prefix: string, values: readonly string[]): Choice[] => values.map((id) => ({ id, name: `pecflow.settings.${prefix}.${id}` }));

export const ENTITY_STATUS_CHOICES = labelled('status', ENTITY_STATUSES);
export const USER_STATUS_CHOICES = labelled('status', USER_STATUSES);

export const statusColumn: Column = { source: 'status', render: (record) => <StatusBadge status={record.status} /> };

export const statusFilter = (choices: readonly Choice[] = ENTITY_STATUS_CHOICES): FilterDefinition => ({ kind: 'choice', source: 'status', choices });

/** A new record of an organisation member belongs to their organisation unless they choose otherwise. */
export const ownHolding = () => {
  const holdingId = readAuthStore().user?.holdingId;
  return holdingId ? { holding: iriOf('holdings', holdingId) } : {};
};

/** Street, postal code, city, country: the address block of organisations, companies and centres. */
export const ADDRESS_FIELDS = ['street', 'postalCode', 'city', 'country'];
