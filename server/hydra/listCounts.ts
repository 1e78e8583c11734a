// The totals of a resource's lists: counted in SQL, a large one reused a few seconds except by a reader who just wrote.
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Principal } from '../auth/principal';
import type { AppContext } from '../context';

const dialect = new PgDialect();

/** A list's count (ListCounts.countOf): its statement, its key among the kept counts, a total this reader may reuse. */
export interface Counting {
  query: SQL;
  text: string;
  params: unknown[];
  key: string;
  reusable: number | undefined;
  /** When counting starts (performance.now()): a count started before a write committed may not see it. */
  at: number;
}

/** Totals from this size up are reused for a few seconds (see ListCounts.count). */
const COUNT_CACHE_MIN = 1000;
const COUNT_CACHE_MS = 10_000;

/** One resource's kept counts and its writers' last writes (per instance). */
export class ListCounts {
  private readonly counts = new Map<string, { n: number; at: number }>();
  /** When each user last wrote here (performance.now()): see count(). */
  private readonly lastWrites = new Map<number, number>();

  constructor(
    private readonly table: PgTable,
    private readonly app: AppContext,
  ) {}

  /**
   * Counting a large result costs more than reading its page, and the next page asks the same question: a count of at
   * least COUNT_CACHE_MIN rows is reused for COUNT_CACHE_MS, but not by a reader who wrote to this resource since it
   * was counted: they see their own change at once, another reader within COUNT_CACHE_MS (as a change made through
   * another instance). Clearing every count at each write made each list after a creation count again (under the load
   * bench, most of PostgreSQL's time). Small counts stay exact, and so does one asked `fresh`.
   */
  async count(counting: Counting, fresh = false): Promise<number> {
    if (counting.reusable !== undefined && !fresh) return counting.reusable;
    const [row] = await this.app.database.query<{ n: string }>(counting.text, counting.params);
    return this.keepCount(counting, Number(row?.n ?? 0));
  }

  /** The count of a condition, built once for a list: listJson's page statement and count() use the same one. */
  countOf(principal: Principal, where: SQL | undefined): Counting {
    // A template, not a select builder: building this with Drizzle's query builder (then again inside listJson's page)
    // was half of its CPU for a list.
    const query = sql`select count(*) as n from ${this.table}${where ? sql` where ${where}` : sql``}`;
    const { sql: text, params } = dialect.sqlToQuery(query);
    const key = `${text}|${JSON.stringify(params)}`;
    const hit = this.counts.get(key);
    // A monotonic clock: a count must never look younger than a write made after it started.
    const now = performance.now();
    const usable = hit && now - hit.at < COUNT_CACHE_MS && hit.at > (this.lastWrites.get(principal.id) ?? -Infinity);
    return { query, text, params, key, reusable: usable ? hit.n : undefined, at: now };
  }

  keepCount(counting: Counting, n: number): number {
    if (n >= COUNT_CACHE_MIN) {
      if (this.counts.size >= 1000) this.counts.clear();
      this.counts.set(counting.key, { n, at: counting.at });
    }
    return n;
  }

  /**
   * The principal has just committed a write to this resource: they no longer reuse a total counted before it. Called
   * after each write through the resource's repository; a route that writes the table itself (an import in one
   * transaction, a payment statement) calls ResourceRepository.noteWrite after its commit.
   */
  noteWrite(principal: Principal) {
    // Forgetting writers would let them reuse a count made before their write: forget the counts with them.
    if (this.lastWrites.size >= 10_000) {
      this.lastWrites.clear();
      this.counts.clear();
    }
    this.lastWrites.set(principal.id, performance.now());
  }
}
