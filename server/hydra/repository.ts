// Reads and writes one declared resource: tenancy, permissions, validation, references, hooks and audit, in one place.
import { and, asc, count, desc, eq, getTableColumns, getTableName, gte, inArray, isNull, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { ZodError, type ZodType } from 'zod';
import type { Principal } from '../auth/principal';
import { can, PRINCIPAL_TABLES, requirePermission } from '../auth/principal';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { ApiError, conflict, forbidden, notFound, ValidationError, type Violation } from '../http/errors';
import { fieldWithNul, NUL_MESSAGE } from '../http/body';
import type { KeptList } from './listCache';
import { diff, MASK, recordAudit, type Changes } from '../audit/audit';
import { idFromReference, iriOf } from '#domain/iri';
import { declared, type ListQuery } from './query';
import { schemasOf } from './validation';
import type { PermissionDefinition } from '#domain/permissions';
import type { Field, ReferenceField, ReferencesField, ResourceDeclaration, Row, Schemas, WriteContext } from './types';

const dialect = new PgDialect();

/** A list's count (ResourceRepository.countOf): its statement, its key among the kept counts, a total this reader may reuse. */
interface Counting {
  query: SQL;
  text: string;
  params: unknown[];
  key: string;
  reusable: number | undefined;
  /** When counting starts (performance.now()): a count started before a write committed may not see it. */
  at: number;
}

export interface Registry {
  get(name: string): ResourceRepository;
  readonly permissionCatalogue: readonly PermissionDefinition[];
}

/** Property key (camelCase) of each column of a table, as Drizzle's insert and update want them. */
function columnKeys(table: PgTable): Map<AnyPgColumn, string> {
  return new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column as AnyPgColumn, key]));
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const INT4_MAX = 2_147_483_647;

/** A query value converted to the column's type; undefined when it cannot match anything. */
function filterValue(column: AnyPgColumn, value: string): unknown {
  switch (column.dataType) {
    case 'number': {
      const iri = /^\/api\/[\w-]+\/(\d+)$/.exec(value);
      const n = Number(iri ? iri[1] : value);
      // An integer column cannot hold more than int4: a larger value matches nothing (rather than a database error).
      const max = column.columnType === 'PgInteger' || column.columnType === 'PgSerial' ? INT4_MAX : Number.MAX_SAFE_INTEGER;
      return Number.isSafeInteger(n) && Math.abs(n) <= max ? n : undefined;
    }
    case 'boolean':
      return ['true', '1'].includes(value) ? true : ['false', '0'].includes(value) ? false : undefined;
    default:
      return value;
  }
}

/** Whether yyyy-mm-dd names a day of the calendar. */
function isCalendarDay(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A date or date-time bound from the query; undefined (the bound is ignored) when unreadable or outside the years
 * 0001-9999: JavaScript reads years such as 99999 or -271821 that PostgreSQL refuses ("time zone displacement out of
 * range"), and no record is dated outside them anyway.
 */
function dateBound(value: string | undefined, endOfDay: boolean): Date | undefined {
  if (!value) return undefined;
  const onlyDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
  // An impossible day (2026-02-31) is ignored like an unreadable one, not rolled over to the next month.
  if (onlyDate && !isCalendarDay(value)) return undefined;
  const date = new Date(onlyDate ? `${value}T00:00:00` : value);
  // A day given without a time covers the whole day when it is the upper bound.
  if (onlyDate && endOfDay) date.setDate(date.getDate() + 1);
  const year = date.getUTCFullYear(); // NaN when unreadable
  return year >= 1 && year <= 9999 ? date : undefined;
}

function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value ?? null;
}

/** A constant of the declarations (an IRI prefix, a class name) as an SQL text literal: the same query text whatever the row. */
const literal = (text: string) => sql.raw(`'${text.replace(/'/g, "''")}'::text`);

/**
 * A column's value as serialize() writes it, in SQL: dates and times as toISOString() gives them (UTC, milliseconds
 * truncated as JavaScript's Date keeps them), other types as row_to_json writes them (numbers, text, booleans, arrays,
 * jsonb). Undefined for a column type not listed here (its resource's lists are then serialized in JavaScript).
 */
function jsonColumnValue(column: AnyPgColumn, value: SQL): SQL | undefined {
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

/** Totals from this size up are reused for a few seconds (see ResourceRepository.count). */
const COUNT_CACHE_MIN = 1000;
const COUNT_CACHE_MS = 10_000;

export class ResourceRepository {
  readonly keys: Map<AnyPgColumn, string>;
  private readonly counts = new Map<string, { n: number; at: number }>();
  readonly fieldEntries: [string, Field][];
  /** Whether a write here may change a principal (its table or links are among PRINCIPAL_TABLES). */
  private readonly writesPrincipals: boolean;
  private readonly schemas: Schemas;
  private readonly patchSchema: ZodType;

  constructor(
    readonly decl: ResourceDeclaration,
    private readonly registry: Registry,
    private readonly app: AppContext,
  ) {
    this.keys = columnKeys(decl.table);
    this.fieldEntries = Object.entries(decl.fields);
    this.writesPrincipals = [decl.table, ...this.fieldEntries.map(([, f]) => (f.kind === 'references' ? f.link.table : undefined))].some(
      (table) => table !== undefined && PRINCIPAL_TABLES.includes(table),
    );
    this.schemas = schemasOf(decl, registry.permissionCatalogue);
    const update = this.schemas.update as unknown as { partial?: () => ZodType };
    this.patchSchema = typeof update.partial === 'function' ? update.partial() : this.schemas.update;
  }

  private key(column: AnyPgColumn): string {
    const key = this.keys.get(column);
    if (!key) throw new Error(`${this.decl.name}: column ${column.name} is not on the table`);
    return key;
  }

  iri(id: number | string) {
    return iriOf(this.decl.name, id);
  }

  // ---------- reading ----------

  /** Rows the principal may see (tenancy), archived ones excluded. */
  visibility(principal: Principal): SQL | undefined {
    const conditions = [this.decl.tenancy.readScope(principal)];
    if (this.decl.deletion.mode === 'soft') conditions.push(isNull(this.decl.deletion.column));
    return and(...conditions);
  }

  /** withRelations: embeds and links as correlated subqueries (a page); without, serialize() fetches them in batches (long lists). */
  private selection(principal: Principal, withRelations = true) {
    const shared = this.sharedSelection(withRelations);
    if (!this.hasPerReaderFields) return shared;
    // Values that depend on who reads are built for this reader.
    const selection: Record<string, unknown> = { ...shared };
    for (const [name, field] of this.fieldEntries)
      if (field.kind === 'computed' && typeof field.sql === 'function') selection[`__${name}`] = field.sql(principal);
    return selection as Record<string, AnyPgColumn>;
  }

  private sharedSelection(withRelations: boolean) {
    // Built once per shape: the same SQL objects serve every query.
    const cached = this.selections.get(withRelations);
    if (cached) return cached;
    const selection: Record<string, unknown> = { ...getTableColumns(this.decl.table) };
    for (const [name, field] of this.fieldEntries) if (field.kind === 'computed' && typeof field.sql !== 'function') selection[`__${name}`] = field.sql;
    // Embedded references and to-many links come with the row: a page of users is one query, not four.
    for (const [name, field] of withRelations ? this.fieldEntries : []) {
      if (!field.readable) continue;
      if (field.kind === 'reference' && field.embed?.length) selection[`__embed_${name}`] = this.embedExpression(field);
      if (field.kind === 'references') selection[`__links_${name}`] = this.linksExpression(field);
    }
    this.selections.set(withRelations, selection as Record<string, AnyPgColumn>);
    return selection as Record<string, AnyPgColumn>;
  }
  private readonly selections = new Map<boolean, Record<string, AnyPgColumn>>();
  private get hasPerReaderFields() {
    return this.fieldEntries.some(([, field]) => field.kind === 'computed' && typeof field.sql === 'function');
  }

  /** This table's column, qualified (Drizzle leaves columns unqualified in a single-table select; a subquery needs it). */
  private outer(column: AnyPgColumn): SQL {
    return sql`${sql.identifier(getTableName(this.decl.table))}.${sql.identifier(column.name)}`;
  }

  /** json_build_object('id', …, 'name', …) of the referenced row, or null. */
  private embedExpression(field: ReferenceField): SQL {
    const target = this.registry.get(field.target).decl;
    const pairs: SQL[] = [sql`'id', "__e".${sql.identifier(target.idColumn.name)}`];
    for (const name of field.embed ?? []) {
      const embedded = target.fields[name];
      if (embedded && (embedded.kind === 'column' || embedded.kind === 'reference')) {
        pairs.push(sql`${sql.raw(`'${name.replace(/'/g, "''")}'`)}, "__e".${sql.identifier(embedded.column.name)}`);
      }
    }
    return sql`(select json_build_object(${sql.join(pairs, sql`, `)}) from ${sql.identifier(getTableName(target.table))} as "__e" where "__e".${sql.identifier(target.idColumn.name)} = ${this.outer(field.column)})`;
  }

  /** The ids a to-many reference links to, ascending. */
  private linksExpression(field: ReferencesField): SQL {
    const { table, ownerColumn, targetColumn } = field.link;
    const target = sql`"__l".${sql.identifier(targetColumn.name)}`;
    return sql`(select coalesce(array_agg(${target} order by ${target}), '{}') from ${sql.identifier(getTableName(table))} as "__l" where "__l".${sql.identifier(ownerColumn.name)} = ${this.outer(this.decl.idColumn)})`;
  }

  private listConditions(principal: Principal, query: ListQuery): SQL | undefined {
    const { decl } = this;
    const conditions: (SQL | undefined)[] = [this.visibility(principal)];
    const filters: Record<string, AnyPgColumn> = { id: decl.idColumn, ...decl.filters };
    for (const [key, values] of query.filters) {
      // holdingId=1 and holding=/api/holdings/1 name the same filter.
      const condition = declared(decl.conditionFilters, key);
      if (condition) {
        // Several values of one filter mean any of them, as for the column filters (inArray).
        conditions.push(or(...values.map(condition)));
        continue;
      }
      const column = declared(filters, key) ?? (key.endsWith('Id') ? declared(filters, key.slice(0, -2)) : undefined);
      if (!column) continue;
      const accepted = values.map((v) => filterValue(column, v)).filter((v) => v !== undefined);
      conditions.push(accepted.length ? inArray(column, accepted) : sql`false`);
    }
    for (const [key, range] of query.ranges) {
      const column = declared(decl.rangeFilters, key);
      if (!column) continue;
      const after = dateBound(range.after, false);
      const before = dateBound(range.before, true);
      if (after) conditions.push(gte(column, after));
      if (before) conditions.push(lt(column, before));
    }
    for (const [key, value] of Object.entries(decl.defaultFilters ?? {})) {
      const condition = declared(decl.conditionFilters, key);
      if (condition && !query.filters.has(key)) conditions.push(condition(value));
    }
    if (query.search && decl.searchCondition) conditions.push(decl.searchCondition(query.search));
    else if (query.search && decl.search?.length) {
      const pattern = `%${escapeLike(query.search.toLowerCase())}%`;
      conditions.push(or(...decl.search.map((column) => sql`unaccent(lower(${column})) like unaccent(${pattern})`)));
    }
    return and(...conditions);
  }

  /** The extra condition on what the principal may read (undefined: tenancy alone); 403 when they may read nothing. */
  readRestriction(principal: Principal): SQL | undefined {
    const { permissions, readAccess } = this.decl;
    if (can(principal, permissions.view) || readAccess === 'everyone') return undefined;
    if (readAccess && can(principal, readAccess.permission)) return readAccess.scope(principal) ?? undefined;
    throw forbidden();
  }

  /** The page's condition and order (list and listJson read the same rows). */
  private pageOf(principal: Principal, query: ListQuery) {
    const restriction = this.readRestriction(principal);
    const where = and(this.listConditions(principal, query), restriction);
    const [orderField, defaultDirection] = this.decl.defaultOrder;
    const requested = query.order && declared(this.decl.order, query.order.field) ? query.order : undefined;
    const orderColumn = declared(this.decl.order, requested?.field ?? orderField)!;
    const direction = requested?.direction ?? defaultDirection;
    const by = direction === 'desc' ? desc : asc;
    // Empty values last in both directions (PostgreSQL puts them first when descending): the highest amounts first,
    // not the drafts without one. Only for nullable columns, so that indexes on the others still serve the sort.
    const primary = direction === 'desc' && !orderColumn.notNull ? sql`${orderColumn} desc nulls last` : by(orderColumn);
    return { where, orderBy: [primary, by(this.decl.idColumn)], offset: (query.page - 1) * query.itemsPerPage };
  }

  /** The total of a list whose page has `n` rows (when it was not counted with the page, see listJson). */
  private async totalOf(query: ListQuery, n: number, offset: number, counting: () => Counting, fresh = false): Promise<number> {
    if (!query.paginate) return n;
    // A page that is not full is the last one: the total follows without counting (most organisation lists).
    if (n < query.itemsPerPage && (n > 0 || query.page === 1)) return offset + n;
    return this.count(counting(), fresh);
  }

  async list(principal: Principal, query: ListQuery): Promise<{ rows: Row[]; total: number }> {
    const { where, orderBy, offset } = this.pageOf(principal, query);
    const rows = await this.app.db
      .select(this.selection(principal, query.paginate))
      .from(this.decl.table)
      .where(where)
      .orderBy(...orderBy)
      .limit(query.itemsPerPage)
      .offset(offset);
    return { rows, total: await this.totalOf(query, rows.length, offset, () => this.countOf(principal, where)) };
  }

  /**
   * A list page as PostgreSQL writes it: the members' JSON array as text, the same values as present(rows, 'list')
   * (tests/api/list-json.test.ts compares both). As in PostgREST, the database builds the body (row_to_json over the
   * ordered page, joined by string_agg) and the server passes the text through: no rows turned into objects, then
   * into JSON again. Undefined when the declaration has a value SQL cannot give (a derived field without `sql`, an
   * expand hook without listJson): the caller then serializes in JavaScript.
   */
  async listJson(principal: Principal, query: ListQuery): Promise<KeptList | undefined> {
    const members = this.memberSelection(principal);
    if (!members) return undefined;
    const { where, orderBy, offset } = this.pageOf(principal, query);
    // The page's ids are chosen first (from an index alone when one covers the condition and the order), then only
    // those rows are read and written as JSON: with the JSON in the same select, PostgreSQL built it for every row
    // OFFSET skips, and reading whole rows fetched each skipped one from the table (page 50 of a PEC list: 15 ms, 3 now).
    const { table, idColumn } = this.decl;
    const order = sql.join(orderBy, sql`, `);
    const ids = sql`select ${idColumn} from ${table} where ${where ?? sql`true`} order by ${order} limit ${query.itemsPerPage} offset ${offset}`;
    const page = sql`select ${members} from ${table} ${sql.join(this.joins, sql` `)} where ${idColumn} in (${ids}) order by ${order}`;
    // The list's total in the same statement when none may be reused for its condition: one round trip, not two. As
    // in totalOf(), a page that is not full gives it without counting: PostgreSQL runs the count (an InitPlan) only
    // when the CASE reaches it (a search's 2 files: its index read once, not twice).
    const counting = query.paginate ? this.countOf(principal, where) : undefined;
    const totalColumn =
      counting && counting.reusable === undefined
        ? sql`, (case when count(*) < ${query.itemsPerPage} and (count(*) > 0 or ${offset === 0}) then ${offset} + count(*) else (${counting.query}) end)::int as total`
        : sql``;
    // string_agg keeps the order of the ordered subquery (PostgREST's json_agg relies on the same).
    const { sql: text, params } = dialect.sqlToQuery(
      sql`select coalesce('[' || string_agg(row_to_json("__page")::text, ',') || ']', '[]') as members, count(*)::int as n${totalColumn} from (${page}) as "__page"`,
    );
    // Kept by this instance until a table it reads changes, when it reads only back-office tables (listCache.ts).
    // Its total is kept with it: the count reads the same rows (text and parameters hold the page and the condition).
    // A total kept with its page is counted afresh (a reused one may be up to COUNT_CACHE_MS old), and is not kept
    // among the counts: the page's next statement would leave the count out, a second text to keep for the same list.
    return this.app.lists.read(text, params, async (keeping) => {
      const [row] = await this.app.database.query<{ members: string; n: number; total?: number }>(text, params);
      const n = Number(row?.n ?? 0);
      let total: number;
      if (row?.total === undefined || !counting) total = await this.totalOf(query, n, offset, () => counting ?? this.countOf(principal, where), keeping);
      else total = keeping ? Number(row.total) : this.keepCount(counting, Number(row.total));
      return { members: row?.members ?? '[]', total };
    });
  }

  /**
   * The member's keys, in serialize()'s order, as the select list of the page (`value as "key", ...`); undefined when
   * one has no SQL form. Without values that depend on the reader, it is written to SQL text once: building the same
   * few hundred SQL nodes into text again for every request was the largest part of a list's CPU in the profile.
   */
  private memberSelection(principal: Principal): SQL | undefined {
    if (this.sharedMembers === undefined) this.sharedMembers = this.memberValues();
    const shared = this.sharedMembers;
    if (!shared) return undefined;
    if (this.memberText) return this.memberText;
    const perReader = Object.entries(shared).some(([key]) => this.perReader(key));
    const list = sql.join(
      Object.entries(shared).map(([key, value]) => {
        const field = this.decl.fields[key];
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
  private memberText: SQL | undefined;
  /** The referenced tables whose rows are embedded, joined to the page. */
  private readonly joins: SQL[] = [];
  private perReader(key: string) {
    const field = this.decl.fields[key];
    return field?.kind === 'computed' && typeof field.sql === 'function' && !this.decl.hooks?.listJson?.[key];
  }
  private sharedMembers: Record<string, SQL> | null | undefined;

  private memberValues(): Record<string, SQL> | null {
    const { decl } = this;
    const overrides = decl.hooks?.listJson ?? {};
    if (decl.hooks?.expand && !decl.hooks.listJson) return null;
    const id = this.outer(decl.idColumn);
    const values: Record<string, SQL> = {
      '@id': sql`${literal(iriOf(decl.name, ''))} || ${id}`,
      '@type': literal(decl.className),
      id,
    };
    for (const [name, field] of this.fieldEntries) {
      if (!field.readable) continue;
      if (overrides[name]) {
        values[name] = overrides[name];
        continue;
      }
      let value: SQL | undefined;
      switch (field.kind) {
        case 'column':
          value = jsonColumnValue(field.column, this.outer(field.column));
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
    const column = this.outer(field.column);
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
    return sql`(select coalesce(array_agg(${literal(iriOf(field.target, ''))} || ${target} order by ${target}), '{}') from ${sql.identifier(getTableName(table))} as "__l" where "__l".${sql.identifier(ownerColumn.name)} = ${this.outer(this.decl.idColumn)})`;
  }

  /**
   * Counting a large result costs more than reading its page, and the next page asks the same question: a count of at
   * least COUNT_CACHE_MIN rows is reused for COUNT_CACHE_MS, but not by a reader who wrote to this resource since it
   * was counted: they see their own change at once, another reader within COUNT_CACHE_MS (as a change made through
   * another instance). Clearing every count at each write made each list after a creation count again (under the load
   * bench, most of PostgreSQL's time). Small counts stay exact, and so does one asked `fresh`.
   */
  private async count(counting: Counting, fresh = false): Promise<number> {
    if (counting.reusable !== undefined && !fresh) return counting.reusable;
    const [row] = await this.app.database.query<{ n: string }>(counting.text, counting.params);
    return this.keepCount(counting, Number(row?.n ?? 0));
  }

  /** The count of a condition, built once for a list: listJson's page statement and count() use the same one. */
  private countOf(principal: Principal, where: SQL | undefined): Counting {
    // A template, not a select builder: building this with Drizzle's query builder (then again inside listJson's page)
    // was half of its CPU for a list.
    const query = sql`select count(*) as n from ${this.decl.table}${where ? sql` where ${where}` : sql``}`;
    const { sql: text, params } = dialect.sqlToQuery(query);
    const key = `${text}|${JSON.stringify(params)}`;
    const hit = this.counts.get(key);
    // A monotonic clock: a count must never look younger than a write made after it started.
    const now = performance.now();
    const usable = hit && now - hit.at < COUNT_CACHE_MS && hit.at > (this.lastWrites.get(principal.id) ?? -Infinity);
    return { query, text, params, key, reusable: usable ? hit.n : undefined, at: now };
  }

  private keepCount(counting: Counting, n: number): number {
    if (n >= COUNT_CACHE_MIN) {
      if (this.counts.size >= 1000) this.counts.clear();
      this.counts.set(counting.key, { n, at: counting.at });
    }
    return n;
  }

  /** One visible row, or undefined (the caller answers 404: another organisation's record does not exist for them). */
  async find(principal: Principal, id: number, tx: DbOrTx = this.app.db, restriction?: SQL): Promise<Row | undefined> {
    const [row] = await tx
      .select(this.selection(principal))
      .from(this.decl.table)
      .where(this.recordCondition(principal, id, restriction));
    return row;
  }

  /** The record `id` if the principal may see it: find()'s and get()'s condition. */
  private recordCondition(principal: Principal, id: number | Placeholder, restriction: SQL | undefined) {
    return and(eq(this.decl.idColumn, id), this.visibility(principal), restriction);
  }

  async get(principal: Principal, id: number, tx?: DbOrTx): Promise<Row> {
    const restriction = this.readRestriction(principal);
    const [row] = await this.itemQuery(principal, restriction, tx).execute({ id });
    if (!row) throw notFound(`${this.decl.label.singular} introuvable.`);
    return row;
  }

  /**
   * get()'s query (find()'s, with the declaration's itemRead), prepared once for each principal (whose perimeter it
   * holds; the server keeps a principal a few seconds, see PrincipalCache) outside a transaction: building it at each
   * read was most of an item read's CPU.
   */
  private itemQuery(principal: Principal, restriction: SQL | undefined, tx?: DbOrTx) {
    const kept = tx ? undefined : this.itemQueries.get(principal);
    if (kept) return kept;
    const selection: Record<string, unknown> = { ...this.selection(principal) };
    for (const [key, value] of Object.entries(this.decl.hooks?.itemRead ?? {})) selection[`__item_${key}`] = value;
    const query = (tx ?? this.app.db)
      .select(selection as Record<string, AnyPgColumn>)
      .from(this.decl.table)
      .where(this.recordCondition(principal, sql.placeholder('id'), restriction))
      .prepare('');
    if (!tx) this.itemQueries.set(principal, query);
    return query;
  }
  private readonly itemQueries = new WeakMap<Principal, { execute(values: { id: number }): Promise<Row[]> }>();

  /** Ids among `ids` that the principal may see: used to refuse references to records outside their perimeter. */
  async visibleIds(principal: Principal, ids: number[], tx: DbOrTx = this.app.db): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await tx
      .select({ id: this.decl.idColumn })
      .from(this.decl.table)
      .where(and(inArray(this.decl.idColumn, ids), this.visibility(principal)));
    return new Set(rows.map((r) => Number(r.id)));
  }

  // ---------- output ----------

  /** Items as the API returns them: serialized, then expanded by the resource's own hook. */
  async present(principal: Principal, rows: Row[], mode: 'list' | 'item', tx: DbOrTx = this.app.db): Promise<Row[]> {
    const items = await this.serialize(rows, tx);
    await this.decl.hooks?.expand?.(this.context(principal, tx), items, rows, mode);
    return items;
  }

  /** JSON-LD items for rows: references as IRIs or embedded objects, to-many as IRI lists, derived values. */
  async serialize(rows: Row[], tx: DbOrTx = this.app.db): Promise<Row[]> {
    const { decl } = this;
    const embeds = new Map<string, Map<number, Row>>();
    const lists = new Map<string, Map<number, number[]>>();
    const ids = rows.map((r) => Number(r[this.key(decl.idColumn)]));

    const read = async ([name, field]: (typeof this.fieldEntries)[number]) => {
      if (!field.readable) return;
      // Rows read through selection() carry their embeds and links already.
      if (rows.every((r) => `__embed_${name}` in r || `__links_${name}` in r)) return;
      if (field.kind === 'reference' && field.embed?.length) {
        const targetIds = [...new Set(rows.map((r) => r[this.key(field.column)]).filter((v): v is number => typeof v === 'number'))];
        embeds.set(name, await this.registry.get(field.target).embedRows(targetIds, field.embed, tx));
      }
      if (field.kind === 'references' && ids.length) {
        const links = await tx
          .select({ owner: field.link.ownerColumn, target: field.link.targetColumn })
          .from(field.link.table)
          .where(inArray(field.link.ownerColumn, ids))
          .orderBy(asc(field.link.targetColumn));
        const byOwner = new Map<number, number[]>();
        for (const link of links) byOwner.set(Number(link.owner), [...(byOwner.get(Number(link.owner)) ?? []), Number(link.target)]);
        lists.set(name, byOwner);
      }
    };
    // On the pool the reads go out together; a transaction's one connection takes them one after the other.
    if (tx === this.app.db) await Promise.all(this.fieldEntries.map(read));
    else for (const entry of this.fieldEntries) await read(entry);

    return rows.map((row) => {
      const id = Number(row[this.key(decl.idColumn)]);
      const item: Row = { '@id': this.iri(id), '@type': decl.className, id };
      for (const [name, field] of this.fieldEntries) {
        if (!field.readable) continue;
        switch (field.kind) {
          case 'column':
            item[name] = jsonValue(row[this.key(field.column)]);
            break;
          case 'reference': {
            const targetId = row[this.key(field.column)] as number | null;
            const embedded = row[`__embed_${name}`] as Row | null | undefined;
            if (targetId === null || targetId === undefined) item[name] = null;
            else if (embedded) item[name] = this.registry.get(field.target).embedded(embedded);
            else item[name] = embeds.get(name)?.get(targetId) ?? iriOf(field.target, targetId);
            break;
          }
          case 'references': {
            const linked = row[`__links_${name}`] as number[] | undefined;
            item[name] = (linked ?? lists.get(name)?.get(id) ?? []).map((targetId) => iriOf(field.target, Number(targetId)));
            break;
          }
          case 'computed':
            item[name] = jsonValue(row[`__${name}`]);
            break;
          case 'derived':
            item[name] = field.derive(row);
            break;
        }
      }
      return item;
    });
  }

  /** An embedded row (from embedExpression) as the API shows it: {@id, @type, id, ...fields}. */
  embedded(values: Row): Row {
    const id = Number(values.id);
    return { '@id': this.iri(id), '@type': this.decl.className, ...values, id };
  }

  /** {@id, @type, id, ...columns} of target rows, to embed in a referencing item. */
  async embedRows(ids: number[], fieldNames: string[], tx: DbOrTx): Promise<Map<number, Row>> {
    if (ids.length === 0) return new Map();
    const columns: Record<string, AnyPgColumn> = { id: this.decl.idColumn };
    for (const name of fieldNames) {
      const field = this.decl.fields[name];
      if (field && (field.kind === 'column' || field.kind === 'reference')) columns[name] = field.column;
    }
    const rows = await tx.select(columns).from(this.decl.table).where(inArray(this.decl.idColumn, ids));
    return new Map(
      rows.map((r) => {
        const id = Number(r.id);
        const embedded: Row = { '@id': this.iri(id), '@type': this.decl.className, id };
        for (const name of fieldNames) embedded[name] = jsonValue(r[name]);
        return [id, embedded];
      }),
    );
  }

  // ---------- writing ----------

  /** Drops what is never input (@id, @type, originId...) and reads `holdingId` as `holding`. */
  private normaliseBody(body: unknown): Row {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new ValidationError([{ propertyPath: '', message: 'Un objet JSON est attendu.' }]);
    }
    const input: Row = { ...(body as Row) };
    for (const key of ['@id', '@type', '@context', 'originId', '_audit', 'id']) delete input[key];
    const withNul = fieldWithNul(input);
    if (withNul !== undefined) throw new ValidationError([{ propertyPath: withNul, message: NUL_MESSAGE }]);
    for (const [name, field] of this.fieldEntries) {
      if ((field.kind === 'reference' || field.kind === 'references') && !(name in input) && `${name}Id` in input) {
        input[name] = input[`${name}Id`];
      }
    }
    return input;
  }

  private parse(schema: ZodType, input: Row): Row {
    const result = schema.safeParse(input);
    if (!result.success) throw result.error;
    return result.data as Row;
  }

  /** Column values for the validated input (only the writable fields it contains). */
  private columnValues(input: Row): Row {
    const values: Row = {};
    const holdingColumn = this.decl.tenancy.holdingColumn;
    for (const [name, field] of this.fieldEntries) {
      if (!field.writable || !(name in input)) continue;
      // The organisation column is set by the tenancy rule (assignHolding) alone.
      if (field.kind === 'reference' && field.column === holdingColumn) continue;
      if (field.kind === 'column' || field.kind === 'reference') values[this.key(field.column)] = input[name] ?? null;
    }
    return values;
  }

  /** Every referenced record must exist and be visible to the principal; else a 422 on that field. */
  private async checkReferences(principal: Principal, input: Row, tx: DbOrTx) {
    const violations: Violation[] = [];
    for (const [name, field] of this.fieldEntries) {
      if (!field.writable || (field.kind !== 'reference' && field.kind !== 'references') || input[name] === undefined || input[name] === null) continue;
      const wanted = field.kind === 'reference' ? [input[name] as number] : (input[name] as number[]);
      const target = this.registry.get((field as ReferenceField | ReferencesField).target);
      const visible = await target.visibleIds(principal, wanted, tx);
      if (wanted.some((id) => !visible.has(id))) {
        violations.push({ propertyPath: name, message: `${target.decl.label.singular} introuvable ou hors de votre périmètre.` });
      }
    }
    if (violations.length) throw new ValidationError(violations);
  }

  /** Fields declared unique (constraints.unique) keep their value to one record of the organisation: else a 422. */
  private async checkUnique(values: Row, existing: Row | undefined, tx: DbOrTx) {
    const violations: Violation[] = [];
    const holdingColumn = this.decl.tenancy.holdingColumn;
    for (const [name, field] of this.fieldEntries) {
      if (!field.constraints?.unique || field.kind !== 'column') continue;
      const value = values[this.key(field.column)];
      if (value === undefined || value === null) continue;
      const holdingId = holdingColumn ? (values[this.key(holdingColumn)] ?? existing?.[this.key(holdingColumn)]) : undefined;
      const [taken] = await tx
        .select({ id: this.decl.idColumn })
        .from(this.decl.table)
        .where(
          and(
            eq(field.column, value),
            holdingColumn ? (holdingId == null ? isNull(holdingColumn) : eq(holdingColumn, holdingId)) : undefined,
            existing ? sql`${this.decl.idColumn} <> ${existing[this.key(this.decl.idColumn)]}` : undefined,
            this.decl.deletion.mode === 'soft' ? isNull(this.decl.deletion.column) : undefined,
          ),
        )
        .limit(1);
      if (taken) violations.push({ propertyPath: name, message: field.constraints.unique });
    }
    if (violations.length) throw new ValidationError(violations);
  }

  private async writeLinks(input: Row, id: number, tx: DbOrTx) {
    for (const [name, field] of this.fieldEntries) {
      if (field.kind !== 'references' || !field.writable || !(name in input)) continue;
      const { table, ownerColumn, targetColumn } = field.link;
      const keys = columnKeys(table);
      await tx.delete(table).where(eq(ownerColumn, id));
      const targets = (input[name] as number[] | null) ?? [];
      if (targets.length) {
        await tx.insert(table).values(targets.map((target) => ({ [keys.get(ownerColumn)!]: id, [keys.get(targetColumn)!]: target })));
      }
    }
  }

  /** A record as the audit shows it: API names, references as ids, secrets masked. */
  private async auditView(row: Row, tx: DbOrTx): Promise<Row> {
    const view: Row = {};
    const id = Number(row[this.key(this.decl.idColumn)]);
    for (const [name, field] of this.fieldEntries) {
      if (field.kind === 'column' || field.kind === 'reference') {
        const value = row[this.key(field.column)];
        view[name] = field.secret ? (value == null ? null : MASK) : jsonValue(value);
      }
      if (field.kind === 'references') {
        const links = await tx.select({ target: field.link.targetColumn }).from(field.link.table).where(eq(field.link.ownerColumn, id));
        view[name] = links.map((l) => Number(l.target)).sort((a, b) => a - b);
      }
    }
    delete view.createdAt;
    delete view.updatedAt;
    return view;
  }

  private holdingOf(row: Row): number | null {
    if (this.decl.name === 'holdings') return Number(row[this.key(this.decl.idColumn)]);
    const column = this.decl.tenancy.holdingColumn;
    return column ? ((row[this.key(column)] as number | null) ?? null) : null;
  }

  private context(principal: Principal, tx: DbOrTx): WriteContext {
    return { app: this.app, principal, tx };
  }

  private async audit(tx: DbOrTx, principal: Principal, action: string, row: Row, changes: Changes | Row) {
    const labelField = this.decl.auditLabel ? this.decl.fields[this.decl.auditLabel] : undefined;
    const label = labelField?.kind === 'column' ? row[this.key(labelField.column)] : undefined;
    await recordAudit(tx, principal, {
      action: `${this.decl.auditName}.${action}`,
      entity: this.decl.name,
      entityId: Number(row[this.key(this.decl.idColumn)]),
      entityLabel: typeof label === 'string' ? label : null,
      holdingId: this.holdingOf(row),
      changes,
    });
  }

  private async inTransaction<T>(principal: Principal, fn: (tx: DbOrTx) => Promise<T>, tx?: DbOrTx): Promise<T> {
    if (tx) return fn(tx);
    const result = await this.app.db.transaction((t) => fn(t));
    this.afterCommit(principal);
    return result;
  }

  /**
   * A committed write may change who may do what (roles, centres, a status), and the totals of this resource (its
   * writer no longer reuses a count made before it). Other writes (a PEC file) keep the principals: clearing them on
   * each would reload every user's at their next request.
   */
  private afterCommit(principal: Principal) {
    if (this.writesPrincipals) this.app.principals.clear();
    this.noteWrite(principal);
  }

  /**
   * The principal has just committed a write to this resource: they no longer reuse a total counted before it. Called
   * after each write through this repository; a route that writes the table itself (an import in one transaction,
   * a payment statement) calls it after its commit.
   */
  noteWrite(principal: Principal) {
    // Forgetting writers would let them reuse a count made before their write: forget the counts with them.
    if (this.lastWrites.size >= 10_000) {
      this.lastWrites.clear();
      this.counts.clear();
    }
    this.lastWrites.set(principal.id, performance.now());
  }
  /** When each user last wrote here (performance.now()): see count(). */
  private readonly lastWrites = new Map<number, number>();

  /** `outerTx`: create inside the caller's transaction (an all-or-nothing import of several records). */
  async create(principal: Principal, body: unknown, outerTx?: DbOrTx): Promise<number> {
    const { decl } = this;
    if (decl.readOnly || decl.creatable === false) throw forbidden('Cette ressource ne peut pas être créée.');
    requirePermission(principal, decl.permissions.create);
    const input = this.parse(this.schemas.create, this.normaliseBody(body));
    return this.inTransaction(
      principal,
      async (tx) => {
        const { values, ctx } = await this.valuesToWrite(principal, input, tx);
        const [created] = await tx.insert(decl.table).values(values).returning();
        const id = Number(created![this.key(decl.idColumn)]);
        await this.writeLinks(input, id, tx);
        await decl.hooks?.afterWrite?.(ctx, id, input, undefined);
        const after = await this.find(principal, id, tx);
        const changes = diff({}, await this.auditView(after ?? created!, tx), this.secretNames());
        this.maskWrittenSecrets(input, changes, null);
        await this.audit(tx, principal, 'create', after ?? created!, changes);
        return id;
      },
      outerTx,
    );
  }

  /** The columns a create or an update writes: its organisation assigned, its references and uniqueness checked, beforeWrite run. */
  private async valuesToWrite(principal: Principal, input: Row, tx: DbOrTx, existing?: Row) {
    const { decl } = this;
    const values = this.columnValues(input);
    const holdingId = await decl.tenancy.assignHolding?.(principal, input, tx, existing);
    if (holdingId !== undefined && decl.tenancy.holdingColumn) values[this.key(decl.tenancy.holdingColumn)] = holdingId;
    await this.checkReferences(principal, input, tx);
    await this.checkUnique(values, existing, tx);
    const ctx = this.context(principal, tx);
    await decl.hooks?.beforeWrite?.(ctx, input, values, existing);
    return { values, ctx };
  }

  /** A write-only secret given a new value shows as changed, both sides masked (its value never reaches the audit). */
  private maskWrittenSecrets(input: Row, changes: Changes, before: string | null) {
    for (const [name, field] of this.fieldEntries) {
      if (field.secret && field.kind === 'writeOnly' && typeof input[name] === 'string' && input[name] !== '') changes[name] = { before, after: MASK };
    }
  }

  private secretNames() {
    return new Set(this.fieldEntries.filter(([, f]) => f.secret).map(([n]) => n));
  }

  /** The row to change: visible (else 404) and writable by this principal (else 403). */
  private async findForWrite(principal: Principal, id: number, tx: DbOrTx): Promise<Row> {
    const existing = await this.find(principal, id, tx);
    if (!existing) throw notFound(`${this.decl.label.singular} introuvable.`);
    const writeScope = this.decl.tenancy.writeScope?.(principal);
    if (writeScope) {
      const [allowed] = await tx
        .select({ id: this.decl.idColumn })
        .from(this.decl.table)
        .where(and(eq(this.decl.idColumn, id), writeScope));
      if (!allowed) throw forbidden(`Vous ne pouvez pas modifier cet élément (${this.decl.label.singular.toLowerCase()}).`);
    }
    return existing;
  }

  /** PUT replaces the writable fields; PATCH (merge-patch) changes only those it names (see parseUpdate). */
  async update(principal: Principal, id: number, body: unknown, mode: 'put' | 'patch', tx?: DbOrTx, action = 'update'): Promise<void> {
    const { decl } = this;
    if (decl.readOnly) throw forbidden('Cette ressource est en lecture seule.');
    requirePermission(principal, decl.permissions.update);
    await this.inTransaction(
      principal,
      async (t) => {
        // Another organisation's record is a 404 whatever the body says: look it up before reading the body.
        const existing = await this.findForWrite(principal, id, t);
        const input = this.parseUpdate(body, mode);
        const before = await this.auditView(existing, t);
        const { values, ctx } = await this.valuesToWrite(principal, input, t, existing);
        if ('updatedAt' in getTableColumns(decl.table)) values.updatedAt = new Date();
        if (Object.keys(values).length) await t.update(decl.table).set(values).where(eq(decl.idColumn, id));
        await this.writeLinks(input, id, t);
        await decl.hooks?.afterWrite?.(ctx, id, input, existing);
        const after = (await this.find(principal, id, t)) ?? existing;
        const changes = diff(before, await this.auditView(after, t), this.secretNames());
        this.maskWrittenSecrets(input, changes, MASK);
        await this.audit(t, principal, decl.hooks?.auditAction?.(input, existing) ?? action, after, changes);
      },
      tx,
    );
  }

  /**
   * PUT replaces the writable fields: those it omits take their default (empty). To-many references it omits keep
   * their links: they are relations edited on their own (the shop form saves its credentials by a PATCH afterwards).
   * PATCH (merge-patch) changes only the fields it names.
   */
  private parseUpdate(body: unknown, mode: 'put' | 'patch'): Row {
    const raw = this.normaliseBody(body);
    const parsed = this.parse(mode === 'put' ? this.schemas.update : this.patchSchema, raw);
    return Object.fromEntries(
      Object.entries(parsed).filter(([key]) => {
        if (key in raw) return true;
        if (mode === 'patch') return false; // defaults of the schema must not overwrite fields the patch does not name
        return this.decl.fields[key]?.kind !== 'references';
      }),
    );
  }

  async remove(principal: Principal, id: number, tx?: DbOrTx, action = 'delete'): Promise<void> {
    const { decl } = this;
    if (decl.readOnly || decl.deletion.mode === 'none') throw forbidden('Cet élément ne peut pas être supprimé.');
    requirePermission(principal, decl.permissions.delete);
    await this.inTransaction(
      principal,
      async (t) => {
        const existing = await this.findForWrite(principal, id, t);
        await decl.hooks?.beforeDelete?.(this.context(principal, t), existing);
        const before = await this.auditView(existing, t);
        if (decl.deletion.mode === 'soft') {
          const values: Row = { [this.key(decl.deletion.column)]: new Date() };
          await t.update(decl.table).set(values).where(eq(decl.idColumn, id));
          await this.audit(t, principal, action === 'delete' ? 'archive' : action, existing, diff(before, {}, this.secretNames()));
          return;
        }
        for (const reference of decl.deletion.mode === 'hard' ? (decl.deletion.refuseWhileReferenced ?? []) : []) {
          const [row] = await t
            .select({ n: count() })
            .from(reference.table)
            .where(and(eq(reference.column, id), reference.where));
          const n = Number(row?.n ?? 0);
          if (n > 0) throw conflict(reference.message(n));
        }
        await t.delete(decl.table).where(eq(decl.idColumn, id));
        await this.audit(t, principal, action, existing, diff(before, {}, this.secretNames()));
      },
      tx,
    );
  }

  /** All or nothing: each id is checked like a single call, the first refusal cancels the whole batch. */
  async bulk(principal: Principal, kind: 'delete' | 'update', body: unknown): Promise<number> {
    // A missing permission is refused once, before anything is read.
    requirePermission(principal, kind === 'delete' ? this.decl.permissions.delete : this.decl.permissions.update);
    const raw = (body && typeof body === 'object' ? body : {}) as Row;
    if (!Array.isArray(raw.ids) || raw.ids.length === 0) throw new ValidationError([{ propertyPath: 'ids', message: 'Sélectionnez au moins un élément.' }]);
    if (raw.ids.length > 500) throw new ValidationError([{ propertyPath: 'ids', message: 'Au plus 500 éléments à la fois.' }]);
    const ids = raw.ids.map((value) => idFromReference(value, this.decl.name));
    if (ids.some((id) => id === undefined)) throw new ValidationError([{ propertyPath: 'ids', message: 'Identifiant invalide dans la sélection.' }]);
    if (kind === 'update' && (!raw.data || typeof raw.data !== 'object' || Array.isArray(raw.data))) {
      throw new ValidationError([{ propertyPath: 'data', message: 'Les données à appliquer sont requises.' }]);
    }
    await this.app.db.transaction(async (tx) => {
      for (const id of new Set(ids as number[])) {
        try {
          if (kind === 'delete') await this.remove(principal, id, tx, 'bulk_delete');
          else await this.update(principal, id, raw.data, 'patch', tx, 'bulk_update');
        } catch (error) {
          throw withItem(error, id);
        }
      }
    });
    this.afterCommit(principal);
    return new Set(ids).size;
  }
}

/** Prefixes a batch error with the item it stopped at. */
function withItem(error: unknown, id: number): unknown {
  if (error instanceof ZodError) {
    return new ValidationError(error.issues.map((i) => ({ propertyPath: i.path.map(String).join('.'), message: `Élément ${id} : ${i.message}` })));
  }
  if (error instanceof ValidationError) return new ValidationError(error.violations.map((v) => ({ ...v, message: `Élément ${id} : ${v.message}` })));
  if (error instanceof ApiError) return new ApiError(error.status, `Élément ${id} : ${error.detail}`, error.extra);
  return error;
}
