// Back-office scenario: 100,000 records spread over the back-office entities (plus their link rows), written with
// multi-row INSERT ... SELECT generate_series; then every list endpoint with its default sort, and the centres by
// status (ties by name), as the platform administrator (every row) and as an organisation administrator (one
// organisation's rows).
import type { SeededRoleKey } from '#domain/roles';
import type { Endpoint, Scenario, SeedContext } from './lib/types';

/** How the 100,000 records are spread (link rows user_shops, user_roles, shop_credentials come on top). */
export const VOLUMES = {
  holdings: 200,
  companies: 2_000,
  shops: 10_000,
  users: 20_000,
  roles: 300,
  networks: 100,
  mutuals: 2_000,
  software: 5_000,
  credential_software: 20_000,
  audit_logs: 40_400,
} as const;

// Meets the password policy (domain/passwordPolicy.ts): a weaker one would be asked to change at sign-in.
export const BENCH_PASSWORD = 'Banc-Essai-2026!';
/** What Chromium sends in Accept-Encoding. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

const CITIES = `array['Paris','Lyon','Marseille','Lille','Nantes','Bordeaux','Toulouse','Nice','Rennes','Strasbourg','Montpellier','Grenoble']`;
const LAST_NAMES = `array['Martin','Bernard','Dubois','Thomas','Robert','Richard','Petit','Durand','Leroy','Moreau','Simon','Laurent','Lefèvre','Michel','Garcia','David','Bertrand','Roux','Vincent','Fournier']`;
const FIRST_NAMES = `array['Camille','Léa','Manon','Chloé','Inès','Hugo','Lucas','Louis','Jules','Gabriel','Sophie','Marc','Julien','Nathalie','Élodie']`;

async function seedBackoffice(ctx: SeedContext): Promise<Record<string, number>> {
  const { sql } = ctx;
  const hash = await ctx.passwordHash(BENCH_PASSWORD);
  const secret = ctx.encrypt('Mot-de-passe-robot');

  await sql(`
    insert into holdings (name, registration_number, vat_number, email, phone, street, postal_code, city, country, status, created_at)
    select 'Organisation Bench ' || lpad(g::text, 4, '0'), (300000000 + g)::text, 'FR' || (10000000000 + g)::text,
      'contact' || g || '@bench.example', '01 23 45 ' || lpad((g % 100)::text, 2, '0') || ' 00', g || ' rue de la République',
      lpad((1000 + g * 37 % 94000)::text, 5, '0'), (${CITIES})[1 + g % 12], 'France',
      case when g % 10 = 0 then 'Inactive' else 'Active' end, now() - (g || ' hours')::interval
    from generate_series(1, ${VOLUMES.holdings}) g`);

  await sql(`
    insert into companies (holding_id, name, registration_number, vat_number, street, postal_code, city, country, status, created_at)
    select h.ids[1 + (g - 1) % array_length(h.ids, 1)], 'Entreprise ' || lpad(g::text, 5, '0') || ' ' || (${CITIES})[1 + g % 12],
      (400000000 + g)::text, 'FR' || (20000000000 + g)::text, g || ' avenue Victor Hugo', lpad((1000 + g * 53 % 94000)::text, 5, '0'),
      (${CITIES})[1 + g % 12], 'France', case when g % 15 = 0 then 'Inactive' else 'Active' end, now() - (g || ' minutes')::interval
    from generate_series(1, ${VOLUMES.companies}) g, (select array_agg(id order by id) ids from holdings where name like 'Organisation Bench %') h`);

  await sql(`
    insert into shops (holding_id, company_id, name, display_name, numero, siret, street, postal_code, city, country, email, phone, status,
      finess, rpps, code_client, specialite, created_at)
    select c.hids[i], c.cids[i], 'Centre ' || lpad(g::text, 5, '0'), (${CITIES})[1 + g % 12] || ' - centre ' || g, lpad((g % 1000)::text, 3, '0'),
      (50000000000000 + g)::text, g || ' boulevard Gambetta', lpad((1000 + g * 71 % 94000)::text, 5, '0'), (${CITIES})[1 + g % 12], 'France',
      'centre' || g || '@bench.example', '04 00 00 ' || lpad((g % 100)::text, 2, '0') || ' 00', case when g % 20 = 0 then 'Inactive' else 'Active' end,
      (700000000 + g)::text, (10000000000 + g)::text, 'BN-' || g, (array['Audioprothésiste','Opticien','Orthopédiste'])[1 + g % 3],
      now() - (g || ' minutes')::interval
    from generate_series(1, ${VOLUMES.shops}) g,
      (select array_agg(id order by id) cids, array_agg(holding_id order by id) hids from companies) c,
      lateral (select 1 + (g - 1) % array_length(c.cids, 1) as i) pick`);

  const roleRows = await sql(`select id, seed_key from roles where seed_key is not null`);
  const roleId = (key: SeededRoleKey) => roleRows.find((r) => r.seed_key === key)!.id as number;
  const workerRoles = (['audioprothesiste', 'assistant', 'readOnly'] as const).map(roleId);

  await sql(
    `
    insert into users (holding_id, email, password_hash, first_name, last_name, status, last_login_at, created_at)
    select s.hids[1 + (g - 1) % array_length(s.ids, 1)], 'bench.user.' || g || '@bench.example', $1,
      (${FIRST_NAMES})[1 + g % 15], (${LAST_NAMES})[1 + (g / 15) % 20] || ' ' || g,
      case when g % 25 = 0 then 'Inactive' when g % 97 = 0 then 'Locked' else 'Active' end,
      now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
    from generate_series(1, ${VOLUMES.users}) g,
      (select array_agg(id order by id) ids, array_agg(holding_id order by id) hids from shops) s`,
    [hash],
  );
  // Each user works in the centre their organisation was picked from, and has one of the PEC roles.
  await sql(`
    insert into user_shops (user_id, shop_id)
    select u.id, s.ids[1 + (substring(u.email from 'bench\\.user\\.(\\d+)@')::int - 1) % array_length(s.ids, 1)]
    from users u, (select array_agg(id order by id) ids from shops) s
    where u.email like 'bench.user.%'`);
  await sql(`
    insert into user_roles (user_id, role_id)
    select u.id, (array[${workerRoles.join(',')}])[1 + u.id % 3] from users u where u.email like 'bench.user.%'`);

  await sql(`
    insert into roles (holding_id, name, description, permissions, created_at)
    select h.ids[1 + (g - 1) % array_length(h.ids, 1)], 'Rôle ' || lpad(g::text, 3, '0'), 'Rôle propre à une organisation',
      array['pec.view', 'pec.create', 'settings.pec.create'], now() - (g || ' hours')::interval
    from generate_series(1, ${VOLUMES.roles}) g, (select array_agg(id order by id) ids from holdings where name like 'Organisation Bench %') h`);

  await sql(`
    insert into networks (name, code, description, is_default, status, created_at)
    select 'Réseau ' || lpad(g::text, 3, '0'), 'NET' || g, 'Réseau de soins ' || g, g = 1, case when g % 12 = 0 then 'Inactive' else 'Active' end,
      now() - (g || ' hours')::interval
    from generate_series(1, ${VOLUMES.networks}) g`);

  await sql(`
    insert into mutuals (name, code, network_id, status, created_at)
    select 'Mutuelle ' || lpad(g::text, 4, '0'), 'MUT' || g, case when g % 10 = 0 then null else n.ids[1 + (g - 1) % array_length(n.ids, 1)] end,
      case when g % 9 = 0 then 'Inactive' else 'Active' end, now() - (g || ' minutes')::interval
    from generate_series(1, ${VOLUMES.mutuals}) g, (select array_agg(id order by id) ids from networks) n`);

  await sql(`
    insert into software (holding_id, label, description, type, vendor, version, api_url, documentation_url, status, deleted_at, created_at)
    select h.ids[1 + (g - 1) % array_length(h.ids, 1)], 'Logiciel ' || lpad(g::text, 4, '0'), 'Logiciel de gestion ' || g,
      (array['general','mutual','network','medical','billing'])[1 + g % 5], 'Éditeur ' || (g % 40), (1 + g % 9) || '.' || (g % 10),
      'https://api' || g || '.bench.example', 'https://docs' || g || '.bench.example', case when g % 11 = 0 then 'Inactive' else 'Active' end,
      case when g % 50 = 0 then now() end, now() - (g || ' minutes')::interval
    from generate_series(1, ${VOLUMES.software}) g, (select array_agg(id order by id) ids from holdings where name like 'Organisation Bench %') h`);

  await sql(
    `
    insert into credential_software (holding_id, software_id, login, password_enc, login_page, status, context_type, context_name, environment,
      display_identifier, created_at)
    select s.hids[i], s.ids[i], 'robot.' || g, $1, 'https://login' || (g % 500) || '.bench.example/connexion',
      case when g % 13 = 0 then 'Inactive' else 'Active' end, (array['general','mutual','network'])[1 + g % 3],
      case when g % 3 = 0 then null else 'Contexte ' || (g % 50) end, case when g % 7 = 0 then 'test' else 'production' end,
      'Compte robot ' || g, now() - (g || ' minutes')::interval
    from generate_series(1, ${VOLUMES.credential_software}) g,
      (select array_agg(id order by id) ids, array_agg(holding_id order by id) hids from software where deleted_at is null) s,
      lateral (select 1 + (g - 1) % array_length(s.ids, 1) as i) pick`,
    [secret],
  );
  // Each centre uses one credential of its organisation.
  await sql(`
    insert into shop_credentials (shop_id, credential_id)
    select distinct on (s.id) s.id, c.id from shops s join credential_software c on c.holding_id = s.holding_id
    order by s.id, c.id`);

  await sql(`
    insert into audit_logs (holding_id, actor_id, actor_email, action, entity, entity_id, changes, created_at)
    select case when g % 20 = 0 then null else h.ids[1 + (g - 1) % array_length(h.ids, 1)] end, 1000 + g % 500, 'bench.user.' || (g % 500) || '@bench.example',
      (array['shop.update','user.update','company.create','credential.update','software.archive','mutual.update'])[1 + g % 6],
      (array['shops','users','companies','credential_software','software','mutuals'])[1 + g % 6], (g % 10000)::text,
      jsonb_build_object('status', jsonb_build_object('before', 'Active', 'after', 'Inactive')), now() - (g * 13 || ' seconds')::interval
    from generate_series(1, ${VOLUMES.audit_logs}) g, (select array_agg(id order by id) ids from holdings where name like 'Organisation Bench %') h`);

  // The accounts the lists are read as: the platform administrator, and the administrator of the first organisation.
  const [first] = await sql(`select id from holdings where name = 'Organisation Bench 0001'`);
  const admins = await sql(
    `insert into users (holding_id, email, password_hash, first_name, last_name) values
       (null, 'bench.admin@bench.example', $1, 'Admin', 'Bench'), ($2, 'bench.direction@bench.example', $1, 'Direction', 'Bench')
     returning id, email`,
    [hash, first!.id],
  );
  for (const admin of admins) {
    const role = admin.email === 'bench.admin@bench.example' ? 'superAdmin' : 'organisationAdmin';
    await sql(`insert into user_roles (user_id, role_id) values ($1, $2)`, [admin.id, roleId(role)]);
  }
  ctx.accounts.set('plateforme', { email: 'bench.admin@bench.example', password: BENCH_PASSWORD });
  ctx.accounts.set('organisation', { email: 'bench.direction@bench.example', password: BENCH_PASSWORD });

  const counts: Record<string, number> = {};
  for (const table of [...Object.keys(VOLUMES), 'user_shops', 'user_roles', 'shop_credentials', 'configs']) {
    const [row] = await sql(`select count(*)::int as n from ${table}`);
    counts[table] = Number(row!.n);
  }
  return counts;
}

/** Every back-office list, default sort (no sort parameter), first page as the admin screens ask it. */
const LISTS = ['holdings', 'companies', 'shops', 'users', 'roles', 'mutuals', 'networks', 'software', 'credential_software', 'configs', 'audit_logs'];

export const scenario: Scenario = {
  name: 'backoffice',
  description:
    'Listes du back-office, tri par défaut (et les centres par statut), première page (20 éléments ; identifiants et paramètres : liste non paginée)',
  seed: seedBackoffice,
  async endpoints(): Promise<Endpoint[]> {
    const endpoints: Endpoint[] = [];
    for (const name of LISTS) {
      // The credentials are not paginated (the spec): their own target.
      const targetP99Ms = name === 'credential_software' ? 100 : undefined;
      for (const as of ['plateforme', 'organisation']) endpoints.push({ label: `GET /api/${name}`, path: `/api/${name}`, as, targetP99Ms });
      // The platform's 5,000 credentials are 3 MB of JSON: also as a browser asks for them, compressed.
      if (name === 'credential_software')
        endpoints.push({
          label: `GET /api/${name} (navigateur : br)`,
          path: `/api/${name}`,
          as: 'plateforme',
          targetP99Ms,
          headers: { 'accept-encoding': BROWSER_ENCODINGS },
        });
    }
    // A sort other than a list's own: its ties come by name, then id (server/hydra/reader.ts), with no index for it.
    for (const as of ['plateforme', 'organisation']) endpoints.push({ label: 'GET /api/shops?order[status]=asc', path: '/api/shops?order[status]=asc', as });
    return endpoints;
  },
};
