// Every entity tab of Paramètres: the list, the server-side search (debounced, back to page 1), the status filter,
// 20 rows a page with "N résultats" and "Page x / y" (credentials: one page, searched in the browser).
import { expect, test, type APIRequestContext } from '@playwright/test';
import { api, apiToken, chooseOption, signIn, typeDate, uniqueName } from './helpers';

interface Entity {
  section: string;
  collection: string;
  /** French plural and gender, as the count says it. */
  plural: string;
  feminine: boolean;
  paginated: boolean;
  /** Column whose text is searched: the name the test gives its records. */
  body: (name: string, i: number, inactive: boolean) => Record<string, unknown>;
  inactive?: string;
}

const status = (inactive: boolean) => (inactive ? 'Inactive' : 'Active');

const ENTITIES: Entity[] = [
  {
    section: 'holdings',
    collection: 'holdings',
    plural: 'organisations',
    feminine: true,
    paginated: true,
    body: (name, _i, inactive) => ({ name, registrationNumber: '123456789', country: 'France', status: status(inactive) }),
  },
  {
    section: 'companies',
    collection: 'companies',
    plural: 'entreprises',
    feminine: true,
    paginated: true,
    body: (name, _i, inactive) => ({ name, registrationNumber: '123456789', holding: '/api/holdings/1', country: 'France', status: status(inactive) }),
  },
  {
    section: 'shops',
    collection: 'shops',
    plural: 'centres',
    feminine: false,
    paginated: true,
    body: (name, i, inactive) => ({
      name,
      siret: '12345678900011',
      company: '/api/companies/1',
      country: 'France',
      finess: '123456789',
      rpps: '12345678901',
      codeClient: `T-${i}`,
      specialite: 'Opticien',
      status: status(inactive),
    }),
  },
  {
    section: 'users',
    collection: 'users',
    plural: 'utilisateurs',
    feminine: false,
    paginated: true,
    body: (name, i, inactive) => ({
      firstName: 'Test',
      lastName: name,
      email: `${name.replace(/\W+/g, '.')}.${i}@exemple.fr`.toLowerCase(),
      password: 'Pecflow2026!',
      holding: '/api/holdings/1',
      status: status(inactive),
    }),
  },
  {
    section: 'mutuelles',
    collection: 'mutuals',
    plural: 'mutuelles',
    feminine: true,
    paginated: true,
    body: (name, _i, inactive) => ({ name, status: status(inactive) }),
  },
  {
    section: 'networks',
    collection: 'networks',
    plural: 'réseaux',
    feminine: false,
    paginated: true,
    body: (name, _i, inactive) => ({ name, status: status(inactive) }),
  },
  {
    section: 'software',
    collection: 'software',
    plural: 'logiciels',
    feminine: false,
    paginated: true,
    body: (name, _i, inactive) => ({ label: name, type: 'general', holding: '/api/holdings/1', status: status(inactive) }),
  },
  {
    section: 'credentials',
    collection: 'credential_software',
    plural: 'identifiants',
    feminine: false,
    paginated: false,
    body: (name, _i, inactive) => ({ login: name, loginPage: 'https://exemple.fr/connexion', software: '/api/software/1', status: status(inactive) }),
  },
];

const found = (entity: Entity, n: number) => `${n} ${entity.plural} trouvé${entity.feminine ? 'e' : ''}s`;

/** 21 records named "{prefix} 01" to "{prefix} 21", the first two inactive. */
async function seed(request: APIRequestContext, entity: Entity, prefix: string) {
  const token = await apiToken(request, 'admin@pecflow.fr');
  for (let i = 1; i <= 21; i++) {
    await api(request, token, 'POST', `/api/${entity.collection}`, entity.body(`${prefix} ${String(i).padStart(2, '0')}`, i, i <= 2));
  }
}

for (const entity of ENTITIES) {
  test(`${entity.section}: list, search, status filter and ${entity.paginated ? 'pagination by 20' : 'one page'}`, async ({ page, request }) => {
    const prefix = uniqueName('Liste');
    await seed(request, entity, prefix);
    await signIn(page, 'admin@pecflow.fr');
    await page.goto(`/settings/${entity.collection}`);
    const list = page.getByTestId(`list-${entity.collection}`);
    await expect(list.getByTestId('list-row').first()).toBeVisible();
    await expect(list.getByTestId('list-count')).toHaveText(new RegExp(`^\\d+ ${entity.plural} trouvée?s$`));

    const search = list.getByRole('searchbox', { name: 'Rechercher' });
    await search.fill(prefix);
    await expect(list.getByTestId('list-count')).toHaveText(found(entity, 21));
    const rows = list.getByTestId('list-row');
    const pagination = list.getByTestId('pagination');
    if (entity.paginated) {
      await expect(rows).toHaveCount(20);
      await expect(pagination).toContainText('21 résultats');
      await expect(pagination).toContainText('Page 1 / 2');
      await expect(pagination.getByRole('button', { name: 'Précédent' })).toBeDisabled();
      // A selection is the rows in view: leaving the page drops it.
      await list.getByRole('checkbox', { name: 'Tout sélectionner' }).check();
      await expect(list.getByTestId('bulk-actions')).toContainText('20');
      await pagination.getByRole('button', { name: 'Suivant' }).click();
      await expect(pagination).toContainText('Page 2 / 2');
      await expect(rows).toHaveCount(1);
      await expect(list.getByTestId('bulk-actions')).toHaveCount(0);
      await expect(pagination.getByRole('button', { name: 'Suivant' })).toBeDisabled();
      // A new search goes back to the first page: "{prefix} 1" matches 10 to 19.
      await search.fill(`${prefix} 1`);
      await expect(list.getByTestId('list-count')).toHaveText(found(entity, 10));
      await expect(pagination).toContainText('Page 1 / 1');
      await expect(rows).toHaveCount(10);
    } else {
      await expect(rows).toHaveCount(21);
      await expect(pagination).toHaveCount(0);
      await search.fill(`${prefix} 1`);
      await expect(list.getByTestId('list-count')).toHaveText(found(entity, 10));
      await expect(rows).toHaveCount(10);
    }

    await search.fill(prefix);
    await expect(list.getByTestId('list-count')).toHaveText(found(entity, 21));
    await chooseOption(page, list, 'Statut', /Désactivé/);
    await expect(list.getByTestId('list-count')).toHaveText(found(entity, 2));
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('Désactivé');
    // The filter is in the address: a reload shows the same list.
    await expect(page).toHaveURL(/[?&]filter=[^&]*Inactive/);
    await page.reload();
    await expect(list.getByTestId('list-count')).toHaveText(found(entity, 2));
    await expect(list.getByRole('searchbox', { name: 'Rechercher' })).toHaveValue(prefix);
    await chooseOption(page, list, 'Statut', 'Tous');
    await expect(list.getByTestId('list-count')).toHaveText(found(entity, 21));

    // A search that finds nothing offers to clear it and the filters, not to create a record.
    await search.fill(`${prefix} introuvable`);
    const empty = list.getByTestId('list-empty');
    await expect(empty).toContainText('Aucun résultat ne correspond à la recherche ou aux filtres choisis.');
    await empty.getByRole('button', { name: 'Effacer les filtres' }).focus();
    await page.keyboard.press('Enter');
    await expect(list.getByRole('searchbox', { name: 'Rechercher' })).toHaveValue('');
    await expect(rows.first()).toBeVisible();
    await expect(list.getByTestId('list-empty')).toHaveCount(0);
    // The button went with the empty state: the focus is in the search box, not on the page's body.
    await expect(search).toBeFocused();
  });
}

test('the mutuelles list is filtered by network, the networks list counts active mutuelles', async ({ page, request }) => {
  const token = await apiToken(request, 'admin@pecflow.fr');
  const network = await api(request, token, 'POST', '/api/networks', { name: uniqueName('Réseau filtre') });
  const prefix = uniqueName('Mutuelle filtre');
  for (const [i, state] of ['Active', 'Active', 'Inactive'].entries()) {
    await api(request, token, 'POST', '/api/mutuals', { name: `${prefix} ${i}`, network: network['@id'], status: state });
  }
  await api(request, token, 'POST', '/api/mutuals', { name: `${prefix} sans réseau` });
  await signIn(page, 'admin@pecflow.fr');
  // The spec's former address leads to the entity's own.
  await page.goto('/settings/mutuelles');
  await expect(page).toHaveURL(/\/settings\/mutuals$/);
  const list = page.getByTestId('list-mutuals');
  await list.getByRole('searchbox', { name: 'Rechercher' }).fill(prefix);
  await expect(list.getByTestId('list-count')).toHaveText('4 mutuelles trouvées');
  await expect(list.getByTestId('list-row').filter({ hasText: 'sans réseau' })).toContainText('Non défini');
  await chooseOption(page, list, 'Réseau', network.name as string);
  await expect(list.getByTestId('list-count')).toHaveText('3 mutuelles trouvées');
  await expect(list.getByTestId('list-row').first()).toContainText(network.name as string);

  await page.getByRole('tab', { name: 'Réseaux' }).click();
  const networks = page.getByTestId('list-networks');
  await networks.getByRole('searchbox', { name: 'Rechercher' }).fill(network.name as string);
  await expect(networks.getByTestId('list-count')).toHaveText('1 réseau trouvé');
  // Two of its three mutuelles are active.
  await expect(networks.getByTestId('list-row').getByRole('cell').nth(3)).toHaveText('2');
});

test('a list shows its order from the first load; sorted by status, the centres of one status come by name', async ({ page, request }) => {
  const shops = ENTITIES.find((entity) => entity.collection === 'shops')!;
  const prefix = uniqueName('Ordre');
  const token = await apiToken(request, 'admin@pecflow.fr');
  // Created against their names' order: by id, each status's centres would come the other way.
  const created = [
    ['Delta', false],
    ['Charlie', true],
    ['Bravo', false],
    ['Alpha', true],
  ] as const;
  for (const [i, [name, inactive]] of created.entries()) await api(request, token, 'POST', '/api/shops', shops.body(`${prefix} ${name}`, i, inactive));
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/shops');
  const list = page.getByTestId('list-shops');
  const header = (label: string) => list.getByRole('columnheader').filter({ hasText: new RegExp(`^${label}$`) });
  const arrow = (label: string) => header(label).locator('.MuiTableSortLabel-icon');
  await expect(list.getByTestId('list-row').first()).toBeVisible();
  // The server's order when none is asked (by name, A to Z), shown by its arrow and said to screen readers.
  await expect(header('Nom')).toHaveAttribute('aria-sort', 'ascending');
  await expect(arrow('Nom')).toHaveCSS('opacity', '1');
  await expect(header('Statut')).not.toHaveAttribute('aria-sort');

  await list.getByRole('searchbox', { name: 'Rechercher' }).fill(prefix);
  const names = list.getByTestId('list-row').locator('td:nth-child(2)');
  await expect(names).toHaveText(['Alpha', 'Bravo', 'Charlie', 'Delta'].map((name) => `${prefix} ${name}`));
  await header('Statut').getByRole('button').click();
  await expect(header('Statut')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header('Nom')).not.toHaveAttribute('aria-sort');
  await expect(names).toHaveText(['Bravo', 'Delta', 'Alpha', 'Charlie'].map((name) => `${prefix} ${name}`));
  // Descending is the exact reverse, ties included.
  await header('Statut').getByRole('button').click();
  await expect(header('Statut')).toHaveAttribute('aria-sort', 'descending');
  await expect(names).toHaveText(['Charlie', 'Alpha', 'Delta', 'Bravo'].map((name) => `${prefix} ${name}`));
});

test('on a 1366 px screen a list’s filters stand side by side, each as wide as its content (the audit trail’s five)', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/settings/audit');
  const filters = page.getByTestId('list-filters');
  const fields = filters.locator(':scope > .MuiFormControl-root');
  await expect(fields).toHaveCount(5);
  await expect(fields.nth(0)).toContainText('Utilisateur');
  // Measured once the date fields' picker has loaded (until then each is a plain field of its own width).
  await expect(page.getByRole('button', { name: /^Choisir la date/ }).first()).toBeVisible();
  const layout = () =>
    fields.evaluateAll((elements) => {
      const row = elements[0]!.parentElement!.getBoundingClientRect();
      const boxes = elements.map((element) => element.getBoundingClientRect());
      return { oneLine: boxes.every((box) => box.top === boxes[0]!.top), widest: Math.max(...boxes.map((box) => box.width)) / row.width };
    });
  await expect.poll(layout).toMatchObject({ oneLine: true });
  expect((await layout()).widest).toBeLessThan(1 / 3);
  // A date field holds a whole date.
  const date = page.getByRole('textbox', { name: 'Du' });
  await typeDate(date, '24122026');
  await expect(date).toHaveValue('24/12/2026');
  expect(await date.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth)).toBe(true);
});
