// Prescripteurs, the entity added by its declaration alone: its settings tab, list, search, status filter, creation
// refused for an invalid RPPS then accepted, edit and delete, all from the generated screens.
import { expect, test } from '@playwright/test';
import { api, apiToken, chooseOption, formField, selectField, signIn, uniqueName } from './helpers';

/** 11 digits no other test uses. */
const rpps = () => String(Date.now()).slice(-8) + String(Math.floor(Math.random() * 900) + 100);

test('prescribers: list, search, status filter, create after an invalid RPPS, edit and delete', async ({ page, request }) => {
  const admin = await apiToken(request, 'direction@audition-horizon.fr');
  const prefix = uniqueName('Prescripteur');
  for (const [i, status] of ['Active', 'Active', 'Inactive'].entries()) {
    await api(request, admin, 'POST', '/api/prescribers', { civility: 'Dr', lastName: `${prefix} ${i}`, specialty: 'ORL', rpps: rpps(), city: 'Lyon', status });
  }

  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Prescripteurs' }).click();
  await expect(page).toHaveURL(/\/settings\/prescribers$/);
  const list = page.getByTestId('list-prescribers');
  await expect(list.getByRole('heading', { name: 'Prescripteurs', level: 2 })).toBeVisible();
  await expect(list.getByRole('columnheader')).toContainText(['Civilité', 'Nom', 'Prénom', 'Spécialité', 'RPPS', 'Ville', 'Statut']);

  // Search (in the URL), then the status filter.
  const search = list.getByRole('searchbox', { name: 'Rechercher' });
  await expect(search).toHaveAttribute('placeholder', 'Rechercher (nom, RPPS, ville)…');
  await search.fill(prefix);
  await expect(list.getByTestId('list-count')).toHaveText('3 prescripteurs trouvés');
  await expect(page).toHaveURL(/filter=/);
  await chooseOption(page, list, 'Statut', /Désactivé/);
  await expect(list.getByTestId('list-count')).toHaveText('1 prescripteur trouvé');
  await expect(list.getByTestId('list-row')).toContainText(`${prefix} 2`);
  await chooseOption(page, list, 'Statut', 'Tous');
  await expect(list.getByTestId('list-count')).toHaveText('3 prescripteurs trouvés');

  // Create: the RPPS rule of the declaration, in the browser, then the creation.
  await list.getByRole('button', { name: 'Nouveau prescripteur' }).click();
  await expect(page).toHaveURL(/\/settings\/prescribers\/create/);
  const drawer = page.getByTestId('resource-drawer');
  await expect(drawer.getByRole('heading', { name: 'Nouveau prescripteur' })).toBeVisible();
  await expect(selectField(drawer, 'Civilité')).toContainText('Dr');
  const name = `${prefix} nouveau`;
  await formField(drawer, 'Nom').fill(name);
  await formField(drawer, 'RPPS').fill('1234');
  await drawer.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(drawer.getByText('RPPS doit contenir 11 chiffres')).toBeVisible();
  await expect(page.getByTestId('toast')).toHaveCount(1);
  const number = rpps();
  await formField(drawer, 'RPPS').fill(number);
  await expect(drawer.getByText('RPPS doit contenir 11 chiffres')).toHaveCount(0);
  await chooseOption(page, drawer, 'Spécialité', 'Ophtalmologiste');
  await formField(drawer, 'Ville').fill('Grenoble');
  await drawer.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Prescripteur créé avec succès' })).toContainText('Succès');
  await expect(drawer).toBeHidden();
  await expect(list.getByTestId('list-count')).toHaveText('4 prescripteurs trouvés');
  const row = list.getByTestId('list-row').filter({ hasText: name });
  await expect(row).toContainText('Ophtalmologiste');
  await expect(row).toContainText(number);

  // Edit.
  await row.getByText(name).click();
  await expect(page).toHaveURL(/\/settings\/prescribers\/\d+/);
  await expect(drawer.getByRole('heading', { name: 'Modifier prescripteur' })).toBeVisible();
  await expect(drawer.getByTestId('drawer-id')).toHaveText(/^ID: \d+$/);
  await expect(formField(drawer, 'RPPS')).toHaveValue(number);
  await formField(drawer, 'Ville').fill('Annecy');
  await drawer.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Prescripteur mis à jour avec succès' })).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(row).toContainText('Annecy');

  // Delete, behind the confirmation.
  await row.getByText(name).click();
  await drawer.getByRole('button', { name: 'Supprimer', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirmer la suppression' });
  await expect(dialog).toContainText(`Vous allez supprimer « ${name} ». Cette action est irréversible.`);
  // « Supprimer » carries the delete mark, not react-admin's check mark (« valider »).
  await expect(dialog.getByRole('button', { name: 'Supprimer' }).locator('svg')).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: 'Supprimer' }).getByTestId('confirm-delete-mark')).toBeVisible();
  await dialog.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Prescripteur supprimé avec succès' })).toBeVisible();
  await expect(list.getByTestId('list-count')).toHaveText('3 prescripteurs trouvés');
  await expect(list.getByTestId('list-row').filter({ hasText: name })).toHaveCount(0);
});
