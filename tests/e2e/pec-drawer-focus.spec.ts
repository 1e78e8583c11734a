// The PEC drawer walked by the keyboard and on a phone (an outside tester's findings): an action that removes or
// disables the control it was pressed on leaves the focus on something sensible, never on the drawer or the page
// (adding the pending files, removing one, printing the summary); on a phone (390 px) the file's tabs scroll with
// arrows and the tab the keyboard reaches shows whole, its focus ring within the bar; a manual payment's « Annuler »
// says which payment it cancels.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, apiToken, chooseOption, signIn } from './helpers';
import { drawer, onePagePdf, openDocuments, openFile, prepareFile, toast } from './pec-fixtures';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Files chosen through the drop zone's file chooser, as a keyboard user does (Enter on the zone). */
async function chooseFiles(page: Page, panel: Locator, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const choosing = page.waitForEvent('filechooser');
  await dropZone(panel).click();
  await (await choosing).setFiles(files);
  await expect(panel.getByTestId('pec-document-pending-file')).toHaveCount(files.length);
}

const dropZone = (panel: Locator) => panel.getByRole('button', { name: /^Déposez vos fichiers ici/ });
const pendingFile = (panel: Locator, name: string) => panel.getByRole('group', { name });
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: onePagePdf(name) });

test('documents by the keyboard: once the files are added, removed or all cleared, the focus stays in the uploader', async ({ page, request }) => {
  const email = 'audio@audition-horizon.fr';
  const file = await prepareFile(request, email);
  await signIn(page, email);
  const panel = await openDocuments(page, file);

  // « Retirer » a file: the focus goes to the next file's « Retirer », the previous one's when it was the last, the
  // drop zone when none is left.
  await chooseFiles(page, panel, [pdf('a-focus.pdf'), pdf('b-focus.pdf'), pdf('c-focus.pdf')]);
  await panel.getByRole('button', { name: 'Retirer b-focus.pdf' }).focus();
  await page.keyboard.press('Enter');
  await expect(pendingFile(panel, 'b-focus.pdf')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Retirer c-focus.pdf' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(pendingFile(panel, 'c-focus.pdf')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Retirer a-focus.pdf' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('pec-document-pending')).toHaveCount(0);
  await expect(dropZone(panel)).toBeFocused();

  // « Tout retirer »: back on the drop zone.
  await chooseFiles(page, panel, [pdf('d-focus.pdf'), pdf('e-focus.pdf')]);
  await panel.getByRole('button', { name: 'Tout retirer' }).focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('pec-document-pending')).toHaveCount(0);
  await expect(dropZone(panel)).toBeFocused();

  // « Ajouter les 2 fichiers »: both added, the list of files to add is gone with its button; the focus is back on the
  // drop zone, ready for more.
  await chooseFiles(page, panel, [pdf('ordonnance-focus.pdf'), { name: 'ordonnance.png', mimeType: 'image/png', buffer: PNG }]);
  await chooseOption(page, panel, 'Type pour tous les fichiers', 'Ordonnance');
  const send = panel.getByRole('button', { name: 'Ajouter les 2 fichiers' });
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(toast(page, '2 documents ajoutés')).toBeVisible();
  await expect(panel.getByTestId('pec-document-pending')).toHaveCount(0);
  await expect(panel.getByRole('row').filter({ hasText: 'ordonnance.png' })).toBeVisible();
  await expect(dropZone(panel)).toBeFocused();

  // One added, one refused by the server: the refused one stays with its message, and so does the focus, on
  // « Ajouter le fichier » (inert while it sent, never disabled under the focus).
  await chooseFiles(page, panel, [pdf('bon-focus.pdf'), { name: 'faux-focus.pdf', mimeType: 'application/pdf', buffer: Buffer.from('pas un PDF') }]);
  await chooseOption(page, panel, 'Type pour tous les fichiers', 'Autre');
  await panel.getByRole('button', { name: 'Ajouter les 2 fichiers' }).focus();
  await page.keyboard.press('Enter');
  await expect(toast(page, '1 document ajouté')).toBeVisible();
  await expect(pendingFile(panel, 'faux-focus.pdf').getByTestId('pec-document-error')).toContainText('Format refusé');
  await expect(panel.getByRole('button', { name: 'Ajouter le fichier' })).toBeFocused();
});

test('« Imprimer le récapitulatif » pressed by the keyboard keeps the focus while the PDF is made and once it is downloaded', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await prepareFile(request, email);
  await signIn(page, email);
  await openFile(page, file);
  const print = drawer(page).getByRole('button', { name: 'Imprimer le récapitulatif' });
  await print.focus();
  const downloading = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  // While the server makes it: inert, not disabled (a disabled button drops the focus to the page).
  await expect(print).toBeFocused();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`recapitulatif-${file.numeroDossier}.pdf`);
  await expect(toast(page, 'Récapitulatif prêt')).toBeVisible();
  await expect(print).toBeFocused();
  await expect(print).toBeEnabled();
});

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the tab the keyboard reaches shows whole with its focus ring, and arrows scroll the file’s tabs', async ({ page, request }) => {
    const email = 'direction@audition-horizon.fr';
    const file = await prepareFile(request, email);
    await signIn(page, email);
    await openFile(page, file);
    const panel = drawer(page);
    const bar = panel.getByRole('tablist');
    const tabs = bar.getByRole('tab');
    await expect(tabs).toHaveCount(4);
    const first = bar.getByRole('tab', { name: 'Actions DPEC' });
    const documents = bar.getByRole('tab', { name: 'Documents' });
    await expect(documents).not.toBeInViewport({ ratio: 1 });

    // By the keyboard: each tab reached shows whole, and so does its focus ring (not cut by the bar's edge); chosen,
    // 'Documents' stays in view (MUI scrolls the selected tab into view), and the way back shows each tab whole again.
    await first.focus();
    const reached = async (name: string) => {
      const tab = bar.getByRole('tab', { name, exact: true });
      await expect(tab).toBeFocused();
      await expect(tab).toBeInViewport({ ratio: 1 });
      await expect.poll(() => ringOutside(tab), { message: `the focus ring of « ${name} » within the bar` }).toBe(0);
    };
    for (const name of ['Ajouter des informations', 'Informations initiales', 'Documents']) {
      await page.keyboard.press('ArrowRight');
      await reached(name);
    }
    await page.keyboard.press('Enter');
    await expect(documents).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByTestId('pec-documents')).toBeVisible();
    await expect(documents).toBeInViewport({ ratio: 1 });
    for (const name of ['Informations initiales', 'Ajouter des informations', 'Actions DPEC']) {
      await page.keyboard.press('ArrowLeft');
      await reached(name);
    }

    // An arrow says more tabs follow, and brings them (a screenful a press); the other one brings back the first.
    const arrows = panel.locator('.MuiTabs-scrollButtons');
    await expect(arrows).toHaveCount(2);
    await expect(arrows.last()).toBeVisible();
    await expect(async () => {
      await arrows.last().click({ timeout: 1_000 });
      await expect(documents).toBeInViewport({ ratio: 1, timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await expect(first).not.toBeInViewport({ ratio: 1 });
    await expect(async () => {
      await arrows.first().click({ timeout: 1_000 });
      await expect(first).toBeInViewport({ ratio: 1, timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    // The bar is named, as the settings' one is.
    await expect(bar).toHaveAccessibleName('Sections de la demande');
  });
});

/**
 * How many pixels of the tab's focus ring (its outline and offset) the tab bar's scroller cuts, on the side it cuts
 * most; 0 when the ring shows whole. The scroller clips what overflows it.
 */
const ringOutside = (tab: Locator) =>
  tab.evaluate((element) => {
    const style = getComputedStyle(element);
    const ring = style.outlineStyle === 'none' ? 0 : Math.max(0, parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset));
    const box = element.getBoundingClientRect();
    const scroller = element.closest('.MuiTabs-scroller')!.getBoundingClientRect();
    return Math.max(
      0,
      scroller.left - (box.left - ring),
      box.right + ring - scroller.right,
      scroller.top - (box.top - ring),
      box.bottom + ring - scroller.bottom,
    );
  });

/** 1450.5 -> "1 450,50 €", as the page writes it. */
const euros = (value: number) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(value);
/** Today in Paris, dd/mm/yyyy. */
const frenchToday = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());

test('a manual payment’s « Annuler » says which payment it cancels to a screen reader, and shows « Annuler »', async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await prepareFile(request, email);
  const token = await apiToken(request, email);
  for (const status of ['pending', 'approved', 'billed']) await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { status });
  await api(request, token, 'POST', `/api/pec_dossiers/${file.id}/payments`, { datePaiement: frenchToday(), montant: 200.5, libelle: 'Chèque 200' });

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const history = drawer(page).getByTestId('pec-payment-history');
  const name = `Annuler le paiement de ${euros(200.5)} du ${frenchToday()}`;
  const cancel = history.getByRole('button', { name, exact: true });
  await expect(cancel).toHaveCount(1);
  await expect(cancel).toHaveText('Annuler');
  await expect(history.getByRole('row').filter({ hasText: 'Chèque 200' }).getByRole('button')).toHaveAccessibleName(name);
  // It opens the cancellation of that very payment.
  await cancel.click();
  await expect(page.getByRole('dialog', { name: 'Annuler ce paiement ?' })).toContainText(`Le paiement de ${euros(200.5)} du ${frenchToday()}`);
});
