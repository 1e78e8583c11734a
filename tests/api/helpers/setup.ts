// A query sent on a pg client while it runs another (a Promise.all inside a transaction, whose one connection takes
// one query at a time) is queued by pg 8 and refused by pg 9: a file whose server does that fails. pg 8 warns only
// from the third query waiting, so the servers these tests start in-process (on PostgreSQL) are watched here.
import pg from 'pg';
import { afterAll, expect } from 'vitest';

type Watched = pg.Client & { _activeQuery?: unknown; _queryQueue: unknown[] };
const overlaps: string[] = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: Watched, ...args: unknown[]) {
  if (this._activeQuery || this._queryQueue.length > 0) {
    const [config] = args;
    overlaps.push(String(typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text).slice(0, 200));
  }
  return (query as (...values: unknown[]) => unknown).apply(this, args);
} as typeof query;

afterAll(() => {
  pg.Client.prototype.query = query;
  expect(overlaps, 'requêtes envoyées sur une connexion occupée').toEqual([]);
});
