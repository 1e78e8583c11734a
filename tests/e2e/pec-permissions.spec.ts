// Who may do what on /pec (spec section 6): the header buttons, the actions of a file, and what Exporter and Importer
// do for those allowed.
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { api, apiToken, signIn, signOut } from './helpers';
import { drawer, listCount, openFile, patientNumber, toast } from './pec-fixtures';

interface Member {
  id: number;
  name: string;
  numeroDossier: string;
  numeroDossierAssure: string;
}

async function firstFile(request: APIRequestContext, email: string, query: string) {
  const token = await apiToken(request, email);
  const { member } = await api<{ member: Member[] }>(request, token, 'GET', `/api/pec_dossiers?${query}&itemsPerPage=1`);
  return member[0]!;
}

test('"Lecture seule" sees files but no button that changes them', async ({ page, request }) => {
  const email = 'lecture@audition-horizon.fr';
  // A file the robot has handled: it has an externalId, so the manual result forms are shown.
  const approved = await firstFile(request, email, 'status=approved');
  await signIn(page, email);
  await page.goto('/pec');
  await expect(page.getByTestId('pec-row').first()).toBeVisible();
  for (const name of ['Exporter', 'Importer', 'Nouvelle Demande de PEC']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  // No row to select (no bulk action would follow), and a view is saved for oneself only.
  await expect(page.getByTestId('pec-list').getByRole('checkbox')).toHaveCount(0);
  await page.getByRole('button', { name: 'Enregistrer la vue' }).click();
  await expect(page.getByRole('dialog').getByRole('textbox', { name: 'Nom de la vue' })).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('checkbox', { name: 'Partager avec l’organisation' })).toHaveCount(0);
  await page.getByRole('dialog').getByRole('button', { name: 'Annuler' }).click();

  await openFile(page, { id: approved.id, numeroDossier: approved.numeroDossier, numeroDossierAssure: approved.numeroDossierAssure });
  const panel = drawer(page);
  await expect(panel.getByTestId('dpec-button')).toHaveText('Pas d’autorisation');
  await expect(panel.getByTestId('dpec-button')).toBeDisabled();
  await expect(panel.getByTestId('billing-button')).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Supprimer' })).toHaveCount(0);

  await panel.getByRole('tab', { name: 'Ajouter des informations' }).click();
  const form = panel.getByTestId('callback-form-scraping');
  await expect(form).toContainText('Vous n’avez pas l’autorisation de saisir des résultats du robot.');
  await expect(form.getByRole('textbox', { name: 'Messages' })).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Enregistrer le résultat' })).toBeDisabled();

  await panel.getByRole('tab', { name: 'Informations initiales' }).click();
  await expect(panel.getByTestId('pec-initial-info')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Modifier' })).toHaveCount(0);
});

test('Exporter and Importer follow export.pec and import.pec; the export is the CSV of the current filters', async ({ page, request }) => {
  // An audioprothésiste exports and creates, but does not import.
  await signIn(page, 'audio@audition-horizon.fr');
  await page.goto('/pec');
  await expect(page.getByRole('button', { name: 'Exporter' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nouvelle Demande de PEC' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Importer' })).toHaveCount(0);

  await signOut(page);
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/pec');
  await page.getByRole('combobox', { name: 'État' }).click();
  await page.getByRole('option', { name: 'Payé' }).click();
  await page.keyboard.press('Escape'); // the status menu takes several: it stays open
  await expect(page).toHaveURL(/paid/);
  // The count once the filtered list has arrived (the URL changes first).
  const { totalItems: paid } = await api<{ totalItems: number }>(
    request,
    await apiToken(request, 'direction@audition-horizon.fr'),
    'GET',
    '/api/pec_dossiers?status=paid',
  );
  await expect.poll(() => listCount(page)).toBe(paid);

  // By the keyboard: the button keeps the focus while the file is written and after.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exporter' }).focus();
  await page.keyboard.press('Enter');
  const download = await downloading;
  await expect(page.getByRole('button', { name: 'Exporter' })).toBeFocused();
  expect(download.suggestedFilename()).toMatch(/^demandes-pec-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...lines] = csv.trim().split(/\r\n/);
  expect(header!.split(';').slice(0, 3)).toEqual(['N° dossier', 'État', 'Centre']);
  expect(lines).toHaveLength(paid);
  for (const line of lines) expect(line.split(';')[1]).toBe('Payé');
  await expect(toast(page, 'Export terminé')).toBeVisible();
});

test('Importer: a file with a wrong line creates nothing and names the line; a correct one creates the requests', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const token = await apiToken(request, email);
  const networks = await api<{ member: Member[] }>(request, token, 'GET', '/api/networks?pagination=false');
  const kalixia = networks.member.find((n) => n.name === 'Kalixia')!;
  const mutual = (await api<{ member: Member[] }>(request, token, 'GET', `/api/mutuals?network.id=${kalixia.id}&pagination=false`)).member[0]!;
  const [first, second] = [patientNumber(), patientNumber()];
  const header = 'Centre;Réseau;Mutuelle;N° dossier patient;N° devis;Montant du devis TTC';

  await signIn(page, email);
  await page.goto('/pec');
  await page.getByRole('button', { name: 'Importer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importer des demandes de PEC' });
  // Its columns said, and a file to start from that has them all.
  await expect(dialog).toContainText(
    'Colonnes obligatoires : Centre, Mutuelle, N° dossier patient, N° devis ; facultatives : N° dossier, Réseau, Montant du devis TTC, Commentaire.',
  );
  const [saved] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Télécharger un modèle de fichier' }).click()]);
  expect(saved.suggestedFilename()).toBe('modele-import-demandes-pec.csv');
  expect((await readFile(await saved.path(), 'utf8')).split('\r\n')[0]).toBe(
    '\uFEFFN° dossier;Centre;Réseau;Mutuelle;N° dossier patient;N° devis;Montant du devis TTC;Commentaire',
  );
  await dialog.getByTestId('pec-import-file').setInputFiles({
    name: 'erreurs.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${header}\nHorizon Boulogne;Kalixia;${mutual.name};${first};D-1;1 450,50\nCentre inconnu;Kalixia;${mutual.name};${second};D-2;\n`),
  });
  const result = dialog.getByTestId('pec-import-result');
  await expect(result).toContainText('Import refusé : 1 ligne en erreur, aucune demande créée.');
  await expect(result).toContainText('Ligne 3');
  await expect(result).toContainText('Centre « Centre inconnu » introuvable ou hors de votre périmètre');
  // The result has the focus (the chooser's button, disabled while sending, had lost it to the dialog).
  const outcome = dialog.getByTestId('pec-import-outcome');
  await expect(outcome).toBeFocused();

  await dialog.getByTestId('pec-import-file').setInputFiles({
    name: 'demandes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${header}\nHorizon Boulogne;Kalixia;${mutual.name};${first};D-1;1 450,50\nHorizon Boulogne;Kalixia;${mutual.name};${second};D-2;\n`),
  });
  await expect(result).toHaveText('2 demandes créées');
  await expect(outcome).toBeFocused();
  await dialog.getByRole('button', { name: 'Fermer' }).click();

  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(first);
  await expect(page.getByTestId('pec-row')).toHaveCount(1);
  await expect(page.getByTestId('pec-row')).toContainText('Brouillon');
  await expect(page.getByTestId('pec-row')).toContainText(/1\s450,50\s€/);
});

test('a platform administrator (no organisation) is told why no network is offered, and edits a file keeping its network', async ({ page, request }) => {
  const file = await firstFile(request, 'admin@pecflow.fr', 'status=draft');
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/pec');
  await page.getByRole('button', { name: 'Nouvelle Demande de PEC' }).click();
  await expect(drawer(page).getByTestId('no-organisation-notice')).toContainText('qu’aux utilisateurs rattachés à une organisation');
  await drawer(page).getByRole('button', { name: 'Annuler' }).click();

  const detail = await api<{ network: { name: string } }>(request, await apiToken(request, 'admin@pecflow.fr'), 'GET', `/api/pec_dossiers/${file.id}`);
  await openFile(page, { id: file.id, numeroDossier: file.numeroDossier, numeroDossierAssure: file.numeroDossierAssure });
  const panel = drawer(page);
  await panel.getByRole('tab', { name: 'Informations initiales' }).click();
  await panel.getByRole('button', { name: 'Modifier' }).click();
  await expect(panel.getByRole('combobox', { name: /^Réseau/ })).toHaveText(detail.network.name);
  await expect(panel.getByTestId('no-organisation-notice')).toHaveCount(0);
});
