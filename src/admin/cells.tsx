// How the generated screens show one value of a record: as the entity's particular says, a declared choice by its
// French label (a status as its badge), an embedded reference by its name, or as @api-platform/admin guesses it.
import { FieldGuesser } from '@api-platform/admin';
import type { Resource } from '@api-platform/api-doc-parser';
import type { RaRecord } from 'react-admin';
import type { AdminEntity } from '../dataProvider/adminSchema';
import { StatusBadge } from './StatusBadge';
import { fieldOf, isToOne, useChoiceLabel, useSchemaAnalyzer } from './docs';
import type { Particular } from '../resources/types';

export function getPath(record: RaRecord, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), record);
}

const STATUS_COLORS: Record<string, 'success' | 'default' | 'warning'> = { Active: 'success', Inactive: 'default', Locked: 'warning' };

/** "✅ Activé", "❌ Désactivé", "🔒 Bloqué" (spec section 4): the declared choice's label. */
export function EntityStatus({ collection, status }: { collection: string; status: unknown }) {
  const label = useChoiceLabel(collection);
  if (typeof status !== 'string' || !status) return null;
  return <StatusBadge status={status} label={label('status', status)} color={STATUS_COLORS[status] ?? 'default'} />;
}

/** A translated label for a value of another entity's enumeration (a software's type in the shop editor). */
export function ChoiceLabel({ collection, field, value }: { collection: string; field: string; value: unknown }) {
  const label = useChoiceLabel(collection);
  return <>{value ? label(field, value) : ''}</>;
}

interface CellProps {
  entity: AdminEntity;
  particular: Particular;
  schema: Resource | undefined;
  column: string;
  record: RaRecord;
}

export function Cell({ entity, particular, schema, column, record }: CellProps) {
  const analyzer = useSchemaAnalyzer();
  const own = particular.cells?.[column];
  if (own) return <>{own.render(record)}</>;
  const value = getPath(record, column);
  const declared = entity.fields[column];
  if (declared?.choices) {
    if (column === 'status') return <EntityStatus collection={entity.name} status={value} />;
    return <>{value == null ? '' : (declared.choices.find((c) => c.id === value)?.name ?? String(value))}</>;
  }
  const field = fieldOf(schema, column);
  if (field && isToOne(field) && value && typeof value === 'object') {
    return <>{String((value as Record<string, unknown>)[analyzer.getFieldNameFromSchema(field.reference as Resource)] ?? '')}</>;
  }
  if (!field || column.includes('.')) return <>{value == null || value === '' ? '' : String(value)}</>;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return <>{JSON.stringify(value)}</>;
  // link: references point to no page of their own here (the settings screens open a drawer).
  return <FieldGuesser source={column} sortable={false} {...({ link: false } as object)} />;
}
