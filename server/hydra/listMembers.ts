// The members of an SQL-written list page: each key of serialize()'s items as an SQL value of the page's select.
import { getTableName, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Principal } from '../auth/principal';
import { iriOf } from '#domain/iri';
import type { DeclaredTable } from './columns';
import { jsonColumnValue, literal } from './jsonValues';
import type { Registry } from './repository';
import type { ReferenceField, ReferencesField } from './types';

const dialect = new PgDialect();

export class ListMembers {
  private memberText: SQL | undefined;
  /** The referenced tables whose rows are embedded, joined to the page. */
  readonly joins: SQL[] = [];
  private sharedMembers: Record<string, SQL> | null | undefined;

  constructor(
    private readonly table: DeclaredTable,
    private readonly registry: Registry,
  ) {}

  /**
   * The member's keys, in serialize()'s order, as the select list of the page (`value as "key", ...`); undefined when
   * one has no SQL form. Without values that depend on the reader, it is written to SQL text once: building the same
   * few hundred SQL nodes into text again for every request was the largest part of a list's CPU in the profile.
   */
  memberSelection(principal: Principal): SQL | undefined {
    if (this.sharedMembers === undefined) this.sharedMembers = this.memberValues();
    const shared = this.sharedMembers;
    if (!shared) return undefined;
    if (this.memberText) return this.memberText;
    const perReader = Object.entries(shared).some(([key]) => this.perReader(key));
    const list = sql.join(
      Object.entries(shared).map(([key, value]) => {
        const field = this.table.decl.fields[key];
        // Values that depend on who reads are built for this reader.
        const expression = field?.kind === 'computed' && typeof field.sql === 'function' && this.perReader(key) ? field.sql(principal) : value;
        return sql`${expression} as ${sql.identifier(key)}`;
      }),
      sql`, `,
    );
    if (perReader) return list;
    const { sql: text, params } = dialect.sqlToQuery(list);
    if (params.length > 0) return list;
    this.memberText = sql.raw(text);
    return this.memberText;
  }

  private perReader(key: string) {
    const field = this.table.decl.fields[key];
    return field?.kind === 'computed' && typeof field.sql === 'function' && !this.table.decl.hooks?.listJson?.[key];
  }

  private memberValues(): Record<string, SQL> | null {
    const { decl } = this.table;
    const overrides = decl.hooks?.listJson ?? {};
    if (decl.hooks?.expand && !decl.hooks.listJson) return null;
    const id = this.table.outer(decl.idColumn);
    const values: Record<string, SQL> = {
      '@id': sql`${literal(iriOf(decl.name, ''))} || ${id}`,
      '@type': literal(decl.className),
      id,
    };
    for (const [name, field] of this.table.fieldEntries) {
      if (!field.readable) continue;
      if (overrides[name]) {
        values[name] = overrides[name];
        continue;
      }
      let value: SQL | undefined;
      switch (field.kind) {
        case 'column':
          value = jsonColumnValue(field.column, this.table.outer(field.column));
          break;
        case 'reference':
          value = this.referenceValue(field);
          break;
        case 'references':
          value = this.referencesValue(field);
          break;
        case 'computed':
          // A per-reader expression is placed by memberSelection; this one only says the key is there.
          value = typeof field.sql === 'function' ? sql`null` : field.sql;
          break;
        case 'derived':
          if (field.itemOnly) continue;
          value = field.sql;
          break;
      }
      if (!value) return null;
      values[name] = value;
    }
    for (const [key, value] of Object.entries(overrides)) if (!(key in values)) values[key] = value;
    return values;
  }

  /** A to-one reference as serialize() gives it: null, its IRI, or the embedded target {@id, @type, id, ...embed}. */
  private referenceValue(field: ReferenceField): SQL | undefined {
    const column = this.table.outer(field.column);
    const iri = sql`${literal(iriOf(field.target, ''))} || ${column}`;
    if (!field.embed?.length) return iri;
    // The target is joined (a hash join for a long list, an index lookup for a page), not looked up once per row by a
    // correlated subquery: for 5,000 credentials, PostgreSQL scanned the small organisations table 5,000 times.
    const target = this.registry.get(field.target).decl;
    const alias = `__r_${field.column.name}`;
    const targetId = sql`${sql.identifier(alias)}.${sql.identifier(target.idColumn.name)}`;
    this.joins.push(sql`left join ${sql.identifier(getTableName(target.table))} as ${sql.identifier(alias)} on ${targetId} = ${column}`);
    const pairs: SQL[] = [
      sql`${literal(iriOf(field.target, ''))} || ${targetId} as "@id"`,
      sql`${literal(target.className)} as "@type"`,
      sql`${targetId} as "id"`,
    ];
    for (const name of field.embed) {
      const embedded = target.fields[name];
      if (!embedded || (embedded.kind !== 'column' && embedded.kind !== 'reference')) continue;
      const value = jsonColumnValue(embedded.column, sql`${sql.identifier(alias)}.${sql.identifier(embedded.column.name)}`);
      if (!value) return undefined;
      pairs.push(sql`${value} as ${sql.identifier(name)}`);
    }
    const embedded = sql`case when ${targetId} is null then null else (select row_to_json("__e") from (select ${sql.join(pairs, sql`, `)}) as "__e") end`;
    return sql`case when ${column} is null then null else coalesce(${embedded}, to_json(${iri})) end`;
  }

  /** A to-many reference: its IRIs, ascending by target id (a text[] that row_to_json writes as a JSON array). */
  private referencesValue(field: ReferencesField): SQL {
    const { table, ownerColumn, targetColumn } = field.link;
    const target = sql`"__l".${sql.identifier(targetColumn.name)}`;
    return sql`(select coalesce(array_agg(${literal(iriOf(field.target, ''))} || ${target} order by ${target}), '{}') from ${sql.identifier(getTableName(table))} as "__l" where "__l".${sql.identifier(ownerColumn.name)} = ${this.table.outer(this.table.decl.idColumn)})`;
  }
}
