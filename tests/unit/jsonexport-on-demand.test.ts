import { expect, test } from 'vitest';
import jsonExport from '../../src/admin/jsonexportOnDemand';

// react-admin's default CSV exporter calls jsonexport(data, callback): the module standing for it loads the library
// on its first call and answers through the same callback.
test('the default exporter’s library, loaded on demand, writes the rows as CSV through the callback', async () => {
  const csv = await new Promise<string>((resolve, reject) =>
    jsonExport(
      [
        { nom: 'Élodie Martin', montant: 1420.5 },
        { nom: 'Jean, dit « Jeannot »', montant: 10 },
      ],
      (error, text) => (error ? reject(error) : resolve(text)),
    ),
  );
  expect(csv.split(/\r?\n/)).toEqual(['nom,montant', 'Élodie Martin,1420.5', '"Jean, dit « Jeannot »",10']);
});
