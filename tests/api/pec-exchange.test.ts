// The CSV export (for French Excel) and import (drafts, all rows or none), and the round trip between them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, startPecServer, type Refs } from './helpers/pec';
import { pecImportTemplate } from '#domain/pecImport';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

const BOM = '\uFEFF';
const exportCsv = async (query: string, token = tokens.horizonAdmin) => {
  const res = await fetch(`${server.url}/api/pec_dossiers/export${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
};
const importCsv = (csv: string, token = tokens.horizonAdmin) =>
  server.request('POST', '/api/pec_dossiers/import', { token, rawBody: csv, headers: { 'content-type': 'text/csv; charset=utf-8' } });
const rows = (text: string) =>
  text
    .replace(BOM, '')
    .trim()
    .split('\r\n')
    .map((line) => line.split(';'));
const count = async () => Number((await server.database.query<{ n: number }>('select count(*)::int as n from pec_dossiers'))[0]!.n);

describe('export', () => {
  it('streams the filtered list as CSV for French Excel', async () => {
    const res = await exportCsv('status=billed');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="demandes-pec-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect([...res.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...data] = rows(res.text);
    expect(header!.slice(0, 9)).toEqual([
      'N° dossier',
      'État',
      'Centre',
      'Réseau',
      'Mutuelle',
      'N° dossier patient',
      'N° devis',
      'Montant du devis TTC',
      'Date de création',
    ]);
    const total = (await server.get('/api/pec_dossiers?status=billed', tokens.horizonAdmin)).body.totalItems;
    expect(data).toHaveLength(total);
    const col = (name: string) => header!.indexOf(name);
    for (const row of data) {
      expect(row[col('État')]).toBe('Facturé');
      expect(row[col('Facturé')]).toBe('Oui');
      expect(row[col('Montant du devis TTC')]).toMatch(/^\d+,\d{2}$/);
      expect(row[col('Date de création')]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
      expect(row[col('Part SS')]).toMatch(/^\d+,\d{2}$/);
    }
  });

  it('exports only what the user sees, and needs export.pec', async () => {
    const audio = await exportCsv('', tokens.audio);
    expect(audio.status).toBe(200);
    const [header, ...data] = rows(audio.text);
    for (const row of data) expect(['Horizon Paris Bastille', 'Horizon Boulogne']).toContain(row[header!.indexOf('Centre')]);
    expect(data).toHaveLength((await server.get('/api/pec_dossiers', tokens.audio)).body.totalItems);
    expect((await exportCsv('', tokens.assistant)).status).toBe(403);
    expect((await exportCsv('', tokens.readOnly)).status).toBe(403);
  });

  it('answers a whole CSV or a problem, never a cut download, whatever the query', async () => {
    const [, ...all] = rows((await exportCsv('')).text);
    // Unusable parameters are ignored as on the list: the whole export, complete.
    for (const query of [
      'dateFrom=99999-01-01',
      'dateTo=275760-09-13',
      'createdAt[after]=-271821-04-20',
      'order[__proto__]=desc',
      'sort=-constructor',
      '__proto__=1',
      'toString=1',
    ]) {
      const res = await exportCsv(query);
      expect(res.status, query).toBe(200);
      expect(res.headers.get('content-type'), query).toBe('text/csv; charset=utf-8');
      const [, ...data] = rows(res.text);
      expect(data.length, query).toBe(all.length);
    }
    // A refusal is a problem+json answer, not a CSV.
    const refused = await exportCsv('', tokens.assistant);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('import', () => {
  it('round-trips: exported files, deleted, come back as drafts with the same data', async () => {
    const tag = `RT${Date.now().toString(36).toUpperCase()}`;
    const made = [];
    for (let i = 1; i <= 3; i++) {
      made.push(
        await createDossier(
          server,
          tokens.horizonAdmin,
          refs,
          {
            numeroDossierAssure: `${tag}-${i}`,
            numeroDevisAssure: `DEV-${tag}-${i}`,
            commentaire: i === 2 ? '=HYPERLINK("http://exemple.test")' : `Commentaire ${i} ; avec "guillemets"`,
            totalTtc: i === 3 ? '1 450,50' : null,
            ...(i === 1 ? { network: `/api/networks/${refs.networks['Itelis']}` } : {}),
          },
          i === 1 ? 'Horizon Versailles' : 'Horizon Paris Bastille',
          i === 1 ? 'AXA' : 'MAAF',
        ),
      );
    }
    const exported = await exportCsv(`search=${tag}&sort=numeroDossier&order=asc`);
    const [header, ...data] = rows(exported.text);
    expect(data).toHaveLength(3);
    expect(exported.text).toContain(`'=HYPERLINK`);
    expect(exported.text).toContain('1450,50');

    for (const file of made) expect((await server.request('DELETE', `/api/pec_dossiers/${file.id}`, { token: tokens.horizonAdmin })).status).toBe(204);
    const imported = await importCsv(exported.text);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body.created).toBe(3);

    const back = (await server.get(`/api/pec_dossiers?search=${tag}&sort=numeroDossier&order=asc`, tokens.horizonAdmin)).body.member;
    expect(back).toHaveLength(3);
    const byNumero = (list: JsonBody[]) => [...list].sort((a, b) => (a.numeroDossier < b.numeroDossier ? -1 : 1));
    for (const [before, after] of byNumero(made).map((m, i) => [m, byNumero(back)[i]])) {
      expect(after).toMatchObject({
        status: 'draft',
        numeroDossier: before.numeroDossier,
        numeroDossierAssure: before.numeroDossierAssure,
        numeroDevisAssure: before.numeroDevisAssure,
        commentaire: before.commentaire,
        totalTtc: before.totalTtc,
      });
      expect(after.shop.id).toBe(before.shop.id);
      expect(after.mutual.id).toBe(before.mutual.id);
      expect(after.network.id).toBe(before.network.id);
    }
    expect(header).toContain('Motif de refus');
  });

  it('checks every row first: one error and nothing is created, with French errors per line', async () => {
    const before = await count();
    const csv = [
      'Centre;Réseau;Mutuelle;N° dossier patient;N° devis;Montant du devis TTC;N° dossier;Commentaire',
      'Horizon Paris Bastille;Santéclair;Allianz;DP-IMP-1;DEV-IMP-1;1 200,00;IMP-A;ok',
      'Horizon Paris Bastille;Santéclair;Allianz;DP-IMP-2;;;IMP-B;sans devis',
      'Centre inconnu;;Allianz;DP-IMP-3;DEV-3;;;',
      'horizon boulogne;Kalixia;AXA;DP-IMP-4;DEV-4;12,345;IMP-A;',
      'HZ-LYO3;;Mutuelle imaginaire;;DEV-5;;;',
    ].join('\r\n');
    const res = await importCsv(csv);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { line: 3, messages: ['Le numéro de devis est requis'] },
      { line: 4, messages: ['Centre « Centre inconnu » introuvable ou hors de votre périmètre'] },
      {
        line: 5,
        messages: [
          'La mutuelle doit appartenir au réseau choisi',
          'Prix invalide : max 2 décimales (ex: 1\u202f450,50)',
          'Numéro de dossier déjà présent ligne 2',
        ],
      },
      { line: 6, messages: ['Mutuelle « Mutuelle imaginaire » introuvable', 'Le numéro de dossier patient est requis'] },
    ]);
    expect(res.body.detail).toMatch(/^Import refusé : 4 lignes en erreur, aucune demande créée\.\nLigne 3 : Le numéro de devis est requis/);
    expect(res.body.violations[0]).toEqual({ propertyPath: 'ligne 3', message: 'Le numéro de devis est requis' });
    expect(await count()).toBe(before);

    const taken = await createDossier(server, tokens.horizonAdmin, refs);
    const again = await importCsv(
      `Centre;Mutuelle;N° dossier patient;N° devis;N° dossier\r\nHorizon Paris Bastille;Allianz;DP-1;DEV-1;${taken.numeroDossier}\r\n`,
    );
    expect(again.body.errors).toEqual([{ line: 2, messages: ['Ce numéro de dossier existe déjà dans votre organisation'] }]);
  });

  it('reads comma-separated files, needs its columns, import.pec and centres the user sees', async () => {
    const ok = await importCsv('Centre,Mutuelle,N° dossier patient,N° devis\nHZ-PAR11,Generali,DP-COMMA,DEV-COMMA\n');
    expect(ok.status, ok.text).toBe(201);
    const created = await server.get(ok.body.member[0], tokens.horizonAdmin);
    expect(created.body).toMatchObject({
      status: 'draft',
      numeroDossierAssure: 'DP-COMMA',
      mutual: { name: 'Generali' },
      shop: { name: 'Horizon Paris Bastille' },
    });
    expect(created.body.numeroDossier).toMatch(/^PEC-\d{4}-\d{6}$/);
    // The import joins the trail of the organisation the files went to.
    const [audit] = await server.database.query<{ holding_id: number }>(
      `select holding_id from audit_logs where action = 'pec_dossier.import' order by id desc limit 1`,
    );
    const [shop] = await server.database.query<{ holding_id: number }>(`select holding_id from shops where name = 'Horizon Paris Bastille'`);
    expect(audit!.holding_id).toBe(shop!.holding_id);

    const missing = await importCsv('Centre;N° devis\nHorizon Paris Bastille;DEV-1\n');
    expect(missing.status).toBe(422);
    expect(missing.body.violations).toEqual([{ propertyPath: 'fichier', message: 'Colonnes manquantes : Mutuelle, N° dossier patient.' }]);
    expect((await importCsv('')).body.violations[0].message).toBe('Le fichier est vide.');
    const badQuote = await importCsv('Centre;Mutuelle;N° dossier patient;N° devis\nHorizon Paris Bastille;"Allianz"1;DP;DEV\n');
    expect(badQuote.status).toBe(422);
    expect(badQuote.body.violations).toEqual([
      { propertyPath: 'fichier', message: 'Fichier CSV illisible à la ligne 2 : vérifiez les guillemets et le séparateur (point-virgule).' },
    ]);
    expect((await importCsv('Centre;Mutuelle;N° dossier patient;N° devis\nHorizon Paris Bastille;Allianz;DP;DEV\n', tokens.audio)).status).toBe(403);
    const outside = await importCsv('Centre;Mutuelle;N° dossier patient;N° devis\nRiviera Antibes;Allianz;DP;DEV\n');
    expect(outside.body.errors).toEqual([{ line: 2, messages: ['Centre « Riviera Antibes » introuvable ou hors de votre périmètre'] }]);
  });

  it('reads the template the dialog offers: sent as it is, its line to replace is refused; filled in, it is created', async () => {
    const template = pecImportTemplate();
    const before = await count();
    const asItIs = await importCsv(template);
    expect(asItIs.status).toBe(422);
    expect(asItIs.body.errors).toEqual([
      { line: 2, messages: ['Centre « Nom du centre » introuvable ou hors de votre périmètre', 'Mutuelle « Nom de la mutuelle » introuvable'] },
    ]);
    const filled = template.replace('Nom du centre', 'Horizon Paris Bastille').replace('Nom de la mutuelle', 'Generali').replace('PAT-0001', 'DP-MODELE');
    const created = await importCsv(filled);
    expect(created.status, created.text).toBe(201);
    expect((await server.get(created.body.member[0], tokens.horizonAdmin)).body).toMatchObject({ numeroDossierAssure: 'DP-MODELE', totalTtc: 1450.5 });
    expect(await count()).toBe(before + 1);
  });
});
