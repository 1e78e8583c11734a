// The browser test every settings entity gets (docs/DEVELOPING.md, "Adding an entity"): copy this call into
// tests/e2e/settings-<name>.spec.ts with the entity's values, and add what is its own after it
// (tests/e2e/settings-prescribers.spec.ts runs it).
//
//   import { test } from '@playwright/test';
//   import { settingsEntityJourney } from './settingsEntity';
//
//   test('prescribers: tab, a refused then accepted creation, search, edit and delete', ({ page }) =>
//     settingsEntityJourney(page, {
//       account: 'direction@audition-horizon.fr',
//       collection: 'prescribers',
//       tab: 'Prescripteurs',
//       create: 'Nouveau prescripteur',
//       edit: 'Modifier prescripteur',
//       nameLabel: 'Nom',
//       defaults: { Civilité: 'Dr' },
//       refused: { fill: { RPPS: '1234' }, message: 'RPPS doit contenir 11 chiffres' },
//       accepted: { RPPS: '10101234567', Ville: 'Grenoble' },
//       choose: { Spécialité: 'Ophtalmologiste' },
//       row: ['10101234567', 'Ophtalmologiste', 'Grenoble'],
//       found: '1 prescripteur trouvé',
//       editLabel: 'Ville',
//       toasts: { created: 'Prescripteur créé avec succès', updated: 'Prescripteur mis à jour avec succès', deleted: 'Prescripteur supprimé avec succès' },
//     }));
import { expect, type Page } from '@playwright/test';
import { chooseOption, formField, selectField, signIn, uniqueName } from './helpers';

export interface SettingsEntityJourney {
  /** Who signs in (an organisation's administrator sees an organisation's entity). */
  account: string;
  collection: string;
  /** The tab's name, the button and the drawer's titles (the declaration's label). */
  tab: string;
  create: string;
  edit: string;
  /** The text field naming the record (iri 'name'): filled with a unique name, searched, named by the delete's question. */
  nameLabel: string;
  /** The choices the creation's form starts on (the declaration's `form.defaults`), by their fields' labels. */
  defaults?: Record<string, string>;
  /** Text fields filled with a wrong value, and the French message the form shows under them. */
  refused: { fill: Record<string, string>; message: string };
  /** The same fields (and the other required ones) filled right; the record keeps them. */
  accepted: Record<string, string>;
  /** Choices made for the accepted creation (select fields: their option's name), by their fields' labels. */
  choose?: Record<string, string>;
  /** What the new record's row shows (values of the list's columns). */
  row?: string[];
  /** The list's count line with the new record alone found ('1 prescripteur trouvé'). */
  found: string;
  /** A text field shown in the list, other than the name, changed by the edit. */
  editLabel: string;
  toasts: { created: string; updated: string; deleted: string };
}

export async function settingsEntityJourney(page: Page, spec: SettingsEntityJourney) {
  await signIn(page, spec.account);
  await page.goto('/settings');
  await page.getByRole('tab', { name: spec.tab }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/${spec.collection}$`));
  const list = page.getByTestId(`list-${spec.collection}`);
  await expect(list.getByRole('heading', { name: spec.tab, level: 2 })).toBeVisible();

  // A refused creation: the declaration's constraint, checked in the browser with its message (and one toast), then accepted.
  await list.getByRole('button', { name: spec.create }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/${spec.collection}/create`));
  const drawer = page.getByTestId('resource-drawer');
  await expect(drawer.getByRole('heading', { name: spec.create })).toBeVisible();
  await expect(drawer.getByTestId('drawer-id')).toHaveCount(0);
  for (const [label, choice] of Object.entries(spec.defaults ?? {})) await expect(selectField(drawer, label)).toContainText(choice);
  const name = uniqueName(spec.tab);
  await formField(drawer, spec.nameLabel).fill(name);
  for (const [label, value] of Object.entries(spec.refused.fill)) await formField(drawer, label).fill(value);
  await drawer.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(drawer.getByText(spec.refused.message)).toBeVisible();
  await expect(page.getByTestId('toast')).toHaveCount(1);
  for (const [label, value] of Object.entries(spec.accepted)) await formField(drawer, label).fill(value);
  await expect(drawer.getByText(spec.refused.message)).toHaveCount(0);
  for (const [label, choice] of Object.entries(spec.choose ?? {})) await chooseOption(page, drawer, label, choice);
  await drawer.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: spec.toasts.created })).toContainText('Succès');
  await expect(drawer).toBeHidden();

  // Found by the search box, as typed; then edited.
  await list.getByRole('searchbox', { name: 'Rechercher' }).fill(name);
  const row = list.getByTestId('list-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(list.getByTestId('list-row')).toHaveCount(1);
  await expect(list.getByTestId('list-count')).toHaveText(spec.found);
  for (const value of spec.row ?? []) await expect(row).toContainText(value);
  await row.getByText(name).click();
  await expect(page).toHaveURL(new RegExp(`/settings/${spec.collection}/\\d+`));
  await expect(drawer.getByRole('heading', { name: spec.edit })).toBeVisible();
  await expect(drawer.getByTestId('drawer-id')).toHaveText(/^ID: \d+$/);
  await expect(formField(drawer, spec.nameLabel)).toHaveValue(name);
  for (const [label, value] of Object.entries(spec.accepted)) await expect(formField(drawer, label)).toHaveValue(value);
  for (const [label, choice] of Object.entries(spec.choose ?? {})) await expect(selectField(drawer, label)).toContainText(choice);
  const changed = uniqueName('Modifié');
  await formField(drawer, spec.editLabel).fill(changed);
  await drawer.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: spec.toasts.updated })).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(row).toContainText(changed);

  // Deleted, behind the confirmation that names it.
  await row.getByText(name).click();
  await expect(formField(drawer, spec.editLabel)).toHaveValue(changed);
  await drawer.getByRole('button', { name: 'Supprimer', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirmer la suppression' });
  await expect(confirm).toContainText(`Vous allez supprimer « ${name} ». Cette action est irréversible.`);
  // The harmless choice carries a close mark, not react-admin's warning sign.
  await expect(confirm.getByRole('button', { name: 'Annuler' }).locator('svg')).toHaveCount(1);
  await expect(confirm.getByRole('button', { name: 'Annuler' }).getByTestId('confirm-cancel-mark')).toBeVisible();
  // « Supprimer » carries the delete mark, not react-admin's check mark (« valider »).
  await expect(confirm.getByRole('button', { name: 'Supprimer' }).locator('svg')).toHaveCount(1);
  await expect(confirm.getByRole('button', { name: 'Supprimer' }).getByTestId('confirm-delete-mark')).toBeVisible();
  await confirm.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: spec.toasts.deleted })).toBeVisible();
  await expect(drawer).toBeHidden();
  // The search finds it no more.
  await expect(list.getByTestId('list-row')).toHaveCount(0);
  await expect(list.getByTestId('list-empty')).toContainText('Aucun résultat ne correspond à la recherche ou aux filtres choisis.');
}
