// Creating a PEC file in the drawer (spec sections 2 and 5) and deleting one.
import { expect, test } from '@playwright/test';
import { api, apiToken, formField, signIn } from './helpers';
import { drawer, openFile, patientNumber, prepareFile, toast } from './pec-fixtures';

test("creating a file: the spec's messages, the dependent selects, the Itelis notice, then the new file opens on its actions", async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  await page.goto('/pec');
  await page.getByRole('button', { name: 'Nouvelle Demande de PEC' }).click();
  const form = drawer(page);
  await expect(form.getByRole('heading', { name: 'Nouvelle Demande de PEC' })).toBeVisible();
  await expect(form.getByRole('tab')).toHaveText(['Informations PEC']);

  // What the form asks for is said before « Créer »: those labels end with « * ».
  for (const name of ['Réseau', 'Centre', 'Mutuelle', 'N° dossier patient', 'N° Devis Assuré']) {
    await expect(form.locator('label').filter({ hasText: new RegExp(`^${name}\\s*\\*$`) })).toHaveCount(1);
  }
  await expect(form.getByRole('textbox', { name: /^N° dossier patient/ })).toHaveAttribute('required');
  await expect(form.locator('label').filter({ hasText: /^Nom de l’assuré/ })).not.toContainText('*');

  // The mutual waits for a network.
  const mutual = form.getByRole('combobox', { name: /^Mutuelle/ });
  await expect(mutual).toHaveAttribute('aria-disabled', 'true');
  // Nothing filled: every rule says what is missing, and "Prérequis manquants" lists the three prerequisites.
  await form.getByRole('button', { name: 'Créer', exact: true }).click();
  for (const message of [
    'Une plateforme doit être sélectionnée',
    'Un centre doit être sélectionné',
    'Le numéro de dossier patient est requis',
    'Le numéro de devis est requis',
  ]) {
    await expect(form.getByText(message)).toBeVisible();
  }
  const missing = form.getByTestId('missing-prerequisites');
  await expect(missing).toContainText('Prérequis manquants');
  await expect(missing.getByRole('listitem')).toHaveText(['Patient lié avec numéro de dossier patient', 'N° Devis Assuré', 'Mutuelle sélectionnée']);

  // Itelis: the contract-number notice; the mutual list offers this network's mutuals.
  await form.getByRole('combobox', { name: /^Réseau/ }).click();
  await page.getByRole('option', { name: 'Itelis', exact: true }).click();
  await expect(form.getByTestId('contract-number-notice')).toContainText('numéro de contrat de l’assuré');
  await expect(mutual).not.toHaveAttribute('aria-disabled', 'true');
  await expect(form.getByText('Une mutuelle doit être sélectionnée')).toBeVisible();
  await mutual.click();
  await expect(page.getByRole('option').nth(1)).toBeVisible();
  const itelisMutuals = await page.getByRole('option').allTextContents();
  await page.getByRole('option').nth(1).click();
  await expect(form.getByText('Une mutuelle doit être sélectionnée')).toBeHidden();

  // Another network: the chosen mutual is reset, the notice goes away (Kalixia is neither Itelis nor Santéclair).
  await form.getByRole('combobox', { name: /^Réseau/ }).click();
  await page.getByRole('option', { name: 'Kalixia', exact: true }).click();
  await expect(form.getByTestId('contract-number-notice')).toBeHidden();
  await expect(form.getByText('Une mutuelle doit être sélectionnée')).toBeVisible();
  await mutual.click();
  await expect(page.getByRole('option').nth(1)).toBeVisible();
  const kalixiaMutuals = await page.getByRole('option').allTextContents();
  expect(kalixiaMutuals).not.toEqual(itelisMutuals);
  await page.getByRole('option').nth(1).click();

  // Messages on change: a number typed then erased.
  const patient = form.getByRole('textbox', { name: /^N° dossier patient/ });
  await patient.fill('x');
  await expect(form.getByText('Le numéro de dossier patient est requis')).toBeHidden();
  await patient.fill('   ');
  await expect(form.getByText('Le numéro de dossier patient est requis')).toBeVisible();

  const number = patientNumber();
  await patient.fill(number);
  await form.getByRole('textbox', { name: /^N° Devis Assuré/ }).fill(`DEV-${number}`);
  await form.getByRole('combobox', { name: /^Centre/ }).click();
  await page.getByRole('option', { name: 'Horizon Boulogne' }).click();
  await expect(missing).toBeHidden();
  await form.getByRole('button', { name: 'Créer', exact: true }).click();

  await expect(toast(page, 'PEC créée')).toBeVisible();
  await expect(form.getByRole('heading', { level: 2 })).toHaveText(/^Demande PEC-\d{4}-\d+$/);
  await expect(form.getByRole('tab', { name: 'Actions DPEC' })).toHaveAttribute('aria-selected', 'true');
  await expect(form.getByTestId('dpec-button')).toHaveText('Créer DPEC');
  // The file has its own address: /pec/{id}.
  await expect(page).toHaveURL(/\/pec\/\d+$/);

  // Read-only in view mode, with what was entered.
  await form.getByRole('tab', { name: 'Informations initiales' }).click();
  const info = form.getByTestId('pec-initial-info');
  await expect(info.getByRole('textbox', { name: 'N° dossier patient' })).toHaveValue(number);
  await expect(info.getByRole('textbox', { name: 'N° dossier patient' })).toHaveAttribute('readonly', '');
  await expect(info.getByRole('textbox', { name: 'Réseau' })).toHaveValue('Kalixia');
  await expect(info.getByRole('textbox', { name: 'Centre' })).toHaveValue('Horizon Boulogne');
  await expect(info.getByRole('textbox', { name: 'État' })).toHaveValue('Brouillon');

  // Closed, the list shows it with the spec's fallback for an amount not known yet.
  await form.getByRole('button', { name: 'Fermer' }).click();
  await expect(page).toHaveURL(/\/pec$/);
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(number);
  const row = page.getByTestId('pec-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Brouillon');
  await expect(row).toContainText('Horizon Boulogne');
  await expect(row).toContainText('Kalixia');
  await expect(row).toContainText('Non défini');
});

test('deleting a file asks for confirmation ("Cette action est irréversible."), then it is gone', async ({ page, request }) => {
  const file = await prepareFile(request, 'direction@audition-horizon.fr');
  await signIn(page, 'direction@audition-horizon.fr');
  await openFile(page, file);

  await drawer(page).getByRole('button', { name: 'Supprimer' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirmer la suppression' });
  await expect(confirm).toContainText(`Vous allez supprimer « ${file.numeroDossier} ». Cette action est irréversible.`);
  // « Supprimer » carries the delete mark, not react-admin's check mark (« valider »).
  await expect(confirm.getByRole('button', { name: 'Supprimer' }).locator('svg')).toHaveCount(1);
  await expect(confirm.getByRole('button', { name: 'Supprimer' }).getByTestId('confirm-delete-mark')).toBeVisible();
  await confirm.getByRole('button', { name: 'Annuler', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(drawer(page).getByRole('heading', { level: 2 })).toHaveText(`Demande ${file.numeroDossier}`);

  await drawer(page).getByRole('button', { name: 'Supprimer' }).click();
  await confirm.getByRole('button', { name: 'Supprimer' }).click();
  await expect(toast(page, 'PEC supprimée')).toContainText('La demande de PEC a été supprimée définitivement');
  await expect(drawer(page)).toBeHidden();
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(file.numeroDossierAssure);
  const empty = page.getByTestId('list-empty');
  // Emptied by the search, it says so in one message; clearing the search is offered first, creating a file second.
  await expect(empty.getByRole('paragraph')).toHaveText(['Aucun résultat ne correspond à la recherche ou aux filtres choisis.']);
  await expect(empty.getByRole('button')).toHaveText(['Effacer les filtres', 'Nouvelle Demande de PEC']);
  await empty.getByRole('button', { name: 'Effacer les filtres' }).click();
  await expect(page.getByRole('searchbox', { name: 'Rechercher' })).toHaveValue('');
  await expect(page.getByTestId('pec-row').first()).toBeVisible();
  // The button went with the empty state: the focus is in the search box, not on the page's body.
  await expect(page.getByRole('searchbox', { name: 'Rechercher' })).toBeFocused();
});

test('a creation the server refuses: its message under the field, one toast, the drawer stays open', async ({ page, request }) => {
  const email = 'audio@audition-horizon.fr';
  const existing = await prepareFile(request, email);
  await signIn(page, email);
  await page.goto('/pec');
  await page.getByRole('button', { name: 'Nouvelle Demande de PEC' }).click();
  const form = drawer(page);
  // A number of the organisation's already: only the server knows it is taken.
  await form.getByRole('textbox', { name: /^ID Pecflow/ }).fill(existing.numeroDossier);
  await form.getByRole('combobox', { name: /^Réseau/ }).click();
  await page.getByRole('option', { name: 'Kalixia', exact: true }).click();
  await form.getByRole('combobox', { name: /^Mutuelle/ }).click();
  await page.getByRole('option').nth(1).click();
  await form.getByRole('combobox', { name: /^Centre/ }).click();
  await page.getByRole('option', { name: 'Horizon Boulogne' }).click();
  const number = patientNumber();
  await form.getByRole('textbox', { name: /^N° dossier patient/ }).fill(number);
  await form.getByRole('textbox', { name: /^N° Devis Assuré/ }).fill(`DEV-${number}`);
  await form.getByRole('button', { name: 'Créer', exact: true }).click();

  await expect(form.getByText('Ce numéro de dossier existe déjà dans votre organisation')).toBeVisible();
  await expect(toast(page, 'Erreur de création')).toContainText('Ce numéro de dossier existe déjà dans votre organisation');
  await expect(page.getByTestId('toast')).toHaveCount(1);
  await expect(form.getByRole('heading', { level: 2 })).toHaveText('Nouvelle Demande de PEC');
});

test('the drawer is one dialog named by its title; typed in, Escape asks before dropping it, and nothing typed closes at once', async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  await page.goto('/pec');
  const create = page.getByRole('button', { name: 'Nouvelle Demande de PEC' });
  await create.focus();
  await page.keyboard.press('Enter');
  // The focused dialog is the drawer itself, named by its title (not a nameless frame around a named one).
  const form = page.getByRole('dialog', { name: 'Nouvelle Demande de PEC' });
  await expect(form).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  // Nothing typed: Escape closes it at once, the focus back on the button that opened it.
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(create).toBeFocused();

  await page.keyboard.press('Enter');
  const patient = form.getByRole('textbox', { name: /^N° dossier patient/ });
  await patient.fill('À ABANDONNER');
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Abandonner les modifications ?' });
  await expect(ask).toContainText('Ce que vous avez saisi n’a pas été enregistré et sera perdu.');
  // It opens on « Continuer la saisie »: Enter goes back to the field, what was typed kept.
  await expect(ask.getByRole('button', { name: 'Continuer la saisie' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toBeHidden();
  await expect(patient).toBeFocused();
  await expect(patient).toHaveValue('À ABANDONNER');
  // « Abandonner » closes the drawer; opened again, it is empty.
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Abandonner' }).click();
  await expect(form).toBeHidden();
  await expect(create).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(patient).toHaveValue('');
});

test('a file being changed asks the same before « Annuler », another tab, j / Alt+↓ or the back button drop what was typed', async ({ page, request }) => {
  const email = 'audio@audition-horizon.fr';
  const base = patientNumber();
  const older = await prepareFile(request, email, { patient: `${base}A` });
  const newer = await prepareFile(request, email, { patient: `${base}B` });
  await signIn(page, email);
  await page.goto('/pec');
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(base);
  const rows = page.getByTestId('pec-row');
  await expect(rows).toHaveCount(2);
  // Newest first: the newer file, then the older one (j / Alt+↓ go down the page).
  await rows.first().click();
  const panel = drawer(page);
  const heading = panel.getByRole('heading', { level: 2 });
  await expect(heading).toHaveText(`Demande ${newer.numeroDossier}`);
  const initialTab = panel.getByRole('tab', { name: 'Informations initiales' });
  const name = formField(panel, 'Nom de l’assuré');
  const ask = page.getByRole('dialog', { name: 'Abandonner les modifications ?' });
  const keep = ask.getByRole('button', { name: 'Continuer la saisie' });
  const discard = ask.getByRole('button', { name: 'Abandonner' });
  const edit = async () => {
    await initialTab.click();
    await panel.getByRole('button', { name: 'Modifier' }).click();
    await name.fill('Saisie');
  };

  await edit();
  // « Annuler » asks, opening on « Continuer la saisie »: Enter keeps what was typed.
  await panel.getByRole('button', { name: 'Annuler', exact: true }).click();
  await expect(ask).toContainText('Ce que vous avez saisi n’a pas été enregistré et sera perdu.');
  await expect(keep).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toBeHidden();
  await expect(name).toHaveValue('Saisie');
  // Another tab would drop the form: it asks; Escape continues, on the same tab.
  await panel.getByRole('tab', { name: 'Actions DPEC' }).click();
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(initialTab).toHaveAttribute('aria-selected', 'true');
  await expect(name).toHaveValue('Saisie');
  // Alt+↓ in the field asks before showing the next file; continuing, the drawer stays on this one.
  await name.press('Alt+ArrowDown');
  await expect(ask).toBeVisible();
  await keep.click();
  await expect(heading).toHaveText(`Demande ${newer.numeroDossier}`);
  await expect(page).toHaveURL(new RegExp(`/pec/${newer.id}(\\?|$)`));
  await expect(name).toHaveValue('Saisie');
  // j outside a field asks too; « Abandonner » shows the next file.
  await initialTab.focus();
  await page.keyboard.press('j');
  await discard.click();
  await expect(heading).toHaveText(`Demande ${older.numeroDossier}`);
  await expect(page).toHaveURL(new RegExp(`/pec/${older.id}(\\?|$)`));

  await edit();
  // The browser's back button asks; continuing, the drawer stays on its URL, what was typed kept.
  await page.goBack();
  await expect(ask).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/pec/${older.id}(\\?|$)`));
  await keep.click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/pec/${older.id}(\\?|$)`));
  await expect(heading).toHaveText(`Demande ${older.numeroDossier}`);
  await expect(name).toHaveValue('Saisie');
  // « Annuler », then « Abandonner »: the file's fields as they are, read-only.
  await panel.getByRole('button', { name: 'Annuler', exact: true }).click();
  await discard.click();
  await expect(panel.getByRole('button', { name: 'Modifier' })).toBeVisible();
  await expect(name).not.toHaveValue('Saisie');
  // Typed again, back asks again; « Abandonner » goes back, to the file shown before.
  await panel.getByRole('button', { name: 'Modifier' }).click();
  await name.fill('Saisie');
  await page.goBack();
  await discard.click();
  await expect(page).toHaveURL(new RegExp(`/pec/${newer.id}(\\?|$)`));
  await expect(heading).toHaveText(`Demande ${newer.numeroDossier}`);
  const token = await apiToken(request, email);
  for (const file of [older, newer])
    expect((await api<{ nomAssure: string | null }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).nomAssure).toBeNull();
});
