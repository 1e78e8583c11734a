// The browser's tab names where the user is (a page, or the record its drawer shows), then Pecflow: several tabs, the
// history and the bookmarks of Pecflow can be told apart.
import { expect, test } from '@playwright/test';
import { signIn, signOut } from './helpers';
import { drawer, openFile, prepareFile } from './pec-fixtures';

const EMAIL = 'direction@audition-horizon.fr';

test('each page and each open record names the browser tab; closing the drawer or going back gives the page its name again', async ({ page, request }) => {
  const file = await prepareFile(request, EMAIL);
  await page.goto('/login');
  await expect(page).toHaveTitle('Connexion à Pecflow');
  await page.getByRole('link', { name: /Mot de passe oublié/ }).click();
  await expect(page).toHaveTitle('Mot de passe oublié — Pecflow');
  await page.goBack();
  await expect(page).toHaveTitle('Connexion à Pecflow');

  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(page).toHaveTitle('Gestion des PEC — Pecflow');
  // A file opened from the list, then closed.
  await page.getByTestId('pec-row').first().click();
  await expect(page).toHaveTitle(/^Demande PEC-\d{4}-\d{6} — Pecflow$/);
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
  await expect(page).toHaveTitle('Gestion des PEC — Pecflow');
  // Its address opened directly: the record's name, not the page's that mounts with it.
  await openFile(page, file);
  await expect(page).toHaveTitle(`Demande ${file.numeroDossier} — Pecflow`);
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
  await page.getByRole('button', { name: 'Nouvelle Demande de PEC' }).click();
  await expect(page).toHaveTitle('Nouvelle Demande de PEC — Pecflow');
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();

  await page.getByRole('menuitem', { name: 'Paiements' }).click();
  await expect(page).toHaveTitle('Relevés de paiement — Pecflow');
  await page.getByRole('menuitem', { name: 'Tableau de bord' }).click();
  await expect(page).toHaveTitle('Tableau de bord — Pecflow');
  await page.goBack();
  await expect(page).toHaveTitle('Relevés de paiement — Pecflow');
  await page.goto('/settings/shops');
  await expect(page).toHaveTitle('Centres · Paramètres — Pecflow');
  await page.getByRole('tab', { name: 'Utilisateurs' }).click();
  await expect(page).toHaveTitle('Utilisateurs · Paramètres — Pecflow');

  await signOut(page);
  await expect(page).toHaveTitle('Connexion à Pecflow');
});

test('an open settings record names the tab by its drawer’s title and the record’s name; a new one by its title', async ({ page, request }) => {
  // An audit entry to open: the file's creation.
  await prepareFile(request, EMAIL);
  await signIn(page, EMAIL);
  await page.goto('/settings/shops');
  await expect(page).toHaveTitle('Centres · Paramètres — Pecflow');
  const settingsDrawer = page.getByTestId('resource-drawer');
  await page.getByTestId('list-shops').getByTestId('list-row').getByRole('cell', { name: 'Horizon Paris Bastille' }).click();
  await expect(settingsDrawer.getByRole('heading', { name: 'Modifier centre' })).toBeVisible();
  await expect(page).toHaveTitle('Modifier centre : Horizon Paris Bastille — Pecflow');
  await page.keyboard.press('Escape');
  await expect(settingsDrawer).toBeHidden();
  await expect(page).toHaveTitle('Centres · Paramètres — Pecflow');
  // A new record has no name yet: the drawer's title.
  await page.getByTestId('list-shops').getByRole('button', { name: 'Nouveau centre' }).click();
  await expect(page).toHaveTitle('Nouveau centre — Pecflow');
  await page.keyboard.press('Escape');
  await expect(settingsDrawer).toBeHidden();

  // A person by their name; the record's address opened directly (a reload) names it too, over the page's title.
  await page.getByRole('tab', { name: 'Utilisateurs' }).click();
  await page.getByTestId('list-users').getByTestId('list-row').getByRole('cell', { name: 'Léa Petit' }).click();
  await expect(page).toHaveTitle('Modifier utilisateur : Léa Petit — Pecflow');
  await page.reload();
  await expect(settingsDrawer.getByRole('heading', { name: 'Modifier utilisateur' })).toBeVisible();
  await expect(page).toHaveTitle('Modifier utilisateur : Léa Petit — Pecflow');
  await page.keyboard.press('Escape');
  await expect(settingsDrawer).toBeHidden();
  await expect(page).toHaveTitle('Utilisateurs · Paramètres — Pecflow');

  // A record with no name of its own (an audit entry, shown read-only): its number, as its drawer's 'ID: …' says.
  await page.getByRole('tab', { name: 'Journal d’audit' }).click();
  await page.getByTestId('list-audit_logs').getByTestId('list-row').first().click();
  const entryId = ((await settingsDrawer.getByTestId('drawer-id').textContent()) ?? '').replace('ID: ', '');
  expect(entryId).toMatch(/^\d+$/);
  await expect(page).toHaveTitle(`Détail : entrée du journal d’audit n° ${entryId} — Pecflow`);
  await page.keyboard.press('Escape');
  await expect(settingsDrawer).toBeHidden();
  await expect(page).toHaveTitle('Journal d’audit · Paramètres — Pecflow');
});

test('the « Non autorisé » page names the app bar and the tab, as the other pages do', async ({ page }) => {
  // Read-only staff may not import payments: react-admin's access check sends them to its refusal page.
  await signIn(page, 'lecture@audition-horizon.fr');
  for (const address of ['/payment_statements/create', '/payment_statements']) {
    await page.goto(address);
    await expect(page).toHaveURL(/\/access-denied$/);
    await expect(page.getByRole('main').getByRole('heading', { name: 'Non autorisé' })).toBeVisible();
    await expect(page.locator('#react-admin-title')).toHaveText('Non autorisé');
    await expect(page).toHaveTitle('Non autorisé — Pecflow');
  }
  // Left for a page of theirs, the tab names that page again.
  await page.getByRole('menuitem').filter({ hasText: 'Demandes PEC' }).click();
  await expect(page).toHaveTitle('Gestion des PEC — Pecflow');
  await expect(page.locator('#react-admin-title')).not.toHaveText('Non autorisé');
});
