// Paramètres > Système, the audit trail of a setting change, and the screens at a phone's width.
import { expect, test } from '@playwright/test';
import { api, apiToken, chooseOption, signIn } from './helpers';

const KEY = 'security.refresh_token_ttl_days';

test('a system setting is edited with Enregistrer / Annuler, checked by the server, and the audit trail shows it', async ({ page, request }) => {
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/system');
  const screen = page.getByTestId('system-settings');
  await expect(screen.getByRole('heading', { name: 'Paramètres système' })).toBeVisible();
  await expect(screen).toContainText('Note de sécurité');
  for (const stat of ['total', 'editable', 'readOnly', 'categories']) await expect(screen.getByTestId(`stat-${stat}`)).toContainText(/\d+/);
  await expect(screen.getByTestId('stat-categories')).toContainText('6');

  await chooseOption(page, screen, 'Catégorie', 'Sécurité');
  await expect(screen.getByTestId('category-security')).toBeVisible();
  await expect(screen.getByTestId('category-general')).toHaveCount(0);

  const card = screen.getByTestId(`setting-${KEY}`);
  await expect(card).toContainText('Modifiable');
  // Named by its description for screen readers.
  const input = card.getByRole('spinbutton', { name: 'Durée de vie de la session (jeton de rafraîchissement), en jours' });
  await expect(input).toHaveValue('30');
  await expect(card.getByRole('button', { name: 'Enregistrer' })).toHaveCount(0);
  await input.fill('45');
  await expect(card.getByRole('button', { name: 'Enregistrer' })).toBeVisible();
  await card.getByRole('button', { name: 'Annuler' }).click();
  await expect(input).toHaveValue('30');
  await expect(card.getByRole('button', { name: 'Annuler' })).toHaveCount(0);

  // Out of range: the setting's own rule (sent by the API, the server's check) says so under the field at once.
  await input.fill('0');
  await expect(card).toContainText('Valeur trop petite : au moins 1.');
  await expect(card.getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
  await input.fill('2.5');
  await expect(card).toContainText('Valeur invalide : un nombre entier est attendu.');

  await input.fill('45');
  await card.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Paramètre mis à jour avec succès' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Enregistrer' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId(`setting-${KEY}`).getByRole('spinbutton')).toHaveValue('45');

  // A setting with a closed list of values is chosen from it.
  const robotMode = page.getByTestId('setting-integrations.robot_mode');
  await robotMode.getByRole('combobox').click();
  await expect(page.getByRole('option')).toHaveText(['simulator', 'http']);
  await page.keyboard.press('Escape');

  // Read-only settings cannot be changed.
  const readOnly = page.getByTestId('setting-general.app_name');
  await expect(readOnly).toContainText('Lecture seule');
  await expect(readOnly.getByRole('textbox')).toBeDisabled();

  await page.getByRole('tab', { name: 'Journal d’audit' }).click();
  const audit = page.getByTestId('list-audit_logs');
  await chooseOption(page, audit, 'Élément', 'Paramètres système');
  await chooseOption(page, audit, 'Action', 'Modification');
  const entry = audit.getByTestId('list-row').filter({ hasText: 'Modification' }).first();
  await expect(entry).toContainText('admin@pecflow.fr');
  await expect(entry).toContainText('Valeur');
  await entry.click();
  const changes = page.getByTestId('resource-drawer').getByTestId('audit-changes');
  await expect(changes.getByRole('row', { name: /Valeur/ })).toHaveText(/Valeur\s*30\s*45/);

  // Back to the demo value for the other tests.
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const found = await api<{ member: { '@id': string }[] }>(request, admin, 'GET', `/api/configs?key=${KEY}`);
  await api(request, admin, 'PUT', found.member[0]!['@id'], { value: 30 });
});

test('an organisation administrator reads the system settings without editing them', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/settings/system');
  const screen = page.getByTestId('system-settings');
  await expect(screen.getByTestId(`setting-${KEY}`)).toContainText('Modifiable');
  await expect(screen).not.toContainText('Note de sécurité');
  await expect(screen.getByTestId(`setting-${KEY}`).getByRole('spinbutton')).toBeDisabled();
});

test.describe('at 390 px wide', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the list keeps its filters behind « Filtres », the drawer takes the whole screen', async ({ page }) => {
    await signIn(page, 'admin@pecflow.fr');
    await page.goto('/settings/companies');
    const list = page.getByTestId('list-companies');
    await expect(list.getByTestId('list-row').first()).toBeVisible();
    await expect(list.getByRole('searchbox', { name: 'Rechercher' })).toBeVisible();
    await expect(list.getByTestId('list-filters')).toBeHidden();
    await expect(list.getByRole('button', { name: 'Nouvelle entreprise' })).toBeVisible();
    // The page itself never scrolls sideways; the table does.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // « Filtres » shows them; the button says how many are set, and hides them again.
    const toggle = list.getByRole('button', { name: 'Filtres', exact: true });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(list.getByTestId('list-filters')).toBeVisible();
    await chooseOption(page, list, 'Statut', /Désactivé/);
    await expect(page).toHaveURL(/filter=.*status/);
    const set = list.getByRole('button', { name: 'Filtres (1)' });
    await expect(set).toHaveAttribute('aria-expanded', 'true');
    await set.click();
    await expect(list.getByTestId('list-filters')).toBeHidden();
    await set.click();
    await chooseOption(page, list, 'Statut', 'Tous');
    await expect(toggle).toBeVisible();

    await list.getByTestId('list-row').first().getByRole('cell').nth(1).click();
    const drawer = page.getByTestId('resource-drawer');
    await expect(drawer.getByRole('heading', { name: 'Modifier entreprise' })).toBeVisible();
    await expect.poll(async () => Math.round((await drawer.boundingBox())?.x ?? -1)).toBe(0);
    expect(Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(390);
    await expect(drawer.getByRole('button', { name: 'Enregistrer' })).toBeInViewport();
  });
});

test('at 1280 px the drawer opens on the right side', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/companies');
  const list = page.getByTestId('list-companies');
  await expect(list.getByTestId('list-filters')).toBeVisible();
  await list.getByTestId('list-row').first().getByRole('cell').nth(1).click();
  const drawer = page.getByTestId('resource-drawer');
  await expect(drawer.getByRole('heading', { name: 'Modifier entreprise' })).toBeVisible();
  // Once it has slid in: 720 px wide against the right edge.
  await expect.poll(async () => Math.round((await drawer.boundingBox())?.x ?? 0)).toBe(1280 - 720);
  expect(Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(720);
});
