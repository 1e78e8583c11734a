// Saved views of the PEC list (issue 28): filters (several statuses), sort and columns named and saved, left behind,
// then found again by choosing the view; renamed and deleted by their author; shared ones seen by a colleague, who
// opens the view's link with its columns; its copied address, columns included; its buttons' tooltips and sizes; and
// everyone's 'Mes dossiers', the files they follow.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiToken, signIn, signOut, uniqueName } from './helpers';
import { listCount, patientNumber, prepareFile, toast } from './pec-fixtures';

const EMAIL = 'direction@audition-horizon.fr';
// The list's column headers after the selection's checkbox column (bulk actions).
const headers = (page: Page) => page.getByRole('columnheader').filter({ hasText: /./ });

function urlParams(page: Page) {
  const params = new URL(page.url()).searchParams;
  return { filter: JSON.parse(params.get('filter') ?? '{}') as Record<string, unknown>, sort: params.get('sort'), order: params.get('order') };
}

async function apiTotal(request: APIRequestContext, query: string): Promise<number> {
  const token = await apiToken(request, EMAIL);
  const response = await request.get(`/api/pec_dossiers?${query}&itemsPerPage=1`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBeTruthy();
  return (await response.json()).totalItems as number;
}

// The list counts the pending and approved files the server counts now: other tests running beside this one move
// files between statuses, and the list follows them live, so a total read once may be stale by the next check.
async function listedAsServerCounts(page: Page, request: APIRequestContext): Promise<boolean> {
  const listed = await listCount(page);
  return listed === (await apiTotal(request, 'status[]=pending&status[]=approved'));
}

async function toggleColumns(page: Page, check: string[], uncheck: string[]) {
  await page.getByRole('button', { name: 'Colonnes' }).click();
  for (const name of check) await page.getByRole('option', { name }).getByRole('switch').check();
  for (const name of uncheck) await page.getByRole('option', { name }).getByRole('switch').uncheck();
  await page.keyboard.press('Escape');
}

test('a saved view brings back its statuses, sort and columns; its author renames and deletes it; shared, a colleague sees it', async ({ page, request }) => {
  // A long journey (two users, five saves): more than the default minute on a loaded machine.
  test.setTimeout(180_000);
  const name = `Relances ${Date.now() % 100000}`;
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(page.getByTestId('pec-row').first()).toBeVisible({ timeout: 30_000 });

  // Two statuses at once, the amounts highest first, the amount due instead of the network.
  await page.getByRole('combobox', { name: 'État' }).click();
  await page.getByRole('option', { name: 'En attente' }).click();
  await page.getByRole('option', { name: 'Approuvé' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('combobox', { name: 'État' })).toHaveText('2 états');
  await expect.poll(() => listedAsServerCounts(page, request)).toBe(true);
  expect(urlParams(page).filter).toEqual({ status: ['pending', 'approved'] });
  for (const badge of await page.getByTestId('pec-row').locator('td:nth-child(2)').allTextContents()) expect(['En attente', 'Approuvé']).toContain(badge);
  await page.getByRole('columnheader', { name: 'Montant du devis' }).getByRole('button').click();
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'totalTtc', order: 'DESC' });
  await toggleColumns(page, ['Reste dû'], ['Réseau']);
  const chosen = ['État', 'ID Pecflow', 'Centre', 'Date Création', 'Montant du devis', 'Numéro devis', 'Reste dû'];
  await expect(headers(page)).toHaveText(chosen);

  // Saved, shared with the organisation.
  await page.getByRole('button', { name: 'Enregistrer la vue' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Nom de la vue' }).fill(name);
  await dialog.getByRole('checkbox', { name: 'Partager avec l’organisation' }).check();
  // « Enregistrer » carries its mark, as the confirmation dialogs' buttons.
  await expect(dialog.getByRole('button', { name: 'Enregistrer' }).locator('svg')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(page, 'Succès')).toContainText(`Vue « ${name} » enregistrée`);
  await expect(dialog).toBeHidden();

  // Left: other filters, other columns, another page.
  await page.getByRole('button', { name: 'Effacer les filtres' }).click();
  await toggleColumns(page, ['Réseau'], ['Reste dû']);
  await page.goto('/dashboard');
  await page.goto('/pec');
  await expect(headers(page)).not.toHaveText(chosen);

  // Chosen again: the same filters, order and columns, the same files; its chip says it is the one shown.
  const chip = page.getByTestId('pec-saved-views').getByRole('link', { name, exact: true });
  await expect(chip).not.toHaveAttribute('aria-current');
  const link = await chip.getAttribute('href');
  expect(link).toMatch(/^\/pec\?view=\d+$/);
  await chip.click();
  await expect.poll(() => urlParams(page)).toEqual({ filter: { status: ['pending', 'approved'] }, sort: 'totalTtc', order: 'DESC' });
  await expect(chip).toHaveAttribute('aria-current', 'page');
  await expect(headers(page)).toHaveText(chosen);
  await expect.poll(() => listedAsServerCounts(page, request)).toBe(true);
  await expect(page.getByRole('combobox', { name: 'État' })).toHaveText('2 états');

  // A colleague sees the shared view and may use it, not change it; its link, sent to her, opens it with its columns.
  await signOut(page);
  await signIn(page, 'assistant@audition-horizon.fr');
  await page.goto('/pec');
  await expect(page.getByTestId('pec-saved-views').getByRole('link', { name, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `Modifier la vue « ${name} »` })).toHaveCount(0);
  await page.goto(link!);
  await expect.poll(() => urlParams(page)).toEqual({ filter: { status: ['pending', 'approved'] }, sort: 'totalTtc', order: 'DESC' });
  await expect(headers(page)).toHaveText(chosen);

  // The author renames it, then deletes it.
  await signOut(page);
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await page.getByRole('button', { name: `Modifier la vue « ${name} »` }).click();
  await dialog.getByRole('textbox', { name: 'Nom de la vue' }).fill(`${name} bis`);
  for (const button of ['Enregistrer', 'Supprimer']) await expect(dialog.getByRole('button', { name: button }).locator('svg')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(page, 'Succès')).toContainText(`Vue « ${name} bis » mise à jour`);
  await page.getByRole('button', { name: `Modifier la vue « ${name} bis »` }).click();
  await dialog.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByText(`Vous allez supprimer la vue « ${name} bis ».`)).toBeVisible();
  await page.getByRole('dialog').filter({ hasText: 'Supprimer la vue' }).getByRole('button', { name: 'Supprimer' }).click();
  await expect(toast(page, 'Succès').last()).toContainText(`Vue « ${name} bis » supprimée`);
  await expect(page.getByTestId('pec-saved-views').getByRole('link', { name: `${name} bis`, exact: true })).toHaveCount(0);

  // Its link now says so and opens the list as it is.
  await page.goto(link!);
  await expect(page.getByText('Cette vue n’existe plus ou n’est pas partagée avec vous')).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.has('view')).toBe(false);
});

test('the receivables drill-down shows the amount due and the billing date beside the list’s columns', async ({ page }) => {
  await signIn(page, 'direction@optique-riviera.fr');
  await page.goto('/dashboard');
  await page.getByTestId('dashboard-receivables-total').click();
  await expect(page).toHaveURL(/\/pec\?/);
  await expect(headers(page)).toContainText(['Reste dû', 'Date de facturation']);
  expect(JSON.parse(new URL(page.url()).searchParams.get('filter')!)).toMatchObject({ status: 'billed' });
  // The list's address says them: reloaded (or sent), it shows them again.
  await page.reload();
  await expect(headers(page)).toContainText(['Reste dû', 'Date de facturation']);
});

test('columns a link gives are its view’s only: opening the list plainly gives back the user’s own columns, unchanged', async ({ page, context, request }) => {
  // Two links followed, columns chosen in each, a reload: more than the default minute on a loaded machine.
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const token = await apiToken(request, EMAIL);
  const name = uniqueName('Impayés à voir');
  await api(request, token, 'POST', '/api/pec_views', { name, query: { filter: { status: 'billed' } }, columns: ['amountDue', 'status', 'numeroDossier'] });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(page.getByTestId('pec-row').first()).toBeVisible({ timeout: 30_000 });
  // The user's own choice: the patient number instead of the network.
  await toggleColumns(page, ['N° patient'], ['Réseau']);
  const own = ['État', 'ID Pecflow', 'Centre', 'Date Création', 'Montant du devis', 'Numéro devis', 'N° patient'];
  await expect(headers(page)).toHaveText(own);
  const openListPlainly = async () => {
    await page.getByRole('menuitem').filter({ hasText: 'Demandes PEC' }).click();
    await expect(page).toHaveURL(/\/pec$/);
    await expect(headers(page)).toHaveText(own);
  };

  // The dashboard's receivables: the amount due and the billing date beside the user's columns, while its list is shown
  // (a file opened and closed, another order).
  await page.goto('/dashboard');
  await page.getByTestId('dashboard-receivables-total').click();
  const receivables = [...own, 'Reste dû', 'Date de facturation'];
  await expect(headers(page)).toHaveText(receivables);
  await page.getByTestId('pec-row').first().click();
  await expect(page.getByTestId('pec-drawer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('pec-drawer')).toBeHidden();
  await page.getByRole('columnheader', { name: 'Montant du devis' }).getByRole('button').click();
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'totalTtc' });
  await expect(headers(page)).toHaveText(receivables);
  await openListPlainly();

  // A view's copied link: its columns alone, in its order; one more chosen there is that view's, not the user's.
  await page.getByRole('button', { name: `Copier le lien de la vue « ${name} »` }).click();
  await expect(toast(page, 'Lien copié')).toBeVisible();
  await page.goto(await page.evaluate(() => navigator.clipboard.readText()));
  await expect(headers(page)).toHaveText(['Reste dû', 'État', 'ID Pecflow']);
  await toggleColumns(page, ['Centre'], []);
  await expect(headers(page)).toHaveText(['Reste dû', 'État', 'ID Pecflow', 'Centre']);
  await openListPlainly();
  // What the browser keeps is the user's choice: a reload shows it too.
  await page.reload();
  await expect(headers(page)).toHaveText(own);
  // Back to the view: its columns as the link gives them.
  await page.goBack();
  await expect(headers(page)).toHaveText(['Reste dû', 'État', 'ID Pecflow']);
});

test("'Mes dossiers' lists the files its reader follows, not a colleague's; pressed again, every file", async ({ page, request }) => {
  const prefix = patientNumber('-MINE');
  const mine = await prepareFile(request, EMAIL, { patient: `${prefix}1` });
  // Created by Sophie: she follows it.
  const hers = await prepareFile(request, 'audio@audition-horizon.fr', { patient: `${prefix}2` });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(prefix);
  await expect(page.getByTestId('pec-row')).toHaveCount(2);
  // A toggle over the other filters (the search stays).
  const mineButton = page.getByRole('button', { name: 'Mes dossiers', exact: true });
  await expect(mineButton).toHaveAttribute('aria-pressed', 'false');
  await mineButton.click();
  await expect(mineButton).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => urlParams(page).filter).toEqual({ search: prefix, suiviPar: 'me' });
  await expect(page.getByTestId('pec-row')).toHaveCount(1);
  await expect(page.getByTestId('pec-row')).toContainText(mine.numeroDossier);
  await expect(page.getByTestId('pec-row').filter({ hasText: hers.numeroDossier })).toHaveCount(0);
  // Pressed again (from the keyboard), the filter goes: both files again.
  await mineButton.press('Enter');
  await expect(mineButton).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => urlParams(page).filter).toEqual({ search: prefix });
  await expect(page.getByTestId('pec-row')).toHaveCount(2);
});

test('a filter on a centre the reader cannot see says so, never by its number', async ({ page, request }) => {
  // A colleague's shared view (or link) may name a centre of theirs: Léa works in Lyon, not in Paris Bastille.
  const shops = await api<{ member: { id: number; name: string }[] }>(request, await apiToken(request, EMAIL), 'GET', '/api/shops?pagination=false');
  const bastille = shops.member.find((s) => s.name === 'Horizon Paris Bastille')!;
  await signIn(page, 'assistant@audition-horizon.fr');
  await page.goto(`/pec?filter=${encodeURIComponent(JSON.stringify({ shop: String(bastille.id) }))}`);
  await expect(page.getByText('Centre : hors de vos accès')).toBeVisible();
  await expect(page.getByText(`Centre : ${bastille.id}`)).toHaveCount(0);
});

test("a name the author already uses is said under the name field; 'Modifier la vue' may take the list's current filters, sort and columns", async ({
  page,
  request,
}) => {
  const token = await apiToken(request, EMAIL);
  const name = uniqueName('Doublon');
  const view = await api<{ '@id': string }>(request, token, 'POST', '/api/pec_views', { name, query: { filter: {} }, columns: [] });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(page.getByTestId('pec-row').first()).toBeVisible({ timeout: 30_000 });

  // The same name in another letter case: the server's refusal is said under the field, the dialog stays open.
  await page.getByRole('button', { name: 'Enregistrer la vue' }).click();
  const dialog = page.getByRole('dialog');
  const field = dialog.getByRole('textbox', { name: 'Nom de la vue' });
  await field.fill(name.toUpperCase());
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription('Vous avez déjà une vue de ce nom');
  await expect(toast(page, 'Erreur')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(dialog).toBeHidden();

  // The list shown otherwise (one status, the amounts highest first, the amount due), then the view updated with it.
  await page.getByRole('combobox', { name: 'État' }).click();
  await page.getByRole('option', { name: 'En attente' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('columnheader', { name: 'Montant du devis' }).getByRole('button').click();
  await expect.poll(() => urlParams(page)).toMatchObject({ filter: { status: 'pending' }, sort: 'totalTtc', order: 'DESC' });
  await toggleColumns(page, ['Reste dû'], []);
  await page.getByRole('button', { name: `Modifier la vue « ${name} »` }).click();
  await dialog.getByRole('checkbox', { name: 'Enregistrer les filtres, le tri et les colonnes actuels' }).check();
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(page, 'Succès')).toContainText(`Vue « ${name} » mise à jour`);
  const saved = await api<{ query: Record<string, unknown>; columns: string[] }>(request, token, 'GET', view['@id']);
  expect(saved.query).toEqual({ filter: { status: 'pending' }, sort: 'totalTtc', order: 'DESC' });
  expect(saved.columns).toContain('amountDue');
});

test('« Copier le lien » of a view copies the list’s whole address with its filters, sort and columns, which opens the list as the view does', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const token = await apiToken(request, EMAIL);
  const name = uniqueName('À copier');
  const filter = { status: ['pending', 'approved'], suiviPar: 'me' };
  // An optional column first, the network and the centre left out: not the list's default columns.
  const columns = ['amountDue', 'status', 'numeroDossier', 'totalTtc'];
  await api(request, token, 'POST', '/api/pec_views', { name, query: { filter, sort: 'totalTtc', order: 'DESC' }, columns });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(page.getByTestId('pec-row').first()).toBeVisible({ timeout: 30_000 });

  await page.getByRole('button', { name: `Copier le lien de la vue « ${name} »` }).click();
  await expect(toast(page, 'Lien copié')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(copied);
  expect(url.origin).toBe(new URL(page.url()).origin);
  expect(url.pathname).toBe('/pec');
  // Copied from the list as it is (no filter): the view's own, not the list's of the moment.
  await expect(page.getByRole('button', { name: 'Mes dossiers' })).toHaveAttribute('aria-pressed', 'false');

  await page.goto(copied);
  await expect.poll(() => urlParams(page)).toEqual({ filter, sort: 'totalTtc', order: 'DESC' });
  await expect(page.getByRole('combobox', { name: 'État' })).toHaveText('2 états');
  await expect(page.getByRole('button', { name: 'Mes dossiers' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('columnheader', { name: 'Montant du devis' })).toHaveAttribute('aria-sort', 'descending');
  // Its columns alone, in its order; the address keeps them with the filters and sort (the view's, not the user's).
  await expect(headers(page)).toHaveText(['Reste dû', 'État', 'ID Pecflow', 'Montant du devis']);
  expect([...new URL(page.url()).searchParams.keys()].sort()).toEqual(['filter', 'onlyColumns', 'order', 'sort']);
  // The list now shows what the view shows: its chip says so.
  const chip = page.getByTestId('pec-saved-views').getByRole('link', { name, exact: true });
  await expect(chip).toHaveAttribute('aria-current', 'page');
  // One more column: the list no longer shows the view, its chip no longer says it does.
  await toggleColumns(page, ['Réseau'], []);
  await expect(chip).not.toHaveAttribute('aria-current');
  await toggleColumns(page, [], ['Réseau']);
  await expect(chip).toHaveAttribute('aria-current', 'page');
});

test('a view’s copy and edit buttons say what they do in a tooltip, keep their names, and take a finger on a phone', async ({ page, request }) => {
  const token = await apiToken(request, EMAIL);
  const name = uniqueName('Boutons');
  await api(request, token, 'POST', '/api/pec_views', { name, query: { filter: {} }, columns: [] });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  const copy = page.getByRole('button', { name: `Copier le lien de la vue « ${name} »`, exact: true });
  const edit = page.getByRole('button', { name: `Modifier la vue « ${name} »`, exact: true });
  await expect(copy).toBeVisible({ timeout: 30_000 });

  for (const [button, tip] of [
    [copy, 'Copier le lien'],
    [edit, 'Modifier la vue'],
  ] as const) {
    await button.hover();
    await expect(page.getByRole('tooltip')).toHaveText(tip);
    // Its name stays the one that names the view (the tooltip's words are its start).
    await expect(button).toHaveAccessibleName(`${tip}${tip === 'Copier le lien' ? ' de la vue' : ''} « ${name} »`);
    const box = (await button.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
  }

  // On a phone (600 px and narrower), a finger's target. Loaded at that width: a laptop's open menu would cover the page.
  for (const width of [600, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.reload();
    for (const button of [copy, edit]) {
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      expect(Math.min(box.width, box.height), `${width} px`).toBeGreaterThanOrEqual(44);
    }
  }
});

test('« Copier le lien » where the browser gives no clipboard says so, and the list stays as it was', async ({ page, request }) => {
  // A page not served over HTTPS has no navigator.clipboard.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
  const token = await apiToken(request, EMAIL);
  const name = uniqueName('Sans presse-papiers');
  await api(request, token, 'POST', '/api/pec_views', { name, query: { filter: { status: 'pending' } }, columns: [] });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(page.getByTestId('pec-row').first()).toBeVisible({ timeout: 30_000 });
  const before = page.url();

  await page.getByRole('button', { name: `Copier le lien de la vue « ${name} »` }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Le lien n’a pas pu être copié' })).toBeVisible();
  await expect(toast(page, 'Lien copié')).toHaveCount(0);
  expect(page.url()).toBe(before);
  await expect(page.getByTestId('pec-row').first()).toBeVisible();
  await expect(page.getByTestId('pec-saved-views').getByRole('link', { name, exact: true })).toBeVisible();
});
