// Paramètres: tabs filtered by permission, /settings leading to the first allowed tab, access-denied texts.
import { expect, test } from '@playwright/test';
import { api, apiToken, ownPassword, signIn, uniqueName } from './helpers';

const ALL_TABS = [
  'Organisations',
  'Entreprises',
  'Centres',
  'Utilisateurs',
  'Rôles',
  'Mutuelles',
  'Réseaux',
  'Logiciels',
  'Identifiants',
  'Système',
  'Journal d’audit',
  'Prescripteurs',
];

test('a platform administrator sees every tab and /settings opens the first one', async ({ page }) => {
  await signIn(page, 'admin@pecflow.fr');
  await page.getByRole('menuitem').filter({ hasText: 'Paramètres' }).click();
  await expect(page).toHaveURL(/\/settings\/holdings$/);
  await expect(page.getByRole('heading', { name: 'Paramètres', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab')).toHaveText(ALL_TABS);
  await expect(page.getByRole('tab', { name: 'Organisations' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Réseaux' }).click();
  await expect(page).toHaveURL(/\/settings\/networks$/);
  await expect(page.getByRole('heading', { name: 'Réseaux', level: 2 })).toBeVisible();
  // An unknown section leads back to the first tab.
  await page.goto('/settings/nimporte-quoi');
  await expect(page).toHaveURL(/\/settings\/holdings$/);
});

test('an organisation administrator sees only their organisation, without "Nouvelle organisation"', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/settings\/holdings$/);
  const list = page.getByTestId('list-holdings');
  await expect(list.getByTestId('list-count')).toHaveText('1 organisation trouvée');
  await expect(list.getByTestId('list-row')).toHaveCount(1);
  await expect(list.getByTestId('list-row')).toContainText('Audition Horizon');
  await expect(page.getByText('Optique Riviera')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Actualiser' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nouvelle organisation' })).toHaveCount(0);
  // Mutuelles are reference data they may read, not create.
  await page.getByRole('tab', { name: 'Mutuelles' }).click();
  await expect(page.getByTestId('list-mutuals').getByTestId('list-row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nouvelle mutuelle' })).toHaveCount(0);
  // Companies are theirs to create.
  await page.getByRole('tab', { name: 'Entreprises' }).click();
  await expect(page.getByRole('button', { name: 'Nouvelle entreprise' })).toBeVisible();
});

test('a read-only user has no Paramètres entry and /settings shows the access-denied texts', async ({ page }) => {
  await signIn(page, 'lecture@audition-horizon.fr');
  await expect(page.getByRole('menuitem').filter({ hasText: 'Demandes PEC' })).toBeVisible();
  await expect(page.getByRole('menuitem').filter({ hasText: 'Paramètres' })).toHaveCount(0);
  await page.goto('/settings');
  const denied = page.getByTestId('settings-denied');
  await expect(denied).toContainText('Accès refusé - Permissions insuffisantes');
  await expect(denied).toContainText('Accès non autorisé');
  await expect(denied).toContainText(
    'Vous n’avez pas les permissions nécessaires pour accéder aux paramètres système. Contactez votre administrateur pour obtenir l’accès.',
  );
  await expect(denied).toContainText('Aucun paramètre accessible avec vos permissions actuelles');
  await expect(page.getByRole('tab')).toHaveCount(0);
});

test('tabs follow the permissions of the role: one section only, and Système says why it is refused', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const role = await api(request, admin, 'POST', '/api/roles', { name: uniqueName('Lecteur centres'), permissions: ['settings.shops.view'] });
  const email = `${uniqueName('centres').replace(/\W+/g, '.')}@audition-horizon.fr`.toLowerCase();
  await api(request, admin, 'POST', '/api/users', {
    firstName: 'Paul',
    lastName: 'Centres',
    email,
    password: 'Tape-Par-Admin-2026!',
    holding: '/api/holdings/1',
    roles: [role['@id']],
  });
  await ownPassword(request, email, 'Tape-Par-Admin-2026!');
  await signIn(page, email);
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/settings\/shops$/);
  await expect(page.getByRole('tab')).toHaveText(['Centres']);
  await expect(page.getByRole('button', { name: 'Nouveau centre' })).toHaveCount(0);
  await page.goto('/settings/system');
  await expect(page.getByText('Accès refusé', { exact: true })).toBeVisible();
  await expect(page.getByText('Vous n’avez pas les permissions pour voir les paramètres système.')).toBeVisible();
  await page.goto('/settings/holdings');
  await expect(page).toHaveURL(/\/settings\/shops$/);
});
