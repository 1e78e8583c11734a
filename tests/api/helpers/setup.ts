// A query sent on a pg client while it runs another (a Promise.all inside a transaction, whose one connection takes
// one query at a time) is queued by pg 8, which warns only once a second one already waits, and pg 9 will refuse it.
// Every pg client of this process is watched (the servers these tests start in-process, on PostgreSQL, and the
// tests' own): a file that sends such a query fails, naming the test and the statement.
import pg from 'pg';
import { afterAll, expect } from 'vitest';

type Watched = pg.Client & { _activeQuery?: unknown; _queryQueue?: unknown[]; pipeline?: boolean };

// The check reads pg's own state: if a version of pg names it otherwise, say so instead of checking nothing.
const sample = new pg.Client() as Watched;
if (!('_activeQuery' in sample) || !Array.isArray(sample._queryQueue)) {
  throw new Error('pg ne expose plus _activeQuery et _queryQueue : tests/api/helpers/setup.ts est à revoir.');
}

const overlaps: string[] = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: Watched, ...args: unknown[]) {
  if (!this.pipeline && (this._activeQuery || this._queryQueue!.length > 0)) {
    const [config] = args;
    const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
    // The caller is lost behind Drizzle's awaits: the test's name and the statement say where to look.
    overlaps.push(`${expect.getState().currentTestName ?? '(hors test)'} : ${String(text).slice(0, 200)}`);
  }
  return (query as (...values: unknown[]) => unknown).apply(this, args);
} as typeof query;

afterAll(() => {
  pg.Client.prototype.query = query;
  expect(overlaps, 'requêtes envoyées sur une connexion occupée').toEqual([]);
});
