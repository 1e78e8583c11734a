// /dashboard, the page after login: each figure opens the PEC list filtered the same way, and the list counts the
// same number. Optique Riviera's files: no other test changes them.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, apiToken, signIn } from './helpers';
import { drawer, listCount, patientNumber, prepareFile } from './pec-fixtures';

const figureOf = async (card: Locator) => {
  const figure = card.getByTestId('figure').first();
  await expect(figure).toHaveText(/^\d+$/);
  return Number(await figure.textContent());
};

/** Follows a link of the dashboard and compares the list's count with the figure. */
async function listMatches(page: Page, link: Locator, figure: number) {
  await link.click();
  await expect(page).toHaveURL(/\/pec\?/);
  await expect.poll(() => listCount(page)).toBe(figure);
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("the dashboard's counts per status, expiring files and this month's figures match the list they open", async ({ page }) => {
  await signIn(page, 'direction@optique-riviera.fr');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();

  const total = await figureOf(page.getByTestId('dashboard-total'));
  let sum = 0;
  for (const status of ['draft', 'processing', 'pending', 'approved', 'rejected', 'billed', 'paid']) {
    const card = page.getByTestId(`dashboard-status-${status}`);
    const figure = await figureOf(card);
    sum += figure;
    if (figure > 0) await listMatches(page, card, figure);
  }
  expect(sum).toBe(total);
  await listMatches(page, page.getByTestId('dashboard-total'), total);

  // Agreements expiring within 15 days and not billed: the list shows why it is filtered.
  const expiring = page.getByTestId('dashboard-expiring');
  const soon = await figureOf(expiring);
  expect(soon).toBeGreaterThan(0);
  await expect(expiring).toContainText('Accords qui expirent dans les 15 prochains jours et ne sont pas facturés');
  await page.getByTestId('dashboard-expiring-link').click();
  await expect.poll(() => listCount(page)).toBe(soon);
  await expect(page.getByTestId('pec-extra-filters')).toContainText(/Péremption : du \d{2}\/\d{2}\/\d{4} au \d{2}\/\d{2}\/\d{4}/);
  await expect(page.getByTestId('pec-extra-filters')).toContainText('Facturée : non');
  await page.goBack();

  for (const kind of ['approved', 'billed']) {
    const card = page.getByTestId(`dashboard-${kind}-month`);
    await expect(card).toContainText(/Montant des devis\s*\d[\d\s]*,\d{2}\s€/);
    await listMatches(page, card, await figureOf(card));
  }
});

test('a robot failure shows on the dashboard and leads to its file', async ({ page, request }) => {
  const email = 'audio@audition-horizon.fr';
  const file = await prepareFile(request, email, { patient: patientNumber('-ERRDPEC') });
  const token = await apiToken(request, email);
  await api(request, token, 'POST', '/api/robot-frontend/setup-and-create-dpec', { pecDossierId: file.id });
  await expect
    .poll(async () => (await api<{ runInProgress: unknown; status: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).runInProgress, {
      timeout: 15_000,
    })
    .toBeNull();

  await signIn(page, email);
  const failures = page.getByTestId('dashboard-failures');
  const failed = await figureOf(failures);
  expect(failed).toBeGreaterThan(0);
  // The figure counts files, and its link lists exactly them, the file that just failed among them.
  await page.getByTestId('dashboard-failures-link').click();
  await expect.poll(() => listCount(page)).toBe(failed);
  await expect(page.getByTestId('pec-extra-filters')).toContainText('Échec du robot : ces 7 derniers jours');
  // Its row says why beside the status, in the office's words (spec section 8).
  const row = page.getByRole('row', { name: new RegExp(file.numeroDossier) });
  await expect(row.getByTestId('robot-failure-chip')).toHaveText('Échec du robot');
  await expect(row.getByTestId('robot-failure-chip')).toHaveAttribute('title', 'Échec du DPEC : Mutuelle non reconnue par le portail du réseau');
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);

  const entry = failures.getByRole('link', { name: new RegExp(file.numeroDossier) });
  await expect(entry).toContainText('Mutuelle non reconnue par le portail du réseau');
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/pec/${file.id}$`));
  await expect(drawer(page).getByTestId('dpec-button')).toHaveText('Réessayer');
});
