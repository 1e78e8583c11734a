// Issue 28: the office's morning from the keyboard alone (WCAG 2.1.1). After signing in, the tests never click: they
// type, press Tab, Enter, Escape, the rows' keys (↑ ↓ Début Fin, Espace, x) and the page's shortcuts ('?', '/', 'a',
// Alt+↓ / Alt+↑, j / k).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, apiToken, signIn } from './helpers';
import { drawer, openFile, patientNumber, prepareFile, toast } from './pec-fixtures';
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

/** Tab until a row of the list has the focus (the list's one Tab stop), then Début: the first row. */
async function tabToFirstRow(page: Page) {
  await tabTo(page, page.locator('[data-testid="pec-row"][tabindex="0"]'));
  await page.keyboard.press('Home');
  await expect(rows(page).first()).toBeFocused();
}

// One after another: a file created by one test would move the rows another reads (j / k follow the page's order).
test.describe.configure({ mode: 'default' });

test('a morning by keyboard only: the shortcuts, search, open, DPEC, bill, close, then the next and previous files', async ({ page, request }) => {
  // A whole morning, one key at a time: more than a minute on a busy machine.
  test.slow();
  const file = await prepareFile(request, EMAIL, { patient: patientNumber() });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page).first()).toBeVisible();

  // '?' lists the shortcuts; Escape closes the list.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Raccourcis clavier' });
  await expect(help).toContainText('Demande suivante de la page, sans fermer le volet');
  // Tab, as it is: a stop after another, the rows one of them, the skip link first.
  await expect(help.getByRole('row', { name: /^Tab Élément suivant de la page/ })).toHaveText(
    'TabÉlément suivant de la page ; les lignes de la liste forment un seul arrêt (les flèches vont de l’une à l’autre). Au premier Tab, « Aller au contenu » saute l’en-tête et le menu',
  );
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
  await tabToFirstRow(page);
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

test("'Aller au contenu', the page's first Tab stop, leaves the focus on the page's title: the next Tab goes on in the content", async ({ page }) => {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page).first()).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Aller au contenu' })).toBeFocused();
  await page.keyboard.press('Enter');
  // Not <body> (react-admin's link blurred what it had focused): the title, read by a screen reader.
  await expect(page.locator('#main-content').getByRole('heading', { level: 1, name: 'Gestion des PEC' })).toBeFocused();
  await page.keyboard.press('Tab');
  const inContent = () => page.evaluate(() => !!document.activeElement?.closest('main #main-content') && document.activeElement !== document.body);
  expect(await inContent()).toBe(true);
  // Past the menu and the header: the first stop after the title is the page's own.
  await expect(page.getByRole('menuitem', { name: 'Paiements' })).not.toBeFocused();
});

/**
 * The WCAG contrast of an element's text against its own background, as the browser computes them (run in the page):
 * a translucent text colour (MUI's text.primary in the light theme) is laid over that background first.
 */
function contrastOf(element: Element) {
  const style = getComputedStyle(element);
  const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
  const [br = 0, bg = 0, bb = 0, backgroundAlpha = 1] = channels(style.backgroundColor);
  if (backgroundAlpha !== 1) throw new Error(`fond transparent : ${style.backgroundColor}`);
  const [r = 0, g = 0, b = 0, alpha = 1] = channels(style.color);
  const background = [br, bg, bb];
  const text = [r, g, b].map((c, i) => c * alpha + background[i]! * (1 - alpha));
  const luminance = (rgb: number[]) => {
    const [R = 0, G = 0, B = 0] = rgb.map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * R + 0.7152 * G + 0.0722 * B;
  };
  const [light, dark] = [luminance(text), luminance(background)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

test("'Aller au contenu' reads in both themes: its text against its background reaches WCAG AA (4.5:1)", async ({ page }) => {
  await signIn(page, EMAIL);
  const skip = page.getByRole('button', { name: 'Aller au contenu' });
  // Dark first (the default), then light.
  for (const theme of ['dark', 'light']) {
    await page.evaluate((name) => localStorage.setItem('theme', name), theme);
    await page.goto('/pec');
    await expect(rows(page).first()).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    // Slid into the screen once focused.
    await expect.poll(async () => (await skip.boundingBox())?.y ?? -1, { message: theme }).toBeGreaterThanOrEqual(0);
    expect(await skip.evaluate(contrastOf), theme).toBeGreaterThanOrEqual(4.5);
  }
});

test('Escape after j / j: the focus is on the row of the file shown last, not on the row first opened', async ({ page }) => {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);
  const numbers = (await rows(page).locator('td:nth-child(3)').allTextContents()).map((text) => text.trim());
  await tabToFirstRow(page);
  await page.keyboard.press('Enter');
  await expect(heading(page)).toHaveText(`Demande ${numbers[0]}`);
  await page.keyboard.press('j');
  await expect(heading(page)).toHaveText(`Demande ${numbers[1]}`);
  await page.keyboard.press('j');
  await expect(heading(page)).toHaveText(`Demande ${numbers[2]}`);
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
  await expect(rows(page).nth(2)).toBeFocused();
  await expect(rows(page).nth(2)).toHaveCSS('outline-style', 'solid');
});

test('selection by keyboard: one Tab stop for the rows, Space or x selects, Tab reaches the bulk actions, a selects the page', async ({ page }) => {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);

  // '?' tells how to select and reach the selection's actions.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Raccourcis clavier' });
  const keysOf = (action: RegExp) => help.getByRole('row', { name: action }).getByRole('rowheader');
  await expect(keysOf(/Sélectionner la demande, ou la désélectionner/)).toHaveText('Espace ou x');
  await expect(keysOf(/Sélectionner toutes les demandes de la page/)).toHaveText('a');
  await expect(keysOf(/après une sélection : ses actions \(Créer DPEC, Facturer/)).toHaveText('Tab');
  await expect(keysOf(/Demande précédente ou suivante de la liste/)).toHaveText('↑ ou ↓');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // The rows are one Tab stop: Tab from a row leaves the list (neither its checkbox nor the next row), Shift+Tab comes back.
  await tabToFirstRow(page);
  await page.keyboard.press('Tab');
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[data-testid="pec-list"] tbody'))).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(rows(page).first()).toBeFocused();

  // ↓ goes to the next row; Space selects it without scrolling the page; x unselects and selects again.
  await page.keyboard.press('ArrowDown');
  const second = rows(page).nth(1);
  await expect(second).toBeFocused();
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('Space');
  await expect(second.getByRole('checkbox')).toBeChecked();
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  await page.keyboard.press('x');
  await expect(second.getByRole('checkbox')).not.toBeChecked();
  await expect(page.getByTestId('bulk-actions')).toBeHidden();
  await page.keyboard.press('x');
  await expect(second.getByRole('checkbox')).toBeChecked();
  await expect(second).toBeFocused();

  // Tab from the row reaches the selection's actions.
  const bar = page.getByTestId('bulk-actions');
  await expect(bar).toContainText('1 dossier sélectionné');
  await page.keyboard.press('Tab');
  await expect(bar.getByRole('button', { name: 'Créer DPEC' })).toBeFocused();

  // Back in the rows, ↓ down the page: each focused row stays in sight above the bar (WCAG 2.4.11).
  await page.keyboard.press('Shift+Tab');
  await expect(second).toBeFocused();
  for (let index = 2; index < 14; index++) {
    await page.keyboard.press('ArrowDown');
    await expect(rows(page).nth(index)).toBeFocused();
    const row = (await rows(page).nth(index).boundingBox())!;
    const bottomBar = (await bar.boundingBox())!;
    expect(row.y + row.height, `row ${index + 1} under the bar`).toBeLessThanOrEqual(bottomBar.y + 1);
  }

  // 'a' selects the whole page, then none.
  await page.keyboard.press('a');
  await expect(bar).toContainText('20 dossiers sélectionnés');
  await expect(page.getByRole('checkbox', { name: 'Tout sélectionner' })).toBeChecked();
  await page.keyboard.press('a');
  await expect(bar).toBeHidden();
});

test('a follow-up date saved from the keyboard keeps the focus on its field', async ({ page, request }) => {
  const file = await prepareFile(request, EMAIL);
  await signIn(page, EMAIL);
  await openFile(page, file);
  const field = drawer(page).getByRole('textbox', { name: /^Relance le/ });
  await tabTo(page, field);
  // Typed once the field has selected its day section, at a person's pace (see the billing date above).
  await expect.poll(() => field.evaluate((input: HTMLInputElement) => (input.selectionEnd ?? 0) - (input.selectionStart ?? 0))).toBe(2);
  const [year, month, day] = todayInFrance().split('-');
  const nextYear = `${day}${month}${Number(year) + 1}`;
  await page.keyboard.type(nextYear, { delay: 40 });
  // Enter saves the date typed (leaving the field would too), the focus staying on it.
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Suivi enregistré')).toBeVisible();
  await expect(field).toHaveValue(`${day}/${month}/${Number(year) + 1}`);
  await expect(field).toBeFocused();
});

test("the import dialog's Tab stops are its buttons only: Tab from 'Fermer' goes back to the first", async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/pec');
  await expect(rows(page).first()).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Importer' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Importer des demandes de PEC' });
  const choose = dialog.getByRole('button', { name: 'Choisir un fichier CSV' });
  const close = dialog.getByRole('button', { name: 'Fermer' });
  await tabTo(page, close, 5);
  await page.keyboard.press('Tab');
  await expect(choose).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(close).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("a mention's notification opens the file at the note that mentions, focused", async ({ page, request }) => {
  const file = await prepareFile(request, EMAIL);
  const token = await apiToken(request, EMAIL);
  const note = (body: string) => api<{ id: number | string }>(request, token, 'POST', '/api/pec_notes', { dossier: `/api/pec_dossiers/${file.id}`, body });
  // Enough notes before it that the drawer opens far from it.
  for (let i = 1; i <= 12; i++) await note(`Appel ${i} à la mutuelle :\nmessagerie, rappeler plus tard.\nSans réponse.`);
  await note('@Marc Lefèvre la mutuelle attend ton accord');

  await signIn(page, 'direction@audition-horizon.fr');
  await tabTo(page, page.getByRole('button', { name: /notification/i }).first());
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem').filter({ hasText: `vous a mentionné — ${file.numeroDossier}` });
  // The menu opens on its first notification; the arrows go down to this one.
  await expect(page.getByRole('menuitem').first()).toBeFocused();
  for (let i = 0; i < 5 && !(await item.evaluate((element) => element === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(heading(page)).toHaveText(`Demande ${file.numeroDossier}`);
  const mentioned = drawer(page).getByTestId('pec-note').filter({ hasText: '@Marc Lefèvre la mutuelle attend ton accord' });
  await expect(mentioned).toBeFocused();
  await expect(mentioned).toBeInViewport();
  await expect(mentioned).toHaveCSS('outline-style', 'solid');
  // The link's note leaves the address: the next file opens at its top.
  await expect(page).toHaveURL(new RegExp(`/pec/${file.id}`));
  await expect(page).not.toHaveURL(/note=/);
});
