// Payments reconciled (issues 15 and 25): the example statement imported from 'Paiements' with its preview and its
// result, imported again ("Relevé déjà importé", nothing to apply), then undone so the demo stays as it was;
// 'Enregistrer un paiement' in the drawer (pre-filled with the amount due, French, and today), the payment history
// with a cancellation and 'Trop-perçu'; the dashboard's receivables, each figure equal to the total of the list it
// opens, and their export.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { api, apiToken, signIn } from './helpers';
import { drawer, listCount, prepareFile, toast, type PreparedFile } from './pec-fixtures';
import { newMoneyRefusal } from '#domain/archive';

const EXAMPLE = path.join(process.cwd(), 'docs/examples/releve-paiements.csv');

test('a statement is imported from "Paiements": its preview, then its result, then undone', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.getByRole('menuitem', { name: 'Paiements' }).click();
  await expect(page).toHaveURL(/\/payment_statements$/);
  await expect(page.getByTestId('payments-list').getByRole('heading', { name: 'Relevés de paiement' })).toBeVisible();

  // The header's button (an empty list shows a second one), from the keyboard.
  await page.getByRole('button', { name: 'Importer un relevé' }).first().focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/payment_statements\/create$/);
  // The button went with the list: the focus is on the page's title, not the page's body.
  await expect(page.getByRole('heading', { level: 1, name: 'Importer un relevé de paiement' })).toBeFocused();
  // The file is chosen from the keyboard: Entrée on 'Choisir le fichier' opens the file chooser. On a loaded machine
  // the page may still move the focus while it mounts: focus and Entrée are tried again until the chooser opens.
  const chooseButton = page.getByRole('button', { name: 'Choisir le fichier' });
  await expect(async () => {
    await chooseButton.focus();
    await expect(chooseButton).toBeFocused();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 5_000 }), page.keyboard.press('Enter')]);
    await chooser.setFiles(EXAMPLE);
  }).toPass({ timeout: 30_000 });

  const preview = page.getByTestId('payment-preview');
  await expect(preview).toBeVisible();
  const outcomes = preview.getByTestId('payment-lines').getByTestId('payment-outcome');
  await expect(outcomes).toHaveText([
    'Payé intégralement',
    'Paiement partiel',
    'Trop-perçu',
    'Trop-perçu',
    'Pas encore facturé',
    'Référence inconnue',
    'Paiement partiel',
    'Payé intégralement',
  ]);
  await expect(preview.getByTestId('payment-total-lines')).toHaveText('8');
  await expect(preview.getByTestId('payment-total-amount')).toHaveText('9 170,00 €');
  await expect(preview.getByTestId('payment-total-applied')).toHaveText('7 870,00 €');
  await expect(preview.getByTestId('payment-lines')).toContainText('220,00 €');

  const focusLost = await watchFocusLoss(page);
  await page.getByTestId('payment-apply').click();
  // The toast counts the lines applied to files, then those to be handled (the unknown, not-billed ones).
  await expect(toast(page, 'Relevé appliqué')).toContainText('6 lignes appliquées · 2 lignes à traiter');
  await expect(page).toHaveURL(/\/payment_statements\/\d+$/);
  const statement = page.getByTestId('payment-statement-drawer');
  // The keyboard's place is the statement applied, its heading: never the page's body, while it is applied or loads.
  await expect(statement.getByRole('heading', { name: new RegExp(`^Relevé n° \\d+ du ${frenchToday()}$`) })).toBeFocused();
  expect(await focusLost()).toEqual([]);
  const statementId = Number(/(\d+)$/.exec(page.url())![1]);
  // The list names each statement by the number every message gives it ('relevé n° 12'), apart from the insurer's own
  // (read behind the open drawer, which hides the list from the accessibility tree).
  const list = page.getByTestId('payments-list');
  await expect(list.locator('thead th')).toContainText(['N°', 'Importé le', 'Payeur', 'N° de l’assureur']);
  await expect(page.getByTestId('payments-row').first().locator('td').first()).toHaveText(String(statementId));
  await expect(statement.getByTestId('status-badge')).toHaveText('Appliqué');
  await expect(statement.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveCount(8);
  await expect(page.getByTestId('payments-row').first()).toContainText('Allianz');
  const statementUrl = page.url();

  // The same file again: the preview says it is applied already, each of its paid lines too, and nothing can be applied.
  await page.goto('/payment_statements/create');
  await page.getByTestId('payment-file').setInputFiles(EXAMPLE);
  const again = page.getByTestId('payment-preview');
  await expect(again.getByTestId('payment-already-imported')).toContainText(`Relevé déjà importé le ${frenchToday()} (8 lignes)`);
  await expect(again.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveText([
    `Déjà appliquée (relevé n° ${statementId} du ${frenchToday()})`,
    `Déjà appliquée (relevé n° ${statementId} du ${frenchToday()})`,
    `Déjà appliquée (relevé n° ${statementId} du ${frenchToday()})`,
    `Déjà appliquée (relevé n° ${statementId} du ${frenchToday()})`,
    // Received by the first, to be handled there: never twice.
    `Déjà reçue (relevé n° ${statementId} du ${frenchToday()})`,
    `Déjà reçue (relevé n° ${statementId} du ${frenchToday()})`,
    `Déjà appliquée (relevé n° ${statementId} du ${frenchToday()})`,
    `Déjà appliquée (relevé n° ${statementId} du ${frenchToday()})`,
  ]);
  await expect(again.getByTestId('payment-total-applied')).toHaveText('0,00 €');
  await expect(page.getByTestId('payment-apply')).toBeDisabled();
  // Another statement that brings only lines received already: nothing to record, and the page says why.
  const example = await readFile(EXAMPLE, 'utf8');
  const [header, , , , , , unknown] = example.split(/\r?\n/);
  await page.getByTestId('payment-file').setInputFiles({ name: 'releve-inconnu.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${unknown}\n`) });
  await expect(page.getByTestId('payment-nothing-to-apply')).toHaveText('Toutes les lignes de ce relevé sont déjà appliquées ou reçues : rien à enregistrer.');
  await expect(page.getByTestId('payment-apply')).toBeDisabled();
  await page.getByTestId('payment-file').setInputFiles(EXAMPLE);
  // The warning opens the statement applied before.
  await again.getByTestId('payment-already-imported').getByRole('link', { name: 'Ouvrir le relevé importé' }).click();
  await expect(page).toHaveURL(statementUrl);

  // The paid file opens from its line, paid.
  await statement.getByRole('link', { name: /^PEC-/ }).first().click();
  await expect(drawer(page).getByTestId('status-badge').first()).toHaveText('Payé');
  await expect(drawer(page).getByTestId('pec-payment')).toContainText('1 420,00 €');
  await page.goBack();

  await page.getByTestId('payment-statement-drawer').getByTestId('payment-undo').click();
  // Beside 'Annuler le relevé', the button that only closes says so.
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Fermer' })).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Annuler', exact: true })).toHaveCount(0);
  // Its reason is asked (the dialog opens in its field) and kept on the statement.
  const undo = page.getByRole('dialog', { name: 'Annuler ce relevé ?' });
  await undo.getByRole('button', { name: 'Annuler le relevé' }).click();
  await expect(undo.getByText('Le motif de l’annulation est requis')).toBeVisible();
  await expect(undo.getByRole('textbox', { name: /^Motif de l’annulation/ })).toBeFocused();
  await page.keyboard.type('Relevé importé deux fois');
  await undo.getByRole('button', { name: 'Annuler le relevé' }).click();
  await expect(toast(page, 'Relevé annulé')).toBeVisible();
  // The empty reason was said once, under its field: no toast said it too (and none stays after the undo).
  expect(await formRefusals(page)).toEqual([]);
  const undone = page.getByTestId('payment-statement-drawer');
  await expect(undone.getByTestId('status-badge')).toHaveText('Annulé');
  await expect(undone.getByTestId('statement-undone')).toContainText('Motif : Relevé importé deux fois');
  // Its « Annuler le relevé » gone, the focus is on what says the statement is cancelled, not the page's body.
  await expect(undone.getByTestId('statement-undone')).toBeFocused();
  // Nothing of it is applied any more: the amount it had applied is named as cancelled.
  await expect(undone.getByTestId('payment-totals')).toContainText('Montant rapproché (relevé annulé)');
  await expect(undone.getByTestId('payment-total-applied')).toHaveText('0,00 €');
  await expect(undone.getByTestId('payment-total-applied-detail')).toHaveText('Avant l’annulation : 7 870,00 €');
  // Its lines say what they had done, greyed: none reads as a payment in force.
  const outcome = undone.getByTestId('payment-lines').getByTestId('payment-outcome').first();
  await expect(outcome).toHaveText(/^Annulée avec le relevé — était : /);
  await expect(outcome).toHaveClass(/MuiChip-colorDefault/);
  await expect(undone.getByTestId('payment-totals').getByTestId('payment-outcome').first()).toHaveClass(/MuiChip-colorDefault/);
  // The list says the same: a column of amounts that files received adds up without it.
  await page.keyboard.press('Escape');
  // The statement's row by its first cell, its number (another statement's count of lines can read the same).
  const row = page.getByTestId('payments-row').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${statementId}$`) }) });
  await expect(row.getByTestId('payments-row-applied-before')).toHaveText('Avant l’annulation : 7 870,00 €');
  await expect(row).toContainText('0,00 €Avant l’annulation : 7 870,00 €');
});

test('a statement whose lines reach no file is applied: its money is to be handled, not lost', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/payment_statements/create');
  const stamp = Date.now().toString(36).toUpperCase();
  const lines = [
    'Date de paiement;Payeur;Référence;Montant;Libellé',
    `${frenchToday()};MGEN;VIR-${stamp}-1;120,00;`,
    `${frenchToday()};MGEN;VIR-${stamp}-2;30,00;`,
  ];
  await page.getByTestId('payment-file').setInputFiles({ name: 'releve-mgen.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
  const preview = page.getByTestId('payment-preview');
  await expect(preview.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveText(['Référence inconnue', 'Référence inconnue']);
  await expect(preview.getByTestId('payment-total-pending')).toHaveText('2 · 150,00 €');
  await expect(page.getByTestId('payment-nothing-to-apply')).toHaveCount(0);
  await page.getByTestId('payment-apply').click();
  await expect(toast(page, 'Relevé appliqué')).toContainText('0 ligne appliquée · 2 lignes à traiter');
  await expect(page).toHaveURL(/\/payment_statements\/\d+$/);
  await expect(page.getByTestId('payment-statement-drawer').getByTestId('statement-pending')).toHaveText('À traiter (2)');
});

/** A statement of MGEN whose lines reach no file (nothing to undo on a file), with the insurer's number and period. */
function unknownStatement(name: string, numbered = true) {
  const stamp = Date.now().toString(36).toUpperCase();
  const today = frenchToday();
  const lines = numbered
    ? [
        'Date de paiement;Payeur;Référence;Montant;Libellé;N° de relevé;Période',
        `${today};MGEN;VIR-${stamp}-1;120,00;;R-${stamp};2026-11-01 - 2026-11-15`,
        `${today};MGEN;VIR-${stamp}-2;30,00;;R-${stamp};2026-11-01 - 2026-11-15`,
      ]
    : ['Date de paiement;Payeur;Référence;Montant;Libellé', `${today};MGEN;VIR-${stamp}-1;120,00;`, `${today};MGEN;VIR-${stamp}-2;30,00;`];
  return { file: { name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) }, number: `R-${stamp}` };
}

test('the import page offers a file to start from, which it reads back as a statement', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/payment_statements/create');
  const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Télécharger un modèle de fichier' }).click()]);
  expect(saved.suggestedFilename()).toBe('modele-releve-paiements.csv');
  const template = await readFile(await saved.path());
  // For French Excel: UTF-8 with its mark, semicolons, every column as Pecflow names them.
  expect(template.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  expect(template.toString('utf8').slice(1).split('\r\n')[0]).toBe('Date de paiement;Payeur;Référence;Montant;Libellé;N° de relevé;Période');
  await page.getByTestId('payment-file').setInputFiles({ name: 'modele.csv', mimeType: 'text/csv', buffer: template });
  const preview = page.getByTestId('payment-preview');
  await expect(preview.getByTestId('payment-preview-identity')).toHaveText('Payeur : Allianz · N° de relevé : 2026-47 · Période : Novembre 2026');
  await expect(preview.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveText(['Référence inconnue']);
});

test('the file chosen by the keyboard, the focus goes to the preview, which names the insurer’s statement and its period', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/payment_statements/create');
  const statement = unknownStatement('releve-mgen-numerote.csv');
  const chooseButton = page.getByRole('button', { name: 'Choisir le fichier' });
  await expect(async () => {
    await chooseButton.focus();
    await expect(chooseButton).toBeFocused();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 5_000 }), page.keyboard.press('Enter')]);
    await chooser.setFiles(statement.file);
  }).toPass({ timeout: 30_000 });

  const preview = page.getByTestId('payment-preview');
  // Not the page's body: the preview's heading, from where Tab goes on to its lines and 'Appliquer'.
  await expect(preview.getByRole('heading', { name: 'Aperçu du relevé' })).toBeFocused();
  // Before it is applied: the insurer's number and period (its days dd/mm/yyyy), as the statement will show them.
  await expect(preview.getByTestId('payment-preview-identity')).toHaveText(
    `Payeur : MGEN · N° de relevé : ${statement.number} · Période : du 01/11/2026 au 15/11/2026`,
  );
  await expect(preview.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveText(['Référence inconnue', 'Référence inconnue']);

  // A file refused as a whole: the focus goes to its reason.
  await page.getByTestId('payment-file').setInputFiles({ name: 'vide.csv', mimeType: 'text/csv', buffer: Buffer.from('Date de paiement;Payeur\r\n') });
  await expect(page.getByTestId('payment-refused')).toContainText('Le fichier ne contient aucune ligne de paiement.');
  await expect(page.getByTestId('payment-refused-focus')).toBeFocused();
  // A statement without its own number names its payer only.
  await page.getByTestId('payment-file').setInputFiles(unknownStatement('releve-mgen.csv', false).file);
  await expect(preview.getByTestId('payment-preview-identity')).toHaveText('Payeur : MGEN');
  await expect(preview.getByRole('heading', { name: 'Aperçu du relevé' })).toBeFocused();
});

test('two tabs on one statement: applied in the first, the second’s « Appliquer » is refused and its preview says it is imported', async ({
  page,
  request,
}) => {
  const email = 'direction@audition-horizon.fr';
  await signIn(page, email);
  const statement = unknownStatement('releve-deux-onglets.csv').file;
  // The second tab of the same browser (the session is shared) previews it first.
  const second = await page.context().newPage();
  await second.goto('/payment_statements/create');
  await second.getByTestId('payment-file').setInputFiles(statement);
  const stale = second.getByTestId('payment-preview');
  await expect(stale.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveText(['Référence inconnue', 'Référence inconnue']);
  await expect(second.getByTestId('payment-apply')).toBeEnabled();

  await page.goto('/payment_statements/create');
  await page.getByTestId('payment-file').setInputFiles(statement);
  await page.getByTestId('payment-apply').click();
  await expect(toast(page, 'Relevé appliqué')).toBeVisible();
  await expect(page).toHaveURL(/\/payment_statements\/\d+$/);
  const statementId = Number(/(\d+)$/.exec(page.url())![1]);

  // Refused (409), and the preview is read again: the words of a fresh preview of an imported statement, nothing to apply.
  await second.getByTestId('payment-apply').click();
  await expect(toast(second, 'Relevé non appliqué')).toContainText(`Relevé déjà importé le ${frenchToday()} (2 lignes)`);
  await expect(toast(second, 'Relevé non appliqué')).toContainText(`Ligne 3 : Référence inconnue → Déjà reçue (relevé n° ${statementId} du ${frenchToday()})`);
  await expect(stale.getByTestId('payment-already-imported')).toContainText(`Relevé déjà importé le ${frenchToday()} (2 lignes)`);
  await expect(stale.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveText([
    `Déjà reçue (relevé n° ${statementId} du ${frenchToday()})`,
    `Déjà reçue (relevé n° ${statementId} du ${frenchToday()})`,
  ]);
  await expect(second.getByTestId('payment-apply')).toBeDisabled();
  await expect(stale.getByRole('heading', { name: 'Aperçu du relevé' })).toBeFocused();
  await second.close();

  // Undone, so that its lines are not left to be handled.
  await api(request, await apiToken(request, email), 'POST', `/api/payment_statements/${statementId}/undo`, { motif: 'Test des deux onglets' });
});

test('« Appliquer » after a payment recorded since the preview is refused, and the preview read again says what it would now do', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const today = frenchToday();
  const statement = ['Date de paiement;Payeur;Référence;Montant;Libellé', `${today};Allianz;FAC-${file.numeroDossierAssure};10,00;`].join('\r\n');
  await signIn(page, email);
  await page.goto('/payment_statements/create');
  await page.getByTestId('payment-file').setInputFiles({ name: 'releve-apercu.csv', mimeType: 'text/csv', buffer: Buffer.from(statement) });
  const preview = page.getByTestId('payment-preview');
  const outcome = preview.getByTestId('payment-lines').getByTestId('payment-outcome');
  await expect(outcome).toHaveText('Paiement partiel');
  // A colleague types that transfer on the file meanwhile.
  await api(request, await apiToken(request, email), 'POST', `/api/pec_dossiers/${file.id}/payments`, { datePaiement: today, montant: 10 });
  await page.getByTestId('payment-apply').click();
  // The toast names the line whose result changed, as the preview read again shows it.
  const refused = toast(page, 'Relevé non appliqué');
  await expect(refused).toContainText('Le relevé ne donne plus le même résultat que son aperçu');
  await expect(refused).toContainText(`Ligne 2 : Paiement partiel → Déjà enregistrée (paiement du ${today} saisi à la main le ${today})`);
  await expect(outcome).toHaveText(`Déjà enregistrée (paiement du ${today} saisi à la main le ${today})`);
  await expect(page).toHaveURL(/\/payment_statements\/create$/);
  // Nothing left to record: the typed payment is the statement's line.
  await expect(page.getByTestId('payment-apply')).toBeDisabled();
});

test('"Enregistrer un paiement" in the drawer pays a billed file', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await prepareFile(request, email);
  const token = await apiToken(request, email);
  for (const status of ['pending', 'approved', 'billed']) await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { status });

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page).getByTestId('pec-payment');
  await expect(panel).toContainText('Aucun paiement reçu');
  // An empty date says so as every empty date does (« Non définie »).
  await expect(panel).toContainText(/Date de paiement\s*:?\s*Non définie/);
  await expect(panel).toContainText('Montant restant dû');
  await panel.getByRole('button', { name: 'Enregistrer un paiement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enregistrer un paiement' });
  await dialog.getByRole('textbox', { name: /^Date de paiement/ }).fill(frenchToday());
  await dialog.getByRole('textbox', { name: /^Montant/ }).fill('1 250,50');
  await dialog.getByRole('textbox', { name: /^Libellé/ }).fill('Chèque 4411');
  // « Enregistrer » carries the save mark, as the confirmation dialogs' buttons theirs.
  await expect(dialog.getByRole('button', { name: 'Enregistrer' }).getByTestId('confirm-save-mark')).toBeVisible();
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Paiement enregistré')).toBeVisible();
  await expect(panel).toContainText('1 250,50 €');
  await expect(panel).toContainText(frenchToday());
  await expect(drawer(page).getByTestId('status-badge').first()).toHaveText('Payé');
  await expect(panel.getByRole('button', { name: 'Enregistrer un paiement' })).toHaveCount(0);
});

test('an archived billed file offers no "Enregistrer un paiement": the button is disabled and says to restore the file first', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await prepareFile(request, email);
  const token = await apiToken(request, email);
  for (const status of ['pending', 'approved', 'billed']) await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { status });
  await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { archived: true, archiveReason: 'duplicate' });

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page).getByTestId('pec-payment');
  const record = panel.getByRole('button', { name: 'Enregistrer un paiement' });
  await expect(record).toBeDisabled();
  await expect(panel.getByTestId('pec-payment-refusal')).toHaveText(newMoneyRefusal({ archived: true, numeroDossier: file.numeroDossier })!);
  await expect(record).toHaveAccessibleDescription(/Restaurez la demande pour y compter un paiement\./);
});

test('a payment the file holds already is refused in the dialog, focused, and corrected there', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const token = await apiToken(request, email);
  await api(request, token, 'POST', `/api/pec_dossiers/${file.id}/payments`, { datePaiement: frenchToday(), montant: 10, libelle: 'Chèque 1' });

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page).getByTestId('pec-payment');
  await panel.getByRole('button', { name: 'Enregistrer un paiement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enregistrer un paiement' });
  await dialog.getByRole('textbox', { name: /^Montant/ }).fill('10,00');
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  const refusal = dialog.getByTestId('pec-payment-refusal');
  await expect(refusal).toHaveText(
    `Un paiement de ${euros(10)} du ${frenchToday()} est déjà enregistré sur cette demande : voyez son historique des paiements.`,
  );
  await expect(refusal).toBeFocused();
  await expect(toast(page, 'Erreur d’enregistrement du paiement')).toHaveCount(0);
  // Corrected in the dialog: another amount is recorded, and the refusal goes with the dialog.
  await dialog.getByRole('textbox', { name: /^Montant/ }).fill('11,00');
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Paiement enregistré')).toBeVisible();
  const history = drawer(page).getByTestId('pec-payment-history');
  await expect(history.getByTestId('pec-payment-history-total')).toHaveText(`Total des paiements retenus : ${euros(21)}`);
});

test('two payments of the same amount on the same day: the second is recorded in addition with what distinguishes it', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const token = await apiToken(request, email);
  await api(request, token, 'POST', `/api/pec_dossiers/${file.id}/payments`, { datePaiement: frenchToday(), montant: 10, libelle: 'Oreille droite' });

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page).getByTestId('pec-payment');
  await panel.getByRole('button', { name: 'Enregistrer un paiement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enregistrer un paiement' });
  await dialog.getByRole('textbox', { name: /^Montant/ }).fill('10,00');
  await dialog.getByRole('textbox', { name: /^Libellé/ }).fill('Oreille gauche');
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(dialog.getByTestId('pec-payment-refusal')).toBeFocused();
  // Recorded in addition only with what distinguishes it; another amount is an ordinary payment again, the refusal gone
  // with it (it no longer applies), until the same payment is refused again.
  const reason = dialog.getByRole('textbox', { name: /^Ce qui distingue ce second paiement/ });
  await expect(reason).toBeVisible();
  await dialog.getByRole('textbox', { name: /^Montant/ }).fill('12,00');
  await expect(reason).toHaveCount(0);
  await expect(dialog.getByTestId('pec-payment-refusal')).toHaveCount(0);
  await dialog.getByRole('textbox', { name: /^Montant/ }).fill('10');
  await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(dialog.getByTestId('pec-payment-refusal')).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Enregistrer en plus' }).getByTestId('confirm-save-mark')).toBeVisible();
  await dialog.getByRole('button', { name: 'Enregistrer en plus' }).click();
  await expect(dialog.getByText('Indiquez ce qui distingue ce paiement de celui déjà enregistré (ex : oreille gauche)')).toBeVisible();
  await reason.fill('Oreille gauche, second virement');
  await dialog.getByRole('button', { name: 'Enregistrer en plus' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Paiement enregistré')).toBeVisible();
  const history = drawer(page).getByTestId('pec-payment-history');
  await expect(history.getByTestId('pec-payment-history-total')).toHaveText(`Total des paiements retenus : ${euros(20)}`);
  await expect(history.getByTestId('pec-payment-distinct')).toHaveText('Paiement distinct : Oreille gauche, second virement');
});

test('a statement line taken for a payment already counted is counted in addition, with its reason', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const today = frenchToday();
  const statementId = await applyStatement(request, email, [
    `${today};Santéclair;FAC-${file.numeroDossierAssure};10,00;Oreille droite`,
    `${today};Santéclair;FAC-${file.numeroDossierAssure};10,00;Oreille gauche`,
    `${today};Santéclair;VIR-${file.id};10,00;Virement sans référence`,
  ]);

  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  const statement = page.getByTestId('payment-statement-drawer');
  const lines = statement.getByTestId('payment-lines').getByRole('row');
  await expect(lines.nth(2).getByTestId('payment-outcome')).toHaveText('Déjà appliquée (ligne 2 de ce relevé)');
  await expect(lines.nth(1).getByRole('button', { name: /comme un paiement distinct/ })).toHaveCount(0);
  await statement.getByRole('button', { name: 'Compter en plus la ligne 3, comme un paiement distinct' }).click();
  const dialog = page.getByRole('dialog', { name: 'Compter en plus la ligne 3, comme un paiement distinct' });
  await expect(dialog).toContainText(file.numeroDossier);
  // Its harmless choice says « Annuler », as the other form dialogs'.
  await expect(dialog.locator('.MuiDialogActions-root').getByRole('button')).toHaveText(['Annuler', 'Compter en plus']);
  await dialog.getByRole('textbox', { name: /^Ce qui distingue ce second paiement/ }).fill('Oreille gauche');
  await dialog.getByRole('button', { name: 'Compter en plus' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Paiement compté')).toBeVisible();
  // The line's new action, « Détacher », takes the focus (a keyboard goes on from the line it was on).
  await expect(statement.getByRole('button', { name: `Détacher la ligne 3 de la demande ${file.numeroDossier}` })).toBeFocused();
  await expect(lines.nth(2).getByTestId('payment-outcome')).toHaveText(`Paiement partiel (paiement distinct compté le ${today} : Oreille gauche)`);
  await expect(statement.getByRole('button', { name: 'Compter en plus la ligne 3, comme un paiement distinct' })).toHaveCount(0);
  await expect(statement.getByTestId('payment-total-applied')).toHaveText(euros(20));

  // A third transfer of the same amount that day, its reference unknown: attached to the file, refused in the dialog
  // as the file holds two such payments, then attached in addition with what distinguishes it.
  await statement.getByRole('button', { name: 'Rattacher la ligne 4 à une demande' }).click();
  const attach = page.getByRole('dialog', { name: 'Rattacher la ligne 4 à une demande' });
  await attach.getByRole('combobox', { name: 'Demande facturée' }).fill(`FAC-${file.numeroDossierAssure}`);
  await page.getByRole('option', { name: new RegExp(`^${file.numeroDossier} · `) }).click();
  await attach.getByRole('button', { name: 'Rattacher', exact: true }).click();
  const refusal = attach.getByTestId('line-attach-refusal');
  await expect(refusal).toHaveText(`2 paiements de ${euros(10)} du ${today} sont déjà enregistrés sur cette demande : voyez son historique des paiements.`);
  await expect(refusal).toBeFocused();
  await expect(toast(page, 'Rattachement impossible')).toHaveCount(0);
  await expect(attach).toContainText('Sinon, choisissez une autre demande.');
  await attach.getByRole('textbox', { name: /^Ce qui distingue ce second paiement/ }).fill('Embout');
  await attach.getByRole('button', { name: 'Rattacher en plus' }).click();
  await expect(attach).toBeHidden();
  await expect(toast(page, 'Ligne rattachée')).toBeVisible();
  await expect(lines.nth(3).getByTestId('payment-outcome')).toHaveText(`Paiement partiel (rattachée le ${today} comme paiement distinct : Embout)`);

  await page.goto(`/pec/${file.id}`);
  const history = drawer(page).getByTestId('pec-payment-history');
  await expect(history.getByTestId('pec-payment-history-total')).toHaveText(`Total des paiements retenus : ${euros(30)}`);
  await expect(history.getByTestId('pec-payment-distinct')).toHaveText(['Paiement distinct : Oreille gauche', 'Paiement distinct : Embout']);
});

test('a statement line on an archived file offers no money to add: « Compter en plus » held, saying why; « Rattacher » offers no archived file', async ({
  page,
  request,
}) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const today = frenchToday();
  const statementId = await applyStatement(request, email, [
    `${today};Santéclair;FAC-${file.numeroDossierAssure};10,00;Oreille droite`,
    `${today};Santéclair;FAC-${file.numeroDossierAssure};10,00;Oreille gauche`,
    `${today};Santéclair;VIR-${file.id};10,00;Virement sans référence`,
  ]);
  const token = await apiToken(request, email);
  await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { archived: true, archiveReason: 'duplicate' });

  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  const statement = page.getByTestId('payment-statement-drawer');
  const lines = statement.getByTestId('payment-lines').getByRole('row');
  await expect(lines.nth(2).getByTestId('payment-outcome')).toHaveText('Déjà appliquée (ligne 2 de ce relevé)');
  // Held before anyone tries (the server would refuse it, 409): still a Tab stop, described by the reason beside it.
  const refusal = newMoneyRefusal({ archived: true, numeroDossier: file.numeroDossier })!;
  const count = statement.getByRole('button', { name: 'Compter en plus la ligne 3, comme un paiement distinct' });
  await expect(count).toHaveAttribute('aria-disabled', 'true');
  await expect(count).toHaveAccessibleDescription(refusal);
  await expect(lines.nth(2).getByTestId('line-count-refusal')).toHaveText(refusal);
  await count.focus();
  await expect(count).toBeFocused();
  // Clicked and pressed anyway (Playwright waits for an aria-disabled button to be enabled: forced), nothing opens.
  await count.click({ force: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Compter en plus la ligne 3, comme un paiement distinct' })).toHaveCount(0);
  await expect(toast(page, 'Paiement non compté')).toHaveCount(0);

  // « Rattacher » on another line: the archived file is not among the billed files offered.
  await statement.getByRole('button', { name: 'Rattacher la ligne 4 à une demande' }).click();
  const attach = page.getByRole('dialog', { name: 'Rattacher la ligne 4 à une demande' });
  await attach.getByRole('combobox', { name: 'Demande facturée' }).fill(file.numeroDossier);
  await expect(page.getByText('Aucune demande facturée ne correspond')).toBeVisible();
  await expect(page.getByRole('option', { name: new RegExp(`^${file.numeroDossier} · `) })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await attach.getByRole('button', { name: 'Annuler' }).click();
  await expect(attach).toBeHidden();

  // Restored, the line is counted in addition as any other.
  await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { archived: false });
  await page.reload();
  await expect(count).not.toHaveAttribute('aria-disabled');
  await expect(statement.getByTestId('line-count-refusal')).toHaveCount(0);
  await count.click();
  await expect(page.getByRole('dialog', { name: 'Compter en plus la ligne 3, comme un paiement distinct' })).toBeVisible();
});

test('a payment far above what the file was to receive is recorded, typed or attached, only once confirmed', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const typo = file.partComplementaire * 100;
  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page).getByTestId('pec-payment');
  await panel.getByRole('button', { name: 'Enregistrer un paiement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enregistrer un paiement' });
  const amount = dialog.getByRole('textbox', { name: /^Montant/ });
  await expect(amount).toBeFocused();
  // A zero too many, sent with Enter: refused in the dialog, focused, nothing recorded; Enter again records nothing.
  await amount.fill(amountText(typo));
  await page.keyboard.press('Enter');
  const refusal = dialog.getByTestId('pec-payment-refusal');
  await expect(refusal).toHaveText(
    `${euros(typo)}, c’est très supérieur à ce que la demande devait recevoir (${euros(file.partComplementaire)}) : vérifiez le montant, puis confirmez-le.`,
  );
  await expect(refusal).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expect(toast(page, 'Paiement enregistré')).toHaveCount(0);
  // Another amount is an ordinary payment again; the same one, refused again, is recorded once confirmed.
  await amount.fill('10,00');
  await expect(refusal).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Enregistrer', exact: true })).toBeVisible();
  await amount.fill(amountText(typo));
  await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(refusal).toBeFocused();
  await dialog.getByRole('button', { name: 'Enregistrer quand même' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Paiement enregistré')).toBeVisible();
  const history = drawer(page).getByTestId('pec-payment-history');
  await expect(history.getByTestId('pec-payment-history-total')).toHaveText(`Total des paiements retenus : ${euros(typo)}`);

  // A statement line attached to a file that was to receive far less: the same confirmation.
  const other = await billedFile(request, email);
  const line = other.partComplementaire * 50;
  const statementId = await applyStatement(request, email, [`${frenchToday()};Santéclair;VIR-${other.id};${amountText(line)};Virement`]);
  await page.goto(`/payment_statements/${statementId}`);
  const statement = page.getByTestId('payment-statement-drawer');
  await statement.getByRole('button', { name: 'Rattacher la ligne 2 à une demande' }).click();
  const attach = page.getByRole('dialog', { name: 'Rattacher la ligne 2 à une demande' });
  await attach.getByRole('combobox', { name: 'Demande facturée' }).fill(`FAC-${other.numeroDossierAssure}`);
  await page.getByRole('option', { name: new RegExp(`^${other.numeroDossier} · `) }).click();
  await attach.getByRole('button', { name: 'Rattacher', exact: true }).click();
  await expect(attach.getByTestId('line-attach-refusal')).toBeFocused();
  await expect(toast(page, 'Rattachement impossible')).toHaveCount(0);
  await attach.getByRole('button', { name: 'Rattacher quand même' }).click();
  await expect(attach).toBeHidden();
  await expect(toast(page, 'Ligne rattachée')).toBeVisible();
  await page.goto(`/pec/${other.id}`);
  await expect(drawer(page).getByTestId('pec-payment-history').getByTestId('pec-payment-history-total')).toHaveText(
    `Total des paiements retenus : ${euros(line)}`,
  );
});

/** An amount as typed in a French form: a decimal comma, no grouping. */
const amountText = (amount: number) => amount.toFixed(2).replace('.', ',');

/**
 * « Enregistrer un paiement » opened from the keyboard: the dialog opens on its amount, focused, where `amount` is typed
 * over what it proposes. Returns the dialog, still open.
 */
async function typePaymentByKeyboard(page: Page, panel: Locator, amount: string) {
  await panel.getByRole('button', { name: 'Enregistrer un paiement' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Enregistrer un paiement' });
  await expect(dialog.getByRole('textbox', { name: /^Montant/ })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(amount);
  return dialog;
}

test('the keyboard alone: a payment typed as the dialog opens and recorded, then cancelled with its reason typed at once', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await prepareFile(request, email);
  const token = await apiToken(request, email);
  for (const status of ['pending', 'approved', 'billed']) await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { status });

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page).getByTestId('pec-payment');
  const history = panel.getByTestId('pec-payment-history');
  // The dialog opens on its amount: typed keys go there, Enter records.
  const dialog = await typePaymentByKeyboard(page, panel, '1 460,00');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Paiement enregistré')).toBeVisible();
  await expect(history.getByRole('row').nth(1)).toContainText('1 460,00 €');

  // 'Annuler' opens on its reason: what is typed at once is the reason; its hint says Enter sends it, Shift+Enter adds a line.
  await cancelButton(history.getByRole('row').nth(1), 1460).focus();
  await page.keyboard.press('Enter');
  const cancel = page.getByRole('dialog', { name: 'Annuler ce paiement ?' });
  const reason = cancel.getByRole('textbox', { name: /^Motif de l’annulation/ });
  await expect(reason).toBeFocused();
  await expect(cancel).toContainText('Entrée pour valider, Maj+Entrée pour aller à la ligne');
  // Empty, Enter sends nothing: the reason is asked for under its field, no line added.
  await page.keyboard.press('Enter');
  await expect(cancel.getByText('Le motif de l’annulation est requis')).toBeVisible();
  await expect(cancel).toBeVisible();
  await expect(reason).toHaveValue('');
  await expect(reason).toBeFocused();
  await page.keyboard.type('Saisi sur le mauvais dossier');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('Chèque n° 4411');
  await expect(reason).toHaveValue('Saisi sur le mauvais dossier\nChèque n° 4411');
  await page.keyboard.press('Enter');
  await expect(cancel).toBeHidden();
  await expect(toast(page, 'Paiement annulé')).toBeVisible();
  await expect(history.getByRole('row').nth(1).getByTestId('pec-payment-cancelled')).toContainText('Saisi sur le mauvais dossier');
  await expect(history.getByRole('row').nth(1).getByTestId('pec-payment-cancelled')).toContainText('Chèque n° 4411');
  // Its 'Annuler' gone, the focus is on what replaced it (the payment cancelled, why and by whom), not the page's body.
  await expect(history.getByRole('row').nth(1).getByTestId('pec-payment-cancelled')).toBeFocused();
  await expect(drawer(page).getByTestId('status-badge').first()).toHaveText('Facturé');
});

test('Enter pressed four times records one payment and cancels it once: the dialog does not open again', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page).getByTestId('pec-payment');
  const history = panel.getByTestId('pec-payment-history');
  // A part of what is due: the file stays billed, « Enregistrer un paiement » stays on screen.
  const dialog = await typePaymentByKeyboard(page, panel, '10,00');
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Enter');
    await page.waitForTimeout(120);
  }
  await expect(toast(page, 'Paiement enregistré')).toBeVisible();
  await expect(panel.getByTestId('pec-payment-summary')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(history.getByTestId('pec-payment-history-total')).toHaveText(`Total des paiements retenus : ${euros(10)}`);
  await expect(history.getByRole('row')).toHaveCount(2);

  // Its cancellation, the reason sent with four Enters: cancelled once, its dialog not opened again.
  await cancelButton(history.getByRole('row').nth(1), 10).focus();
  await page.keyboard.press('Enter');
  const cancel = page.getByRole('dialog', { name: 'Annuler ce paiement ?' });
  await expect(cancel.getByRole('textbox', { name: /^Motif de l’annulation/ })).toBeFocused();
  await page.keyboard.type('Saisi deux fois');
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Enter');
    await page.waitForTimeout(120);
  }
  await expect(toast(page, 'Paiement annulé')).toBeVisible();
  await expect(history.getByRole('row').nth(1).getByTestId('pec-payment-cancelled')).toBeFocused();
  await expect(cancel).toBeHidden();
  await expect(history.getByTestId('pec-payment-history-total')).toHaveText(`Total des paiements retenus : ${euros(0)}`);
});

/** The toasts shown now that say a form was refused ('Le formulaire n’est pas valide.'), read once (no waiting). */
const formRefusals = (page: Page) =>
  page
    .getByTestId('toast')
    .filter({ hasText: /formulaire/ })
    .allTextContents();

/**
 * Watches, frame by frame, where the focus is: the addresses at which the page's body had it (a keyboard user's place
 * lost). The function returned stops watching and gives them.
 */
async function watchFocusLoss(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const watch = window as unknown as { focusLost: string[]; focusWatched: boolean };
    watch.focusLost = [];
    watch.focusWatched = true;
    const frame = () => {
      if (!watch.focusWatched) return;
      if (!document.activeElement || document.activeElement === document.body) watch.focusLost.push(location.pathname);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return () =>
    page.evaluate(() => {
      const watch = window as unknown as { focusLost: string[]; focusWatched: boolean };
      watch.focusWatched = false;
      return [...new Set(watch.focusLost)];
    });
}

const euros = (value: number) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(value);

/** Today in Paris, dd/mm/yyyy. */
const frenchToday = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());

/** The « Annuler » of the payment of this amount made today, named by it for screen readers. */
const cancelButton = (scope: Locator, amount: number) =>
  scope.getByRole('button', { name: `Annuler le paiement de ${euros(amount)} du ${frenchToday()}`, exact: true });

/** A file of the user's first centre billed by the simulator: approved with its amounts, invoiced, billed. */
async function billedFile(request: APIRequestContext, email: string): Promise<PreparedFile & { partComplementaire: number }> {
  const file = await prepareFile(request, email);
  const token = await apiToken(request, email);
  type Read = { status: string; runInProgress: unknown; partComplementaire: number | null; dateCreation: string | null };
  const read = () => api<Read>(request, token, 'GET', `/api/pec_dossiers/${file.id}`);
  await api(request, token, 'POST', '/api/robot-frontend/setup-and-create-dpec', { pecDossierId: file.id });
  await expect.poll(async () => (await read()).status, { timeout: 20_000 }).toBe('approved');
  await expect.poll(async () => (await read()).runInProgress, { timeout: 20_000 }).toBeNull();
  // Invoiced on the DPEC's own day: an invoice can neither precede its DPEC nor be dated after today (issue 25).
  const dpecDay = (await read()).dateCreation;
  expect(dpecDay).not.toBeNull();
  await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { numBilling: `FAC-${file.numeroDossierAssure}`, dateBilling: dpecDay });
  await api(request, token, 'POST', '/api/robot-frontend/setup-and-billing-pec', { pecDossierId: file.id });
  await expect.poll(async () => (await read()).status, { timeout: 20_000 }).toBe('billed');
  const billed = await read();
  expect(billed.partComplementaire).toBeGreaterThan(100);
  return { ...file, partComplementaire: billed.partComplementaire! };
}

test('the payment history: pre-filled dialog, "Trop-perçu" on an over-paid file, a manual payment cancelled with its reason', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const token = await apiToken(request, email);
  // Paid but 77,90 € by a first payment.
  const first = Math.round((file.partComplementaire - 77.9) * 100) / 100;
  await api(request, token, 'POST', `/api/pec_dossiers/${file.id}/payments`, { datePaiement: frenchToday(), montant: first, libelle: 'Virement 1' });

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page).getByTestId('pec-payment');
  const history = panel.getByTestId('pec-payment-history');
  await expect(panel.getByTestId('pec-payment-partial')).toBeVisible();
  await expect(history.getByRole('row')).toHaveCount(2);
  await expect(history.getByRole('row').nth(1)).toContainText(frenchToday());
  await expect(history.getByRole('row').nth(1)).toContainText('Saisie manuelle');
  await expect(history.getByRole('row').nth(1)).toContainText('Virement 1');
  await expect(history.getByRole('row').nth(1)).toContainText('Marc Lefèvre');

  // The dialog proposes what is still due, the French way, and today.
  await panel.getByRole('button', { name: 'Enregistrer un paiement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enregistrer un paiement' });
  await expect(dialog.getByRole('textbox', { name: /^Montant/ })).toHaveValue('77,90');
  await expect(dialog.getByRole('textbox', { name: /^Date de paiement/ })).toHaveValue(frenchToday());
  await expect(dialog.getByTestId('pec-payment-excess')).toHaveCount(0);
  await dialog.getByRole('textbox', { name: /^Montant/ }).fill('100,00');
  // Said before it is recorded: the excess will be an over-payment.
  await expect(dialog.getByTestId('pec-payment-excess')).toHaveText(
    'Ce montant dépasse le reste dû (77,90 €) de 22,10 € : l’excédent sera un trop-perçu, à rembourser à l’assureur.',
  );
  await dialog.getByRole('textbox', { name: /^Libellé/ }).fill('Chèque 7301');
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Paiement enregistré')).toBeVisible();

  // Over-paid by 22,10 €: said in the drawer, and the file is in the list's over-payments.
  await expect(drawer(page).getByTestId('status-badge').first()).toHaveText('Payé');
  await expect(panel.getByTestId('pec-payment-overpaid')).toHaveText('Trop-perçu 22,10 €');
  await expect(history.getByRole('row')).toHaveCount(3);
  await expect(history.getByRole('row').nth(2)).toContainText('Chèque 7301');
  // The sum of the history is the amount paid.
  const paid = euros(file.partComplementaire + 22.1);
  await expect(history.getByTestId('pec-payment-history-total')).toHaveText(`Total des paiements retenus : ${paid}`);
  await expect(panel).toContainText(paid);
  const overpaid = await api<{ member: { id: number }[] }>(request, token, 'GET', '/api/pec_dossiers?payment=overpaid&itemsPerPage=100');
  expect(overpaid.member.map((m) => m.id)).toContain(file.id);

  // 'Annuler' the cheque: a reason is required; the payment stays, cancelled, and the amount due comes back.
  await cancelButton(history.getByRole('row').nth(2), 100).click();
  const cancel = page.getByRole('dialog', { name: 'Annuler ce paiement ?' });
  await expect(cancel).toContainText('100,00 €');
  await expect(cancel.getByRole('button', { name: 'Fermer' })).toBeVisible();
  await expect(cancel.getByRole('button', { name: 'Annuler', exact: true })).toHaveCount(0);
  await cancel.getByRole('button', { name: 'Annuler le paiement' }).click();
  await expect(cancel.getByText('Le motif de l’annulation est requis')).toBeVisible();
  await cancel.getByRole('textbox', { name: /^Motif de l’annulation/ }).fill('Chèque saisi deux fois');
  await cancel.getByRole('button', { name: 'Annuler le paiement' }).click();
  await expect(cancel).toBeHidden();
  await expect(toast(page, 'Paiement annulé')).toBeVisible();
  await expect(drawer(page).getByTestId('status-badge').first()).toHaveText('Facturé');
  await expect(panel.getByTestId('pec-payment-overpaid')).toHaveCount(0);
  await expect(panel.getByTestId('pec-payment-partial')).toBeVisible();
  await expect(panel).toContainText(euros(77.9));
  await expect(history.getByTestId('pec-payment-history-total')).toHaveText(`Total des paiements retenus : ${euros(first)}`);
  const cancelled = history.getByRole('row').nth(2);
  await expect(cancelled.getByTestId('pec-payment-cancelled')).toContainText('Annulé');
  await expect(cancelled.getByTestId('pec-payment-cancelled')).toContainText('Chèque saisi deux fois');
  await expect(cancelled.getByRole('button', { name: 'Annuler' })).toHaveCount(0);
  await expect(cancelButton(history.getByRole('row').nth(1), first)).toBeVisible();

  // By the keyboard, a statement applied to the file (by a colleague) while the cancellation of 'Virement 1' is typed:
  // refused, the dialog says why instead of what the cancellation would do, and takes the focus; only 'Fermer' remains,
  // and no toast says it a second time.
  const virement = history.getByRole('row').nth(1);
  await cancelButton(virement, first).focus();
  await page.keyboard.press('Enter');
  await expect(cancel.getByRole('textbox', { name: /^Motif de l’annulation/ })).toBeFocused();
  await page.keyboard.type('Virement saisi deux fois');
  const statementId = await applyStatement(request, email, [`${frenchToday()};Allianz;FAC-${file.numeroDossierAssure};10,00;`]);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(cancel.getByRole('button', { name: 'Annuler le paiement' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(cancel).toBeVisible();
  const refusal = `Annulation impossible : le relevé n° ${statementId} a été appliqué à ce dossier depuis ce paiement. Annulez d’abord ce relevé.`;
  await expect(cancel.getByRole('alert')).toHaveText(refusal);
  await expect(cancel.getByRole('alert')).toBeFocused();
  await expect(cancel).not.toContainText('ne comptera plus');
  await expect(toast(page, 'Annulation impossible')).toHaveCount(0);
  await expect(cancel.getByRole('button', { name: 'Annuler le paiement' })).toHaveCount(0);
  await page.keyboard.press('Tab');
  await expect(cancel.getByRole('button', { name: 'Fermer' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(cancel).toBeHidden();
  // The history now says it before it is tried: 'Annuler' stays where the focus comes back, inert, described by the
  // reason written beside it; the payment is not cancelled.
  const refused = cancelButton(virement, first);
  await expect(refused).toBeFocused();
  await expect(refused).toBeDisabled();
  await expect(refused).toHaveAccessibleDescription(refusal);
  await expect(virement.getByTestId('pec-payment-cancel-refusal')).toHaveText(refusal);
  await page.keyboard.press('Enter');
  await expect(cancel).toBeHidden();
  await expect(virement.getByTestId('pec-payment-cancelled')).toHaveCount(0);
});

test('on a phone (390 px), the payment history shows each payment and its « Annuler » without scrolling sideways', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const token = await apiToken(request, email);
  await api(request, token, 'POST', `/api/pec_dossiers/${file.id}/payments`, { datePaiement: frenchToday(), montant: 12.5, libelle: 'Chèque 5120' });

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const history = drawer(page).getByTestId('pec-payment-history');
  const cancel = cancelButton(history, 12.5);
  await expect(cancel).toBeVisible();
  await expect(history).toContainText('Chèque 5120');
  await expect(history).toContainText('12,50 €');
  // Its box and everything in it within the screen: nothing to scroll sideways to reach.
  for (const box of [await cancel.boundingBox(), await history.boundingBox()]) {
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  }
  expect(await history.evaluate((element) => [...element.querySelectorAll('*')].filter((child) => child.scrollWidth > child.clientWidth + 1).length)).toBe(0);
  // And it still does what it says.
  await cancel.click();
  await expect(page.getByRole('dialog', { name: 'Annuler ce paiement ?' })).toBeVisible();
});

test('a payment a statement followed offers no cancellation to try: its history says why, once the page is read again', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const token = await apiToken(request, email);
  await api(request, token, 'POST', `/api/pec_dossiers/${file.id}/payments`, { datePaiement: frenchToday(), montant: 40, libelle: 'Chèque 18' });
  const statementId = await applyStatement(request, email, [`${frenchToday()};Allianz;FAC-${file.numeroDossierAssure};10,00;`]);

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const history = drawer(page).getByTestId('pec-payment-history');
  const typed = history.getByRole('row').filter({ hasText: 'Chèque 18' });
  const refusal = `Annulation impossible : le relevé n° ${statementId} a été appliqué à ce dossier depuis ce paiement. Annulez d’abord ce relevé.`;
  await expect(typed.getByTestId('pec-payment-cancel-refusal')).toHaveText(refusal);
  // Reached by Tab like any action, it says why it does nothing, and opens no dialog.
  const button = cancelButton(typed, 40);
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(refusal);
  await button.focus();
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Annuler ce paiement ?' })).toHaveCount(0);
  // The statement's own line is undone with its statement: no 'Annuler' on it.
  const line = history.getByRole('row').filter({ has: page.getByTestId('pec-payment-statement') });
  await expect(line).toContainText(`Relevé n° ${statementId}`);
  await expect(line.getByRole('button', { name: 'Annuler' })).toHaveCount(0);
});

/** A statement of these lines applied over the API by `email`: its id. */
async function applyStatement(request: APIRequestContext, email: string, lines: string[]) {
  const token = await apiToken(request, email);
  const applied = await request.post('/api/payment_statements', {
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    data: ['Date de paiement;Payeur;Référence;Montant;Libellé', ...lines].join('\r\n'),
  });
  expect(applied.status(), await applied.text()).toBe(201);
  return (await applied.json()).id as number;
}

test('a line handled meanwhile from another tab: the refusal is said, the dialog goes, the statement is read again', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const statementId = await applyStatement(request, email, [`${frenchToday()};Allianz;AILLEURS-${file.id};30,00;`]);
  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  const statement = page.getByTestId('payment-statement-drawer');
  await expect(statement.getByTestId('statement-pending')).toHaveText('À traiter (1)');
  await statement.getByRole('button', { name: 'Classer la ligne 2' }).click();
  const dismiss = page.getByRole('dialog', { name: 'Classer la ligne 2 sans demande' });
  await dismiss.getByRole('textbox', { name: /^Motif/ }).fill('Paiement hors Pecflow');
  // Another tab sets it aside at the same moment, its request first.
  const token = await apiToken(request, email);
  await page.route(`**/api/payment_statements/${statementId}/lines/2/dismiss`, async (route) => {
    await api(request, token, 'POST', `/api/payment_statements/${statementId}/lines/2/dismiss`, { motif: 'Classée dans un autre onglet' });
    await route.continue();
  });
  await dismiss.getByRole('button', { name: 'Classer' }).click();
  await expect(toast(page, 'Classement impossible')).toContainText('Cette ligne a déjà été traitée');
  await expect(dismiss).toBeHidden();
  // The statement as it now is, with no reload.
  await expect(statement.getByTestId('statement-pending')).toHaveCount(0);
  await expect(statement.getByTestId('payment-outcome')).toHaveText('Classée : Classée dans un autre onglet');
});

test('lines to be handled: the list filters them, one is attached to a billed file by its number, one set aside with its reason', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const [named, chosen] = [await billedFile(request, email), await billedFile(request, email)];
  const today = frenchToday();
  const statementId = await applyStatement(request, email, [
    `${today};Allianz;FAC-${named.numeroDossierAssure};10,00;`,
    `${today};Allianz;VIR-${chosen.id};50,00;Virement sans référence`,
    `${today};Allianz;HORS-${chosen.id};20,00;`,
  ]);

  await signIn(page, email);
  // The dashboard counts the money placed nowhere, and opens the statements that hold it.
  await page.goto('/dashboard');
  const unplaced = page.getByTestId('dashboard-receivables-unplaced');
  await expect(unplaced).toContainText('Paiements reçus à rattacher');
  expect(Number(await unplaced.getAttribute('data-count'))).toBeGreaterThanOrEqual(2);
  await unplaced.click();
  await expect(page).toHaveURL(/\/payment_statements\?.*aTraiter/);
  await expect(page.getByTestId('payments-row').first().getByTestId('statement-pending')).toHaveText(/^À traiter \(\d+\)$/);
  await page.goto('/payment_statements');
  await page.getByRole('combobox', { name: /^Lignes à traiter/ }).click();
  await page.getByRole('option', { name: 'À traiter', exact: true }).click();
  await expect(page).toHaveURL(/aTraiter/);
  // Every statement listed has lines to be handled (others' tests may import theirs meanwhile).
  // (Retried until the filtered page replaced the one before it.)
  const rows = page.getByTestId('payments-row');
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNot: page.getByTestId('statement-pending') })).toHaveCount(0);
  for (const row of await rows.all()) await expect(row.getByTestId('statement-pending')).toHaveText(/^À traiter \(\d+\)$/);
  await page.goto(`/payment_statements/${statementId}`);
  const statement = page.getByTestId('payment-statement-drawer');
  await expect(statement.getByTestId('statement-pending')).toHaveText('À traiter (2)');
  await expect(statement.getByTestId('statement-pending-alert')).toContainText('2 lignes à traiter (70,00 €)');
  await expect(statement.getByTestId('payment-total-pending')).toHaveText('2 · 70,00 €');

  // Attached to the file chosen by its invoice number: a payment of that file, from this statement. The dialog opens in
  // the field; a text that names no file is refused on the field, in its words.
  await statement.getByRole('button', { name: 'Rattacher la ligne 3 à une demande' }).click();
  const attach = page.getByRole('dialog', { name: 'Rattacher la ligne 3 à une demande' });
  await expect(attach).toContainText('50,00 €');
  const fileField = attach.getByRole('combobox', { name: 'Demande facturée' });
  await expect(fileField).toBeFocused();
  // « Annuler » leaves without attaching, as in the other form dialogs.
  await expect(attach.locator('.MuiDialogActions-root').getByRole('button')).toHaveText(['Annuler', 'Rattacher']);
  await page.keyboard.type('AUCUNE-DEMANDE-42');
  await expect(page.getByText('Aucune demande facturée ne correspond')).toBeVisible();
  await attach.getByRole('button', { name: 'Rattacher' }).click();
  await expect(attach.getByText('Choisissez la demande facturée à laquelle rattacher ce paiement')).toBeVisible();
  await fileField.fill(`FAC-${chosen.numeroDossierAssure}`);
  // The choice says the invoice number typed, which is what the statement named.
  await page.getByRole('option', { name: new RegExp(`^${chosen.numeroDossier} · FAC-${chosen.numeroDossierAssure} · `) }).click();
  await attach.getByRole('button', { name: 'Rattacher' }).click();
  await expect(attach).toBeHidden();
  await expect(toast(page, 'Ligne rattachée')).toBeVisible();
  expect(await formRefusals(page)).toEqual([]);
  // Beside the statement's drawer (1120 px), a 1280 px screen leaves no room for a toast: it shows whole, at the bottom
  // right (it ran off the screen's left edge, its start hidden).
  const { width } = page.viewportSize()!;
  expect(width).toBe(1280);
  const attached = async () => (await toast(page, 'Ligne rattachée').boundingBox())!;
  await expect.poll(async () => (await attached()).x).toBeGreaterThanOrEqual(24);
  const { x, width: toastWidth } = await attached();
  expect(x + toastWidth).toBeLessThanOrEqual(width - 24 + 1);
  const lines = statement.getByTestId('payment-lines').getByRole('row');
  await expect(lines.nth(2).getByTestId('payment-outcome')).toHaveText(`Paiement partiel (rattachée le ${today})`);
  await expect(lines.nth(2).getByRole('link', { name: chosen.numeroDossier })).toBeVisible();
  await expect(statement.getByTestId('statement-pending')).toHaveText('À traiter (1)');
  // The keyboard goes on from the next line to handle, not from the top of the drawer.
  await expect(statement.getByRole('button', { name: 'Rattacher la ligne 4 à une demande' })).toBeFocused();

  // Set aside: a reason is required.
  await statement.getByRole('button', { name: 'Classer la ligne 4' }).click();
  const dismiss = page.getByRole('dialog', { name: 'Classer la ligne 4 sans demande' });
  await expect(dismiss.locator('.MuiDialogActions-root').getByRole('button')).toHaveText(['Annuler', 'Classer']);
  await dismiss.getByRole('button', { name: 'Classer' }).click();
  await expect(dismiss.getByText('Le motif est requis')).toBeVisible();
  await dismiss.getByRole('textbox', { name: /^Motif/ }).fill('Paiement hors Pecflow');
  await dismiss.getByRole('button', { name: 'Classer' }).click();
  await expect(dismiss).toBeHidden();
  await expect(toast(page, 'Ligne classée')).toBeVisible();
  expect(await formRefusals(page)).toEqual([]);
  await expect(lines.nth(3).getByTestId('payment-outcome')).toHaveText('Classée : Paiement hors Pecflow');
  // « Classer » gone with the line set aside, its new action has the focus (not the drawer).
  await expect(statement.getByRole('button', { name: 'Remettre la ligne 4 à traiter' })).toBeFocused();
  // Counted as set aside, no longer as an unknown reference.
  await expect(statement.getByTestId('payment-total-dismissed')).toHaveText('1 · 20,00 €');
  await expect(statement.getByTestId('payment-total-unknown')).toHaveCount(0);
  await expect(statement.getByTestId('statement-pending')).toHaveCount(0);
  await expect(statement.getByTestId('statement-pending-alert')).toHaveCount(0);
  await expect(statement.getByRole('button', { name: /^Rattacher la ligne/ })).toHaveCount(0);

  // Set aside by mistake: back to be handled once confirmed, then set aside again.
  await statement.getByRole('button', { name: 'Remettre la ligne 4 à traiter' }).click();
  const reopen = page.getByRole('dialog', { name: 'Remettre la ligne 4 à traiter ?' });
  await expect(reopen).toContainText('« Classée : Paiement hors Pecflow »');
  // « Annuler », as every confirmation's harmless choice, with its close mark; the focus on it first (an undo).
  await expect(reopen.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await expect(reopen.getByRole('button', { name: 'Annuler' }).getByTestId('confirm-cancel-mark')).toBeVisible();
  // An undo: its button carries the undo mark, not react-admin's check mark.
  await expect(reopen.getByRole('button', { name: 'Remettre à traiter' }).locator('svg')).toHaveCount(1);
  await expect(reopen.getByRole('button', { name: 'Remettre à traiter' }).getByTestId('confirm-undo-mark')).toBeVisible();
  // Double-clicked, it is sent once: no refusal of a second one beside the success.
  const reopenings: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/reopen')) reopenings.push(request.url());
  });
  await reopen.getByRole('button', { name: 'Remettre à traiter' }).dblclick();
  await expect(toast(page, 'Ligne remise à traiter')).toBeVisible();
  expect(reopenings).toHaveLength(1);
  await expect(toast(page, 'Impossible de remettre la ligne à traiter')).toHaveCount(0);
  await expect(statement.getByTestId('statement-pending')).toHaveText('À traiter (1)');
  await expect(statement.getByTestId('statement-pending-alert')).toContainText('1 ligne à traiter (20,00 €)');
  await expect(statement.getByTestId('payment-total-dismissed')).toHaveCount(0);
  await expect(lines.nth(3).getByTestId('payment-outcome')).not.toHaveText(/^Classée/);
  // The line is to be handled again: its « Rattacher » has the focus.
  await expect(statement.getByRole('button', { name: 'Rattacher la ligne 4 à une demande' })).toBeFocused();
  await statement.getByRole('button', { name: 'Classer la ligne 4' }).click();
  await dismiss.getByRole('textbox', { name: /^Motif/ }).fill('Paiement hors Pecflow');
  await dismiss.getByRole('button', { name: 'Classer' }).click();
  await expect(statement.getByTestId('statement-pending')).toHaveCount(0);

  // The chosen file received the 50,00 €.
  await lines.nth(2).getByRole('link', { name: chosen.numeroDossier }).click();
  await expect(drawer(page).getByTestId('pec-payment-history')).toContainText('50,00 €');
  await expect(drawer(page).getByTestId('pec-payment-partial')).toBeVisible();
});

test('« Détacher » a line attached to the wrong file: its reason asked, the line to be handled again, the file owing what it did', async ({
  page,
  request,
}) => {
  const email = 'direction@audition-horizon.fr';
  const wrong = await billedFile(request, email);
  const today = frenchToday();
  const statementId = await applyStatement(request, email, [`${today};Allianz;VIR-${wrong.id};50,00;Virement sans référence`]);
  const dueLine = (amount: number) => new RegExp(`Montant restant dû\\s*${euros(amount)}`);

  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  const statement = page.getByTestId('payment-statement-drawer');
  const lines = statement.getByTestId('payment-lines').getByRole('row');
  await statement.getByRole('button', { name: 'Rattacher la ligne 2 à une demande' }).click();
  const attach = page.getByRole('dialog', { name: 'Rattacher la ligne 2 à une demande' });
  await attach.getByRole('combobox', { name: 'Demande facturée' }).fill(`FAC-${wrong.numeroDossierAssure}`);
  await page.getByRole('option', { name: new RegExp(`^${wrong.numeroDossier} · `) }).click();
  await attach.getByRole('button', { name: 'Rattacher', exact: true }).click();
  await expect(attach).toBeHidden();
  await expect(lines.nth(1).getByTestId('payment-outcome')).toHaveText(/^(Paiement partiel|Payé intégralement) \(rattachée le /);
  await expect(statement.getByTestId('statement-pending')).toHaveCount(0);
  await expect(statement.getByTestId('payment-total-applied')).toHaveText(euros(50));

  // A payment entered by hand on that file since: the detach is refused in its dialog, which names it, focused.
  const token = await apiToken(request, email);
  await api(request, token, 'POST', `/api/pec_dossiers/${wrong.id}/payments`, { datePaiement: today, montant: 10 });
  await statement.getByRole('button', { name: `Détacher la ligne 2 de la demande ${wrong.numeroDossier}` }).click();
  const refused = page.getByRole('dialog', { name: `Détacher la ligne 2 de la demande ${wrong.numeroDossier} ?` });
  await refused.getByRole('textbox', { name: /^Motif du détachement/ }).fill('Rattachée à la mauvaise demande');
  await refused.getByRole('button', { name: 'Détacher' }).click();
  await expect(refused.getByTestId('reason-dialog-refusal')).toContainText(`Paiement saisi à la main depuis : ${euros(10)} du ${today}.`);
  await expect(refused.getByTestId('reason-dialog-refusal')).toBeFocused();
  await expect(refused.locator('.MuiDialogActions-root').getByRole('button')).toHaveText(['Fermer']);
  await refused.getByRole('button', { name: 'Fermer' }).click();
  await expect(refused).toBeHidden();
  await expect(lines.nth(1).getByTestId('payment-outcome')).toHaveText(/\(rattachée le /);
  const [manual] = (
    await api<{ member: { '@id': string; source: string }[] }>(request, token, 'GET', `/api/pec_payments?dossier=/api/pec_dossiers/${wrong.id}`)
  ).member.filter((payment) => payment.source === 'manual');
  await api(request, token, 'POST', `${manual!['@id']}/cancel`, { motif: 'Saisi par erreur' });

  // The wrong file: « Détacher », with its reason, says what it does.
  await statement.getByRole('button', { name: `Détacher la ligne 2 de la demande ${wrong.numeroDossier}` }).click();
  const detach = page.getByRole('dialog', { name: `Détacher la ligne 2 de la demande ${wrong.numeroDossier} ?` });
  await expect(detach).toContainText(`Le paiement de ${euros(50)} du ${today} sur la demande ${wrong.numeroDossier} est annulé`);
  await expect(detach).toContainText('La ligne redevient « À traiter »');
  await expect(detach.locator('.MuiDialogActions-root').getByRole('button')).toHaveText(['Annuler', 'Détacher']);
  await detach.getByRole('button', { name: 'Détacher' }).click();
  await expect(detach.getByText('Le motif du détachement est requis')).toBeVisible();
  await detach.getByRole('textbox', { name: /^Motif du détachement/ }).fill('Rattachée à la mauvaise demande');
  await detach.getByRole('button', { name: 'Détacher' }).click();
  await expect(detach).toBeHidden();
  await expect(toast(page, 'Ligne détachée')).toBeVisible();
  expect(await formRefusals(page)).toEqual([]);

  // The line is to be handled again, the totals say so, and its « Rattacher » has the focus.
  await expect(lines.nth(1).getByTestId('payment-outcome')).toHaveText('Référence inconnue');
  await expect(lines.nth(1).getByRole('link', { name: wrong.numeroDossier })).toHaveCount(0);
  await expect(statement.getByTestId('statement-pending')).toHaveText('À traiter (1)');
  await expect(statement.getByTestId('payment-total-pending')).toHaveText(`1 · ${euros(50)}`);
  await expect(statement.getByTestId('payment-total-applied')).toHaveText(euros(0));
  await expect(statement.getByRole('button', { name: 'Rattacher la ligne 2 à une demande' })).toBeFocused();

  // The file owes what it did; its history keeps the payment, cancelled with the reason.
  await page.goto(`/pec/${wrong.id}`);
  await expect(drawer(page).getByTestId('pec-payment-summary')).toContainText(dueLine(wrong.partComplementaire));
  // (the payment entered by hand is there too, cancelled with its own reason).
  const cancelled = drawer(page).getByTestId('pec-payment-history').getByTestId('pec-payment-cancelled');
  await expect(cancelled.filter({ hasText: 'Détachée du relevé : Rattachée à la mauvaise demande' })).toHaveCount(1);
  await expect(cancelled.filter({ hasText: 'Saisi par erreur' })).toHaveCount(1);

  // The audit trail says it in words: the line, the amount in euros, the file by its name, the reason.
  const [entry] = (
    await api<{ member: { id: number }[] }>(
      request,
      token,
      'GET',
      `/api/audit_logs?action=payment_statement.line_detach&entityId=${statementId}&order[id]=desc`,
    )
  ).member;
  await page.goto(`/settings/audit_logs/${entry!.id}`);
  const changes = page.getByTestId('resource-drawer').getByTestId('audit-changes');
  await expect(changes.getByRole('row', { name: /^Ligne du relevé/ })).toContainText('2');
  await expect(changes.getByRole('row', { name: /^Montant/ })).toContainText(euros(50));
  await expect(changes.getByRole('row', { name: /^Motif/ })).toContainText('Rattachée à la mauvaise demande');
  await expect(changes.getByRole('row', { name: /^Demande/ })).toContainText(`n° ${wrong.id}`);
  await expect(changes).not.toContainText('/api/');
});

test('Rattacher opens empty on a line naming a file not billed yet, without an error; the lines and their actions fit a 1280 px screen', async ({
  page,
  request,
}) => {
  const email = 'direction@audition-horizon.fr';
  const [draft, billed] = [await prepareFile(request, email), await billedFile(request, email)];
  const today = frenchToday();
  const statementId = await applyStatement(request, email, [
    `${today};Allianz Vie Mutuelle Générale;${draft.numeroDossier};10,00;Virement reçu avant la facture de la demande`,
    `${today};Allianz;FAC-${billed.numeroDossierAssure};10,00;`,
    `${today};Allianz Vie Mutuelle Générale;VIREMENT-SEPA-${billed.id}-SANS-REFERENCE-DE-DEMANDE;20,00;Virement groupé sans référence de demande`,
    `${frenchYesterday()};Allianz;VIREMENT-VEILLE-${billed.id};30,00;Virement de la veille`,
  ]);
  // What the page throws (React's "Cannot call an event handler while rendering") or logs as React's error.
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /while rendering/.test(message.text())) errors.push(message.text());
  });

  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  const statement = page.getByTestId('payment-statement-drawer');
  await expect(statement.getByTestId('payment-lines').getByTestId('payment-outcome').first()).toHaveText('Pas encore facturé');
  // Every action of every line in view, without scrolling the table sideways.
  for (const line of [2, 4]) {
    for (const name of [`Rattacher la ligne ${line} à une demande`, `Classer la ligne ${line}`]) {
      const box = (await statement.getByRole('button', { name }).boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(1280);
    }
  }
  const table = statement.getByTestId('payment-lines');
  expect(await table.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0);

  // The file the line named is not billed: nothing is proposed before the user picks a billed file.
  await statement.getByRole('button', { name: 'Rattacher la ligne 2 à une demande' }).click();
  const attach = page.getByRole('dialog', { name: 'Rattacher la ligne 2 à une demande' });
  const fileField = attach.getByRole('combobox', { name: 'Demande facturée' });
  await expect(fileField).toBeFocused();
  await expect(fileField).toHaveValue('');
  await page.keyboard.type(`FAC-${billed.numeroDossierAssure}`);
  await expect(fileField).toHaveValue(`FAC-${billed.numeroDossierAssure}`);
  await page.getByRole('option', { name: new RegExp(`^${billed.numeroDossier} · `) }).click();
  await expect(fileField).toHaveValue(new RegExp(`^${billed.numeroDossier} · `));
  await attach.getByRole('button', { name: 'Annuler' }).click();
  await expect(attach).toBeHidden();

  // A payment of the day before: the file, invoiced today, is offered greyed with why, and cannot be chosen.
  await statement.getByRole('button', { name: 'Rattacher la ligne 5 à une demande' }).click();
  const before = page.getByRole('dialog', { name: 'Rattacher la ligne 5 à une demande' });
  await before.getByRole('combobox', { name: 'Demande facturée' }).fill(`FAC-${billed.numeroDossierAssure}`);
  const late = page.getByRole('option', { name: new RegExp(`^${billed.numeroDossier} · `) });
  await expect(late).toHaveText(new RegExp(` · facturée le ${today}, après ce paiement$`));
  await expect(late).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  await before.getByRole('button', { name: 'Annuler' }).click();
  await expect(before).toBeHidden();
  expect(errors).toEqual([]);
});

const frenchYesterday = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date(Date.now() - 24 * 3600 * 1000));

test('on a phone (390 px), a statement line to handle shows its number, reference, amount, outcome and actions without scrolling sideways', async ({
  page,
  request,
}) => {
  const email = 'direction@audition-horizon.fr';
  const billed = await billedFile(request, email);
  const statementId = await applyStatement(request, email, [`${frenchToday()};Allianz;VIR-PHONE-${billed.id};42,00;Virement sans référence`]);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  const row = page.getByTestId('payment-statement-drawer').getByTestId('payment-lines').getByRole('row').nth(1);
  const shown = [
    row.getByRole('cell', { name: '2', exact: true }),
    row.getByRole('cell', { name: `VIR-PHONE-${billed.id}` }),
    row.getByRole('cell', { name: '42,00 €' }),
    // The day, the payer and the label, which a phone has no columns for: what the money is for.
    row.getByTestId('payment-line-details'),
    row.getByTestId('payment-outcome'),
    row.getByRole('button', { name: 'Rattacher la ligne 2 à une demande' }),
    row.getByRole('button', { name: 'Classer la ligne 2' }),
  ];
  await expect(shown[5]!).toBeVisible();
  await expect(shown[3]!).toHaveText(`${frenchToday()} · Allianz · Virement sans référence`);
  const lines = (await page.getByTestId('payment-statement-drawer').getByTestId('payment-lines').boundingBox())!;
  for (const element of shown) {
    const box = (await element.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(Math.min(390, lines.x + lines.width));
  }
  // Nothing further to its right: the table does not scroll sideways.
  expect(
    await page
      .getByTestId('payment-statement-drawer')
      .getByTestId('payment-lines')
      .evaluate((box) => box.scrollWidth <= box.clientWidth),
  ).toBe(true);
  // On a wider screen they are in their own columns: not said twice.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(row.getByRole('cell', { name: 'Allianz', exact: true })).toBeVisible();
  await expect(row.getByTestId('payment-line-details')).toBeHidden();
  await page.setViewportSize({ width: 390, height: 844 });

  // The list of statements: each one's number, day, payer and state (« À traiter (1) ») without swiping.
  await page.keyboard.press('Escape');
  const listed = page.getByTestId('payments-row').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${statementId}$`) }) });
  const state = listed.getByTestId('statement-pending');
  await expect(state).toHaveText('À traiter (1)');
  const chip = (await state.boundingBox())!;
  expect(chip.x + chip.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

/** Whether what is drawn at the element's centre is the element itself (or inside it): nothing pinned over it. */
const uncovered = (element: Locator) =>
  element.evaluate((target) => {
    const { x, y, width, height } = target.getBoundingClientRect();
    const hit = document.elementFromPoint(x + width / 2, y + height / 2);
    return hit !== null && target.contains(hit);
  });

test('on a phone (390 px), every statement line shows its outcome and its file, uncovered, its actions beneath, without scrolling sideways', async ({
  page,
  request,
}) => {
  const email = 'direction@audition-horizon.fr';
  const paid = await billedFile(request, email);
  const archived = await billedFile(request, email);
  await api(request, await apiToken(request, email), 'PATCH', `/api/pec_dossiers/${archived.id}`, { archived: true, archiveReason: 'duplicate' });
  const today = frenchToday();
  // Long outcomes beside actions: a payment already counted (« Compter en plus »), a line on an archived file
  // (« Rattacher »), a reference that names no file (« Rattacher », « Classer »).
  const statementId = await applyStatement(request, email, [
    `${today};Santéclair;FAC-${paid.numeroDossierAssure};10,00;Oreille droite`,
    `${today};Santéclair;FAC-${paid.numeroDossierAssure};10,00;Oreille gauche`,
    `${today};Santéclair;FAC-${archived.numeroDossierAssure};12,00;Archivée`,
    `${today};Santéclair;INCONNUE-${paid.id};14,00;Sans demande`,
  ]);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  const table = page.getByTestId('payment-statement-drawer').getByTestId('payment-lines');
  const rows = table.getByRole('row');
  const count = page.getByRole('button', { name: 'Compter en plus la ligne 3, comme un paiement distinct' });
  const attach = page.getByRole('button', { name: 'Rattacher la ligne 4 à une demande' });
  await expect(rows.nth(3).getByTestId('payment-outcome')).toContainText(`Demande ${archived.numeroDossier} archivée`);
  // The buttons keep their icons.
  for (const button of [count, attach]) await expect(button.locator('.MuiButton-startIcon svg')).toBeVisible();

  const tableBox = (await table.boundingBox())!;
  const inView = async (element: Locator) => {
    await expect(element).toBeVisible();
    await element.scrollIntoViewIfNeeded();
    const box = (await element.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(tableBox.x);
    expect(box.x + box.width).toBeLessThanOrEqual(Math.min(390, tableBox.x + tableBox.width));
    expect(await uncovered(element)).toBe(true);
  };
  const files = [paid, paid, archived, undefined];
  for (const [index, file] of files.entries()) {
    const row = rows.nth(index + 1);
    // Each line's outcome, its words whole (none cut at the chip's edge).
    const chip = row.getByTestId('payment-outcome');
    await inView(chip);
    expect(await chip.locator('.MuiChip-label').evaluate((label) => label.scrollWidth <= label.clientWidth)).toBe(true);
    // Its file, by its number, which opens it.
    if (file) await inView(row.getByRole('link', { name: file.numeroDossier, exact: true }));
    else await expect(row.getByRole('link')).toHaveCount(0);
  }
  for (const button of [count, attach, page.getByRole('button', { name: 'Classer la ligne 5' })]) await inView(button);
  // Nothing beside the lines to scroll to: the page and the table fit the phone.
  expect(await table.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await rows.nth(1).getByRole('link', { name: paid.numeroDossier, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/pec/${paid.id}$`));
});

test('a statement opened from its address, closed with Échap, leaves the focus on the page’s content, not on its body', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const statementId = await applyStatement(request, email, [`${frenchToday()};Allianz;ECHAP-${Date.now()};18,00;`]);
  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  const drawer = page.getByTestId('payment-statement-drawer');
  await expect(drawer.getByRole('button', { name: 'Classer la ligne 2' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/payment_statements$/);
  // The page has no heading of its own (its title is the app bar's): its content takes the focus, where Tab goes on.
  await expect(page.locator('#main-content')).toBeFocused();
});

test('the reason’s hint « Entrée pour valider… » shows where a keyboard is likely, not on a touch screen, where Enter still sends', async ({
  page,
  browser,
  request,
}) => {
  const email = 'direction@audition-horizon.fr';
  const statementId = await applyStatement(request, email, [`${frenchToday()};Allianz;TACTILE-${Date.now()};16,00;`]);
  const hint = 'Entrée pour valider, Maj+Entrée pour aller à la ligne';

  // A mouse, and so a keyboard beside it: the hint is under the reason.
  await signIn(page, email);
  await page.goto(`/payment_statements/${statementId}`);
  await page.getByRole('button', { name: 'Classer la ligne 2' }).click();
  const onDesktop = page.getByRole('dialog', { name: 'Classer la ligne 2 sans demande' });
  await expect(onDesktop.getByRole('textbox', { name: /^Motif/ })).toBeFocused();
  await expect(onDesktop).toContainText(hint);
  await onDesktop.getByRole('button', { name: 'Annuler' }).click();
  await expect(onDesktop).toBeHidden();

  // A phone's touch screen: no hint of keys it has not got.
  const { baseURL, locale, timezoneId } = test.info().project.use;
  const phone = await browser.newContext({ baseURL, locale, timezoneId, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  try {
    const touch = await phone.newPage();
    await signIn(touch, email);
    await touch.goto(`/payment_statements/${statementId}`);
    await touch.getByRole('button', { name: 'Classer la ligne 2' }).tap();
    const dialog = touch.getByRole('dialog', { name: 'Classer la ligne 2 sans demande' });
    const reason = dialog.getByRole('textbox', { name: /^Motif/ });
    await expect(reason).toBeFocused();
    await expect(dialog).not.toContainText(hint);
    // A keyboard plugged in after all: Enter still sends the reason.
    await reason.fill('Paiement hors Pecflow');
    await touch.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(toast(touch, 'Ligne classée')).toBeVisible();
  } finally {
    await phone.close();
  }
});

/** Follows a receivables link and compares the list's count with the figure it showed. */
async function listMatches(page: Page, link: Locator) {
  const figure = Number(await link.getAttribute('data-count'));
  await link.click();
  await expect(page).toHaveURL(/\/pec\?/);
  await expect.poll(() => listCount(page)).toBe(figure);
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
  return figure;
}

test("the dashboard's receivables equal the totals of the lists they open", async ({ page, request }) => {
  // Optique Riviera: a partial payment keeps its file billed, so the other dashboard test's counts per status hold.
  const email = 'direction@optique-riviera.fr';
  const token = await apiToken(request, email);
  const billed = await api<{ member: { id: number; partComplementaire: number | null }[] }>(
    request,
    token,
    'GET',
    '/api/pec_dossiers?payment=unpaid&order[createdAt]=desc&itemsPerPage=20',
  );
  const target = billed.member.find((f) => (f.partComplementaire ?? 0) > 100);
  expect(target, 'une demande facturée de Riviera').toBeTruthy();
  await api(request, token, 'POST', `/api/pec_dossiers/${target!.id}/payments`, { datePaiement: frenchToday(), montant: 50 });

  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const card = page.getByTestId('dashboard-receivables');
  await expect(card.getByTestId('dashboard-receivables-total')).toHaveAttribute('data-count', /^\d+$/);
  const total = await listMatches(page, card.getByTestId('dashboard-receivables-total'));
  expect(total).toBeGreaterThan(0);
  let sum = 0;
  for (const age of ['under30', 'from30to60', 'from60to90', 'over90']) {
    const link = page.getByTestId(`dashboard-receivables-${age}`);
    await expect(link).toHaveAttribute('data-count', /^\d+$/);
    sum += Number(await link.getAttribute('data-count'));
    if (Number(await link.getAttribute('data-count')) > 0) await listMatches(page, link);
  }
  expect(sum).toBe(total);
  const partial = await listMatches(page, page.getByTestId('dashboard-receivables-partial'));
  expect(partial).toBeGreaterThan(0);
  // The filtered list says why it is filtered.
  await page.getByTestId('dashboard-receivables-partial').click();
  await expect(page.getByTestId('pec-extra-filters')).toContainText('Paiement : Paiement partiel');

  // The receivables for the accountant: one line per billed file, as many as the figure.
  await page.goBack();
  const { receivables } = await api<{ receivables: { count: number } }>(request, token, 'GET', '/api/pec_dossiers/stats');
  const download = page.waitForEvent('download');
  await page.getByTestId('dashboard-receivables-export').focus();
  await page.keyboard.press('Enter');
  const file = await download;
  // The button keeps the focus (disabled while the file was written, it dropped it to the page).
  await expect(page.getByTestId('dashboard-receivables-export')).toBeFocused();
  expect(file.suggestedFilename()).toMatch(/^creances-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile((await file.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...lines] = text.split('\r\n').filter(Boolean);
  expect(header!.split(';').slice(0, 2)).toEqual(['Ancienneté', 'N° dossier']);
  expect(lines).toHaveLength(receivables.count);
  await expect(toast(page, 'Export terminé')).toBeVisible();
});

test('"Paiements" is for those who record payments: an assistant has no entry and no statements', async ({ page }) => {
  await signIn(page, 'assistant@audition-horizon.fr');
  await expect(page.getByRole('menuitem').filter({ hasText: 'Demandes PEC' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Paiements' })).toHaveCount(0);
  // The page does not ask the server for what it would refuse (a 403 in the browser's console and the server's log).
  const statementReads: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/payment_statements')) statementReads.push(request.url());
  });
  await page.goto('/payment_statements');
  // react-admin's access check (the resource's view permission, read from the API docs) refuses the page.
  await expect(page.getByRole('main').getByRole('heading', { name: 'Non autorisé' })).toBeVisible();
  await expect(page.getByTestId('payments-list')).toHaveCount(0);
  // Nor its import page, opened by its address.
  await page.goto('/payment_statements/create');
  await expect(page.getByRole('main').getByRole('heading', { name: 'Non autorisé' })).toBeVisible();
  await expect(page.getByTestId('payment-import')).toHaveCount(0);
  expect(statementReads).toEqual([]);
});

test('the statements list emptied by its search says so in one message', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/payment_statements');
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill('Relevé introuvable');
  const empty = page.getByTestId('list-empty');
  // Not also 'Aucun relevé de paiement importé' (whether any was imported or not, none matches).
  await expect(empty.getByRole('paragraph')).toHaveText(['Aucun résultat ne correspond à la recherche ou aux filtres choisis.']);
  await expect(empty.getByRole('button')).toHaveText(['Effacer les filtres', 'Importer un relevé']);
});

test("'?' lists the keys of the statements' list and of the import page, each its own; '/' goes to the list's search", async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/payment_statements');
  await expect(page.getByTestId('payments-list').getByRole('heading', { name: 'Relevés de paiement' })).toBeVisible();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Raccourcis clavier' });
  await expect(help.getByRole('row')).toHaveText([
    '/Aller à la recherche',
    'TabÉlément suivant de la page ; les lignes de la liste forment un seul arrêt (les flèches vont de l’une à l’autre). Au premier Tab, « Aller au contenu » saute l’en-tête et le menu',
    '↑ ou ↓Relevé précédent ou suivant de la liste',
    'Début ou FinPremier ou dernier relevé de la page',
    'EntréeOuvrir le relevé',
    'ÉchapFermer le volet ou la fenêtre',
    '?Afficher cette liste',
  ]);
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Rechercher' })).toBeFocused();

  await page.goto('/payment_statements/create');
  // As its help says: the page opens on its title, and the first Tab goes to the file's chooser.
  await expect(page.getByRole('heading', { name: 'Importer un relevé de paiement', level: 1 })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Choisir le fichier' })).toBeFocused();
  await page.keyboard.press('?');
  await expect(help.getByRole('row')).toHaveText([
    'TabÉlément suivant de la page, qui s’ouvre sur son titre : le premier Tab va à « Choisir le fichier »',
    'Entrée ou EspaceActiver le bouton qui a le focus (« Choisir le fichier », « Appliquer »)',
    '?Afficher cette liste',
  ]);
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

test('a line far above what its file was to receive is marked in the preview, and applied only once « Appliquer quand même » confirms it', async ({
  page,
  request,
}) => {
  const email = 'direction@audition-horizon.fr';
  const file = await billedFile(request, email);
  const token = await apiToken(request, email);
  const payments = async () => (await api<{ totalItems: number }>(request, token, 'GET', `/api/pec_payments?dossier=/api/pec_dossiers/${file.id}`)).totalItems;
  await signIn(page, email);
  await page.goto('/payment_statements/create');
  // A typo in the insurer's file: 99 999 999,99 € for the file's few hundred euros.
  const lines = ['Date de paiement;Payeur;Référence;Montant;Libellé', `${frenchToday()};Itelis;FAC-${file.numeroDossierAssure};99 999 999,99;`];
  await page.getByTestId('payment-file').setInputFiles({ name: 'releve-itelis.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });

  const preview = page.getByTestId('payment-preview');
  await expect(preview.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveText(['Trop-perçu']);
  await expect(preview.getByTestId('payment-line-warning')).toHaveText(
    `Montant très supérieur à ce que la demande devait recevoir (${euros(file.partComplementaire)}) : vérifiez la ligne`,
  );
  const alert = preview.getByTestId('payment-amounts-to-check');
  await expect(alert).toContainText('1 ligne à vérifier');
  await expect(alert).toContainText('« Appliquer » vous demandera de le confirmer.');

  // « Appliquer » asks first, on « Annuler »: Entrée there records nothing.
  await page.getByTestId('payment-apply').click();
  const confirm = page.getByRole('dialog', { name: 'Appliquer quand même ?' });
  await expect(confirm).toContainText('La ligne 2 paie bien plus que ce que sa demande devait recevoir.');
  await expect(confirm.getByTestId('confirm-apply-mark')).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(page).toHaveURL(/\/payment_statements\/create$/);
  await expect(toast(page, 'Relevé appliqué')).toHaveCount(0);
  expect(await payments()).toBe(0);
  expect((await api<{ status: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).status).toBe('billed');

  // Confirmed: applied, the statement opens with its result, its heading with the keyboard's focus (never the page's
  // body, while the statement is applied or loads).
  await page.getByTestId('payment-apply').click();
  const focusLost = await watchFocusLoss(page);
  await confirm.getByRole('button', { name: 'Appliquer quand même' }).click();
  await expect(toast(page, 'Relevé appliqué')).toContainText('1 ligne appliquée');
  await expect(page).toHaveURL(/\/payment_statements\/\d+$/);
  const statementId = Number(/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByTestId('payment-statement-drawer').getByRole('heading', { name: `Relevé n° ${statementId} du ${frenchToday()}` })).toBeFocused();
  expect(await focusLost()).toEqual([]);
  expect(await payments()).toBe(1);
  // Undone, so that the organisation's receivables do not carry the typo.
  await api(request, token, 'POST', `/api/payment_statements/${statementId}/undo`, { motif: 'Montant erroné du relevé' });
});
