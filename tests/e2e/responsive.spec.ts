// The shell and its pages on a phone (390 px) and a laptop (1280 px): nothing makes the page scroll sideways, the
// PEC table scrolls inside its own container, the app bar title is whole, the header buttons stay reachable.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, apiToken, grownIntoPlace, signIn } from './helpers';
import { drawer } from './pec-fixtures';

const EMAIL = 'admin@pecflow.fr';

const LONG_FAILURE = 'La mutuelle n’est pas reconnue par le portail du réseau : vérifiez sa configuration dans les réseaux, puis relancez la demande';

/** What shows once each page has its data. */
const PAGES: Record<string, (page: Page) => Promise<void>> = {
  // (the dashboard's failures with the long texts of longFailureTexts)
  '/pec': (page) => expect(page.getByTestId('pec-row').first()).toBeVisible(),
  '/dashboard': (page) => expect(page.getByTestId('dashboard-failures').getByText(`Échec du DPEC : ${LONG_FAILURE}`).first()).toBeVisible(),
  '/permissions': (page) => expect(page.getByTestId('module-system')).toBeVisible(),
  '/profile': (page) => expect(page.getByTestId('profile-email')).toHaveText(EMAIL),
  '/settings/shops': (page) => expect(page.getByTestId('list-row').first()).toBeVisible(),
};

/**
 * How much wider than this machine's font (Liberation Sans, Arial's metrics) another system's may set a text: Helvetica
 * Neue, an iPhone's, runs a few per cent wider.
 */
const WIDER_FONT = 1.05;

const SEARCH_PLACEHOLDER = 'N° PEC, facture, patient, centre, mutuelle…';
/** Where the whole one would be cut (a 360 px phone). */
const SHORT_SEARCH_PLACEHOLDER = 'N° PEC, facture, patient, centre…';

/**
 * The PEC search box names what it finds (the PEC's and the invoice's numbers, the patient, the centre and the mutuelle)
 * in a placeholder shown whole, and all it searches in its hint (a tooltip, and its description for a screen reader).
 */
async function expectWholeSearchPlaceholder(page: Page, placeholder = SEARCH_PLACEHOLDER) {
  await signIn(page, EMAIL);
  await page.goto('/pec');
  const search = page.getByRole('searchbox', { name: 'Rechercher' });
  await expect(search).toHaveAttribute('placeholder', placeholder);
  await expect(search).toHaveAccessibleDescription(/n° PEC, n° de facture, n° patient, nom du patient, n° d’adhérent, n° de devis, centre ou mutuelle/);
  await expectWholePlaceholder(search);
}

/** The placeholder's width in the input's font, against the room inside its padding, with some to spare (WIDER_FONT). */
async function expectWholePlaceholder(search: Locator) {
  const { placeholder, text, room } = await search.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return { placeholder: input.placeholder, text: context.measureText(input.placeholder).width, room: input.clientWidth - padding };
  });
  expect(placeholder).toMatch(/\S/);
  expect(text * WIDER_FONT, `« ${placeholder} »`).toBeLessThanOrEqual(room);
}

/** The settings lists with a search box: every tab but Système. */
const SETTINGS_LISTS = [
  'holdings',
  'companies',
  'shops',
  'users',
  'roles',
  'mutuals',
  'networks',
  'software',
  'credential_software',
  'audit_logs',
  'prescribers',
];

/** Each settings list's search box shows its whole placeholder (the declaration's), its filters drawn beside it. */
async function expectWholeSettingsPlaceholders(page: Page) {
  await signIn(page, EMAIL);
  for (const collection of SETTINGS_LISTS) {
    await page.goto(`/settings/${collection}`);
    const list = page.getByTestId(`list-${collection}`);
    await expect(list.getByTestId('list-count')).toHaveText(/\d/);
    await expectWholePlaceholder(list.getByRole('searchbox', { name: 'Rechercher' }));
  }
}

async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  // The page title in the app bar is not cut ("Gestion des…").
  const title = page.locator('#react-admin-title');
  await expect(title).not.toBeEmpty();
  expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
}

/**
 * The robot failures of the dashboard with a long reason (one line each, cut with an ellipsis): such a line used to
 * widen the whole page.
 */
async function longFailureTexts(page: Page) {
  await page.route(
    (url) => url.pathname === '/api/pec_dossiers' && url.searchParams.has('robotFailedWithinDays'),
    async (route) => {
      const response = await route.fetch();
      const list = await response.json();
      expect(list.member.length).toBeGreaterThan(0);
      const robotFailure = {
        kind: 'dpec',
        at: new Date().toISOString(),
        messages: [`Robot API returned 502: {"errors":[{"message":"${LONG_FAILURE}"}]}`],
      };
      // Its own headers (application/ld+json: the Hydra client reads nothing else).
      const body = JSON.stringify({ ...list, member: list.member.map((file: object) => ({ ...file, robotFailure })) });
      await route.fulfill({ response, headers: { ...response.headers(), 'content-length': String(Buffer.byteLength(body)) }, body });
    },
  );
}

/** Signed in, with failure texts long enough to widen a careless layout: every page of PAGES fits `width`. */
async function expectEveryPageFits(page: Page, width: number) {
  await longFailureTexts(page);
  await signIn(page, EMAIL);
  for (const [path, loaded] of Object.entries(PAGES)) {
    await page.goto(path);
    await loaded(page);
    await expectFits(page, width);
  }
}

/** The dashboard's figures by status: each chip's label is read in full ('En attente', never 'En atte…'). */
async function expectWholeStatusLabels(page: Page) {
  await signIn(page, EMAIL);
  await page.goto('/dashboard');
  const chips = page.locator('[aria-labelledby="dashboard-status"]').getByTestId('status-badge');
  await expect(chips).toHaveCount(7);
  for (const chip of await chips.all()) {
    const label = chip.locator('.MuiChip-label');
    await expect(label).toHaveText(/\S/);
    expect(await label.evaluate((element) => element.scrollWidth <= element.clientWidth), (await label.textContent()) ?? '').toBe(true);
  }
}

test.describe('on a phone, 390 px wide', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the dashboard's status labels are whole", async ({ page }) => {
    await expectWholeStatusLabels(page);
  });

  test('no page scrolls sideways, the app bar title is whole', async ({ page }) => {
    await expectEveryPageFits(page, 390);
  });

  test('/pec: the create button is reachable, the filters stack and the table scrolls in its own container', async ({ page }) => {
    await signIn(page, EMAIL);
    await page.goto('/pec');
    await expect(page.getByTestId('pec-row').first()).toBeVisible();

    // Filters one under the other, each within the screen.
    const search = page.getByRole('searchbox', { name: 'Rechercher' });
    const status = page.getByRole('combobox', { name: /^État/ });
    const searchBox = (await search.boundingBox())!;
    const statusBox = (await status.boundingBox())!;
    expect(statusBox.y).toBeGreaterThanOrEqual(searchBox.y + searchBox.height);
    for (const box of [searchBox, statusBox]) expect(box.x + box.width).toBeLessThanOrEqual(390);

    // The table is wider than the screen: it scrolls by itself, the page does not.
    const container = page.getByTestId('pec-list').locator('.RaDataTable-root').locator('..');
    expect(await container.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    const lastHeader = page.getByRole('columnheader', { name: 'Numéro devis' });
    await expect(lastHeader).not.toBeInViewport();
    await container.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect(lastHeader).toBeInViewport();
    await expectFits(page, 390);

    const create = page.getByRole('button', { name: 'Nouvelle Demande de PEC' });
    await expect(create).toBeInViewport({ ratio: 1 });
    await create.click();
    await expect(drawer(page).getByRole('tab')).toHaveText(['Informations PEC']);
  });

  test('the PEC search box shows its whole placeholder', async ({ page }) => {
    await expectWholeSearchPlaceholder(page);
  });

  test('/pec: « Colonnes » is outlined as the header buttons beside it, and its « Réinitialiser » shows its icon, named', async ({ page }) => {
    await signIn(page, EMAIL);
    await page.goto('/pec');
    await expect(page.getByTestId('pec-row').first()).toBeVisible();
    // react-admin draws both as icon buttons on a phone.
    const chooser = page.getByRole('button', { name: 'Colonnes', exact: true });
    const frame = (button: Locator) =>
      button.evaluate((element) => {
        const style = getComputedStyle(element);
        const { height } = element.getBoundingClientRect();
        return {
          border: `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`,
          radius: style.borderTopLeftRadius,
          height: Math.round(height),
        };
      });
    expect(await frame(chooser)).toEqual(await frame(page.getByRole('button', { name: 'Exporter' })));
    await expect(chooser.locator('svg')).toBeVisible();
    await expect(chooser).not.toHaveAttribute('variant');

    await chooser.click();
    await expect(page.getByRole('option', { name: 'Mutuelle' })).toBeVisible();
    const reset = page.getByRole('button', { name: 'Réinitialiser', exact: true });
    // Measured once grown into place (its opening transition scales it).
    await grownIntoPlace(page.locator('.MuiPopover-paper'));
    await expect(reset).toBeInViewport({ ratio: 1 });
    const icon = reset.locator('svg');
    await expect(icon).toBeVisible();
    expect((await icon.boundingBox())!.width).toBeGreaterThanOrEqual(20);
    // For a look: the chooser once shown.
    await page.screenshot({ path: test.info().outputPath('pec-columns-390.png') });
    // It does what it says: the columns as they were.
    await page.getByRole('option', { name: 'Mutuelle' }).getByRole('switch').check();
    await reset.click();
    await expect(page.getByRole('option', { name: 'Mutuelle' }).getByRole('switch')).not.toBeChecked();
  });

  test("/pec/{id}: the drawer's title keeps the file number whole (never broken at its hyphens)", async ({ page, request }) => {
    const token = await apiToken(request, EMAIL);
    const { member } = await api<{ member: { id: number; numeroDossier: string }[] }>(request, token, 'GET', '/api/pec_dossiers?itemsPerPage=1');
    const file = member[0]!;
    await signIn(page, EMAIL);
    await page.goto(`/pec/${file.id}`);
    const title = drawer(page).getByRole('heading', { level: 2 });
    await expect(title).toHaveText(`Demande ${file.numeroDossier}`);
    // One line box for the number: its rectangles are one.
    const number = title.getByText(file.numeroDossier, { exact: true });
    expect(await number.evaluate((element) => element.getClientRects().length)).toBe(1);
    const box = (await number.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // Its header's actions each on one line: « Imprimer » (named in full), « Archiver ».
    const print = drawer(page).getByRole('button', { name: 'Imprimer le récapitulatif' });
    await expect(print).toHaveText('Imprimer', { useInnerText: true });
    const archive = drawer(page).getByRole('button', { name: 'Archiver' });
    for (const action of [print, archive]) {
      const { height, right } = await action.evaluate((element) => element.getBoundingClientRect());
      expect(height).toBeLessThanOrEqual(40);
      expect(right).toBeLessThanOrEqual(390);
    }
    await expectFits(page, 390);
  });

  test('/settings/users: e-mail addresses are whole (the table scrolls instead of cutting them)', async ({ page }) => {
    await signIn(page, EMAIL);
    await page.goto('/settings/users');
    const cell = page.getByTestId('list-row').getByRole('cell').filter({ hasText: 'direction@audition-horizon.fr' });
    await expect(cell).toBeVisible();
    // One line: its text makes a single line box, whatever its hyphens and dots.
    const lines = await cell.evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      let count = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = document.createRange();
        text.selectNodeContents(node);
        count += text.getClientRects().length;
      }
      return count;
    });
    expect(lines).toBe(1);
    await expectFits(page, 390);
  });

  test('every settings list shows its whole search placeholder', async ({ page }) => {
    await expectWholeSettingsPlaceholders(page);
  });

  test("/settings/holdings/{id}: the drawer's title and buttons are whole and reachable", async ({ page }) => {
    await signIn(page, EMAIL);
    await page.goto('/settings/holdings/1');
    const drawer = page.getByTestId('resource-drawer');
    await expect(drawer.getByRole('heading', { name: 'Modifier organisation' })).toBeVisible();
    for (const name of ['Supprimer', 'Annuler', 'Enregistrer']) await expect(drawer.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 });
    await expectFits(page, 390);
  });
});

test.describe('on a small phone, 360 px wide', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the PEC search box shows a shorter placeholder, whole', async ({ page }) => {
    await expectWholeSearchPlaceholder(page, SHORT_SEARCH_PLACEHOLDER);
    await expectFits(page, 360);
  });

  test('/pec: « Colonnes » names itself in a tooltip, which goes with its chooser closed by Escape', async ({ page }) => {
    await signIn(page, EMAIL);
    await page.goto('/pec');
    await expect(page.getByTestId('pec-row').first()).toBeVisible();
    const chooser = page.getByRole('button', { name: 'Colonnes', exact: true });
    const tooltip = page.getByRole('tooltip', { name: 'Colonnes' });
    await chooser.hover();
    await expect(tooltip).toBeVisible();
    await chooser.click();
    await expect(page.getByRole('option', { name: 'Mutuelle' })).toBeVisible();
    await expect(tooltip).toBeHidden();
    // The pointer leaves it (a pointer still over the button shows its tooltip, as it should): the focus alone comes back.
    await page.mouse.move(1, 1);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('option', { name: 'Mutuelle' })).toBeHidden();
    // The focus is back on the button, without its tooltip over the list.
    await expect(chooser).toBeFocused();
    await expect(tooltip).toBeHidden();
    await page.waitForTimeout(500);
    await expect(tooltip).toBeHidden();
    // Reached with the keyboard, it names itself again.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(chooser).toBeFocused();
    await expect(tooltip).toBeVisible();
  });
});

test.describe('on a laptop, 1366 px wide', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('every settings list shows its whole search placeholder, its filters beside it', async ({ page }) => {
    await expectWholeSettingsPlaceholders(page);
  });
});

test.describe('on a laptop, 1280 px wide', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the dashboard's status labels are whole", async ({ page }) => {
    await expectWholeStatusLabels(page);
  });

  test('no page scrolls sideways, the PEC header buttons share one line', async ({ page }) => {
    await expectEveryPageFits(page, 1280);
    await page.goto('/pec');
    const tops = await Promise.all(
      ['Exporter', 'Importer', 'Nouvelle Demande de PEC'].map(async (name) => (await page.getByRole('button', { name }).boundingBox())!.y),
    );
    expect(new Set(tops).size).toBe(1);
  });

  test('the PEC search box shows its whole placeholder', async ({ page }) => {
    await expectWholeSearchPlaceholder(page);
  });
});

test.describe('on a small laptop, 1024 px wide', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('the PEC filters wrap within the page, the search box shows its whole placeholder', async ({ page }) => {
    await expectWholeSearchPlaceholder(page);
    await expectFits(page, 1024);
    await expect(page.getByRole('button', { name: 'Effacer les filtres' })).toBeInViewport({ ratio: 1 });
  });
});

test.describe('on a wide laptop, 1440 px wide', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the settings tab bar shows every tab, none behind a scroll arrow', async ({ page }) => {
    await signIn(page, EMAIL);
    await page.goto('/settings/holdings');
    const bar = page.getByRole('tablist', { name: 'Sections des paramètres' });
    await expect(bar.getByRole('tab')).toHaveCount(12);
    await expect(bar.locator('.MuiTabs-scrollButtons')).toHaveCount(0);
    const barBox = (await bar.boundingBox())!;
    for (const tab of await bar.getByRole('tab').all()) {
      await expect(tab).toBeInViewport({ ratio: 1 });
      const box = (await tab.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(barBox.x + barBox.width + 0.5);
    }
    // The tab list does not overflow its scroller (the tablist is the scroller's child).
    expect(await bar.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
  });
});
