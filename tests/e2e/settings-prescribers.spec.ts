// Prescripteurs, the entity added by its declaration alone: its settings tab, list, search, status filter, creation
// refused for an invalid RPPS then accepted, edit and delete, all from the generated screens; the last through the
// journey every settings entity gets (settingsEntity.ts).
import { expect, test } from '@playwright/test';
import { api, apiToken, chooseOption, signIn, uniqueName } from './helpers';
import { settingsEntityJourney } from './settingsEntity';

/** 11 digits no other test uses. */
const rpps = () => String(Date.now()).slice(-8) + String(Math.floor(Math.random() * 900) + 100);

test('prescribers: list, search and status filter', async ({ page, request }) => {
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
});

test('prescribers: tab, a creation refused for an invalid RPPS then accepted, search, edit and delete', async ({ page }) => {
  const number = rpps();
  await settingsEntityJourney(page, {
    account: 'direction@audition-horizon.fr',
    collection: 'prescribers',
    tab: 'Prescripteurs',
    create: 'Nouveau prescripteur',
    edit: 'Modifier prescripteur',
    nameLabel: 'Nom',
    defaults: { Civilité: 'Dr' },
    refused: { fill: { RPPS: '1234' }, message: 'RPPS doit contenir 11 chiffres' },
    accepted: { RPPS: number, Ville: 'Grenoble' },
    choose: { Spécialité: 'Ophtalmologiste' },
    row: [number, 'Ophtalmologiste', 'Grenoble'],
    found: '1 prescripteur trouvé',
    editLabel: 'Ville',
    toasts: { created: 'Prescripteur créé avec succès', updated: 'Prescripteur mis à jour avec succès', deleted: 'Prescripteur supprimé avec succès' },
  });
});
