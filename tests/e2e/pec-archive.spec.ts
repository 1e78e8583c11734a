// Issue 25 in the browser: an Assistant(e) archives their own mistaken draft (the 'Archivée' chip, out of the default
// list, back with the 'Archivées' chip of the filter bar, whose filter is in the URL), an administrator restores it; a
// twin's warning links to the other file and a DPEC beside a twin's request asks to confirm; the billing dialog refuses
// an invoice dated in the future.
import { expect, test, type Page } from '@playwright/test';
import { api, apiToken, chooseOption, selectField, signIn, signOut } from './helpers';
import { attachDocument, drawer, openFile, prepareFile, toast, type PreparedFile } from './pec-fixtures';
import { todayInFrance } from '#domain/pec';

const ASSISTANT = 'assistant@audition-horizon.fr';
const ADMIN = 'direction@audition-horizon.fr';
const AUDIO = 'audio@audition-horizon.fr';

const rows = (page: Page) => page.getByTestId('pec-row');
const urlFilter = (page: Page) => JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}') as Record<string, unknown>;

test('an Assistant(e) archives their own draft: the chip, out of the list, listed again by the archived filter; an administrator restores it', async ({
  page,
  request,
}) => {
  const file = await prepareFile(request, ASSISTANT);
  await signIn(page, ASSISTANT);
  await openFile(page, file);
  const panel = drawer(page);
  // No delete right: 'Archiver' only.
  await expect(panel.getByRole('button', { name: 'Supprimer' })).toHaveCount(0);
  await panel.getByRole('button', { name: 'Archiver' }).click();
  const dialog = page.getByRole('dialog', { name: `Archiver la demande ${file.numeroDossier}` });
  const confirm = dialog.getByTestId('archive-confirm');
  await expect(confirm).toBeDisabled();
  // « Archiver » carries the archive's mark, as the drawer's button and the confirmation dialogs' buttons theirs.
  await expect(confirm).toHaveText('Archiver');
  await expect(confirm.locator('svg')).toHaveCount(1);
  // The five reasons, none blank to pick; a file paid in full is archived as « Dossier soldé ».
  await selectField(dialog, 'Motif de l’archivage').click();
  await expect(page.getByRole('listbox').getByRole('option')).toHaveText([
    'Dossier soldé',
    'Abandonnée par le patient',
    'Doublon',
    'Erreur de saisie',
    'Autre',
  ]);
  await page.keyboard.press('Escape');
  // 'Autre' asks for its text.
  await chooseOption(page, dialog, 'Motif de l’archivage', 'Autre');
  await expect(dialog.getByRole('textbox', { name: 'Précision' })).toBeVisible();
  await expect(confirm).toBeDisabled();
  await chooseOption(page, dialog, 'Motif de l’archivage', 'Erreur de saisie');
  await expect(dialog.getByRole('textbox', { name: 'Précision' })).toHaveCount(0);
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Demande archivée')).toContainText(`La demande ${file.numeroDossier} est archivée.`);

  await expect(panel.getByTestId('archived-chip')).toHaveText('Archivée');
  await expect(panel.getByTestId('status-badge')).toHaveText('Brouillon');
  await expect(panel.getByTestId('archived-notice')).toContainText(`Demande archivée le ${todayInFrance().split('-').reverse().join('/')} — Erreur de saisie`);
  await expect(panel.getByTestId('dpec-button')).toHaveText('Demande archivée');
  await expect(panel.getByTestId('dpec-button')).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Archiver' })).toHaveCount(0);
  // Restoring is an administrator's.
  await expect(panel.getByRole('button', { name: 'Restaurer' })).toHaveCount(0);

  // Out of the default list; the bar's 'Archivées' chip lists it, with its chip, at an address of its own.
  await panel.getByRole('button', { name: 'Fermer' }).click();
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(file.numeroDossierAssure);
  await expect(page.getByTestId('list-empty')).toContainText('Aucun résultat ne correspond à la recherche ou aux filtres choisis.');
  await page.getByTestId('filter-archived').click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText(file.numeroDossier);
  await expect(rows(page).getByTestId('archived-chip')).toBeVisible();
  await expect.poll(() => urlFilter(page)).toEqual({ search: file.numeroDossierAssure, archived: 'true' });
  await page.reload();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByTestId('filter-archived')).toHaveAttribute('aria-pressed', 'true');

  // An administrator restores it: back in the list.
  await signOut(page);
  await signIn(page, ADMIN);
  await openFile(page, file);
  await panel.getByRole('button', { name: 'Restaurer' }).click();
  await page
    .getByRole('dialog', { name: `Restaurer la demande ${file.numeroDossier} ?` })
    .getByRole('button', { name: 'Restaurer' })
    .click();
  await expect(toast(page, 'Demande restaurée')).toBeVisible();
  await expect(panel.getByTestId('archived-chip')).toHaveCount(0);
  await expect(panel.getByTestId('dpec-button')).toHaveText('Créer DPEC');
  const token = await apiToken(request, ADMIN);
  const listed = await api<{ member: { id: number }[] }>(request, token, 'GET', `/api/pec_dossiers?search=${file.numeroDossierAssure}`);
  expect(listed.member.map((m) => m.id)).toEqual([file.id]);
});

test('"Lecture seule" is offered neither Archiver nor Restaurer on a file it reads: the server refuses both', async ({ page, request }) => {
  const email = 'lecture@audition-horizon.fr';
  const token = await apiToken(request, email);
  // A file of Marc Lefèvre's centre, which Julien Moreau (read only) reads. (Read-only staff write no file: the demo
  // gives them none, and a read-only author is covered by the unit test of the archive rules.)
  const file = await prepareFile(request, 'audio@audition-horizon.fr');
  expect((await request.fetch(`/api/pec_dossiers/${file.id}`, { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
  const refused = await request.fetch(`/api/pec_dossiers/${file.id}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/merge-patch+json' },
    data: { archived: true, archiveReason: 'duplicate' },
  });
  expect(refused.status()).toBe(403);

  await signIn(page, email);
  await page.goto(`/pec/${file.id}`);
  const panel = drawer(page);
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(`Demande ${file.numeroDossier}`);
  // The header's actions are drawn once the file is read (its print button beside them).
  await expect(panel.getByTestId('print-summary')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Archiver' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Restaurer' })).toHaveCount(0);
});

test("an archived file's drawer offers no change: no drop zone nor bin on its documents, no new note, its follow-up read only", async ({ page, request }) => {
  const file = await prepareFile(request, ADMIN);
  const token = await apiToken(request, ADMIN);
  const merge = { Authorization: `Bearer ${token}`, 'content-type': 'application/merge-patch+json' };
  const patch = async (data: Record<string, unknown>) =>
    expect((await request.fetch(`/api/pec_dossiers/${file.id}`, { method: 'PATCH', headers: merge, data })).ok()).toBeTruthy();
  await patch({ followUpDate: '2027-01-20' });
  await attachDocument(request, token, file.id, 'prescription');
  await api(request, token, 'POST', '/api/pec_notes', { dossier: `/api/pec_dossiers/${file.id}`, body: 'Appel à la mutuelle' });
  await patch({ archived: true, archiveReason: 'duplicate' });

  await signIn(page, ADMIN);
  await openFile(page, file);
  const panel = drawer(page);
  await expect(panel.getByTestId('archived-notice')).toBeVisible();
  // The follow-up date stays shown, read only; the owner the same; the thread is read, no note is added.
  const date = panel.getByRole('textbox', { name: /^Relance le/ });
  await expect(date).toHaveValue('20/01/2027');
  await expect(date).not.toBeEditable();
  await expect(panel.getByTestId('follow-up-owner').getByRole('combobox')).toHaveAttribute('aria-disabled', 'true');
  await expect(panel.getByTestId('pec-note')).toContainText('Appel à la mutuelle');
  await expect(panel.getByTestId('note-text')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Ajouter la note' })).toHaveCount(0);
  // Its author's note of a minute ago, changeable on a file being worked on, is not here.
  await expect(panel.getByTestId('pec-note').getByRole('button', { name: 'Modifier' })).toHaveCount(0);
  await expect(panel.getByTestId('pec-note').getByRole('button', { name: 'Supprimer' })).toHaveCount(0);

  // Its documents are listed and downloaded, none added or deleted.
  await panel.getByRole('tab', { name: 'Documents' }).click();
  await expect(panel.getByTestId('pec-document-name')).toHaveText('prescription.pdf');
  await expect(panel.getByRole('button', { name: 'Télécharger prescription.pdf' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Supprimer prescription.pdf' })).toHaveCount(0);
  await expect(panel.getByTestId('pec-document-drop')).toHaveCount(0);
});

test('a twin is warned in the drawer with a link to it, and a DPEC beside its request asks to confirm', async ({ page, request }) => {
  const token = await apiToken(request, AUDIO);
  const first = await prepareFile(request, AUDIO);
  // The same mutual and quote number as the first.
  const firstFile = await api<{ shop: { '@id': string }; mutual: { '@id': string }; numeroDevisAssure: string }>(
    request,
    token,
    'GET',
    `/api/pec_dossiers/${first.id}`,
  );
  const twinPatient = `${first.numeroDossierAssure}-BIS`;
  const created = await api<{ id: number; numeroDossier: string }>(request, token, 'POST', '/api/pec_dossiers', {
    shop: firstFile.shop['@id'],
    mutual: firstFile.mutual['@id'],
    numeroDossierAssure: twinPatient,
    numeroDevisAssure: firstFile.numeroDevisAssure,
  });
  const twin: PreparedFile = { id: created.id, numeroDossier: created.numeroDossier, numeroDossierAssure: twinPatient };
  // The first is at the insurer.
  await api(request, token, 'POST', '/api/robot-frontend/setup-and-create-dpec', { pecDossierId: first.id });

  await signIn(page, AUDIO);
  await openFile(page, twin);
  const panel = drawer(page);
  const warning = panel.getByTestId('pec-warning').filter({ hasText: 'Doublon possible' });
  await expect(warning).toContainText(`La demande ${first.numeroDossier}`);
  await expect(warning).toContainText('porte la même mutuelle et le même numéro de devis');
  // Shown before 'Créer DPEC'.
  const warningBox = (await warning.boundingBox())!;
  const buttonBox = (await panel.getByTestId('dpec-button').boundingBox())!;
  expect(warningBox.y).toBeLessThan(buttonBox.y);

  await panel.getByTestId('dpec-button').click();
  const dialog = page.getByRole('dialog', { name: 'Doublon possible' });
  await expect(dialog).toContainText(`Doublon : la demande ${first.numeroDossier}`);
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByTestId('dpec-button')).toHaveText('Créer DPEC');
  await panel.getByTestId('dpec-button').click();
  // « Envoyer quand même » carries the send mark, as the confirmation dialogs' « Envoyer au robot ».
  await expect(dialog.getByTestId('duplicate-confirm')).toHaveText('Envoyer quand même');
  await expect(dialog.getByTestId('duplicate-confirm').getByTestId('confirm-send-mark')).toBeVisible();
  await dialog.getByTestId('duplicate-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByTestId('execution').first()).toBeVisible();

  // The warning's link opens the other file.
  await warning.getByTestId('pec-warning-link').click();
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(`Demande ${first.numeroDossier}`);
  await expect(page).toHaveURL(new RegExp(`/pec/${first.id}(\\?|$)`));
});

test('the billing dialog refuses an invoice dated in the future', async ({ page, request }) => {
  const token = await apiToken(request, AUDIO);
  const file = await prepareFile(request, AUDIO);
  await api(request, token, 'POST', '/api/robot-frontend/setup-and-create-dpec', { pecDossierId: file.id });
  await expect
    .poll(async () => (await api<{ numPec: string | null }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).numPec, { timeout: 15_000 })
    .not.toBeNull();

  await signIn(page, AUDIO);
  await openFile(page, file);
  await drawer(page).getByTestId('billing-button').click();
  const dialog = page.getByRole('dialog', { name: 'Facturation de la PEC' });
  await dialog.getByRole('textbox', { name: /^N° de facture logiciel/ }).fill('FAC-FUTUR-1');
  const tomorrow = new Date(`${todayInFrance()}T12:00:00Z`);
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  await dialog.getByRole('textbox', { name: /^Date de facture logiciel/ }).fill(tomorrow.toISOString().slice(0, 10).split('-').reverse().join('/'));
  await expect(dialog).toContainText('La date de facture ne peut pas être dans le futur');
  await expect(dialog.getByRole('button', { name: 'Confirmer' })).toBeDisabled();
  // « Confirmer » carries the billing's mark, as the drawer's « Facturer ».
  await expect(dialog.getByRole('button', { name: 'Confirmer' }).getByTestId('confirm-bill-mark')).toBeVisible();
  const today = todayInFrance().split('-').reverse().join('/');
  await dialog.getByRole('textbox', { name: /^Date de facture logiciel/ }).fill(today);
  await expect(dialog.getByRole('button', { name: 'Confirmer' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  // Nothing was saved.
  expect((await api<{ dateBilling: string | null }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).dateBilling).toBeNull();
});
