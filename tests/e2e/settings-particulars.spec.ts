// What some entities add to the generic screens: the shop credential editor, the default network, the user's
// password toggle, roles and their permissions, bulk actions and deletion behind the confirmation.
import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { api, apiToken, chooseOption, formField, signIn, uniqueName } from './helpers';

/** Searches a list for one record and waits for the (debounced) answer. */
async function findOne(list: Locator, term: string) {
  await list.getByRole('searchbox', { name: 'Rechercher' }).fill(term);
  const row = list.getByTestId('list-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(term);
  return row;
}

test('the shop credential editor offers compatible active credentials, preselects the highest id, and saves by PUT then merge-patch', async ({
  page,
  request,
}) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const holding = '/api/holdings/1';
  const medical = await api(request, admin, 'POST', '/api/software', { label: uniqueName('Métier test'), type: 'medical', holding });
  const portal = await api(request, admin, 'POST', '/api/software', { label: uniqueName('Portail sans identifiant'), type: 'mutual', holding });
  const credential = (login: string, contextType: string, status = 'Active') =>
    api(request, admin, 'POST', '/api/credential_software', {
      login,
      loginPage: 'https://exemple.fr/connexion',
      software: medical['@id'],
      contextType,
      status,
    });
  const older = await credential(uniqueName('ancien'), 'general');
  const newer = await credential(uniqueName('recent'), 'general');
  const network = await credential(uniqueName('reseau'), 'network');
  const inactive = await credential(uniqueName('inactif'), 'general', 'Inactive');
  const shop = await api(request, admin, 'POST', '/api/shops', {
    name: uniqueName('Centre identifiants'),
    siret: '55210055400013',
    company: '/api/companies/1',
    country: 'France',
    finess: '750012345',
    rpps: '10101234567',
    codeClient: 'ID-TEST',
    specialite: 'Audioprothésiste',
  });

  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/settings/shops');
  const list = page.getByTestId('list-shops');
  await (await findOne(list, shop.name as string)).click();
  const drawer = page.getByTestId('resource-drawer');
  await expect(drawer.getByRole('heading', { name: 'Modifier centre' })).toBeVisible();
  await expect(drawer.getByRole('tab')).toHaveText(['Informations', 'Adresse et contact', /^Identifiants logiciels/]);
  // The tab's count shows whole, inside the tab (not clipped at its top-right corner).
  const credentialsTab = drawer.getByRole('tab', { name: /Identifiants logiciels/ });
  const count = credentialsTab.getByTestId('tab-count');
  await expect(count).toBeVisible();
  const [tabBox, countBox] = [await credentialsTab.boundingBox(), await count.boundingBox()];
  expect(countBox!.y).toBeGreaterThanOrEqual(tabBox!.y);
  expect(countBox!.x + countBox!.width).toBeLessThanOrEqual(tabBox!.x + tabBox!.width);
  await credentialsTab.click();

  const editor = drawer.getByTestId('shop-credentials');
  const medicalRow = editor.getByTestId('shop-credential-row').filter({ hasText: medical.label as string });
  // Medical software uses general credentials; the newest of the two active ones comes first.
  await expect(medicalRow.getByRole('combobox')).toHaveText(new RegExp(`^${newer.login}`));
  await medicalRow.getByRole('combobox').click();
  const options = page.getByRole('option');
  await expect(options).toHaveText(['Aucun', new RegExp(`^${newer.login}`), new RegExp(`^${older.login}`)]);
  await expect(page.getByRole('option', { name: new RegExp(network.login as string) })).toHaveCount(0);
  await expect(page.getByRole('option', { name: new RegExp(inactive.login as string) })).toHaveCount(0);
  await page.getByRole('option', { name: new RegExp(`^${older.login}`) }).click();
  const portalRow = editor.getByTestId('shop-credential-row').filter({ hasText: portal.label as string });
  await expect(portalRow).toContainText('Aucun identifiant compatible disponible pour ce type de logiciel.');

  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith(shop['@id'] as string) && ['PUT', 'PATCH'].includes(r.method()))
      writes.push(`${r.method()} ${r.headers()['content-type']?.split(';')[0]}`);
  });
  await drawer.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Centre mis à jour avec succès' })).toBeVisible();
  expect(writes).toEqual(['PUT application/json', 'PATCH application/merge-patch+json']);

  const saved = await api<{ credentials: string[] }>(request, admin, 'GET', shop['@id'] as string);
  expect(saved.credentials).toContain(older['@id']);
  expect(saved.credentials).not.toContain(newer['@id']);
  expect(saved.credentials).not.toContain(network['@id']);

  // Opened again in the same session, the centre shows what was saved (not the preselection of a centre never set up).
  await expect(drawer).toBeHidden();
  await (await findOne(list, shop.name as string)).click();
  await drawer.getByRole('tab', { name: /Identifiants logiciels/ }).click();
  await expect(medicalRow.getByRole('combobox')).toHaveText(new RegExp(`^${older.login}`));
});

test('marking a network as default says so and unmarks the others', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const network = await api(request, admin, 'POST', '/api/networks', { name: uniqueName('Réseau défaut') });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/networks');
  const list = page.getByTestId('list-networks');
  await (await findOne(list, network.name as string)).click();
  const drawer = page.getByTestId('resource-drawer');
  const toggle = drawer.getByRole('switch', { name: 'Réseau par défaut' }).or(drawer.getByRole('checkbox', { name: 'Réseau par défaut' }));
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await drawer.getByRole('button', { name: 'Enregistrer' }).click();
  const toast = page.getByTestId('toast').filter({ hasText: 'Réseau par défaut mis à jour' });
  await expect(toast).toContainText('Réseau par défaut mis à jour');
  await expect(toast).toContainText(`${network.name} est maintenant le réseau par défaut. Les autres réseaux ont été décochés automatiquement.`);
  await expect(list.getByTestId('list-row')).toContainText('Par défaut');
  const defaults = await api<{ member: { name: string }[] }>(request, admin, 'GET', '/api/networks?isDefault=true&pagination=false');
  expect(defaults.member.map((n) => n.name)).toEqual([network.name]);
  // The demo default again, for the other tests.
  const santeclair = await api<{ member: { '@id': string }[] }>(request, admin, 'GET', '/api/networks?code=SANTECLAIR');
  await api(request, admin, 'PATCH', santeclair.member[0]!['@id'], { isDefault: true });
});

/** The password an administrator typed is the account's: it signs in, to the step where its owner replaces it. */
async function expectTypedPassword(request: APIRequestContext, email: string, password: string) {
  const answer = await request.post('/api/login_check', { data: { email, password } });
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({ step: 'password_change' });
}

test('a user password is hidden behind "Modifier le mot de passe" and kept when left empty', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const email = `${uniqueName('motdepasse').replace(/\W+/g, '.')}@audition-horizon.fr`.toLowerCase();
  const user = await api(request, admin, 'POST', '/api/users', {
    firstName: 'Hugo',
    lastName: uniqueName('Secret'),
    email,
    password: 'Ancien-Mot-2026!',
    holding: '/api/holdings/1',
  });
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/settings/users');
  const list = page.getByTestId('list-users');
  await expect(await findOne(list, user.lastName as string)).toContainText('Aucun');
  await list
    .getByTestId('list-row')
    .getByText(user.lastName as string)
    .click();
  const drawer = page.getByTestId('resource-drawer');
  await expect(formField(drawer, 'Mot de passe')).toHaveCount(0);

  // Saved without touching the password: the old one still works.
  await chooseOption(page, drawer, 'Centres', 'Horizon Boulogne');
  await page.keyboard.press('Escape');
  await drawer.getByRole('button', { name: 'Enregistrer' }).click();
  const saved = page.getByTestId('toast').filter({ hasText: 'Utilisateur mis à jour avec succès' });
  await expect(saved).toBeVisible();
  await expect(list.getByTestId('list-row')).toContainText('1 centre(s)');
  await expectTypedPassword(request, email, 'Ancien-Mot-2026!');
  // A toast closes on a click: the second save's toast is then the only one.
  await saved.click();
  await expect(saved).toHaveCount(0);

  await list
    .getByTestId('list-row')
    .getByText(user.lastName as string)
    .click();
  await drawer.getByRole('button', { name: 'Modifier le mot de passe' }).click();
  await formField(drawer, 'Mot de passe').fill('123');
  // The password policy (issue 26), checked live under the field as the server checks it.
  await expect(drawer.getByText('Le mot de passe doit contenir au moins 12 caractères (ou 14 pour une phrase de passe)').first()).toBeVisible();
  await formField(drawer, 'Mot de passe').fill('Hugo-Azerty-2026');
  await expect(drawer.getByText('Le mot de passe ne doit contenir ni le nom, ni le prénom, ni l’email de l’utilisateur').first()).toBeVisible();
  await formField(drawer, 'Mot de passe').fill('Nouveau-Depart-2026!');
  await drawer.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(saved).toBeVisible();
  await expect(drawer).toBeHidden();
  await expectTypedPassword(request, email, 'Nouveau-Depart-2026!');
  const old = await request.post('/api/login_check', { data: { email, password: 'Ancien-Mot-2026!' } });
  expect(old.status()).toBe(401);
});

test('a role edit grants a permission by module, and the audit trail shows it', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const role = await api(request, admin, 'POST', '/api/roles', { name: uniqueName('Rôle audit'), permissions: ['pec.view'] });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/roles');
  const list = page.getByTestId('list-roles');
  await expect(await findOne(list, role.name as string)).toContainText('1 permission');
  await list.getByTestId('list-row').click();
  const drawer = page.getByTestId('resource-drawer');
  const module = drawer.getByTestId('permission-module-patient');
  await expect(module).toContainText('Dossiers patients (PEC)');
  await expect(module).toContainText('1 / 11');
  await module.getByText('Dossiers patients (PEC)').click();
  await expect(module.getByRole('checkbox', { name: /Voir les demandes de PEC/ })).toBeChecked();
  // The module has just unfolded: the first click can land while it is still moving.
  const create = module.getByRole('checkbox', { name: /Créer des demandes de PEC/ });
  await expect(async () => {
    await create.check();
    await expect(create).toBeChecked({ timeout: 1000 });
  }).toPass();
  await expect(module).toContainText('2 / 11');
  await expect(module.getByText('Création', { exact: true }).first()).toBeVisible();
  await drawer.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Rôle mis à jour avec succès' })).toBeVisible();
  await expect(list.getByTestId('list-row')).toContainText('2 permissions');
  const saved = await api<{ permissions: string[] }>(request, admin, 'GET', role['@id'] as string);
  expect(saved.permissions.sort()).toEqual(['pec.view', 'settings.pec.create']);

  await page.getByRole('tab', { name: 'Journal d’audit' }).click();
  const audit = page.getByTestId('list-audit_logs');
  await chooseOption(page, audit, 'Élément', 'Rôles');
  await chooseOption(page, audit, 'Action', 'Modification');
  const entry = audit
    .getByTestId('list-row')
    .filter({ hasText: new RegExp(`Rôle n° ${role.id}(?!\\d)`) })
    .filter({ hasText: 'Modification' });
  await expect(entry).toContainText('admin@pecflow.fr');
  await expect(entry).toContainText('Modification');
  await expect(entry).toContainText('Permissions');
  await entry.click();
  const detail = page.getByTestId('resource-drawer');
  await expect(detail.getByRole('heading', { name: /^Détail/ })).toBeVisible();
  const changes = detail.getByTestId('audit-changes');
  await expect(changes.getByRole('row', { name: /Permissions/ })).toContainText('settings.pec.create');
});

test('bulk Désactiver and bulk delete go through the confirmation, with the spec toasts', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const prefix = uniqueName('Groupe');
  for (let i = 1; i <= 3; i++) await api(request, admin, 'POST', '/api/mutuals', { name: `${prefix} ${i}` });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/mutuelles');
  const list = page.getByTestId('list-mutuals');
  await list.getByRole('searchbox', { name: 'Rechercher' }).fill(prefix);
  await expect(list.getByTestId('list-row')).toHaveCount(3);

  await list.getByRole('checkbox', { name: 'Tout sélectionner' }).check();
  const bulk = list.getByTestId('bulk-actions');
  await expect(bulk).toContainText('3 sélectionnées');
  await bulk.getByRole('button', { name: 'Désactiver' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: '3 mutuelles mises à jour' })).toBeVisible();
  await expect(list.getByTestId('list-row').filter({ hasText: 'Désactivé' })).toHaveCount(3);
  await expect(bulk).toHaveCount(0);

  await list.getByTestId('list-row').first().getByRole('checkbox').check();
  await expect(list.getByTestId('bulk-actions')).toContainText('1 sélectionnée');
  await list.getByRole('checkbox', { name: 'Tout sélectionner' }).check();
  await list.getByTestId('bulk-actions').getByRole('button', { name: 'Supprimer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Supprimer 3 éléments ?' });
  await expect(dialog).toContainText('Cette action est irréversible.');
  await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(dialog).toBeHidden();
  await expect(list.getByTestId('list-row')).toHaveCount(3);

  await list.getByTestId('bulk-actions').getByRole('button', { name: 'Supprimer' }).click();
  await page.getByRole('dialog', { name: 'Supprimer 3 éléments ?' }).getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: '3 mutuelles supprimées' })).toBeVisible();
  // Emptied under the search: one message, the search's.
  await expect(list.getByTestId('list-empty').getByRole('paragraph')).toHaveText(['Aucun résultat ne correspond à la recherche ou aux filtres choisis.']);
  await expect(list.getByTestId('list-empty').getByRole('button', { name: 'Nouvelle mutuelle' })).toBeVisible();
});

test('a record is deleted from its drawer after the confirmation; a refused delete keeps it with the reason', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const network = await api(request, admin, 'POST', '/api/networks', { name: uniqueName('Réseau à supprimer') });
  const used = await api(request, admin, 'POST', '/api/networks', { name: uniqueName('Réseau utilisé') });
  await api(request, admin, 'POST', '/api/mutuals', { name: uniqueName('Mutuelle liée'), network: used['@id'] });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/networks');
  const list = page.getByTestId('list-networks');
  const drawer = page.getByTestId('resource-drawer');

  await (await findOne(list, used.name as string)).click();
  await drawer.getByRole('button', { name: 'Supprimer' }).click();
  await page.getByRole('dialog', { name: 'Confirmer la suppression' }).getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Impossible de supprimer : 1 mutuelle est rattachée à ce réseau.' })).toBeVisible();
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Annuler' }).click();

  await (await findOne(list, network.name as string)).click();
  await expect(list.getByTestId('list-count')).toHaveText('1 réseau trouvé');
  const remove = drawer.getByRole('button', { name: 'Supprimer' });
  await remove.click();
  const dialog = page.getByRole('dialog', { name: 'Confirmer la suppression' });
  await expect(dialog).toContainText('Cette action est irréversible.');
  // It opens on 'Annuler': Enter keeps the record, the focus back on the drawer's 'Supprimer'; Échap too.
  await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(drawer).toBeVisible();
  await expect(remove).toBeFocused();
  await remove.click();
  await dialog.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Réseau supprimé avec succès' })).toBeVisible();
  // Emptied under the search: one message, the search's.
  await expect(list.getByTestId('list-empty').getByRole('paragraph')).toHaveText(['Aucun résultat ne correspond à la recherche ou aux filtres choisis.']);
});

test('a record has its address: /settings/holdings/{id} opens its drawer again after a reload, and closing it keeps the list', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const holding = await api(request, admin, 'POST', '/api/holdings', {
    name: uniqueName('Organisation lien'),
    registrationNumber: '552100554',
    country: 'France',
  });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto(`/settings/holdings/${holding.id}`);
  const drawer = page.getByTestId('resource-drawer');
  await expect(drawer.getByRole('heading', { name: 'Modifier organisation' })).toBeVisible();
  await expect(drawer.getByTestId('drawer-id')).toHaveText(`ID: ${holding.id}`);
  await expect(formField(drawer, 'Nom')).toHaveValue(holding.name as string);
  await page.reload();
  await expect(drawer.getByTestId('drawer-id')).toHaveText(`ID: ${holding.id}`);
  await expect(formField(drawer, 'Nom')).toHaveValue(holding.name as string);
  await drawer.getByRole('button', { name: 'Annuler' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/settings\/holdings$/);
  await expect(page.getByTestId('list-holdings').getByTestId('list-row').first()).toBeVisible();
  // The creation drawer has its address too.
  await page.goto('/settings/holdings/create');
  await expect(drawer.getByRole('heading', { name: 'Nouvelle organisation' })).toBeVisible();
});

test("after another network becomes the default, the former default's drawer shows 'Réseau par défaut' off", async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const former = await api(request, admin, 'POST', '/api/networks', { name: uniqueName('Réseau ancien défaut'), isDefault: true });
  const next = await api(request, admin, 'POST', '/api/networks', { name: uniqueName('Réseau nouveau défaut') });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/networks');
  const list = page.getByTestId('list-networks');
  const drawer = page.getByTestId('resource-drawer');
  const toggle = drawer.getByRole('switch', { name: 'Réseau par défaut' }).or(drawer.getByRole('checkbox', { name: 'Réseau par défaut' }));

  // The former default, opened once (its record is now in the browser's cache).
  await (await findOne(list, former.name as string)).click();
  await expect(toggle).toBeChecked();
  await drawer.getByRole('button', { name: 'Annuler' }).click();
  await expect(drawer).toBeHidden();

  await (await findOne(list, next.name as string)).click();
  await toggle.check();
  await drawer.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Réseau par défaut mis à jour' })).toBeVisible();
  await expect(drawer).toBeHidden();

  await (await findOne(list, former.name as string)).click();
  await expect(drawer.getByTestId('drawer-id')).toHaveText(`ID: ${former.id}`);
  await expect(toggle).not.toBeChecked();
  await expect(list.getByTestId('list-row')).not.toContainText('Par défaut');

  // The demo default again, for the other tests.
  const santeclair = await api<{ member: { '@id': string }[] }>(request, admin, 'GET', '/api/networks?code=SANTECLAIR');
  await api(request, admin, 'PATCH', santeclair.member[0]!['@id'], { isDefault: true });
});

test("a refused save shows ONE toast, and the toasts leave the drawer's buttons free", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/users/create');
  const drawer = page.getByTestId('resource-drawer');
  await formField(drawer, 'Prénom').fill('Double');
  await formField(drawer, 'Nom').fill('Courriel');
  // Already the address of a demo account: only the server knows.
  await formField(drawer, 'Email').fill('audio@audition-horizon.fr');
  await drawer.getByLabel('Envoyer une invitation').uncheck();
  await formField(drawer, 'Mot de passe').fill('Horizon-Lyon-42!');
  await chooseOption(page, drawer, 'Organisation', 'Audition Horizon');
  await drawer.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(drawer.getByText('Cet email est déjà utilisé')).toBeVisible();
  const toasts = page.getByTestId('toast');
  await expect(toasts).toHaveCount(1);
  await expect(toasts).toContainText('Erreur');
  await expect(toasts).toContainText('Cet email est déjà utilisé');
  await page.waitForTimeout(500);
  await expect(toasts).toHaveCount(1);

  // No toast over the drawer: its buttons can be clicked at once.
  const toastBox = (await toasts.boundingBox())!;
  const drawerBox = (await drawer.boundingBox())!;
  expect(toastBox.x + toastBox.width).toBeLessThanOrEqual(drawerBox.x);
  await drawer.getByRole('button', { name: 'Annuler' }).click({ timeout: 1_000 });
  // What was typed is not saved: « Annuler » asks before dropping it.
  await page.getByRole('dialog', { name: 'Abandonner les modifications ?' }).getByRole('button', { name: 'Abandonner' }).click();
  await expect(drawer).toBeHidden();

  // A save the browser refuses: its messages under the fields and one toast too.
  await page.goto('/settings/holdings/create');
  await expect(toasts).toHaveCount(0, { timeout: 6_000 });
  await drawer.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(drawer.getByText('SIREN requis')).toBeVisible();
  await expect(toasts).toHaveCount(1);
  await expect(toasts).toContainText('Le formulaire n’est pas valide.');
});
