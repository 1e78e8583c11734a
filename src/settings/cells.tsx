// How the generic screens show one value of a record: as the entity declares it, or as the API documentation says.
import { FieldGuesser } from '@api-platform/admin';
import type { Resource } from '@api-platform/api-doc-parser';
import type { RaRecord } from 'react-admin';
import type { Column } from '../resources/types';
import { fieldOf, isToOne, useSchemaAnalyzer } from './schema';

export function getPath(record: RaRecord, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), record);
}

/** A cell as the entity declares it, or as the API documentation says: an embedded reference shows its name. */
export function Cell({ column, record, schema }: { column: Column; record: RaRecord; schema: Resource | undefined }) {
  const analyzer = useSchemaAnalyzer();
  if (column.render) return <>{column.render(record)}</>;
  const value = getPath(record, column.source);
  const field = fieldOf(schema, column.source);
  if (field && isToOne(field) && value && typeof value === 'object') {
    return <>{String((value as Record<string, unknown>)[analyzer.getFieldNameFromSchema(field.reference as Resource)] ?? '')}</>;
  }
  if (!field || column.source.includes('.')) return <>{value == null || value === '' ? '' : String(value)}</>;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return <>{JSON.stringify(value)}</>;
  // link: references point to no page of their own here (the settings screens open a drawer).
  return <FieldGuesser source={column.source} sortable={false} {...({ link: false } as object)} />;
}

