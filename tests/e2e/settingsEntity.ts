// The browser test every settings entity gets (docs/DEVELOPING.md, "Adding an entity"): copy this call into
// tests/e2e/settings-<name>.spec.ts with the entity's values, and add what is its own after it.
//
//   import { test } from '@playwright/test';
//   import { settingsEntityJourney } from './settingsEntity';
//
//   test('prescribers: tab, list, search, a refused then accepted creation, edit and delete', ({ page, request }) =>
//     settingsEntityJourney(page, request, {
//       account: 'direction@audition-horizon.fr',
//       collection: 'prescribers',
//       tab: 'Prescripteurs',
//       create: 'Nouveau prescripteur',
//       edit: 'Modifier prescripteur',
//       nameLabel: 'Nom',
//       refused: { fill: { RPPS: '1234' }, message: 'RPPS doit contenir 11 chiffres' },
//       accepted: { RPPS: String(Date.now()).slice(-11) },
//       editLabel: 'Ville',
//       toasts: { created: 'Prescripteur créé avec succès', updated: 'Prescripteur mis à jour avec succès', deleted: 'Prescripteur supprimé avec succès' },
//     }));
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { formField, signIn, uniqueName } from './helpers';

export interface SettingsEntityJourney {
  /** Who signs in (an organisation's administrator sees an organisation's entity). */
  account: string;
  collection: string;
  /** The tab's name, the button and the drawer's titles (the declaration's label). */
  tab: string;
  create: string;
  edit: string;
  /** The text field naming the record (iri 'name'): filled with a unique name, searched, edited. */
  nameLabel: string;
  /** Text fields filled with a wrong value, and the French message the form shows under them. */
  refused: { fill: Record<string, string>; message: string };
  /** The same fields (and the other required ones) filled right. */
  accepted: Record<string, string>;
  /** A text field changed by the edit. */
  editLabel: string;
  toasts: { created: string; updated: string; deleted: string };
}

export async function settingsEntityJourney(page: Page, _request: APIRequestContext, spec: SettingsEntityJourney) {
  await signIn(page, spec.account);
  await page.goto('/settings');
  await page.getByRole('tab', { name: spec.tab }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/${spec.collection}$`));
  const list = page.getByTestId(`list-${spec.collection}`);
  await expect(list.getByRole('heading', { name: spec.tab, level: 2 })).toBeVisible();

  // A refused creation: the declaration's constraint, checked in the browser with its message, then accepted.
  await list.getByRole('button', { name: spec.create }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/${spec.collection}/create`));
  const drawer = page.getByTestId('resource-drawer');
  await expect(drawer.getByRole('heading', { name: spec.create })).toBeVisible();
  const name = uniqueName(spec.tab);
  await formField(drawer, spec.nameLabel).fill(name);
  for (const [label, value] of Object.entries(spec.refused.fill)) await formField(drawer, label).fill(value);
  await drawer.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(drawer.getByText(spec.refused.message)).toBeVisible();
  for (const [label, value] of Object.entries(spec.accepted)) await formField(drawer, label).fill(value);
  await drawer.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: spec.toasts.created })).toBeVisible();
  await expect(drawer).toBeHidden();

  // Found by the search box, then edited.
  await list.getByRole('searchbox', { name: 'Rechercher' }).fill(name);
  const row = list.getByTestId('list-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.getByText(name).click();
  await expect(drawer.getByRole('heading', { name: spec.edit })).toBeVisible();
  const changed = uniqueName('Modifié');
  await formField(drawer, spec.editLabel).fill(changed);
  await drawer.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: spec.toasts.updated })).toBeVisible();
  await expect(drawer).toBeHidden();

  // Deleted, behind the confirmation.
  await row.first().click();
  await drawer.getByRole('button', { name: 'Supprimer', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirmer la suppression' });
  // The harmless choice carries a close mark, not react-admin's warning sign.
  await expect(confirm.getByRole('button', { name: 'Annuler' }).locator('svg')).toHaveCount(1);
  await expect(confirm.getByRole('button', { name: 'Annuler' }).getByTestId('confirm-cancel-mark')).toBeVisible();
  // « Supprimer » carries the delete mark, not react-admin's check mark (« valider »).
  await expect(confirm.getByRole('button', { name: 'Supprimer' }).locator('svg')).toHaveCount(1);
  await expect(confirm.getByRole('button', { name: 'Supprimer' }).getByTestId('confirm-delete-mark')).toBeVisible();
  await confirm.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: spec.toasts.deleted })).toBeVisible();
  await expect(list.getByTestId('list-row').filter({ hasText: name })).toHaveCount(0);
}
