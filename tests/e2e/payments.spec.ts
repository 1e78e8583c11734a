// Payments reconciled (issue 15): the example statement imported from 'Paiements' with its preview and its result
// (then undone, so the demo stays as it was), 'Enregistrer un paiement' in the drawer, and the dashboard's
// receivables, each figure equal to the total of the list it opens.
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, apiToken, signIn } from './helpers';
import { drawer, listCount, prepareFile, toast } from './pec-fixtures';

const EXAMPLE = path.join(process.cwd(), 'docs/examples/releve-paiements.csv');

test('a statement is imported from "Paiements": its preview, then its result, then undone', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.getByRole('menuitem', { name: 'Paiements' }).click();
  await expect(page).toHaveURL(/\/payment_statements$/);
  await expect(page.getByTestId('payments-list').getByRole('heading', { name: 'Relevés de paiement' })).toBeVisible();

  // The header's button (an empty list shows a second one).
  await page.getByRole('button', { name: 'Importer un relevé' }).first().click();
  await expect(page).toHaveURL(/\/payment_statements\/create$/);
  await page.getByTestId('payment-file').setInputFiles(EXAMPLE);

  const preview = page.getByTestId('payment-preview');
  await expect(preview).toBeVisible();
  const outcomes = preview.getByTestId('payment-lines').getByTestId('payment-outcome');
  await expect(outcomes).toHaveText([
    'Payé intégralement',
    'Paiement partiel',
    'Trop-perçu',
    'Déjà payé',
    'Pas encore facturé',
    'Référence inconnue',
    'Paiement partiel',
    'Payé intégralement',
  ]);
  await expect(preview.getByTestId('payment-total-lines')).toHaveText('8');
  await expect(preview.getByTestId('payment-total-amount')).toHaveText('9 170,00 €');
  await expect(preview.getByTestId('payment-total-applied')).toHaveText('6 670,00 €');
  await expect(preview.getByTestId('payment-lines')).toContainText('220,00 €');

  await page.getByTestId('payment-apply').click();
  await expect(toast(page, 'Relevé appliqué')).toBeVisible();
  await expect(page).toHaveURL(/\/payment_statements\/\d+$/);
  const statement = page.getByTestId('payment-statement-drawer');
  await expect(statement.getByTestId('status-badge')).toHaveText('Appliqué');
  await expect(statement.getByTestId('payment-lines').getByTestId('payment-outcome')).toHaveCount(8);
  await expect(page.getByTestId('payments-row').first()).toContainText('Allianz');

  // The paid file opens from its line, paid.
  await statement.getByRole('link', { name: /^PEC-/ }).first().click();
  await expect(drawer(page).getByTestId('status-badge').first()).toHaveText('Payé');
  await expect(drawer(page).getByTestId('pec-payment')).toContainText('1 420,00 €');
  await page.goBack();

  await page.getByTestId('payment-statement-drawer').getByTestId('payment-undo').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Annuler le relevé' }).click();
  await expect(toast(page, 'Relevé annulé')).toBeVisible();
  await expect(page.getByTestId('payment-statement-drawer').getByTestId('status-badge')).toHaveText('Annulé');
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
  await panel.getByRole('button', { name: 'Enregistrer un paiement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enregistrer un paiement' });
  await dialog.getByRole('textbox', { name: /^Date de paiement/ }).fill('21/11/2026');
  await dialog.getByRole('textbox', { name: /^Montant/ }).fill('1 250,50');
  await dialog.getByRole('textbox', { name: /^Libellé/ }).fill('Chèque 4411');
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Paiement enregistré')).toBeVisible();
  await expect(panel).toContainText('1 250,50 €');
  await expect(panel).toContainText('21/11/2026');
  await expect(drawer(page).getByTestId('status-badge').first()).toHaveText('Payé');
  await expect(panel.getByRole('button', { name: 'Enregistrer un paiement' })).toHaveCount(0);
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
  await api(request, token, 'POST', `/api/pec_dossiers/${target!.id}/payments`, { datePaiement: '20/11/2026', montant: 50 });

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
});

test('"Paiements" is for those who record payments: an assistant has no entry and no statements', async ({ page }) => {
  await signIn(page, 'assistant@audition-horizon.fr');
  await expect(page.getByRole('menuitem').filter({ hasText: 'Demandes PEC' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Paiements' })).toHaveCount(0);
  await page.goto('/payment_statements');
  // react-admin's access check (the resource's view permission, read from the API docs) refuses the page.
  await expect(page.getByRole('heading', { name: 'Non autorisé' })).toBeVisible();
  await expect(page.getByTestId('payments-list')).toHaveCount(0);
});
