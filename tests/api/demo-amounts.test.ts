// The demo's amounts agree on every file (the walk found PEC-2026-000199's quote at 1 900 € and its « Prix frais
// réels » at 4 580 €): once the runs seeded in progress are over, each file with the insurer's amounts has its real-cost
// price equal to its quote, the quote is the sum of its equipment's prices, and the shares add up to the price (but on
// the file seeded to show the warning of amounts that do not add up, server/seed/warnings.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface Row {
  numero_dossier: string;
  numero_dossier_assure: string;
  status: string;
  total_ttc: string | null;
  prix_frais_reels: string;
  shares: string;
  equipment: string | null;
}

it('gives every demo file a real-cost price equal to its quote, the sum of its equipment, split into shares that add up', async () => {
  // The demo's runs in progress are resumed by the workers on start; the simulator answers at once (no delay in tests).
  await expect
    .poll(async () => (await server.database.query<{ n: number }>(`select count(*)::int as n from pec_dossiers where status = 'processing'`))[0]!.n, {
      timeout: 60_000,
      interval: 500,
    })
    .toBe(0);
  const rows = await server.database.query<Row>(
    `select d.numero_dossier, d.numero_dossier_assure, d.status, d.total_ttc::text, d.prix_frais_reels::text,
        (coalesce(d.part_ss, 0) + coalesce(d.part_complementaire, 0) + coalesce(d.reste_charge, 0))::text as shares,
        coalesce(
          (select sum(a.prix_ttc) from appareils a where a.dossier_id = d.id),
          (select o.monture_prix + (o.verre_od->>'prix')::numeric + (o.verre_og->>'prix')::numeric from optical_equipments o where o.dossier_id = d.id)
        )::text as equipment
       from pec_dossiers d where d.prix_frais_reels is not null order by d.id`,
  );
  // Files of both demo organisations, among them the runs seeded in progress, now answered.
  expect(rows.length).toBeGreaterThan(100);
  const money = (value: string | null) => (value === null ? null : Number(value).toFixed(2));
  const mismatches = rows
    .filter(
      (r) =>
        money(r.prix_frais_reels) !== money(r.total_ttc) ||
        (money(r.shares) !== money(r.prix_frais_reels) && r.numero_dossier_assure !== 'DP-ALERTE-04') ||
        (r.equipment !== null && money(r.equipment) !== money(r.total_ttc)),
    )
    .map((r) => `${r.numero_dossier} (${r.status}): devis ${r.total_ttc}, équipement ${r.equipment}, frais réels ${r.prix_frais_reels}, parts ${r.shares}`);
  expect(mismatches).toEqual([]);
});
