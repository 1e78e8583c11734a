// Reads one declared resource: tenancy and read permissions, the list's condition, order and page, the SQL-written
// lists and their totals, one record in one prepared statement.
import { and, asc, desc, eq, getTableColumns, getTableName, inArray, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../auth/principal';
import { can } from '../auth/principal';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { forbidden, notFound } from '../http/errors';
import type { DeclaredTable } from './columns';
import type { KeptList } from './listCache';
import { listConditions } from './listConditions';
import type { Counting, ListCounts } from './listCounts';
import { ListMembers } from './listMembers';
import { declared, type ListQuery } from './query';
import type { Registry } from './repository';
import type { ReferenceField, ReferencesField, RelatedOrder, Row } from './types';

const dialect = new PgDialect();

const isRelatedOrder = (entry: AnyPgColumn | SQL | RelatedOrder): entry is RelatedOrder => 'through' in entry;

export class ResourceReader {
  private readonly members: ListMembers;
  private readonly selections = new Map<boolean, Record<string, AnyPgColumn>>();
  private readonly itemQueries = new WeakMap<Principal, { execute(values: { id: number }): Promise<Row[]> }>();

  constructor(
    private readonly table: DeclaredTable,
    private readonly registry: Registry,
    private readonly app: AppContext,
    private readonly counts: ListCounts,
  ) {
    this.members = new ListMembers(table, registry);
  }

  /** Rows the principal may see (tenancy), archived ones excluded. */
  visibility(principal: Principal): SQL | undefined {
    const { decl } = this.table;
    const conditions = [decl.tenancy.readScope(principal)];
    if (decl.deletion.mode === 'soft') conditions.push(isNull(decl.deletion.column));
    return and(...conditions);
  }

  /** withRelations: embeds and links as correlated subqueries (a page); without, serialize() fetches them in batches (long lists). */
  private selection(principal: Principal, withRelations = true) {
    const shared = this.sharedSelection(withRelations);
    if (!this.hasPerReaderFields) return shared;
    // Values that depend on who reads are built for this reader.
    const selection: Record<string, unknown> = { ...shared };
    for (const [name, field] of this.table.fieldEntries)
      if (field.kind === 'computed' && typeof field.sql === 'function') selection[`__${name}`] = field.sql(principal);
    return selection as Record<string, AnyPgColumn>;
  }

  private sharedSelection(withRelations: boolean) {
    // Built once per shape: the same SQL objects serve every query.
    const cached = this.selections.get(withRelations);
    if (cached) return cached;
    const { decl, fieldEntries } = this.table;
    const selection: Record<string, unknown> = { ...getTableColumns(decl.table) };
    for (const [name, field] of fieldEntries) if (field.kind === 'computed' && typeof field.sql !== 'function') selection[`__${name}`] = field.sql;
    // Embedded references and to-many links come with the row: a page of users is one query, not four.
    for (const [name, field] of withRelations ? fieldEntries : []) {
      if (!field.readable) continue;
      if (field.kind === 'reference' && field.embed?.length) selection[`__embed_${name}`] = this.embedExpression(field);
      if (field.kind === 'references') selection[`__links_${name}`] = this.linksExpression(field);
    }
    this.selections.set(withRelations, selection as Record<string, AnyPgColumn>);
    return selection as Record<string, AnyPgColumn>;
  }
  private get hasPerReaderFields() {
    return this.table.fieldEntries.some(([, field]) => field.kind === 'computed' && typeof field.sql === 'function');
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
    return sql`(select json_build_object(${sql.join(pairs, sql`, `)}) from ${sql.identifier(getTableName(target.table))} as "__e" where "__e".${sql.identifier(target.idColumn.name)} = ${this.table.outer(field.column)})`;
  }

  /** The ids a to-many reference links to, ascending. */
  private linksExpression(field: ReferencesField): SQL {
    const { table, ownerColumn, targetColumn } = field.link;
    const target = sql`"__l".${sql.identifier(targetColumn.name)}`;
    return sql`(select coalesce(array_agg(${target} order by ${target}), '{}') from ${sql.identifier(getTableName(table))} as "__l" where "__l".${sql.identifier(ownerColumn.name)} = ${this.table.outer(this.table.decl.idColumn)})`;
  }

  /** The extra condition on what the principal may read (undefined: tenancy alone); 403 when they may read nothing. */
  readRestriction(principal: Principal): SQL | undefined {
    const { permissions, readAccess } = this.table.decl;
    if (can(principal, permissions.view) || readAccess === 'everyone') return undefined;
    if (readAccess && can(principal, readAccess.permission)) return readAccess.scope(principal) ?? undefined;
    throw forbidden();
  }

  /**
   * The page's condition and order (list and listJson read the same rows). A sort on a referenced record's column is a
   * subquery per row for the page's rows, and for choosing the page's ids (every row of the condition) a join on that
   * record's table, `idsJoin`: one hash join of the centres instead of a lookup per file (1,000,000 files, an
   * organisation's 19,800 sorted by centre: 9 ms instead of 19 ms, and 40–60 ms once the subquery's cost set off
   * PostgreSQL's JIT compilation).
   */
  private pageOf(principal: Principal, query: ListQuery) {
    const { decl } = this.table;
    const restriction = this.readRestriction(principal);
    const where = and(listConditions(decl, this.visibility(principal), query, principal), restriction);
    const [defaultField, defaultDirection] = decl.defaultOrder;
    const requested = query.order && declared(decl.order, query.order.field) ? query.order : undefined;
    const field = requested?.field ?? defaultField;
    const entry = declared(decl.order, field)!;
    const direction = requested?.direction ?? defaultDirection;
    const by = direction === 'desc' ? desc : asc;
    // Empty values last in both directions (PostgreSQL puts them first when descending): the highest amounts first,
    // not the drafts without one. Only for nullable columns, so that indexes on the others still serve the sort.
    // Names in French order (Allianz before AXA, Émeraude among the E): ICU's root collation, which PGlite and
    // PostgreSQL both have (PGlite has no fr-x-icu) and for which the names' indexes are built (migration saved_views).
    const key = (name: string, column: AnyPgColumn | SQL) => {
      if (decl.frenchOrder?.includes(name)) return sql`${column} collate "und-x-icu" ${direction === 'desc' ? sql`desc nulls last` : sql`asc`}`;
      const nullable = !('notNull' in column && column.notNull);
      return direction === 'desc' && nullable ? sql`${column} desc nulls last` : by(column);
    };
    // Every order ends with the id, a unique key: the same rows in the same order at every read, so that pages never
    // repeat or skip one. Before it, rows tied on another sort come in the list's own order (centres of one status by
    // name), in the direction asked, so that descending stays the exact reverse of ascending. A list in creation order
    // (idsFollowDefaultOrder: the PEC list) leaves its ties to the id alone, which its sorts' indexes end with.
    const own = declared(decl.order, defaultField);
    const ties = field !== defaultField && !decl.idsFollowDefaultOrder && own && own !== decl.idColumn && !isRelatedOrder(own) ? [key(defaultField, own)] : [];
    const tail = [...ties, by(decl.idColumn)];
    const offset = (query.page - 1) * query.itemsPerPage;
    if (!isRelatedOrder(entry)) return { where, orderBy: [key(field, entry), ...tail], idsOrderBy: [key(field, entry), ...tail], offset };
    const { through, target, value } = entry;
    return {
      where,
      orderBy: [key(field, sql`(select ${value} from ${target.table} where ${target} = ${through})`), ...tail],
      idsJoin: sql`left join (select ${target} as "__sort_id", ${value} as "__sort_key" from ${target.table}) as "__sort" on "__sort"."__sort_id" = ${through}`,
      idsOrderBy: [key(field, sql`"__sort"."__sort_key"`), ...tail],
      offset,
    };
  }

  /** The total of a list whose page has `n` rows (when it was not counted with the page, see listJson). */
  private async totalOf(query: ListQuery, n: number, offset: number, counting: () => Counting, fresh = false): Promise<number> {
    if (!query.paginate) return n;
    // A page that is not full is the last one: the total follows without counting (most organisation lists).
    if (n < query.itemsPerPage && (n > 0 || query.page === 1)) return offset + n;
    return this.counts.count(counting(), fresh);
  }

  async list(principal: Principal, query: ListQuery): Promise<{ rows: Row[]; total: number }> {
    const { where, orderBy, offset } = this.pageOf(principal, query);
    const rows = await this.app.db
      .select(this.selection(principal, query.paginate))
      .from(this.table.decl.table)
      .where(where)
      .orderBy(...orderBy)
      .limit(query.itemsPerPage)
      .offset(offset);
    return { rows, total: await this.totalOf(query, rows.length, offset, () => this.counts.countOf(principal, where)) };
  }

  /**
   * A list page as PostgreSQL writes it: the members' JSON array as text, the same values as present(rows, 'list')
   * (tests/api/list-json.test.ts compares both). As in PostgREST, the database builds the body (row_to_json over the
   * ordered page, joined by string_agg) and the server passes the text through: no rows turned into objects, then
   * into JSON again. Undefined when the declaration has a value SQL cannot give (a derived field without `sql`, an
   * expand hook without listJson): the caller then serializes in JavaScript.
   */
  async listJson(principal: Principal, query: ListQuery): Promise<KeptList | undefined> {
    const members = this.members.memberSelection(principal);
    if (!members) return undefined;
    const { where, orderBy, idsJoin, idsOrderBy, offset } = this.pageOf(principal, query);
    // The page's ids are chosen first (from an index alone when one covers the condition and the order), then only
    // those rows are read and written as JSON: with the JSON in the same select, PostgreSQL built it for every row
    // OFFSET skips, and reading whole rows fetched each skipped one from the table (page 50 of a PEC list: 15 ms, 3 now).
    const { table, idColumn } = this.table.decl;
    const order = sql.join(orderBy, sql`, `);
    const ids = sql`select ${idColumn} from ${table} ${idsJoin ?? sql``} where ${where ?? sql`true`} order by ${sql.join(idsOrderBy, sql`, `)} limit ${query.itemsPerPage} offset ${offset}`;
    const page = sql`select ${members} from ${table} ${sql.join(this.members.joins, sql` `)} where ${idColumn} in (${ids}) order by ${order}`;
    // The list's total in the same statement when none may be reused for its condition: one round trip, not two. As
    // in totalOf(), a page that is not full gives it without counting: PostgreSQL runs the count (an InitPlan) only
    // when the CASE reaches it (a search's 2 files: its index read once, not twice).
    const counting = query.paginate ? this.counts.countOf(principal, where) : undefined;
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
      if (row?.total === undefined || !counting) total = await this.totalOf(query, n, offset, () => counting ?? this.counts.countOf(principal, where), keeping);
      else total = keeping ? Number(row.total) : this.counts.keepCount(counting, Number(row.total));
      return { members: row?.members ?? '[]', total };
    });
  }

  /** One visible row, or undefined (the caller answers 404: another organisation's record does not exist for them). */
  async find(principal: Principal, id: number, tx: DbOrTx = this.app.db, restriction?: SQL): Promise<Row | undefined> {
    const [row] = await tx
      .select(this.selection(principal))
      .from(this.table.decl.table)
      .where(this.recordCondition(principal, id, restriction));
    return row;
  }

  /** The record `id` if the principal may see it: find()'s and get()'s condition. */
  private recordCondition(principal: Principal, id: number | Placeholder, restriction: SQL | undefined) {
    return and(eq(this.table.decl.idColumn, id), this.visibility(principal), restriction);
  }

  async get(principal: Principal, id: number, tx?: DbOrTx): Promise<Row> {
    const restriction = this.readRestriction(principal);
    const [row] = await this.itemQuery(principal, restriction, tx).execute({ id });
    if (!row) throw notFound(`${this.table.decl.label.singular} introuvable.`);
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
    const { decl } = this.table;
    const selection: Record<string, unknown> = { ...this.selection(principal) };
    for (const [key, value] of Object.entries(decl.hooks?.itemRead ?? {})) selection[`__item_${key}`] = value;
    const query = (tx ?? this.app.db)
      .select(selection as Record<string, AnyPgColumn>)
      .from(decl.table)
      .where(this.recordCondition(principal, sql.placeholder('id'), restriction))
      .prepare('');
    if (!tx) this.itemQueries.set(principal, query);
    return query;
  }

  /** Ids among `ids` that the principal may see: used to refuse references to records outside their perimeter. */
  async visibleIds(principal: Principal, ids: number[], tx: DbOrTx = this.app.db): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const { decl } = this.table;
    const rows = await tx
      .select({ id: decl.idColumn })
      .from(decl.table)
      .where(and(inArray(decl.idColumn, ids), this.visibility(principal)));
    return new Set(rows.map((r) => Number(r.id)));
  }
}
