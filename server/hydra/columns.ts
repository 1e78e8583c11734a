// A declaration's table as the resource layer's parts read it: the property key of each column, the fields in order.
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { iriOf } from '#domain/iri';
import type { Field, ResourceDeclaration } from './types';

/** Property key (camelCase) of each column of a table, as Drizzle's insert and update want them. */
export function columnKeys(table: PgTable): Map<AnyPgColumn, string> {
  return new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column as AnyPgColumn, key]));
}

/** What the reader, the serializer and the writer of one resource share: its declaration, column keys and fields. */
export class DeclaredTable {
  readonly keys: Map<AnyPgColumn, string>;
  readonly fieldEntries: [string, Field][];

  constructor(readonly decl: ResourceDeclaration) {
    this.keys = columnKeys(decl.table);
    this.fieldEntries = Object.entries(decl.fields);
  }

  key(column: AnyPgColumn): string {
    const key = this.keys.get(column);
    if (!key) throw new Error(`${this.decl.name}: column ${column.name} is not on the table`);
    return key;
  }

  /** This table's column, qualified (Drizzle leaves columns unqualified in a single-table select; a subquery needs it). */
  outer(column: AnyPgColumn): SQL {
    return sql`${sql.identifier(getTableName(this.decl.table))}.${sql.identifier(column.name)}`;
  }

  iri(id: number | string) {
    return iriOf(this.decl.name, id);
  }
}
