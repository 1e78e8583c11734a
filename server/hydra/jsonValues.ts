// Values as the API's JSON writes them, in JavaScript and in SQL: the serializer and the SQL-written lists agree on them.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

export function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value ?? null;
}

/** A constant of the declarations (an IRI prefix, a class name) as an SQL text literal: the same query text whatever the row. */
export const literal = (text: string) => sql.raw(`'${text.replace(/'/g, "''")}'::text`);

/**
 * A column's value as serialize() writes it, in SQL: dates and times as toISOString() gives them (UTC, milliseconds
 * truncated as JavaScript's Date keeps them), other types as row_to_json writes them (numbers, text, booleans, arrays,
 * jsonb). Undefined for a column type not listed here (its resource's lists are then serialized in JavaScript).
 */
export function jsonColumnValue(column: AnyPgColumn, value: SQL): SQL | undefined {
  switch (column.columnType) {
    case 'PgTimestamp': {
      const utc = (column as unknown as { withTimezone: boolean }).withTimezone ? sql`${value} at time zone 'UTC'` : value;
      return sql`to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    }
    case 'PgSerial':
    case 'PgBigSerial53':
    case 'PgInteger':
    case 'PgBigInt53':
    case 'PgText':
    case 'PgVarchar':
    case 'PgBoolean':
    case 'PgJsonb':
    case 'PgDateString':
    case 'PgNumericNumber':
      return value;
    case 'PgArray':
      return (column as unknown as { baseColumn: AnyPgColumn }).baseColumn.columnType === 'PgText' ? value : undefined;
    default:
      return undefined;
  }
}
