// A file's documents in its drawer (issue 29): two files dropped at once with a kind each, listed with their chips,
// a wrong file refused with the server's French message; the PDF shown in the drawer, downloaded under its name with
// its bytes, a document deleted; someone without pec.documents.delete adds by the keyboard and sees no deletion; Échap
// closes a preview before the drawer.
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type FileChooser, type Locator } from '@playwright/test';
import { api, apiToken, chooseOption, signIn } from './helpers';
import { onePagePdf, openDocuments, prepareFile, toast } from './pec-fixtures';

interface Upload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Drops files on an element as a person dragging them from their desktop would. */
async function dropFiles(target: Locator, files: Upload[]) {
  const dataTransfer = await target.page().evaluateHandle(
    (list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      return transfer;
    },
    files.map((f) => ({ name: f.name, mimeType: f.mimeType, base64: f.buffer.toString('base64') })),
  );
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

const pendingFile = (panel: Locator, name: string) => panel.getByRole('group', { name });
const documentRow = (panel: Locator, name: string) => panel.getByRole('row').filter({ hasText: name });
const ADDED_AT = /\d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}/;

test('documents: two files dropped at once, listed with their kinds, the PDF previewed and downloaded, one deleted', async ({ page, request }) => {
  const email = 'audio@audition-horizon.fr';
  const file = await prepareFile(request, email);
  const pdf: Upload = { name: 'ordonnance-e2e.pdf', mimeType: 'application/pdf', buffer: onePagePdf('Ordonnance E2E') };
  const png: Upload = { name: 'carte-mutuelle-e2e.png', mimeType: 'image/png', buffer: PNG };
  await signIn(page, email);
  const panel = await openDocuments(page, file);
  await expect(panel.getByTestId('pec-documents-empty')).toHaveText('Aucun document pour cette demande');

  await dropFiles(panel.getByTestId('pec-document-drop'), [pdf, png]);
  await expect(panel.getByTestId('pec-document-pending-file')).toHaveCount(2);
  // Sending waits for a kind on each file.
  await expect(panel.getByRole('button', { name: 'Ajouter les 2 fichiers' })).toBeDisabled();
  await chooseOption(page, pendingFile(panel, pdf.name), 'Type', 'Ordonnance');
  await chooseOption(page, pendingFile(panel, png.name), 'Type', 'Carte de mutuelle');
  await panel.getByRole('button', { name: 'Ajouter les 2 fichiers' }).click();
  await expect(toast(page, '2 documents ajoutés')).toBeVisible();
  await expect(panel.getByTestId('pec-document-pending')).toHaveCount(0);

  await expect(documentRow(panel, pdf.name).getByTestId('pec-document-kind')).toHaveText('Ordonnance');
  await expect(documentRow(panel, png.name).getByTestId('pec-document-kind')).toHaveText('Carte de mutuelle');
  await expect(documentRow(panel, pdf.name)).toContainText(ADDED_AT);
  await expect(documentRow(panel, png.name)).toContainText('70 o');

  // A file whose bytes are no PDF: the server's French refusal under it, kept to be corrected, nothing stored.
  await dropFiles(panel.getByTestId('pec-document-drop'), [{ name: 'faux.pdf', mimeType: 'application/pdf', buffer: Buffer.from('pas un PDF') }]);
  await chooseOption(page, pendingFile(panel, 'faux.pdf'), 'Type', 'Autre');
  await panel.getByRole('button', { name: 'Ajouter le fichier' }).click();
  await expect(pendingFile(panel, 'faux.pdf').getByTestId('pec-document-error')).toContainText('Format refusé');
  await panel.getByRole('button', { name: 'Retirer faux.pdf' }).click();
  await expect(panel.getByTestId('pec-document-pending')).toHaveCount(0);

  // Over the size the system allows (10 Mo by default, said in the drop zone): said at once, before anything is sent.
  await expect(panel.getByTestId('pec-document-drop')).toContainText('10 Mo au plus par fichier');
  await dropFiles(panel.getByTestId('pec-document-drop'), [
    { name: 'trop-gros.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20) },
  ]);
  await expect(pendingFile(panel, 'trop-gros.pdf').getByTestId('pec-document-error')).toHaveText('Fichier trop volumineux : 10 Mo au plus par document.');
  // It is never sent (no type to choose for it), and it does not hold back a good file dropped beside it.
  await expect(pendingFile(panel, 'trop-gros.pdf').getByRole('combobox', { name: 'Type' })).toHaveAttribute('aria-disabled', 'true');
  await dropFiles(panel.getByTestId('pec-document-drop'), [{ name: 'devis-2.png', mimeType: 'image/png', buffer: PNG }]);
  await chooseOption(page, pendingFile(panel, 'devis-2.png'), 'Type', 'Autre');
  const uploads: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/api/pec_documents') uploads.push(sent.url());
  });
  await panel.getByRole('button', { name: 'Ajouter le fichier' }).click();
  await expect(documentRow(panel, 'devis-2.png')).toHaveCount(1);
  expect(uploads).toHaveLength(1);
  await expect(pendingFile(panel, 'trop-gros.pdf').getByTestId('pec-document-error')).toHaveText('Fichier trop volumineux : 10 Mo au plus par document.');
  await expect(panel.getByTestId('pec-document-send')).toBeDisabled();
  await panel.getByRole('button', { name: 'Retirer trop-gros.pdf' }).click();
  // What the browser knows is said before anything is sent: an empty file, a program.
  await dropFiles(panel.getByTestId('pec-document-drop'), [
    { name: 'vide.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(0) },
    { name: 'outil.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') },
  ]);
  await expect(pendingFile(panel, 'vide.pdf').getByTestId('pec-document-error')).toHaveText('Le fichier est vide.');
  await expect(pendingFile(panel, 'outil.exe').getByTestId('pec-document-error')).toContainText('Format refusé');
  // The name stays readable beside its type (it was squeezed to a letter a line).
  const name = pendingFile(panel, 'outil.exe').getByText('outil.exe', { exact: true });
  expect((await name.boundingBox())!.width).toBeGreaterThan(40);
  await panel.getByRole('button', { name: 'Tout retirer' }).click();
  await expect(panel.getByTestId('pec-document-pending')).toHaveCount(0);

  // The PDF shown in the drawer, from its bytes.
  await panel.getByRole('button', { name: `Aperçu de ${pdf.name}` }).click();
  const frame = panel.getByTestId('pec-document-frame');
  await expect(frame).toHaveAttribute('src', /^blob:/);
  // The frame shows the PDF itself (the page's policy lets it load its blob: URL); its bytes are checked at download.
  await expect.poll(() => frame.evaluate((element) => (element as HTMLIFrameElement).contentDocument?.contentType)).toBe('application/pdf');
  // Named by its own name: the preview's title names it and its 'Télécharger' saves it under that name (the viewer's
  // bar, kept for printing, names it by its blob).
  const preview = panel.getByTestId('pec-document-preview');
  await expect(preview).toHaveAccessibleName(`Aperçu : ${pdf.name}`);
  const savingPreview = page.waitForEvent('download');
  await preview.getByRole('button', { name: `Télécharger ${pdf.name}` }).click();
  const previewSaved = await savingPreview;
  expect(previewSaved.suggestedFilename()).toBe(pdf.name);
  expect((await readFile(await previewSaved.path())).equals(pdf.buffer)).toBe(true);
  // The image as an image. While Chromium's PDF viewer starts beside it the drawer's content can move under a pointer
  // (under load, a click landed on the row above: the PDF stayed shown): the button is pressed where it is.
  const imagePreview = panel.getByRole('button', { name: `Aperçu de ${png.name}` });
  await expect(imagePreview).toBeVisible();
  await imagePreview.dispatchEvent('click');
  await expect(panel.getByTestId('pec-document-preview')).toHaveAccessibleName(`Aperçu : ${png.name}`);
  const image = panel.getByTestId('pec-document-preview').getByRole('img', { name: png.name });
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(1);
  await panel.getByRole('button', { name: 'Fermer l’aperçu' }).click();
  await expect(panel.getByTestId('pec-document-preview')).toHaveCount(0);
  // The focus goes back to the eye button that opened it (it was lost with the close button).
  await expect(imagePreview).toBeFocused();

  // Downloaded under its name, with its bytes.
  const downloading = page.waitForEvent('download');
  await panel.getByRole('button', { name: `Télécharger ${pdf.name}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(pdf.name);
  expect((await readFile(await download.path())).equals(pdf.buffer)).toBe(true);

  // Deleted behind the confirmation.
  await panel.getByRole('button', { name: `Supprimer ${png.name}` }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: 'Supprimer ce document ?' });
  await expect(dialog).toContainText(`Vous allez supprimer « ${png.name} »`);
  await dialog.getByRole('button', { name: 'Supprimer' }).click();
  await expect(toast(page, 'Document supprimé')).toBeVisible();
  await expect(documentRow(panel, png.name)).toHaveCount(0);
  await expect(documentRow(panel, pdf.name)).toBeVisible();

  const token = await apiToken(request, email);
  const { member } = await api<{ member: { originalName: string; kind: string }[] }>(
    request,
    token,
    'GET',
    `/api/pec_documents?dossier=${encodeURIComponent(`/api/pec_dossiers/${file.id}`)}`,
  );
  expect(member.map((d) => [d.originalName, d.kind]).sort()).toEqual([
    ['devis-2.png', 'other'],
    [pdf.name, 'prescription'],
  ]);
});

test('documents: someone without the right to delete adds a file by the keyboard and sees no deletion', async ({ page, request }) => {
  const email = 'assistant@audition-horizon.fr';
  const file = await prepareFile(request, email);
  await signIn(page, email);
  const panel = await openDocuments(page, file);

  // The drop zone is a button: Enter opens the file chooser. On a loaded machine the drawer's
  // focus trap can still move the focus while it opens, so the focus and the key are tried again.
  const zone = panel.getByRole('button', { name: /Déposez vos fichiers ici/ });
  let chooser: FileChooser | undefined;
  await expect(async () => {
    await zone.focus();
    await expect(zone).toBeFocused();
    const choosing = page.waitForEvent('filechooser', { timeout: 5_000 });
    await page.keyboard.press('Enter');
    chooser = await choosing;
  }).toPass({ timeout: 30_000 });
  if (!chooser) throw new Error('no file chooser');
  await chooser.setFiles({ name: 'devis-e2e.pdf', mimeType: 'application/pdf', buffer: onePagePdf('Devis E2E') });
  await chooseOption(page, pendingFile(panel, 'devis-e2e.pdf'), 'Type', 'Devis normalisé');
  await panel.getByRole('button', { name: 'Ajouter le fichier' }).click();
  await expect(toast(page, '1 document ajouté')).toBeVisible();

  const row = documentRow(panel, 'devis-e2e.pdf');
  await expect(row.getByTestId('pec-document-kind')).toHaveText('Devis normalisé');
  await expect(row.getByRole('button', { name: 'Télécharger devis-e2e.pdf' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Aperçu de devis-e2e.pdf' })).toBeVisible();
  await expect(panel.getByRole('button', { name: /^Supprimer/ })).toHaveCount(0);

  // Échap closes the preview, not the drawer (it closed both: /pec/{id} became /pec), the focus back on its eye
  // button; Échap again closes the drawer.
  const eye = row.getByRole('button', { name: 'Aperçu de devis-e2e.pdf' });
  await eye.click();
  await expect(panel.getByTestId('pec-document-preview')).toHaveAccessibleName('Aperçu : devis-e2e.pdf');
  await page.keyboard.press('Escape');
  await expect(panel.getByTestId('pec-document-preview')).toHaveCount(0);
  await expect(panel).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/pec/${file.id}$`));
  await expect(eye).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(page).toHaveURL(/\/pec$/);
});

/** A file the robot approved: the insurer's agreement it brought back is among its documents. */
async function approvedFile(request: APIRequestContext, email: string) {
  const file = await prepareFile(request, email);
  const token = await apiToken(request, email);
  await api(request, token, 'POST', '/api/robot-frontend/setup-and-create-dpec', { pecDossierId: file.id });
  await expect
    .poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).status, { timeout: 30_000 })
    .toBe('approved');
  return file;
}

test("documents: the insurer's agreement the robot brings back with an approval shows 'Robot' as its author", async ({ page, request }) => {
  const email = 'audio@audition-horizon.fr';
  const file = await approvedFile(request, email);
  await signIn(page, email);
  const panel = await openDocuments(page, file);
  const row = panel.getByRole('row').filter({ hasText: 'Accord de prise en charge' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/Accord de prise en charge .+\.pdf/);
  await expect(row).toContainText('Robot');
  await expect(row).toContainText(ADDED_AT);
});

test('documents on a phone: the kind, the whole name and the actions in view, without swiping', async ({ page, request }) => {
  const email = 'audio@audition-horizon.fr';
  const file = await approvedFile(request, email);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, email);
  const panel = await openDocuments(page, file);
  const row = documentRow(panel, 'Accord de prise en charge');
  // The kind under the name, the name on a line or two (it was cut every 3 or 4 letters), the size and the author left for a wider screen.
  const name = row.getByTestId('pec-document-name');
  await expect(name).toBeInViewport();
  expect((await name.boundingBox())!.width).toBeGreaterThan(100);
  await expect(row.getByTestId('pec-document-kind-phone')).toHaveText('Accord de prise en charge');
  await expect(row.getByTestId('pec-document-kind-phone')).toBeInViewport();
  await expect(row.getByTestId('pec-document-kind')).toBeHidden();
  await expect(row.getByText('Robot')).toBeHidden();
  for (const action of await row.getByRole('button').all()) {
    const box = (await action.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await expect(row.getByRole('button', { name: /^Télécharger/ })).toBeInViewport();
});
