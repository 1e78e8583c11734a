// Issue 28: the office's morning from the keyboard alone (WCAG 2.1.1). After signing in, the test never clicks: it
// types, presses Tab, Enter, Escape and the page's shortcuts ('?', '/', Alt+↓ / Alt+↑, j / k).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { drawer, patientNumber, prepareFile } from './pec-fixtures';
import { todayInFrance } from '#domain/pec';

const EMAIL = 'audio@audition-horizon.fr';
const rows = (page: Page) => page.getByTestId('pec-row');
const heading = (page: Page) => drawer(page).getByRole('heading', { level: 2 });

/** Tab (forward) until `target` has the focus, as a person would; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${String(target)} jamais atteint avec Tab`);
}

test('a morning by keyboard only: the shortcuts, search, open, DPEC, bill, close, then the next and previous files', async ({ page, request }) => {
  const file = await prepareFile(request, EMAIL, { patient: patientNumber() });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page).first()).toBeVisible();

  // '?' lists the shortcuts; Escape closes the list.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Raccourcis clavier' });
  await expect(help).toContainText('Demande suivante de la page, sans fermer le volet');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // '/' goes to the search; the file is found by its patient number.
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Rechercher' })).toBeFocused();
  await page.keyboard.type(file.numeroDossierAssure);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText(file.numeroDossier);

  // Tab reaches the row (its ring shows), Enter opens it.
  await tabTo(page, rows(page).first());
  await expect(rows(page).first()).toHaveCSS('outline-style', 'solid');
  await page.keyboard.press('Enter');
  await expect(heading(page)).toHaveText(`Demande ${file.numeroDossier}`);
  await expect(page).toHaveURL(new RegExp(`/pec/${file.id}`));

  // The DPEC, then the billing with its dialog, by keyboard.
  const dpec = drawer(page).getByTestId('dpec-button');
  await tabTo(page, dpec);
  await page.keyboard.press('Enter');
  await expect(dpec).toHaveText('DPEC créé');
  const billing = drawer(page).getByTestId('billing-button');
  await expect(billing).toBeEnabled();
  await tabTo(page, billing);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Facturation de la PEC' });
  const number = dialog.getByLabel(/^N° de facture logiciel/);
  await tabTo(page, number);
  await page.keyboard.type('FAC-CLAVIER-1');
  const invoiceDate = dialog.getByRole('textbox', { name: /^Date de facture logiciel/ });
  await tabTo(page, invoiceDate);
  // Typed once the field has selected its day section ('JJ'), at a person's pace: keys sent before that are lost.
  await expect.poll(() => invoiceDate.evaluate((input: HTMLInputElement) => (input.selectionEnd ?? 0) - (input.selectionStart ?? 0))).toBe(2);
  await page.keyboard.type(todayInFrance().split('-').reverse().join(''), { delay: 40 });
  await expect(invoiceDate).toHaveValue(todayInFrance().split('-').reverse().join('/'));
  await tabTo(page, dialog.getByRole('button', { name: 'Confirmer' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(billing).toHaveText('Facturé');

  // Escape closes the drawer, back on the filtered list.
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
  await expect(page).toHaveURL(/\/pec(\?|$)/);

  // The whole page again: the first file, then Alt+↓ / j for the next one and Alt+↑ / k back, the drawer staying open.
  await page.keyboard.press('/');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await expect(rows(page)).toHaveCount(20);
  const numbers = (await rows(page).locator('td:nth-child(3)').allTextContents()).map((text) => text.trim());
  await tabTo(page, rows(page).first());
  await page.keyboard.press('Enter');
  await expect(heading(page)).toHaveText(`Demande ${numbers[0]}`);
  await page.keyboard.press('Alt+ArrowDown');
  await expect(heading(page)).toHaveText(`Demande ${numbers[1]}`);
  await page.keyboard.press('j');
  await expect(heading(page)).toHaveText(`Demande ${numbers[2]}`);
  await page.keyboard.press('k');
  await expect(heading(page)).toHaveText(`Demande ${numbers[1]}`);
  await page.keyboard.press('Alt+ArrowUp');
  await expect(heading(page)).toHaveText(`Demande ${numbers[0]}`);
  // Before the first file there is none: the drawer stays on it.
  await page.keyboard.press('Alt+ArrowUp');
  await expect(heading(page)).toHaveText(`Demande ${numbers[0]}`);
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
});
