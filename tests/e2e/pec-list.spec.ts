// The /pec list (spec section 2): search, status filter, creation dates, order and page live in the URL and select the
// same files as the API; a link reproduces the view. Optique Riviera's files: no other test changes them.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { PEC_LIST_REFETCH_MS, SEARCH_WORDS } from '#domain/limits';
import { api, apiToken, pickDay, signIn, signOut, typeDate } from './helpers';
import { drawer, listCount, toast } from './pec-fixtures';

const EMAIL = 'direction@optique-riviera.fr';

async function apiTotal(request: APIRequestContext, query: Record<string, string>): Promise<number> {
  const token = await apiToken(request, EMAIL);
  const response = await request.get(`/api/pec_dossiers?${new URLSearchParams({ ...query, itemsPerPage: '1' })}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBeTruthy();
  return (await response.json()).totalItems as number;
}

/** The list parameters of the current URL (react-admin's: filter as JSON, sort, order, page). */
function urlParams(page: Page) {
  const params = new URL(page.url()).searchParams;
  return {
    filter: JSON.parse(params.get('filter') ?? '{}') as Record<string, unknown>,
    sort: params.get('sort'),
    order: params.get('order'),
    page: params.get('page'),
  };
}

const dayOf = (ddmmyyyy: string) => ddmmyyyy.split('/').reverse().join('-');
const frenchDay = (isoDay: string) => isoDay.split('-').reverse().join('/');
const rows = (page: Page) => page.getByTestId('pec-row');
// The first cell of a row is its selection checkbox (bulk actions): `column` counts the data columns from 1.
const cells = (page: Page, column: number) =>
  rows(page)
    .locator(`td:nth-child(${column + 1})`)
    .allTextContents();

/** yyyy-mm-dd, `days` from today in the browser's time zone (Europe/Paris). */
function localDay(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(date);
}

test('search, status, creation dates and order are in the URL, select what the API selects, and survive a reload', async ({ page, request }) => {
  const total = await apiTotal(request, {});
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);
  expect(await listCount(page)).toBe(total);
  // The selection's checkbox column first (bulk actions), then the spec's seven.
  await expect(page.getByRole('columnheader')).toHaveText(['', 'État', 'ID Pecflow', 'Centre', 'Réseau', 'Date Création', 'Montant du devis', 'Numéro devis']);
  // A quote number reads whole, on one line: « DEV-2026-2622 », not « DEV-2026- » over « 2622 ».
  const quoteNumberLines = await rows(page)
    .locator('td:nth-child(8)')
    .evaluateAll((quoteCells) =>
      quoteCells.map((cell) => {
        const text = document.createRange();
        text.selectNodeContents(cell);
        return new Set([...text.getClientRects()].map((rect) => Math.round(rect.top))).size;
      }),
    );
  expect(quoteNumberLines).toEqual(Array(20).fill(1));
  // Newest first by default.
  const defaultDates = (await cells(page, 5)).map(dayOf);
  expect([...defaultDates].sort().reverse()).toEqual(defaultDates);

  // Search: one file by its patient number.
  const token = await apiToken(request, EMAIL);
  const sample = (await (await request.get('/api/pec_dossiers?itemsPerPage=1&page=7', { headers: { Authorization: `Bearer ${token}` } })).json()).member[0];
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(sample.numeroDossierAssure);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText(sample.numeroDossier);
  expect(urlParams(page).filter).toEqual({ search: sample.numeroDossierAssure });
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill('');
  await expect(rows(page)).toHaveCount(20);

  // Status.
  await page.getByRole('combobox', { name: 'État' }).click();
  await page.getByRole('option', { name: 'En attente' }).click();
  await page.keyboard.press('Escape'); // the status menu takes several: it stays open
  const pending = await apiTotal(request, { status: 'pending' });
  await expect.poll(() => listCount(page)).toBe(pending);
  expect(urlParams(page).filter).toEqual({ status: 'pending' });
  for (const badge of await cells(page, 1)) expect(badge).toBe('En attente');
  await expect(rows(page).first().locator('[data-status="pending"]')).toHaveAttribute('data-pulsing', 'true');

  // Creation dates, in "Plus de filtres".
  await page.getByRole('button', { name: 'Plus de filtres' }).click();
  const from = localDay(-120);
  const to = localDay(-30);
  // Typed as the app shows dates: dd/mm/yyyy.
  await page.getByRole('textbox', { name: 'Créée à partir du' }).fill(frenchDay(from));
  await page.getByRole('textbox', { name: 'Créée jusqu’au' }).fill(frenchDay(to));
  await expect.poll(() => (urlParams(page).filter.createdAt as { before?: string } | undefined)?.before?.slice(0, 10)).toBe(to);
  const range = urlParams(page).filter.createdAt as { after: string; before: string };
  expect(range.after.slice(0, 10)).toBe(from);
  const inRange = await apiTotal(request, { status: 'pending', 'createdAt[after]': range.after, 'createdAt[before]': range.before });
  await expect.poll(() => listCount(page)).toBe(inRange);
  expect(inRange).toBeGreaterThan(0);
  expect(inRange).toBeLessThan(pending);
  for (const date of (await cells(page, 5)).map(dayOf)) {
    expect(date >= from && date <= to, `${date} entre ${from} et ${to}`).toBe(true);
  }

  // Order: by quote amount, ascending.
  await page.getByRole('combobox', { name: 'Trier par' }).click();
  await page.getByRole('option', { name: 'Montant du devis' }).click();
  await page.getByRole('button', { name: 'Sens du tri' }).click();
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'totalTtc', order: 'ASC' });
  await expect(page.getByRole('button', { name: 'Sens du tri' })).toHaveText('Croissant');
  // The rows shown until the new order arrives are the previous ones (highest first): wait for the new order.
  const amounts = async () => (await cells(page, 6)).filter((a) => a !== 'Non défini').map((a) => Number(a.replace(/[^\d,]/g, '').replace(',', '.')));
  await expect
    .poll(
      async () => {
        const shown = await amounts();
        return shown.length > 1 && shown.every((amount, i) => i === 0 || shown[i - 1]! <= amount);
      },
      { message: 'montants croissants' },
    )
    .toBe(true);

  // The same URL, reloaded: the same view.
  const shown = await rows(page).allTextContents();
  const url = page.url();
  await page.reload();
  await expect.poll(() => rows(page).allTextContents()).toEqual(shown);
  expect(page.url()).toBe(url);
  await expect(page.getByRole('combobox', { name: 'État' })).toHaveText('En attente');
  await expect(page.getByRole('textbox', { name: 'Créée à partir du' })).toHaveValue(frenchDay(from));
  await expect(page.getByRole('combobox', { name: 'Trier par' })).toHaveText('Montant du devis');
});

test('pages of 20, column sorting and the clear button', async ({ page, request }) => {
  const total = await apiTotal(request, {});
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);
  const pages = Math.ceil(total / 20);
  await expect(page.getByTestId('pec-pagination-page')).toHaveText(`Page 1 / ${pages}`);
  await expect(page.getByTestId('pec-pagination')).toContainText(`${total} résultats`);
  const firstPage = await rows(page).allTextContents();

  const next = page.getByRole('button', { name: 'Suivant' });
  await next.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pec-pagination-page')).toHaveText(`Page 2 / ${pages}`);
  expect(urlParams(page).page).toBe('2');
  await expect.poll(() => rows(page).allTextContents()).not.toEqual(firstPage);
  // The focus stays on « Suivant » while each page is read, and at the last page, where it does nothing more (a disabled
  // button dropped the focus to the page).
  await expect(next).toBeFocused();
  for (let shown = 3; shown <= pages; shown++) {
    // Inert while the page is read: pressed again once it is shown.
    await expect(next).toBeEnabled();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('pec-pagination-page')).toHaveText(`Page ${shown} / ${pages}`);
  }
  await expect(next).toBeFocused();
  await expect(next).toBeDisabled();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pec-pagination-page')).toHaveText(`Page ${pages} / ${pages}`);
  await page.getByRole('button', { name: 'Précédent' }).click();
  await expect(page.getByTestId('pec-pagination-page')).toHaveText(`Page ${Math.max(1, pages - 1)} / ${pages}`);

  // A column header sorts (newest, i.e. highest, number first), back to page 1.
  await page.getByRole('columnheader', { name: 'ID Pecflow' }).getByRole('button').click();
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'numeroDossier', order: 'DESC', page: '1' });
  const numbers = await cells(page, 2);
  expect([...numbers].sort().reverse()).toEqual(numbers);
  await page.getByRole('columnheader', { name: 'ID Pecflow' }).getByRole('button').click();
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'numeroDossier', order: 'ASC' });
  const token = await apiToken(request, EMAIL);
  const lowest = (
    await (await request.get('/api/pec_dossiers?itemsPerPage=1&order[numeroDossier]=asc', { headers: { Authorization: `Bearer ${token}` } })).json()
  ).member[0];
  await expect(rows(page).first()).toContainText(lowest.numeroDossier);

  // The centre sorts by its name, A to Z first, then Z to A: the page shows the API's centres in that order.
  const centresOf = async (order: string) =>
    (
      (await (await request.get(`/api/pec_dossiers?itemsPerPage=20&order[shop]=${order}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        member: { shop: { name: string } }[];
      }
    ).member.map((file) => file.shop.name);
  await page.getByRole('columnheader', { name: 'Centre' }).getByRole('button').click();
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'shop', order: 'ASC', page: '1' });
  await expect.poll(() => cells(page, 3)).toEqual(await centresOf('asc'));
  await page.getByRole('columnheader', { name: 'Centre' }).getByRole('button').click();
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'shop', order: 'DESC' });
  const descending = await centresOf('desc');
  await expect.poll(() => cells(page, 3)).toEqual(descending);
  expect(descending[0]).not.toBe((await centresOf('asc'))[0]);

  // A sort is not a filter: sorted, the list has nothing to clear; filtered, the filters go and the sort stays.
  const clear = page.getByRole('button', { name: 'Effacer les filtres' });
  await expect(clear).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('combobox', { name: 'État' }).click();
  await page.getByRole('option', { name: 'Refusé' }).click();
  await page.keyboard.press('Escape'); // the status menu takes several: it stays open
  await expect.poll(() => listCount(page)).toBe(await apiTotal(request, { status: 'rejected' }));
  await expect(clear).toBeEnabled();
  await clear.click();
  await expect.poll(() => listCount(page)).toBe(total);
  await expect.poll(() => urlParams(page)).toMatchObject({ filter: {}, sort: 'shop', order: 'DESC' });
  await expect.poll(() => cells(page, 3)).toEqual(descending);
  await expect(clear).toBeDisabled();
  // Nothing left to clear, it keeps the focus it was given.
  await expect(clear).toBeFocused();
});

test('a page or a sort being read says so: the table busy, its rows dimmed under a moving bar and inert to the pointer, and in words', async ({ page }) => {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);
  const list = page.getByTestId('pec-list');
  const table = list.getByRole('table');
  const said = list.getByRole('status');
  const frame = list.getByTestId('list-table-frame');
  const opacity = () => table.locator('tbody').evaluate((body) => getComputedStyle(body).opacity);
  // The bar is drawn over the table's top, by the box around it.
  const bar = () =>
    frame.evaluate((paper) => {
      const style = getComputedStyle(paper.parentElement!, '::before');
      return style.content !== 'none' && style.opacity === '1';
    });
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(said).toHaveText('');
  expect(await bar()).toBe(false);

  // A slow server: the answers for page 2 and for the sort by number wait until the test lets them go.
  const held: (() => Promise<void>)[] = [];
  await page.route(
    (url) => url.pathname === '/api/pec_dossiers' && (url.searchParams.get('page') === '2' || url.searchParams.has('order[numeroDossier]')),
    (route) => new Promise<void>((resolve) => held.push(() => route.continue().then(resolve, resolve))),
  );
  const answer = async () => {
    await expect.poll(() => held.length).toBe(1);
    await held.pop()!();
  };

  const firstPage = await rows(page).allTextContents();
  await page.getByRole('button', { name: 'Suivant' }).click();
  // The pagination says page 2 at once: the rows still shown are page 1's, dimmed, under the bar, the table busy.
  await expect(page.getByTestId('pec-pagination-page')).toHaveText(/^Page 2 \//);
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(said).toHaveText('Chargement des résultats…');
  await expect.poll(opacity).toBe('0.5');
  await expect.poll(bar).toBe(true);
  expect(await rows(page).allTextContents()).toEqual(firstPage);
  // A dimmed row, about to go, is inert to the pointer: a click on it opens nothing (not the file of page 1 it shows).
  const dimmed = (await rows(page).nth(2).boundingBox())!;
  await page.mouse.click(dimmed.x + dimmed.width / 2, dimmed.y + dimmed.height / 2);
  expect(new URL(page.url()).pathname).toBe('/pec');
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await answer();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(said).toHaveText('');
  await expect.poll(() => rows(page).allTextContents()).not.toEqual(firstPage);
  await expect.poll(opacity).toBe('1');
  expect(await bar()).toBe(false);
  // The click while it was read opened nothing, even once the answer came; a click on a row of page 2 opens that file.
  expect(new URL(page.url()).pathname).toBe('/pec');
  await expect(drawer(page)).toBeHidden();
  const third = rows(page).nth(2);
  const numero = (await third.locator('td:nth-child(3)').textContent())!;
  expect(firstPage.some((row) => row.includes(numero))).toBe(false);
  await third.click();
  await expect(drawer(page).getByRole('heading', { level: 2 })).toHaveText(`Demande ${numero}`);
  await drawer(page).getByRole('button', { name: 'Fermer' }).click();
  await expect(drawer(page)).toBeHidden();
  await expect(page.getByTestId('pec-pagination-page')).toHaveText(/^Page 2 \//);

  // A sort, the same.
  const secondPage = await rows(page).allTextContents();
  await page.getByRole('columnheader', { name: 'ID Pecflow' }).getByRole('button').click();
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(said).toHaveText('Chargement des résultats…');
  expect(await rows(page).allTextContents()).toEqual(secondPage);
  await answer();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'numeroDossier', page: '1' });
  await expect.poll(() => rows(page).allTextContents()).not.toEqual(secondPage);
});

test('a filter read from the empty state says so as the rows do: the empty state busy, under the bar, and in words', async ({ page }) => {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);
  const list = page.getByTestId('pec-list');
  const said = list.getByRole('status');
  const empty = list.getByTestId('list-empty');
  const bar = () =>
    empty.evaluate((state) => {
      const style = getComputedStyle(state.parentElement!, '::before');
      return style.content !== 'none' && style.opacity === '1';
    });
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill('introuvable');
  await expect(empty).toContainText('Aucun résultat ne correspond à la recherche ou aux filtres choisis.');
  await expect(empty).toHaveAttribute('aria-busy', 'false');
  await expect(said).toHaveText('');
  expect(await bar()).toBe(false);

  // A slow server: the answer for a status waits until the test lets it go.
  let release: (() => void) | undefined;
  await page.route(
    (url) => url.pathname === '/api/pec_dossiers' && url.searchParams.get('status') === 'pending',
    (route) => new Promise<void>((resolve) => (release = () => void route.continue().then(resolve, resolve))),
  );
  await page.getByRole('combobox', { name: 'État' }).click();
  await page.getByRole('option', { name: 'En attente' }).click();
  await page.keyboard.press('Escape'); // the status menu takes several: it stays open
  await expect.poll(() => urlParams(page).filter).toEqual({ search: 'introuvable', status: 'pending' });
  await expect(empty).toHaveAttribute('aria-busy', 'true');
  await expect(said).toHaveText('Chargement des résultats…');
  await expect.poll(bar).toBe(true);
  await expect.poll(() => release !== undefined).toBe(true);
  release!();
  await expect(empty).toHaveAttribute('aria-busy', 'false');
  await expect(said).toHaveText('');
  await expect.poll(bar).toBe(false);
  await expect(empty).toContainText('Aucun résultat ne correspond à la recherche ou aux filtres choisis.');
});

test(`a search of more than ${SEARCH_WORDS.maxWords} words is refused at the search box: its message said there, the rows kept, nothing to retry`, async ({
  page,
}) => {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);
  const shown = await rows(page).allTextContents();
  const list = page.getByTestId('pec-list');
  const search = page.getByRole('searchbox', { name: 'Rechercher' });
  const words = Array.from({ length: SEARCH_WORDS.maxWords + 1 }, (_, i) => `mot${i + 1}`);

  await search.fill(words.join(' '));
  // The server's French message under the box, announced, the box invalid and described by it.
  const said = list.getByRole('alert');
  await expect(said).toHaveText(SEARCH_WORDS.tooMany);
  await expect(said).toBeVisible();
  await expect(search).toHaveAttribute('aria-invalid', 'true');
  await expect(search).toHaveAccessibleDescription(SEARCH_WORDS.tooMany);
  expect(urlParams(page).filter).toEqual({ search: words.join(' ') });
  // Not a failure of the list: no error state, no « Réessayer » (it would be refused again), no toast; the rows stay.
  await expect(page.getByTestId('pec-list-error')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Réessayer' })).toHaveCount(0);
  await expect(toast(page, 'Erreur de chargement')).toHaveCount(0);
  expect(await rows(page).allTextContents()).toEqual(shown);
  // No count nor pages are claimed for them: they answer the search before.
  await expect(page.getByTestId('pec-count')).toHaveText('\u00a0');
  await expect(page.getByTestId('pec-pagination')).toHaveCount(0);
  await expect(list.getByRole('table')).toHaveAttribute('aria-busy', 'false');
  await expect(search).toBeFocused();

  // One word fewer is searched: the message goes, the list answers (nothing has these words).
  await search.fill(words.slice(0, SEARCH_WORDS.maxWords).join(' '));
  await expect(list.getByTestId('list-empty')).toContainText('Aucun résultat ne correspond à la recherche ou aux filtres choisis.');
  await expect(said).toHaveCount(0);
  await expect(search).toHaveAttribute('aria-invalid', 'false');
  await expect(search).toHaveAccessibleDescription(/centre ou mutuelle/);
});

test(`a link whose search has more than ${SEARCH_WORDS.maxWords} words: the refusal is said, no result is claimed for it, and the 30-second refresh does not ask again`, async ({
  page,
}) => {
  // The page's clock in the test's hands: the refresh's 30 seconds pass at once.
  await page.clock.install();
  await signIn(page, EMAIL);
  const words = Array.from({ length: SEARCH_WORDS.maxWords + 1 }, (_, i) => `mot${i + 1}`);
  const reads: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/pec_dossiers' && [...url.searchParams.values()].some((value) => value.includes('mot1'))) reads.push(url.search);
  });
  const refusedReads = () => reads.filter((search) => search.includes(words.at(-1)!)).length;
  await page.goto(`/pec?filter=${encodeURIComponent(JSON.stringify({ search: words.join(' ') }))}`);
  const list = page.getByTestId('pec-list');
  await expect(list.getByRole('alert')).toHaveText(SEARCH_WORDS.tooMany);
  // No rows were read before it: the body points at the refusal, and claims no result for a search that was not run.
  const body = list.getByTestId('list-empty');
  await expect(body).toHaveText(/^La recherche n’a pas été lancée : voir le message sous la zone de recherche\./);
  await expect(body).not.toContainText('Aucun résultat');
  await expect(page.getByTestId('pec-count')).toHaveText('\u00a0');
  await expect(page.getByRole('button', { name: 'Réessayer' })).toHaveCount(0);
  // « Effacer les filtres » stays offered there.
  await expect(body.getByRole('button', { name: 'Effacer les filtres' })).toBeVisible();
  expect(refusedReads()).toBe(1);

  // Two periods of the refresh later, the refused read has not been sent again.
  for (let period = 1; period <= 2; period++) {
    await page.clock.fastForward(PEC_LIST_REFETCH_MS + 1_000);
    await page.waitForTimeout(500);
  }
  expect(refusedReads()).toBe(1);
  await expect(list.getByRole('alert')).toHaveText(SEARCH_WORDS.tooMany);

  // A search the server answers is refreshed as before: one word fewer, then a period.
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(words.slice(0, SEARCH_WORDS.maxWords).join(' '));
  await expect(body).toHaveText(/^Aucun résultat ne correspond à la recherche ou aux filtres choisis\./);
  await expect(list.getByRole('alert')).toHaveCount(0);
  const answered = reads.length;
  // (A period may pass while its read is still on its way: that one is not sent twice.)
  await expect
    .poll(async () => {
      await page.clock.fastForward(PEC_LIST_REFETCH_MS + 1_000);
      return reads.length;
    })
    .toBeGreaterThan(answered);
  expect(refusedReads()).toBe(1);
});

test('a sortable column sorts from anywhere in its header cell; its sort button keeps the focus, the cell its aria-sort', async ({ page }) => {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);
  // The amount is right aligned: a point of its header cell's padding, left of its label and arrow.
  const header = page.getByRole('columnheader', { name: 'Montant du devis' });
  const sortButton = header.getByRole('button');
  const cell = (await header.boundingBox())!;
  const label = (await sortButton.boundingBox())!;
  const point = { x: cell.x + 4, y: cell.y + cell.height / 2 };
  expect(point.x).toBeLessThan(label.x);
  // The pointer says it sorts there.
  expect(await page.evaluate(({ x, y }) => getComputedStyle(document.elementFromPoint(x, y)!).cursor, point)).toBe('pointer');
  await page.mouse.click(point.x, point.y);
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'totalTtc', order: 'DESC', page: '1' });
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('columnheader', { name: 'Date Création' })).not.toHaveAttribute('aria-sort');

  // The keyboard, unchanged: Tab reaches the sort button, Enter turns the order, the focus stays on the button.
  await sortButton.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => urlParams(page)).toMatchObject({ sort: 'totalTtc', order: 'ASC' });
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(sortButton).toBeFocused();
});

test('a file and a filtered list each have an address: /pec/{id} opens the file over its list after a reload', async ({ page, request }) => {
  const pending = await apiTotal(request, { status: 'pending' });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await page.getByRole('combobox', { name: 'État' }).click();
  await page.getByRole('option', { name: 'En attente' }).click();
  await page.keyboard.press('Escape'); // the status menu takes several: it stays open
  await expect.poll(() => listCount(page)).toBe(pending);

  const first = rows(page).first();
  const numero = (await first.locator('td:nth-child(3)').textContent())!;
  await first.click();
  const panel = drawer(page);
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(`Demande ${numero}`);
  await expect(page).toHaveURL(/\/pec\/\d+\?/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  expect(urlParams(page).filter).toEqual({ status: 'pending' });

  // Reloaded: the same file, on its actions tab, over the same filtered list.
  await page.reload();
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(`Demande ${numero}`);
  await expect(panel.getByRole('tab', { name: 'Actions DPEC' })).toHaveAttribute('aria-selected', 'true');

  // Closed: the same filtered list, at its own address; a link to the file alone opens it too.
  await panel.getByRole('button', { name: 'Fermer' }).click();
  await expect(panel).toBeHidden();
  await expect(page).toHaveURL(/\/pec\?/);
  expect(urlParams(page).filter).toEqual({ status: 'pending' });
  await expect(page.getByRole('combobox', { name: 'État' })).toHaveText('En attente');
  await expect.poll(() => listCount(page)).toBe(pending);
  await page.goto(`/pec/${id}`);
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(`Demande ${numero}`);
  // The older link form of the notifications (/pec?id=N) leads to the same address.
  await page.goto(`/pec?id=${id}`);
  await expect(page).toHaveURL(new RegExp(`/pec/${id}$`));
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(`Demande ${numero}`);
});

test("a list that fails shows the answer's message (spec section 8), the generic text only when the answer has none", async ({ page }) => {
  await signIn(page, EMAIL);
  // The API's collection answers 503 with a message, then 502 with no body, then normally.
  let failure: 'message' | 'empty' | undefined = 'message';
  await page.route(
    (url) => url.pathname === '/api/pec_dossiers',
    (route) => {
      if (failure === 'message')
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Maintenance de la base en cours, réessayez dans 5 minutes' }),
        });
      if (failure === 'empty') return route.fulfill({ status: 502, body: '' });
      return route.fallback();
    },
  );
  await page.goto('/pec');
  const error = page.getByTestId('pec-list-error');
  // (after the spec's 3 retries)
  await expect(error).toContainText('Erreur de chargement', { timeout: 20_000 });
  await expect(error).toContainText('Maintenance de la base en cours, réessayez dans 5 minutes');
  await expect(error).not.toContainText('Une erreur technique est survenue');
  await expect(toast(page, 'Erreur de chargement')).toContainText('Maintenance de la base en cours, réessayez dans 5 minutes');

  failure = 'empty';
  await error.getByRole('button', { name: 'Réessayer' }).click();
  await expect(error).toContainText('Une erreur technique est survenue', { timeout: 20_000 });

  failure = undefined;
  await error.getByRole('button', { name: 'Réessayer' }).click();
  await expect(rows(page)).toHaveCount(20);
  await expect(error).toBeHidden();
});

test('creation dates with the start after the end: the hint at the field, the list as it was, no reversed range asked for', async ({ page, request }) => {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page)).toHaveCount(20);
  await page.getByRole('button', { name: 'Plus de filtres' }).click();
  const from = page.getByRole('textbox', { name: 'Créée à partir du' });
  const to = page.getByRole('textbox', { name: 'Créée jusqu’au' });
  const start = localDay(-30);
  const early = localDay(-120);
  await from.fill(frenchDay(start));
  await expect.poll(() => (urlParams(page).filter.createdAt as { after?: string } | undefined)?.after?.slice(0, 10)).toBe(start);
  const after = (urlParams(page).filter.createdAt as { after: string }).after;
  const fromStart = await apiTotal(request, { 'createdAt[after]': after });
  await expect.poll(() => listCount(page)).toBe(fromStart);
  const shown = await rows(page).allTextContents();
  // Every read of the list from now on: none may ask for a range no file can fall in.
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/pec_dossiers') asked.push(new URL(r.url()).searchParams.get('createdAt[before]') ?? '');
  });

  // An end before the start: said at the field, not asked for; the list keeps its rows.
  await to.fill(frenchDay(early));
  const hint = 'La date de début est après la date de fin';
  await expect(to).toHaveAccessibleDescription(hint);
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('pec-more-filters').getByText(hint)).toHaveCount(1);
  await expect(to).toHaveValue(frenchDay(early));
  // Longer than the list's debounce: the range would have been asked for by now.
  await page.waitForTimeout(1_000);
  expect(urlParams(page).filter.createdAt).toEqual({ after });
  expect(asked.filter((before) => before.startsWith(early))).toEqual([]);
  expect(await listCount(page)).toBe(fromStart);
  expect(await rows(page).allTextContents()).toEqual(shown);

  // The start moved before the end: the range is valid, asked for whole, the hint gone.
  await from.fill(frenchDay(localDay(-200)));
  await expect.poll(() => (urlParams(page).filter.createdAt as { before?: string } | undefined)?.before?.slice(0, 10)).toBe(early);
  await expect(page.getByText(hint)).toHaveCount(0);
  const range = urlParams(page).filter.createdAt as { after: string; before: string };
  expect(range.after.slice(0, 10)).toBe(localDay(-200));
  await expect.poll(() => listCount(page)).toBe(await apiTotal(request, { 'createdAt[after]': range.after, 'createdAt[before]': range.before }));

  // An end typed before the start again, then « Effacer les filtres »: the hint goes with what it was about.
  await to.fill(frenchDay(localDay(-300)));
  await expect(to).toHaveAccessibleDescription(hint);
  expect(urlParams(page).filter.createdAt).toEqual(range);
  await page.getByRole('button', { name: 'Effacer les filtres' }).click();
  await expect.poll(() => urlParams(page).filter.createdAt).toBeUndefined();
  await expect(page.getByText(hint)).toHaveCount(0);
  await expect(to).toHaveValue('');
});

test('filter keys typed in the address are named by their French labels in the active filters, never by their keys', async ({ page, request }) => {
  await signIn(page, EMAIL);
  // The server reads q as the search and dateFrom as the creation dates' start; externalId is a field of the file.
  const token = await apiToken(request, EMAIL);
  const [file] = (
    await api<{ member: { externalId: string | null; numeroDossierAssure: string }[] }>(request, token, 'GET', '/api/pec_dossiers?itemsPerPage=50')
  ).member.filter((f) => f.externalId);
  const filter = { q: file!.numeroDossierAssure, dateFrom: '2026-01-01', externalId: file!.externalId };
  await page.goto(`/pec?filter=${encodeURIComponent(JSON.stringify(filter))}`);
  const chips = page.getByTestId('pec-extra-filters').getByRole('button');
  await expect(chips).toHaveCount(3);
  await expect(chips.filter({ hasText: 'Rechercher : ' })).toHaveText(`Rechercher : ${file!.numeroDossierAssure}`);
  await expect(chips.filter({ hasText: 'Créée à partir du : ' })).toHaveText('Créée à partir du : 01/01/2026');
  await expect(chips.filter({ hasText: 'Identifiant robot : ' })).toHaveText(`Identifiant robot : ${file!.externalId}`);
  for (const key of Object.keys(filter)) await expect(page.getByTestId('pec-extra-filters')).not.toContainText(`${key} :`);
  // The list is the one the address asks for.
  await expect.poll(() => listCount(page)).toBe(await apiTotal(request, { q: filter.q, dateFrom: filter.dateFrom, externalId: filter.externalId! }));
});

test.describe('in an English browser', () => {
  test.use({ locale: 'en-US' });

  test('the date inputs show and accept dd/mm/yyyy, typed or picked in a French calendar', async ({ page, request }) => {
    await signIn(page, EMAIL);
    await page.goto('/pec');
    await expect(rows(page)).toHaveCount(20);
    expect(await page.evaluate(() => navigator.language)).toBe('en-US');
    await page.getByRole('button', { name: 'Plus de filtres' }).click();

    // Typed digit by digit, as a person types: the field reads dd/mm/yyyy (not mm/dd/yyyy).
    const from = page.getByRole('textbox', { name: 'Créée à partir du' });
    await expect(from).toHaveAttribute('placeholder', 'JJ/MM/AAAA');
    await typeDate(from, '05102026');
    await expect(from).toHaveValue('05/10/2026');
    await expect.poll(() => (urlParams(page).filter.createdAt as { after?: string } | undefined)?.after?.slice(0, 10)).toBe('2026-10-05');
    // The list answers that bound before the calendar opens (its refresh must not close the calendar under the click).
    const after = (urlParams(page).filter.createdAt as { after: string }).after;
    await expect.poll(() => listCount(page)).toBe(await apiTotal(request, { 'createdAt[after]': after }));

    // Picked in the calendar: French month and weekdays, the day lands in the field as dd/mm/yyyy.
    // The second calendar of the panel: "Créée jusqu'au" (the expiry's comes after it).
    // Picked again if a refresh of the list re-rendered the panel under the click (a loaded machine saw the day lost).
    const to = page.getByRole('textbox', { name: 'Créée jusqu’au' });
    await expect(async () => {
      await page
        .getByRole('button', { name: /^Choisir la date/ })
        .nth(1)
        .click();
      const calendar = page.getByRole('dialog');
      await expect(calendar).toContainText(/novembre|octobre|décembre|janvier|février|mars|avril|mai|juin|juillet|août|septembre/);
      await pickDay(calendar, '12');
      await expect(to).toHaveValue(/^12\/\d{2}\/\d{4}$/, { timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    const [, month, year] = (await to.inputValue()).split('/');
    await expect.poll(() => (urlParams(page).filter.createdAt as { before?: string } | undefined)?.before?.slice(0, 10)).toBe(`${year}-${month}-12`);
    const range = urlParams(page).filter.createdAt as { after: string; before: string };
    await expect.poll(() => listCount(page)).toBe(await apiTotal(request, { 'createdAt[after]': range.after, 'createdAt[before]': range.before }));

    // An impossible date says so under the field and keeps the range that was set (not half of it).
    const shown = await listCount(page);
    await typeDate(to, '31022026', { clear: true });
    await expect(to).toHaveValue('31/02/2026');
    await expect(page.getByText('Date invalide (jj/mm/aaaa)')).toBeVisible();
    expect(urlParams(page).filter.createdAt).toEqual(range);
    expect(await listCount(page)).toBe(shown);
    await to.blur();
    expect(urlParams(page).filter.createdAt).toEqual(range);
    // Emptied and left, the field removes its bound; typed again, a valid date clears the message.
    await to.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await to.blur();
    await expect.poll(() => urlParams(page).filter.createdAt).toEqual({ after: range.after });
    await typeDate(to, `12${month}${year}`);
    await expect(to).toHaveValue(`12/${month}/${year}`);
    await expect(page.getByText('Date invalide (jj/mm/aaaa)')).toHaveCount(0);
    await expect.poll(() => urlParams(page).filter.createdAt).toEqual(range);

    // The same after a reload.
    await page.reload();
    const reloaded = page.getByRole('textbox', { name: 'Créée à partir du' });
    await expect(reloaded).toHaveValue('05/10/2026');

    // A day pasted as a spreadsheet or an export writes it is read as that day.
    for (const [pasted, shown, day] of [
      ['2026-10-07', '07/10/2026', '2026-10-07'],
      ['08.10.2026', '08/10/2026', '2026-10-08'],
    ]) {
      await reloaded.click();
      await page.keyboard.press('ControlOrMeta+a');
      await pasteText(reloaded, pasted);
      await expect(reloaded).toHaveValue(shown);
      await expect.poll(() => (urlParams(page).filter.createdAt as { after?: string }).after?.slice(0, 10)).toBe(day);
    }
    // A day or a month typed with one digit is closed by « / », as on paper (MUI waited for its second digit).
    await typeDate(reloaded, '1/10/2026', { clear: true });
    await expect(reloaded).toHaveValue('01/10/2026');
    await expect.poll(() => (urlParams(page).filter.createdAt as { after?: string }).after?.slice(0, 10)).toBe('2026-10-01');
    await typeDate(reloaded, '9/9/2026', { clear: true });
    await expect(reloaded).toHaveValue('09/09/2026');
    await expect.poll(() => (urlParams(page).filter.createdAt as { after?: string }).after?.slice(0, 10)).toBe('2026-09-09');
    // An impossible day pasted is said so, as typed, and the bound set before stays (also once the field is left).
    await reloaded.click();
    await page.keyboard.press('ControlOrMeta+a');
    await pasteText(reloaded, '2026-02-31');
    await expect(page.getByText('Date invalide (jj/mm/aaaa)')).toBeVisible();
    await reloaded.blur();
    await expect(page.getByText('Date invalide (jj/mm/aaaa)')).toBeVisible();
    expect((urlParams(page).filter.createdAt as { after?: string }).after?.slice(0, 10)).toBe('2026-09-09');
  });
});

test('centre, réseau, mutuelle, kind, payment state and expiry are chosen in "Plus de filtres", kept in the URL, and select what the API selects', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, EMAIL);
  const get = async (path: string) =>
    (await (await request.get(path, { headers: { Authorization: `Bearer ${token}` } })).json()) as { member: Record<string, unknown>[] };
  // A file of the organisation with a centre, a network and a mutual: the filters are chosen from its references.
  const [sample] = (await get('/api/pec_dossiers?itemsPerPage=1&exists[mutual]=true&order[createdAt]=asc')).member;
  const shop = sample!.shop as { id: number; name: string };
  const mutual = sample!.mutual as { id: number; name: string; network?: { id: number; name: string } };
  const network = (sample!.network as { id: number; name: string } | null) ?? mutual.network!;

  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(rows(page).first()).toBeVisible();
  await page.getByRole('button', { name: 'Plus de filtres' }).click();
  const panel = page.getByTestId('pec-more-filters');
  const choose = async (label: string, option: string) => {
    await panel.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  // On a desktop screen the fields stand side by side (a grid of four), not each on a row of its own.
  const box = async (label: string) => (await panel.getByRole('combobox', { name: label }).boundingBox())!;
  const [centre, reseau] = [await box('Centre'), await box('Réseau')];
  expect(Math.abs(centre.y - reseau.y)).toBeLessThan(2);
  expect(reseau.x).toBeGreaterThan(centre.x + centre.width);

  await choose('Centre', shop.name);
  await expect.poll(() => urlParams(page).filter).toEqual({ shop: String(shop.id) });
  await expect.poll(() => listCount(page)).toBe(await apiTotal(request, { shop: String(shop.id) }));
  for (const centre of await cells(page, 3)) expect(centre).toBe(shop.name);
  // Its chip names the centre, not its number.
  await expect(page.getByTestId('pec-extra-filters')).toContainText(`Centre : ${shop.name}`);

  await choose('Réseau', network.name);
  await choose('Mutuelle', mutual.name);
  await expect.poll(() => urlParams(page).filter).toEqual({ shop: String(shop.id), network: String(network.id), mutual: String(mutual.id) });
  const narrowed = await apiTotal(request, { shop: String(shop.id), network: String(network.id), mutual: String(mutual.id) });
  expect(narrowed).toBeGreaterThan(0);
  await expect.poll(() => listCount(page)).toBe(narrowed);
  await expect(rows(page).first()).toContainText(shop.name);

  // The link reproduces the view, with the panel open on the same choices.
  await page.reload();
  await expect(panel.getByRole('combobox', { name: 'Mutuelle' })).toHaveText(mutual.name);
  await expect.poll(() => listCount(page)).toBe(narrowed);
  await page.getByRole('button', { name: 'Effacer les filtres' }).click();
  await expect.poll(() => urlParams(page).filter).toEqual({});
  await expect(panel.getByRole('combobox', { name: 'Centre' })).toHaveText('Tous');
  await expect(panel.getByRole('combobox', { name: 'Mutuelle' })).toHaveText('Toutes');

  // Kind, payment state and expiry (the panel stays open): each as the API counts it.
  await choose('Type de dossier', 'Optique');
  await expect.poll(() => listCount(page)).toBe(await apiTotal(request, { fileKind: 'optical' }));
  await choose('Type de dossier', 'Tous');
  await choose('Paiement', 'Payé (hors trop-perçu)');
  await expect.poll(() => urlParams(page).filter).toEqual({ payment: 'paid' });
  await expect.poll(() => listCount(page)).toBe(await apiTotal(request, { payment: 'paid' }));
  await choose('Paiement', 'Tous');
  const before = localDay(60);
  await panel.getByRole('textbox', { name: 'Péremption jusqu’au' }).fill(frenchDay(before));
  await expect.poll(() => urlParams(page).filter).toEqual({ datePeremption: { before } });
  const expiring = await apiTotal(request, { 'datePeremption[before]': before });
  expect(expiring).toBeGreaterThan(0);
  await expect.poll(() => listCount(page)).toBe(expiring);
});

test('"Colonnes" adds the patient number, mutual, amount due, expiry, billing date, follow-up date and owner; the choice is the user’s own and outlives a logout', async ({
  page,
  request,
}) => {
  const spec = ['État', 'ID Pecflow', 'Centre', 'Réseau', 'Date Création', 'Montant du devis', 'Numéro devis'];
  const headers = page.getByRole('columnheader');
  // The newest file (the list's first row) gets a follow-up date; its owner is the user the API names.
  const token = await apiToken(request, EMAIL);
  const newest = (await api<{ member: { id: string }[] }>(request, token, 'GET', '/api/pec_dossiers?itemsPerPage=1')).member[0];
  const followUpDay = localDay(3);
  const file = await api<{ owner: { firstName: string; lastName: string } }>(request, token, 'PATCH', `/api/pec_dossiers/${newest.id}`, {
    followUpDate: followUpDay,
  });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(headers).toHaveText(['', ...spec]);
  // The chooser, kept mounted while closed, is not drawn with the rows: its switches come when it is first opened.
  const switches = page.locator('[id$="-columnsSelector"]').locator('input[type="checkbox"]');
  await expect(switches).toHaveCount(0);

  await page.getByRole('button', { name: 'Colonnes' }).focus();
  await page.keyboard.press('Enter');
  await expect(switches).toHaveCount(spec.length + 7);
  const chooser = page.getByRole('option');
  await expect(chooser).toHaveText([...spec, 'N° patient', 'Mutuelle', 'Reste dû', 'Péremption', 'Date de facturation', 'Relance le', 'Suivi par']);
  for (const name of ['Mutuelle', 'Reste dû', 'Relance le', 'Suivi par']) await page.getByRole('option', { name }).getByRole('switch').check();
  await page.getByRole('option', { name: 'Réseau' }).getByRole('switch').uncheck();
  await page.keyboard.press('Escape');
  const chosen = ['État', 'ID Pecflow', 'Centre', 'Date Création', 'Montant du devis', 'Numéro devis', 'Mutuelle', 'Reste dû', 'Relance le', 'Suivi par'];
  await expect(headers).toHaveText(['', ...chosen]);
  // The amount due reads in euros, right aligned like the quote amount.
  await expect(rows(page).first().locator('td:nth-child(9)')).toHaveText(/^(\d[\d\s]*,\d{2}\s€|Non défini|)$/);
  // The follow-up date in dd/mm/yyyy, and who follows the file by name.
  await expect(rows(page).first().locator('td:nth-child(10)')).toHaveText(frenchDay(followUpDay));
  // A file without one says so as every empty cell of the list does ('Non définie', as Péremption), never a blank cell.
  const followUps = await rows(page).locator('td:nth-child(10)').allTextContents();
  expect(followUps).toContain('Non définie');
  expect(followUps).not.toContain('');
  await expect(rows(page).first().locator('td:nth-child(11)')).toHaveText(`${file.owner.firstName} ${file.owner.lastName}`);

  await page.reload();
  await expect(headers).toHaveText(['', ...chosen]);
  // A logout resets react-admin's store, not this user's columns.
  await signOut(page);
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await expect(headers).toHaveText(['', ...chosen]);
  // Another person on the same browser has the spec's columns.
  await signOut(page);
  await signIn(page, 'audio@audition-horizon.fr');
  await page.goto('/pec');
  await expect(headers).toHaveText(['', ...spec]);
});

test('"Colonnes" lists every column while the first page is read and while the list is empty, drawn only once opened', async ({ page }) => {
  const spec = ['État', 'ID Pecflow', 'Centre', 'Réseau', 'Date Création', 'Montant du devis', 'Numéro devis'];
  const all = [...spec, 'N° patient', 'Mutuelle', 'Reste dû', 'Péremption', 'Date de facturation', 'Relance le', 'Suivi par'];
  const switches = page.locator('[id$="-columnsSelector"]').locator('input[type="checkbox"]');
  const chooser = page.getByRole('button', { name: 'Colonnes' });
  const mutual = page.getByRole('option', { name: 'Mutuelle' }).getByRole('switch');
  await signIn(page, EMAIL);

  // The first page held by a slow server: five skeleton rows, no table yet.
  let release: (() => void) | undefined;
  await page.route(
    (url) => url.pathname === '/api/pec_dossiers',
    (route) => new Promise<void>((resolve) => (release = () => void route.continue().then(resolve, resolve))),
    { times: 1 },
  );
  await page.goto('/pec');
  await expect(page.getByTestId('skeleton-row')).toHaveCount(5);
  await expect(switches).toHaveCount(0);
  await chooser.click();
  await expect(page.getByRole('option')).toHaveText(all);
  // Its filter box narrows the columns; what is typed there stays as the rows come, the chooser open.
  const columnFilter = page.getByPlaceholder('Filtrer les colonnes');
  await columnFilter.click();
  await page.keyboard.type('mut');
  await expect(page.getByRole('option')).toHaveText(['Mutuelle']);
  await expect.poll(() => release !== undefined).toBe(true);
  release!();
  await expect(rows(page)).toHaveCount(20);
  await expect(columnFilter).toHaveCount(1);
  await expect(columnFilter).toHaveValue('mut');
  await expect(columnFilter).toBeFocused();
  await expect(page.getByRole('option')).toHaveText(['Mutuelle']);
  await mutual.check();
  await page.keyboard.press('Escape');
  // The rows have the column chosen meanwhile.
  await expect(page.getByRole('columnheader')).toHaveText(['', ...spec, 'Mutuelle']);

  // A search with no result, opened anew: the chooser is still drawn only when pressed, then lists every column.
  await page.goto(`/pec?filter=${encodeURIComponent(JSON.stringify({ search: 'introuvable' }))}`);
  const empty = page.getByTestId('pec-list').getByTestId('list-empty');
  await expect(empty).toContainText('Aucun résultat ne correspond à la recherche ou aux filtres choisis.');
  await expect(switches).toHaveCount(0);
  await chooser.click();
  await expect(page.getByRole('option')).toHaveText(all);
  await expect(mutual).toBeChecked();
  await mutual.uncheck();
  await page.getByRole('option', { name: 'Suivi par' }).getByRole('switch').check();
  await page.keyboard.press('Escape');
  // Its filters cleared, the list has the columns chosen while it was empty.
  await empty.getByRole('button', { name: 'Effacer les filtres' }).click();
  await expect(rows(page)).toHaveCount(20);
  await expect(page.getByRole('columnheader')).toHaveText(['', ...spec, 'Suivi par']);
});

test('every column chosen is reachable at 1280 px: the table scrolls inside its frame, its first column stays in view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, EMAIL);
  await page.goto('/pec');
  await page.getByRole('button', { name: 'Colonnes' }).click();
  for (const name of ['N° patient', 'Mutuelle', 'Reste dû', 'Péremption', 'Date de facturation', 'Relance le', 'Suivi par'])
    await page.getByRole('option', { name }).getByRole('switch').check();
  await page.keyboard.press('Escape');
  const headers = page.getByRole('columnheader').filter({ hasText: /./ });
  await expect(headers).toHaveCount(14);
  await expect(rows(page)).toHaveCount(20);

  // The page itself does not widen: the table's frame ends inside the window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  const frame = page.getByTestId('list-table-frame');
  const box = (await frame.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  const first = rows(page).first().locator('td:nth-child(2)');
  const firstBox = (await first.boundingBox())!;
  // Each header, scrolled to inside the frame, is wholly in the window; the first column (État) stays where it was.
  for (const header of await headers.all()) {
    await header.scrollIntoViewIfNeeded();
    const at = (await header.boundingBox())!;
    expect(at.x).toBeGreaterThanOrEqual(box.x);
    expect(at.x + at.width).toBeLessThanOrEqual(box.x + box.width + 1);
  }
  expect(await frame.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  expect((await first.boundingBox())!.x).toBeCloseTo(firstBox.x, 0);
});

/** Pastes `text` into a field, as the clipboard gives it (a paste event with its data). */
async function pasteText(field: Locator, text: string) {
  await field.evaluate((input, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}
