// Duplicates caught before they cost (issue 25): twins (same organisation, mutual and quote number, neither archived)
// are warned on each file with a link to the other; a DPEC beside a twin's request in progress or granted is refused
// unless confirmed, and the confirmation is audited; the PEC import skips the lines already there, line by line, so the
// same file imported twice (even twice at once) creates nothing the second time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { createDossier, patientNumber, startPecServer, type Refs } from './helpers/pec';

let server: TestServer;
let refs: Refs;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, refs, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

const get = async (id: number, token = tokens.audio) => (await server.get(`/api/pec_dossiers/${id}`, token)).body;
const patch = (id: number, body: unknown, token = tokens.audio) =>
  server.request('PATCH', `/api/pec_dossiers/${id}`, { token, body, headers: { 'content-type': 'application/merge-patch+json' } });
const startDpec = (id: number, extra: Record<string, unknown> = {}, token = tokens.audio) =>
  server.request('POST', '/api/robot-frontend/setup-and-create-dpec', { token, body: { pecDossierId: id, ...extra } });
const duplicates = (file: JsonBody) => file.warnings.filter((w: JsonBody) => w.code === 'doublon_possible');
const importCsv = (csv: string, token = tokens.horizonAdmin) =>
  server.request('POST', '/api/pec_dossiers/import', { token, rawBody: csv, headers: { 'content-type': 'text/csv; charset=utf-8' } });
const filesWithQuotes = async (prefix: string) =>
  Number((await server.database.query<{ n: number }>(`select count(*)::int as n from pec_dossiers where numero_devis_assure like $1`, [`${prefix}%`]))[0]!.n);

describe('twins', () => {
  it('are warned on both files, with a link to the other; not across mutuals, nor once one is archived', async () => {
    const quote = `DEV-${patientNumber()}`;
    const first = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote });
    expect(duplicates(first)).toEqual([]);
    const second = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote });
    expect(duplicates(second)).toEqual([
      {
        code: 'doublon_possible',
        message: `La demande ${first.numeroDossier} (Brouillon) porte la même mutuelle et le même numéro de devis : vérifiez qu’il ne s’agit pas de la même demande avant de lancer le DPEC.`,
        details: { dossier: `/api/pec_dossiers/${first.id}`, numeroDossier: first.numeroDossier, status: 'draft' },
        link: { url: `/pec/${first.id}`, label: first.numeroDossier },
      },
    ]);
    // First among the warnings: before anything about the equipment.
    expect(second.warnings[0].code).toBe('doublon_possible');
    expect(duplicates(await get(first.id)).map((w: JsonBody) => w.link)).toEqual([{ url: `/pec/${second.id}`, label: second.numeroDossier }]);

    // Another mutual is another request; an edit that makes it a twin is warned at once.
    const other = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote }, 'Horizon Paris Bastille', 'MAAF');
    expect(duplicates(other)).toEqual([]);
    const edited = await patch(other.id, { mutual: `/api/mutuals/${refs.mutuals['Allianz']!.id}` });
    expect(edited.status, edited.text).toBe(200);
    expect(duplicates(edited.body).map((w: JsonBody) => w.link.label)).toEqual([first.numeroDossier, second.numeroDossier]);
    // Another organisation's file with the same quote is no twin (and is not named).
    const elsewhere = await createDossier(server, tokens.rivieraAdmin, refs, { numeroDevisAssure: quote }, 'Riviera Nice Médecin');
    expect(duplicates(elsewhere)).toEqual([]);

    // Archived as a duplicate, it is no longer warned about, and warns of nothing.
    const archived = await patch(second.id, { archived: true, archiveReason: 'duplicate' }, tokens.horizonAdmin);
    expect(archived.status, archived.text).toBe(200);
    expect(duplicates(archived.body)).toEqual([]);
    expect(duplicates(await get(first.id)).map((w: JsonBody) => w.link.label)).toEqual([other.numeroDossier]);
  });

  it('refuse a DPEC while a twin’s request is in progress or granted, unless confirmed; the confirmation is audited', async () => {
    const quote = `DEV-${patientNumber()}`;
    const first = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote });
    const second = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote });
    // Twins as drafts: the warning only; the first goes to the robot.
    expect((await startDpec(first.id)).status).toBe(200);
    expect((await get(first.id)).status).toBe('processing');

    const refused = await startDpec(second.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Doublon : la demande ${first.numeroDossier} (En cours) porte la même mutuelle et le même numéro de devis, avec un DPEC en cours ou accordé. Confirmez pour envoyer quand même.`,
    );
    expect(refused.body.twins).toEqual([{ '@id': `/api/pec_dossiers/${first.id}`, id: first.id, numeroDossier: first.numeroDossier, status: 'processing' }]);
    expect((await get(second.id)).status).toBe('draft');
    // Only an explicit true confirms.
    expect((await startDpec(second.id, { confirmDuplicate: 'oui' })).status).toBe(409);

    const confirmed = await startDpec(second.id, { confirmDuplicate: true });
    expect(confirmed.status, confirmed.text).toBe(200);
    const [entry] = await server.database.query<{ actor_email: string; changes: JsonBody; entity_label: string }>(
      `select actor_email, changes, entity_label from audit_logs where action = 'pec_dossier.dpec_start' and entity_id = $1`,
      [String(second.id)],
    );
    expect(entry).toMatchObject({
      actor_email: 'audio@audition-horizon.fr',
      entity_label: second.numeroDossier,
      changes: { duplicateConfirmed: [{ id: first.id, numeroDossier: first.numeroDossier, status: 'processing' }] },
    });
    // The warning that was on the file when it was sent is on the record too.
    expect(entry!.changes.warnings.map((w: JsonBody) => w.code)).toContain('doublon_possible');
  });

  it('in a centre the reader cannot see: warned and refused all the same, without a number, a link or an id', async () => {
    const quote = `DEV-${patientNumber()}`;
    // The organisation's administrator files the same request in Lyon, which the audioprothésiste (Paris, Boulogne)
    // does not see, and starts its DPEC.
    const hidden = await createDossier(server, tokens.horizonAdmin, refs, { numeroDevisAssure: quote }, 'Horizon Lyon Part-Dieu');
    expect((await startDpec(hidden.id, {}, tokens.horizonAdmin)).status).toBe(200);
    const mine = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote });
    const identifying = (value: unknown) => {
      const text = JSON.stringify(value);
      return [hidden.numeroDossier, `/pec/${hidden.id}`, `/api/pec_dossiers/${hidden.id}`].filter((s) => text.includes(s));
    };
    const hiddenWarning = {
      code: 'doublon_possible',
      message:
        'Une autre demande de votre organisation porte déjà ce numéro de devis avec la même mutuelle : vérifiez auprès de votre organisation qu’il ne s’agit pas de la même demande avant de lancer le DPEC.',
    };
    expect(duplicates(mine)).toEqual([hiddenWarning]);
    expect(identifying(mine)).toEqual([]);
    expect(duplicates(await get(mine.id))).toEqual([hiddenWarning]);

    const refused = await startDpec(mine.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      'Doublon : une autre demande de votre organisation porte la même mutuelle et le même numéro de devis, avec un DPEC en cours ou accordé. Confirmez pour envoyer quand même.',
    );
    expect(refused.body.twins).toEqual([]);
    expect(identifying(refused.body)).toEqual([]);
    expect((await get(mine.id)).status).toBe('draft');

    // A visible twin besides: that one is named and linked, the hidden one still only said to exist.
    const visible = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote }, 'Horizon Boulogne');
    expect((await startDpec(visible.id, { confirmDuplicate: true })).status).toBe(200);
    const both = await startDpec(mine.id);
    expect(both.status).toBe(409);
    expect(both.body.detail).toBe(
      `Doublon : la demande ${visible.numeroDossier} (En cours), une autre demande de votre organisation portent la même mutuelle et le même numéro de devis, avec un DPEC en cours ou accordé. Confirmez pour envoyer quand même.`,
    );
    expect(both.body.twins).toEqual([{ '@id': `/api/pec_dossiers/${visible.id}`, id: visible.id, numeroDossier: visible.numeroDossier, status: 'processing' }]);
    expect(identifying(both.body)).toEqual([]);
    const warned = duplicates(await get(mine.id));
    expect(warned.map((w: JsonBody) => w.link?.label ?? null)).toEqual([visible.numeroDossier, null]);
    expect(identifying(warned)).toEqual([]);

    // The administrator sees the whole organisation: every twin is named.
    const seenByAll = duplicates(await get(mine.id, tokens.horizonAdmin));
    expect(seenByAll.map((w: JsonBody) => w.link.label)).toEqual([hidden.numeroDossier, visible.numeroDossier]);
  });

  it('let one of two DPEC starts on twins sent at once through, the other refused', async () => {
    const quote = `DEV-${patientNumber()}`;
    const a = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote });
    const b = await createDossier(server, tokens.audio, refs, { numeroDevisAssure: quote });
    const answers = await Promise.all([startDpec(a.id), startDpec(b.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('the PEC import', () => {
  const header = 'Centre;Mutuelle;N° dossier patient;N° devis;Commentaire';

  it('imported twice creates nothing the second time, and says line by line what was already there', async () => {
    const tag = patientNumber();
    const csv = [
      header,
      `Horizon Paris Bastille;Allianz;DP-${tag}-1;DEV-${tag}-1;un`,
      `Horizon Paris Bastille;AXA;DP-${tag}-2;DEV-${tag}-2;deux`,
      `Horizon Boulogne;MAAF;DP-${tag}-3;DEV-${tag}-3;trois`,
    ].join('\r\n');
    const first = await importCsv(csv);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ created: 3, skipped: [] });
    const numbers = await Promise.all(first.body.member.map(async (iri: string) => (await server.get(iri, tokens.horizonAdmin)).body.numeroDossier));

    const again = await importCsv(csv);
    expect(again.status, again.text).toBe(200);
    expect(again.body.created).toBe(0);
    expect(again.body.ids).toEqual([]);
    expect(again.body.skipped).toEqual([
      { line: 2, message: `déjà présent : ${numbers[0]}`, numeroDossier: numbers[0], '@id': first.body.member[0] },
      { line: 3, message: `déjà présent : ${numbers[1]}`, numeroDossier: numbers[1], '@id': first.body.member[1] },
      { line: 4, message: `déjà présent : ${numbers[2]}`, numeroDossier: numbers[2], '@id': first.body.member[2] },
    ]);
    expect(await filesWithQuotes(`DEV-${tag}`)).toBe(3);
    const [audit] = await server.database.query<{ changes: JsonBody }>(
      `select changes from audit_logs where action = 'pec_dossier.import' order by id desc limit 1`,
    );
    expect(audit!.changes).toEqual({ count: 0, skipped: 3 });

    // A file with old and new lines creates the new ones only. A match is the same quote number with the same mutual
    // or the same patient number; the same line twice in one file is created once.
    const mixed = await importCsv(
      [
        header,
        `Horizon Paris Bastille;Allianz;DP-${tag}-1;DEV-${tag}-1;déjà là`,
        `Horizon Paris Bastille;Generali;DP-${tag}-2;DEV-${tag}-2;même patient, même devis, autre mutuelle`,
        `Horizon Paris Bastille;Generali;DP-${tag}-9;DEV-${tag}-1;même devis, ni la mutuelle ni le patient`,
        `Horizon Paris Bastille;Allianz;DP-${tag}-4;DEV-${tag}-4;nouvelle`,
        `Horizon Paris Bastille;Allianz;DP-${tag}-4;DEV-${tag}-4;nouvelle, deux fois`,
      ].join('\r\n'),
    );
    expect(mixed.status, mixed.text).toBe(201);
    expect(mixed.body.created).toBe(2);
    expect(mixed.body.skipped.map((s: JsonBody) => [s.line, s.message])).toEqual([
      [2, `déjà présent : ${numbers[0]}`],
      [3, `déjà présent : ${numbers[1]}`],
      [6, 'déjà présent : ligne 5 du fichier'],
    ]);
    expect(await filesWithQuotes(`DEV-${tag}`)).toBe(5);
  });

  it('sent twice at the same moment creates each file once', async () => {
    const tag = patientNumber();
    const csv = [header, ...[1, 2, 3, 4].map((i) => `Horizon Paris Bastille;Allianz;DP-${tag}-${i};DEV-${tag}-${i};`)].join('\r\n');
    const answers = await Promise.all([importCsv(csv), importCsv(csv)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(answers.map((r) => r.body.created).sort()).toEqual([0, 4]);
    expect(answers.find((r) => r.status === 200)!.body.skipped).toHaveLength(4);
    expect(await filesWithQuotes(`DEV-${tag}`)).toBe(4);
  });
});
