// Bulk actions on the PEC list (issue 28): a bulk DPEC on five files, two held before sending (the confirmation and
// the summary group them by reason), one where no file may go (« Envoyer au robot » held, nothing sent), a bulk
// billing with numbers from a pattern, its dialog confirmed from the keyboard, and 'Assigner à…' a colleague, whose
// files the 'Suivi par' filter then lists under their name.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiToken, chooseOption, signIn } from './helpers';
import { patientNumber, prepareFile, type PreparedFile } from './pec-fixtures';

const AUDIO = 'audio@audition-horizon.fr';
const OPTICIAN = 'direction@optique-riviera.fr';

/** Files whose patient numbers share a prefix: searching it lists them alone. */
async function prepareFiles(request: APIRequestContext, count: number, email = AUDIO) {
  const prefix = patientNumber('-BULK');
  const files: PreparedFile[] = [];
  for (let i = 1; i <= count; i++) files.push(await prepareFile(request, email, { patient: `${prefix}${i}` }));
  return { prefix, files };
}

/** Starts a file's DPEC through the API and waits for the simulator's approval. */
async function approve(request: APIRequestContext, file: PreparedFile) {
  const token = await apiToken(request, AUDIO);
  await api(request, token, 'POST', '/api/robot-frontend/setup-and-create-dpec', { pecDossierId: file.id });
  await expect
    .poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).status, { timeout: 20_000 })
    .toBe('approved');
}

async function selectAll(page: Page, prefix: string, count: number) {
  await page.goto('/pec');
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(prefix);
  await expect(page.getByTestId('pec-row')).toHaveCount(count);
  await page.getByRole('checkbox', { name: /tout/i }).first().check();
  await expect(page.getByTestId('bulk-count')).toHaveText(`${count} dossiers sélectionnés`);
}

test('a bulk DPEC on five files: the dialog says the three sent and the two held and why, and only the three are sent', async ({ page, request }) => {
  const { prefix, files } = await prepareFiles(request, 5);
  // Their DPEC is already granted: a second one is not sent.
  const granted = [files[2]!, files[4]!];
  for (const file of granted) await approve(request, file);
  await signIn(page, AUDIO);
  await selectAll(page, prefix, 5);
  const sent: unknown[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/pec_dossiers/bulk/')) sent.push(r.postDataJSON());
  });
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Créer DPEC' }).click();
  // Nothing leaves before the confirmation, which says how many files will be sent, and the others by reason.
  const confirm = page.getByRole('dialog', { name: 'Créer le DPEC de 5 dossiers ?' });
  await expect(confirm.getByTestId('bulk-dpec-sent')).toHaveText('3 dossiers seront envoyés au robot.');
  const held = confirm.getByTestId('bulk-dpec-held');
  await expect(held).toContainText('2 dossiers ne seront pas envoyés et resteront inchangés :');
  await expect(held.getByRole('listitem')).toHaveCount(1);
  // The server's own words for the reason, the count inside the sentence, then the files it holds.
  await expect(held.getByRole('listitem')).toContainText('Le DPEC ne peut pas être lancé pour un dossier « Approuvé » (2 dossiers) :');
  for (const file of granted) await expect(held.getByRole('listitem')).toContainText(file.numeroDossier);
  const token = await apiToken(request, AUDIO);
  expect((await api<{ status: string }>(request, token, 'GET', `/api/pec_dossiers/${files[0]!.id}`)).status).toBe('draft');
  expect(sent).toEqual([]);
  await expect(confirm.getByTestId('confirm-blocked')).toHaveCount(0);
  const send = confirm.getByRole('button', { name: 'Envoyer au robot' });
  await expect(send).toBeEnabled();
  await expect(send).toBeFocused();
  await send.click();
  const summary = page.getByRole('dialog', { name: 'Résultat : Créer DPEC' });
  await expect(summary).toContainText('0 effectué, 3 en file d’attente du robot, 0 refusé');
  // Only the three files the rule lets go were sent, in one request.
  const eligible = files.filter((file) => !granted.includes(file)).map((file) => file.id);
  expect(sent).toHaveLength(1);
  expect([...(sent[0] as { ids: string[] }).ids].sort()).toEqual(eligible.map((id) => `/api/pec_dossiers/${id}`).sort());
  await expect(summary.locator('[data-outcome="queued"]')).toHaveCount(3);
  // The summary says again which files were not sent, and why.
  await expect(summary.getByTestId('bulk-dpec-held')).toContainText('Le DPEC ne peut pas être lancé pour un dossier « Approuvé » (2 dossiers) :');
  for (const file of granted) expect((await api<{ status: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).status).toBe('approved');
  // A file number is never broken at its hyphens (PEC-2026-000184).
  for (const number of await summary.getByTestId('bulk-file-number').all()) await expect(number).toHaveCSS('white-space', 'nowrap');
  // Closed from the keyboard (its button has the focus).
  await expect(summary.getByRole('button', { name: 'Fermer' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(summary).toBeHidden();
  // The keyboard goes on from the list's first row (the toolbar that opened it went with the selection).
  await expect(page.getByTestId('pec-row').first()).toBeFocused();
});

test('a bulk DPEC where no selected file may go: « Envoyer au robot » held with its reason, nothing sent, Escape gives the focus back', async ({
  page,
  request,
}) => {
  // An optician's files (Optique Riviera): two approved by hand (no DPEC to create again), one without its
  // prescription (a prerequisite of an optical request).
  const { prefix, files } = await prepareFiles(request, 3, OPTICIAN);
  const token = await apiToken(request, OPTICIAN);
  for (const file of files.slice(0, 2))
    for (const status of ['pending', 'approved']) await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { status });
  const shops = await api<{ member: { '@id': string; specialite: string }[] }>(request, token, 'GET', '/api/shops?pagination=false');
  const optician = shops.member.find((shop) => shop.specialite === 'Opticien')!;
  await api(request, token, 'PATCH', `/api/pec_dossiers/${files[2]!.id}`, { shop: optician['@id'] });
  await signIn(page, OPTICIAN);
  await selectAll(page, prefix, 3);
  let bulkRequests = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/pec_dossiers/bulk/')) bulkRequests++;
  });
  const opener = page.getByTestId('bulk-actions').getByRole('button', { name: 'Créer DPEC' });
  await opener.click();
  const confirm = page.getByRole('dialog', { name: 'Créer le DPEC de 3 dossiers ?' });
  await expect(confirm.getByTestId('bulk-dpec-sent')).toHaveText('Aucun dossier ne sera envoyé au robot.');
  const reasons = confirm.getByTestId('bulk-dpec-held-reason');
  await expect(confirm.getByTestId('bulk-dpec-held')).toContainText('3 dossiers ne seront pas envoyés et resteront inchangés :');
  await expect(reasons).toHaveCount(2);
  const approved = reasons.filter({ hasText: 'Le DPEC ne peut pas être lancé pour un dossier « Approuvé » (2 dossiers) :' });
  for (const file of files.slice(0, 2)) await expect(approved).toContainText(file.numeroDossier);
  await expect(reasons.filter({ hasText: 'Prérequis manquants : Prescripteur, Date de prescription (1 dossier) :' })).toContainText(files[2]!.numeroDossier);
  // Held, and it says why; the focus waits on « Annuler ».
  const send = confirm.getByRole('button', { name: 'Envoyer au robot' });
  const why = 'Aucun des dossiers sélectionnés ne peut partir au robot : « Envoyer au robot » reste indisponible.';
  await expect(send).toBeDisabled();
  await expect(send).toHaveAccessibleDescription(why);
  await expect(confirm.getByTestId('confirm-blocked')).toHaveText(why);
  await expect(confirm.getByRole('button', { name: 'Annuler' })).toBeFocused();
  // Neither a click nor Enter on it sends anything.
  await send.click({ force: true });
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  // Escape closes it; the focus is back on the bar's « Créer DPEC ».
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(opener).toBeFocused();
  expect(bulkRequests).toBe(0);
  for (const file of files.slice(0, 2)) expect((await api<{ status: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).status).toBe('approved');
  expect((await api<{ status: string }>(request, token, 'GET', `/api/pec_dossiers/${files[2]!.id}`)).status).toBe('draft');
});

test('a bulk billing: one date, numbers from a pattern for the files that may be billed, none skipped, confirmed from the keyboard', async ({
  page,
  request,
}) => {
  const { prefix, files } = await prepareFiles(request, 3);
  const [first, second, draft] = files as [PreparedFile, PreparedFile, PreparedFile];
  for (const file of [first, second]) await approve(request, file);
  await signIn(page, AUDIO);
  await selectAll(page, prefix, 3);
  const pattern = `F${Date.now().toString(36).toUpperCase()}-{n}`;
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Facturer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Facturer 3 dossiers' });
  const patternField = dialog.getByRole('textbox', { name: 'Modèle du numéro de facture' });
  await expect(patternField).toBeFocused();
  await patternField.fill(pattern);
  await dialog.getByRole('spinbutton', { name: 'Premier numéro' }).fill('7');
  // Two numbers for the two approved files; the draft is said to stay unchanged, without a number.
  await expect(dialog.getByTestId('bulk-numbers')).toHaveText(`Numéros : ${pattern.replace('{n}', '7')}, ${pattern.replace('{n}', '8')}`);
  await expect(dialog.getByTestId('bulk-not-billable')).toHaveText(
    '1 dossier sélectionné ne peut pas être facturé (DPEC non accordé, ou déjà facturé) : il restera inchangé, sans numéro.',
  );
  // « Confirmer » carries the billing's mark, as the bar's « Facturer ».
  await expect(dialog.getByRole('button', { name: 'Confirmer' }).getByTestId('confirm-bill-mark')).toBeVisible();
  await page.keyboard.press('Enter');
  const summary = page.getByRole('dialog', { name: 'Résultat : Facturer' });
  await expect(summary).toContainText('0 effectué, 2 en file d’attente du robot, 1 refusé');
  // The server's refusal said once with the files it refused, the count inside its sentence; the refused line first.
  const refusals = summary.getByTestId('bulk-refusals').getByRole('listitem');
  await expect(refusals).toHaveCount(1);
  await expect(refusals).toHaveText(`Prérequis manquants : DPEC accordé (1 dossier) : ${draft.numeroDossier}`);
  await expect(summary.getByTestId('bulk-result').first()).toHaveAttribute('data-outcome', 'refused');
  for (const number of await summary.getByTestId('bulk-file-number').all()) await expect(number).toHaveCSS('white-space', 'nowrap');
  const token = await apiToken(request, AUDIO);
  const numberOf = async (file: PreparedFile) => (await api<{ numBilling: string | null }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).numBilling;
  expect([await numberOf(first), await numberOf(second)].sort()).toEqual([pattern.replace('{n}', '7'), pattern.replace('{n}', '8')].sort());
  expect(await numberOf(draft)).toBeNull();
  // The summary says the invoice number each billed file got; the refused one got none.
  await expect(summary.getByRole('columnheader', { name: 'N° de facture' })).toBeVisible();
  for (const file of [first, second])
    await expect(summary.getByTestId('bulk-result').filter({ hasText: file.numeroDossier }).getByTestId('bulk-invoice-number')).toHaveText(
      (await numberOf(file))!,
    );
  await expect(summary.getByTestId('bulk-result').filter({ hasText: draft.numeroDossier }).getByTestId('bulk-invoice-number')).toHaveText('—');
});

test('the bulk billing dialog opens and closes with the page where it was: neither the window nor the list moves', async ({ page }) => {
  await signIn(page, AUDIO);
  await page.goto('/pec');
  const rows = page.getByTestId('pec-row');
  await expect(rows.nth(3)).toBeVisible();
  // Three files by their number: a file another test creates meanwhile comes first and moves the rows down.
  const numbers = await rows.evaluateAll((all) => all.slice(0, 3).map((row) => row.querySelector('td:nth-child(3)')!.textContent!));
  for (const number of numbers) await rows.filter({ hasText: number }).getByRole('checkbox').check();
  await expect(page.getByTestId('bulk-count')).toHaveText('3 dossiers sélectionnés');
  // A page taller than the window, the bar stuck at its bottom.
  expect(await page.evaluate(() => document.documentElement.scrollHeight - innerHeight)).toBeGreaterThan(300);
  const frame = page.getByTestId('list-table-frame');
  const where = async () => ({
    window: await page.evaluate(() => window.scrollY),
    list: await frame.evaluate((box) => [box.scrollTop, box.scrollLeft]),
  });
  const before = await where();
  const billing = page.getByTestId('bulk-actions').getByRole('button', { name: 'Facturer' });
  await billing.click();
  const dialog = page.getByRole('dialog', { name: 'Facturer 3 dossiers' });
  await expect(dialog.getByRole('textbox', { name: 'Modèle du numéro de facture' })).toBeFocused();
  expect(await where()).toEqual(before);
  // Closed: the focus is back on « Facturer », the page still where it was.
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(dialog).toBeHidden();
  await expect(billing).toBeFocused();
  expect(await where()).toEqual(before);
  // The bar's buttons reached by the keyboard do not move it either.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('bulk-actions').locator('button:focus')).toHaveCount(1);
  expect(await where()).toEqual(before);
});

test("'Assigner à…' gives two files to a colleague, and 'Suivi par' lists them under the colleague's name", async ({ page, request }) => {
  const { prefix, files } = await prepareFiles(request, 2);
  await signIn(page, AUDIO);
  await selectAll(page, prefix, 2);
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Assigner à…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assigner 2 dossiers' });
  // Sophie's colleagues who may follow her files: never Léa Petit (Lyon only), nor Julien Moreau (read-only).
  await dialog.getByRole('combobox', { name: /Suivi par/ }).click();
  await expect(page.getByRole('option', { name: 'Léa Petit' })).toHaveCount(0);
  await expect(page.getByRole('option', { name: 'Julien Moreau' })).toHaveCount(0);
  await page.getByRole('option', { name: 'Marc Lefèvre' }).click();
  await expect(dialog.getByRole('button', { name: 'Confirmer' }).getByTestId('confirm-assign-mark')).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirmer' }).click();
  const summary = page.getByRole('dialog', { name: 'Résultat : Assigner' });
  await expect(summary).toContainText('2 effectués, 0 refusé');
  await summary.getByRole('button', { name: 'Fermer' }).click();

  const token = await apiToken(request, AUDIO);
  for (const file of files)
    expect((await api<{ owner: { lastName: string } | null }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).owner?.lastName).toBe('Lefèvre');

  await page.getByRole('button', { name: 'Plus de filtres' }).click();
  await chooseOption(page, page.getByTestId('pec-more-filters'), 'Suivi par', 'Marc Lefèvre');
  await expect(page).toHaveURL(/suiviPar/);
  await expect(page.getByTestId('pec-row')).toHaveCount(2);
  await page.getByRole('button', { name: 'Plus de filtres' }).click();
  await expect(page.getByText('Suivi par : Marc Lefèvre')).toBeVisible();
});

test("'Assigner à…' offers only the colleagues who see every selected file", async ({ page, request }) => {
  const { prefix } = await prepareFiles(request, 2);
  // The direction sees every centre; Léa Petit works in Lyon only and could not follow these Paris files.
  await signIn(page, 'direction@audition-horizon.fr');
  await selectAll(page, prefix, 2);
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Assigner à…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assigner 2 dossiers' });
  await dialog.getByRole('combobox', { name: /Suivi par/ }).click();
  await expect(page.getByRole('option', { name: 'Sophie Bernard' })).toBeVisible();
  // 'Personne' first: no blank choice above it.
  await expect(page.getByRole('option').first()).toHaveText('Personne');
  await expect(page.getByRole('option', { name: 'Léa Petit' })).toHaveCount(0);
});

test('a bulk action acts on the rows in view: files selected, then left out by the search, leave the selection', async ({ page, request }) => {
  const { prefix, files } = await prepareFiles(request, 3);
  await signIn(page, AUDIO);
  await selectAll(page, prefix, 3);
  // The search narrowed to one of them: the bar counts that one only, and its action would name it alone.
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(files[0]!.numeroDossierAssure);
  await expect(page.getByTestId('pec-row')).toHaveCount(1);
  await expect(page.getByTestId('bulk-count')).toHaveText('1 dossier sélectionné');
  // The others do not come back selected with the wider search.
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(prefix);
  await expect(page.getByTestId('pec-row')).toHaveCount(3);
  await expect(page.getByTestId('bulk-count')).toHaveText('1 dossier sélectionné');
  await expect(page.getByTestId('pec-row').getByRole('checkbox', { checked: true })).toHaveCount(1);
});
