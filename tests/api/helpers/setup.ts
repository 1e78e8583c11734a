// pg 8 queues a query sent on a client that is still running one (a Promise.all inside a transaction) with a
// deprecation warning, and pg 9 refuses it: a file whose server does that fails.
import { afterAll, expect } from 'vitest';

const overlaps: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.name === 'DeprecationWarning' && warning.message.includes('already executing a query')) overlaps.push(warning.message);
};
process.on('warning', onWarning);

afterAll(() => {
  process.off('warning', onWarning);
  expect(overlaps, 'requêtes envoyées sur une connexion occupée').toEqual([]);
});
