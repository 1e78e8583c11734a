// List bodies kept by this instance until a table they read changes. The back office's lists are read far more than
// written (the platform's 5,000 credentials: 3 MB built by PostgreSQL in 70 ms, for the same answer each time).
// Hand-written: no library knows which tables a query reads nor when another instance changed them.
// - A list is kept only when every table of its plan (EXPLAIN, once per query text) has the trigger of migration 0016,
//   which NOTIFYs every instance when a write commits; a query with a value of the moment (now(), random()...) is
//   never kept.
// - The key is the query's text and parameters: the reader's scope (organisation, centres, permissions) is in them.
// - Before using a kept list, a read waits for a notice of this instance, sent after the read began, to come back:
//   PostgreSQL delivers notices in commit order, so by then every change committed before the read (here, on another
//   instance, by the robot or in SQL) has been heard. One notice at a time, shared by the reads that begin meanwhile.
//   An entry holds the tables' versions heard before its query ran: it is used only while they are the same.
// - remember() keeps a small value the same way, read from tables the caller names (the PEC checks' reference values).
// - When notices may have been missed (the LISTEN connection was lost, a notice did not come back), nothing kept is
//   used again, and reads go to the database until notices come back. `ttlMs` bounds what no trigger sees (a write
//   made with triggers disabled, as a data-only restore does).
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/connect';
import { parsedJson } from '../db/json';
import { tablesWithListTrigger } from './listTriggers';

export const LIST_CHANGES_CHANNEL = 'pecflow_list_changes';
/** A read's own notice starts with this (no table name does), then this instance's id and a number. */
const HEARD_MARK = '~';
/** How long a read waits for its notice before going to the database. */
const HEARD_TIMEOUT_MS = 1_000;
/** How long reads then go to the database before sending notices again. */
const DEAF_MS = 10_000;

/** Functions whose value changes with the moment it is read: a query with one is never kept. */
const OF_THE_MOMENT =
  /\b(now|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday|random|gen_random_uuid|nextval|age)\s*\(|\b(current_date|current_time|current_timestamp|localtime|localtimestamp)\b/i;

/** What a remembered value (rules, settings: a few rows) is counted for in the cache's size. */
const KEPT_VALUE_BYTES = 4096;

/** A list page as PostgreSQL wrote it: its members' JSON array, and the list's total. */
export interface KeptList {
  members: string;
  total: number;
  /**
   * Once the page is kept: its answers compressed, kept with it (http/compression.ts). Not counted in `maxBytes`: a
   * few copies per page, each about a tenth of its text.
   */
  copies?: Map<string, Promise<Buffer>>;
}

interface Entry {
  versions: string;
  value: unknown;
  at: number;
  bytes: number;
}

export class ListCache {
  /** The tables with the trigger; undefined until start(): nothing is kept before this instance listens. */
  private watched?: Set<string>;
  private unlisten?: () => Promise<void>;
  private readonly versions = new Map<string, number>();
  private readonly instance = randomUUID();
  private sent = 0;
  private readonly waiting = new Map<string, (heard: boolean) => void>();
  /** The notice in flight, and the next one, shared by the reads that began while it was in flight. */
  private inFlight?: Promise<boolean>;
  private next?: Promise<boolean>;
  /** After a notice that did not come back, reads go to the database for a while instead of each waiting in turn. */
  private deafUntil = 0;
  /** Part of every entry's versions: raised when notices may have been missed, so no entry kept before is used. */
  private generation = 0;
  private readonly tablesOf = new Map<string, Promise<string[] | null>>();
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Reads of lists that may be kept: answered from the cache, or read from the database and kept. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly database: Database,
    private readonly ttlMs = 60_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  async start(): Promise<void> {
    if (this.unlisten) return;
    this.unlisten = await this.database.listen(
      LIST_CHANGES_CHANNEL,
      (payload) => {
        if (!payload.startsWith(HEARD_MARK)) this.versions.set(payload, (this.versions.get(payload) ?? 0) + 1);
        else this.waiting.get(payload)?.(true);
      },
      () => this.forgetAll(),
    );
    await this.readWatched();
  }

  /** Reads again which tables carry the trigger (after ensureListTriggers added some at start). */
  async readWatched(): Promise<void> {
    if (this.unlisten) this.watched = await tablesWithListTrigger(this.database);
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
    this.watched = undefined;
    this.forgetAll();
  }

  /** Notices may have been missed (the LISTEN connection was lost, one of ours did not come back): nothing kept is used. */
  private forgetAll() {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  /**
   * Whether every change committed before this call has been heard: a notice of ours, sent after the call, came back
   * after them. One notice at a time: the reads that begin while one is in flight share the next.
   */
  private heardUpToNow(): Promise<boolean> {
    if (!this.inFlight) return (this.inFlight = this.notice().finally(() => (this.inFlight = undefined)));
    return (this.next ??= this.inFlight.then(() => {
      this.next = undefined;
      return this.heardUpToNow();
    }));
  }

  private notice(): Promise<boolean> {
    const notice = `${HEARD_MARK}${this.instance}:${++this.sent}`;
    return new Promise<boolean>((resolve) => {
      const deaf = () => {
        this.deafUntil = Date.now() + DEAF_MS;
        this.forgetAll();
        done(false);
      };
      const timer = setTimeout(deaf, HEARD_TIMEOUT_MS);
      const done = (heard: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(notice);
        resolve(heard);
      };
      this.waiting.set(notice, done);
      this.database.notifyFromListener(LIST_CHANGES_CHANNEL, notice).catch(deaf);
    });
  }

  /** The kept answer of `text` with `params`, or `run()`'s, kept when the query may be (`run(true)`: it will be kept). */
  async read(text: string, params: unknown[], run: (keeping: boolean) => Promise<KeptList>): Promise<KeptList> {
    const tables = this.watched ? await this.tables(text, params) : null;
    // A list that may not be kept (a PEC list) is read at once: no key built, no notice waited for.
    if (!tables) return run(false);
    const key = `${text}\u0000${JSON.stringify(params)}`;
    const value = await this.kept(key, tables, run, (page) => 2 * (key.length + page.members.length));
    // Compressed copies (http/compression.ts) only for a page that is kept: one read with no copies compresses it itself.
    if (!value.copies && this.entries.get(key)?.value === value) value.copies = new Map();
    return value;
  }

  /**
   * A small value read from `tables` (rules, settings), kept as the lists are until one of them changes; `run()`'s
   * when one has no trigger. `key` names the value: the same key, the same reading.
   */
  remember<T>(key: string, tables: string[], run: () => Promise<T>): Promise<T> {
    const watched = this.watched;
    const kept = watched && tables.every((t) => watched.has(t)) ? [...tables].sort() : null;
    return this.kept(`\u0001${key}`, kept, run, () => 2 * key.length + KEPT_VALUE_BYTES);
  }

  /** `run()`'s value under `key`, kept while `tables` do not change; `size` gives its bytes once it is kept. */
  private async kept<T>(key: string, tables: string[] | null, run: (keeping: boolean) => Promise<T>, size: (value: T) => number): Promise<T> {
    if (!tables || Date.now() < this.deafUntil || !(await this.heardUpToNow())) return run(false);
    const versions = `${this.generation}:${tables.map((t) => this.versions.get(t) ?? 0).join(',')}`;
    const hit = this.entries.get(key);
    if (hit && hit.versions === versions && Date.now() - hit.at < this.ttlMs) {
      // Most recently used last: the first entries are the ones dropped when the cache is full.
      this.entries.delete(key);
      this.entries.set(key, hit);
      this.stats.hits++;
      return hit.value as T;
    }
    this.stats.misses++;
    const value = await run(true);
    this.keep(key, { versions, value, at: Date.now(), bytes: size(value) });
    return value;
  }

  private keep(key: string, entry: Entry) {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    if (entry.bytes > this.maxBytes / 4) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest, { bytes }] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= bytes;
    }
  }

  /**
   * The tables a query reads, from its plan; null when one of them has no trigger, when the query has a value of the
   * moment, or when the plan cannot be read. Worked out once per query text.
   */
  private tables(text: string, params: unknown[]): Promise<string[] | null> {
    let tables = this.tablesOf.get(text);
    if (!tables) {
      tables = OF_THE_MOMENT.test(text)
        ? Promise.resolve(null)
        : this.database
            .query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${text}`, params)
            .then(([row]) => {
              const plan = parsedJson(row?.['QUERY PLAN']);
              const found = new Set<string>();
              relations(plan, found);
              const watched = this.watched;
              return found.size > 0 && watched && [...found].every((t) => watched.has(t)) ? [...found].sort() : null;
            })
            .catch(() => {
              this.tablesOf.delete(text); // read again next time
              return null;
            });
      if (this.tablesOf.size >= 1000) this.tablesOf.clear();
      this.tablesOf.set(text, tables);
    }
    return tables;
  }
}

/** Every "Relation Name" of an EXPLAIN (FORMAT JSON) plan, sub-plans and init-plans included. */
function relations(node: unknown, found: Set<string>) {
  if (Array.isArray(node)) for (const child of node) relations(child, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'Relation Name' && typeof value === 'string') found.add(value);
      else if (typeof value === 'object') relations(value, found);
    }
  }
}
