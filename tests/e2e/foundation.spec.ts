import { expect, test } from '@playwright/test';
import { signIn, signOut } from './helpers';

test('a wrong password shows the "Erreur de connexion" banner with the server message', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill('audio@audition-horizon.fr');
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('mauvais-mot-de-passe');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  const banner = page.getByRole('alert');
  await expect(banner).toContainText('Erreur de connexion');
  await expect(banner).toContainText('Identifiants invalides.');
  await expect(page).toHaveURL(/\/login$/);
  // The verdict was about those credentials: changing them clears it, and an invalid form shows only its own messages.
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('123');
  await expect(page.getByText('Erreur de connexion')).toHaveCount(0);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByText('Le mot de passe doit contenir au moins 6 caractères')).toBeVisible();
  await expect(page.getByText('Identifiants invalides.')).toHaveCount(0);
});

test('the login form validates its fields in French before calling the server', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill('pas-un-email');
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('123');
  await expect(page.getByText('Format d’email invalide')).toBeVisible();
  await expect(page.getByText('Le mot de passe doit contenir au moins 6 caractères')).toBeVisible();
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('');
  await page.getByRole('button', { name: 'Afficher le mot de passe' }).click();
  await expect(page.getByRole('textbox', { name: 'Mot de passe', exact: true })).toHaveAttribute('type', 'text');
});

test('a deep link while signed out returns there after login', async ({ page }) => {
  await page.goto('/permissions');
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, 'audio@audition-horizon.fr');
  await expect(page).toHaveURL(/\/permissions$/);
  await expect(page.getByRole('heading', { name: 'Mes permissions', level: 1 })).toBeVisible();
});

test('the login page loads the next page and the API description only once the visitor types', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  const chunkOf = (name: string) => () => asked.filter((path) => new RegExp(`^/assets/${name}-[\\w-]+\\.js$`).test(path)).length;
  const shell = chunkOf('Layout');
  const pecPage = chunkOf('PecPage');
  await page.goto('/pec');
  await expect(page).toHaveURL(/\/login/);
  await page.waitForLoadState('networkidle');
  expect([shell(), pecPage()]).toEqual([0, 0]);
  expect(asked).not.toContain('/api/docs.jsonld');

  // A signed-out visitor is typing: the page they asked for (/pec) and the public API description load meanwhile.
  await page.getByRole('textbox', { name: 'Email' }).pressSequentially('audio@');
  await expect.poll(() => [shell(), pecPage()]).toEqual([1, 1]);
  await expect.poll(() => asked.includes('/api/docs.jsonld')).toBe(true);
  await page.getByRole('textbox', { name: 'Email' }).pressSequentially('audition-horizon.fr');
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('Pecflow2026!');
  const listAnswered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/pec_dossiers').then(() => asked.length);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/pec$/);
  await expect(page.getByTestId('pec-row').first()).toBeVisible();
  expect([shell(), pecPage()]).toEqual([1, 1]);
  // The pointer rests on the page after the click: the drawer's code (its tabs, forms and zod) is not asked for before
  // the list's rows have come, with which it would compete on a phone's connection.
  const beforeRows = asked.slice(0, await listAnswered);
  expect(beforeRows.filter((path) => /\/assets\/(PecDrawer|panels|forms|zod)-/.test(path))).toEqual([]);
});

test("a signed-in visitor's page starts its code and the API docs beside the entry, and reuses the docs it parsed", async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  await page.goto('/pec');
  await expect(page.getByTestId('pec-row').first()).toBeVisible();
  const tag = await page.evaluate(() => localStorage.getItem('pecflow.apiDocs.etag'));
  expect(tag).toMatch(/^W\/"/);

  const asked: string[] = [];
  const docs: { ifNoneMatch: string | undefined; status: number }[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/docs.jsonld') docs.push({ ifNoneMatch: r.request().headers()['if-none-match'], status: r.status() });
  });
  await page.reload();
  await expect(page.getByTestId('pec-row').first()).toBeVisible();
  // boot.js named the page's files for the browser to fetch with the entry: the shell, the Hydra provider, the page.
  const preloaded = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"][fetchpriority="low"]')].map((l) => new URL(l.href).pathname),
  );
  for (const name of ['Layout', 'hydra', 'PecPage'])
    expect(
      preloaded.some((path) => new RegExp(`^/assets/${name}-[\\w-]+\\.js$`).test(path)),
      name,
    ).toBe(true);
  expect(preloaded.some((path) => /\/(SettingsPage|DashboardPage|PecDrawer|zod)-/.test(path))).toBe(false);
  // One read of the docs, asked with the kept parse's tag and answered 304; nor GET /api, nor the page's reads twice.
  expect(docs).toEqual([{ ifNoneMatch: tag, status: 304 }]);
  expect(asked).not.toContain('/api');
  for (const name of ['Layout', 'hydra', 'PecPage'])
    expect(
      asked.filter((path) => path.startsWith(`/assets/${name}-`)),
      name,
    ).toHaveLength(1);
  // A list page loads no form code before its rows (nor the drawers' tabs, the account's steps), nor jsonld (only an
  // error's body is expanded).
  expect(asked.filter((path) => /\/assets\/(zod|validation|forms|panels|account|PecDrawer|RecordDrawer|jsonld)-/.test(path))).toEqual([]);
});

test('a list opened before paints its frame before any script runs, gives way to the page, keeps no file and is forgotten at sign-out', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/pec');
  const rows = page.getByTestId('pec-row');
  await expect(rows.first()).toBeVisible();
  const firstFile = (await rows.first().innerText()).match(/PEC-\d{4}-\d{6}/)![0];
  // Kept while its rows were being read: the frame, none of the files; for this build (written when the browser is idle).
  const readKept = () => page.evaluate(() => JSON.parse(localStorage.getItem('pecflow.frame./pec') ?? 'null'));
  await expect.poll(readKept).not.toBeNull();
  const kept = await readKept();
  expect(kept).toMatchObject({ build: expect.stringMatching(/^\/assets\/index-/), theme: 'dark' });
  expect(kept.html).toContain('Gestion des PEC');
  expect(kept.html).not.toContain(firstFile);
  expect(kept.html).not.toContain('data-testid');
  // The bell is kept without the count of that moment.
  expect(kept.html).not.toContain('MuiBadge-badge');
  // Its styles are the rules its markup uses, not the page load's whole sheet (its rows', its drawers').
  const classesOfFrame = new Set<string>(kept.html.match(/css-[\w-]+/g));
  expect(classesOfFrame.size).toBeGreaterThan(10);
  expect((kept.css.match(/\.css-[\w-]+/g) as string[]).filter((name) => !classesOfFrame.has(name.slice(1)))).toEqual([]);
  // A file's own address (its drawer over the list) keeps no frame of its own.
  await rows.first().click();
  await expect(page).toHaveURL(/\/pec\/\d+$/);
  await page.reload();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(rows.first()).toBeAttached();
  // (The dashboard, where the sign-in lands, may have kept its own frame if its figures were slow to come.)
  const keptAddresses = await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('pecflow.frame.')));
  expect(keptAddresses).toContain('pecflow.frame./pec');
  expect(keptAddresses.filter((key) => key.startsWith('pecflow.frame./pec/'))).toEqual([]);

  // Next visit, the application's entry held back: the frame is on screen, over the wait, hidden from assistive
  // technologies and inert, before any of the application's code has run.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/pec', { waitUntil: 'domcontentloaded' });
  const frame = page.locator('#pecflow-frame');
  await expect(frame).toBeVisible();
  await expect(frame).toContainText('Gestion des PEC');
  await expect(frame).toHaveAttribute('aria-hidden', 'true');
  expect(await frame.evaluate((element) => (element as HTMLElement).inert)).toBe(true);
  await expect(page.getByRole('heading', { name: 'Gestion des PEC', level: 1 })).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText('Chargement…');
  // Drawn as the page draws itself: its title and its app bar.
  const looks = (element: Element) => {
    const style = getComputedStyle(element);
    return [style.fontSize, style.fontWeight, style.color, style.backgroundColor, style.height, style.marginBottom].join(' ');
  };
  const frameLooks = [await frame.locator('h1').evaluate(looks), await frame.locator('header').first().evaluate(looks)];

  release();
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Gestion des PEC', level: 1 })).toBeVisible();
  expect([await page.locator('main h1').evaluate(looks), await page.locator('header').first().evaluate(looks)]).toEqual(frameLooks);
  await expect(frame).toHaveCount(0);
  await expect(page.locator('#pecflow-frame-style')).toHaveCount(0);
  await page.unroute(/\/assets\/index-/);

  // Another theme than the one it was drawn with: no frame, the wait.
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.goto('/pec', { waitUntil: 'domcontentloaded' });
  await expect(page.getByTestId('pec-row').first()).toBeVisible();
  await expect(frame).toHaveCount(0);

  await signOut(page);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('pecflow.frame.')))).toEqual([]);
});

test('the styles a page load drew are taken by the next load as already there: emotion inserts none again, the page looks the same', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await page.evaluate(() => localStorage.removeItem('pecflow.styles'));
  await page.goto('/pec');
  const rows = page.getByTestId('pec-row');
  await expect(rows.first()).toBeVisible();
  const look = () =>
    page.evaluate(() => {
      const style = (selector: string) => {
        const s = getComputedStyle(document.querySelector(selector)!);
        return [s.fontSize, s.fontWeight, s.color, s.backgroundColor, s.padding, s.margin, s.display, s.borderBottom, s.width].join(' ');
      };
      return { title: style('h1'), search: style('input[type="search"]'), cell: style('[data-testid="pec-row"] td'), bar: style('header') };
    });
  const drawnByEmotion = await look();
  // Kept once the rows are drawn, when the browser is idle: emotion's rules, none of the data.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('pecflow.styles') !== null)).toBe(true);
  const keptStyles = await page.evaluate(() => localStorage.getItem('pecflow.styles')!);
  expect(keptStyles).not.toMatch(/PEC-\d{4}-\d{6}/);

  await page.reload();
  await expect(rows.first()).toBeVisible();
  const sheets = await page.evaluate(() => {
    const emotion = [...document.querySelectorAll<HTMLStyleElement>('style[data-emotion]')];
    const kept = emotion.find((style) => style.dataset.emotion!.startsWith('css '));
    const keptRules = new Set([...(kept?.sheet?.cssRules ?? [])].map((rule) => rule.cssText));
    const insertedSince = emotion.filter((style) => style.dataset.emotion === 'css').flatMap((style) => [...style.sheet!.cssRules].map((rule) => rule.cssText));
    return { kept: keptRules.size, insertedAgain: insertedSince.filter((rule) => keptRules.has(rule)) };
  });
  expect(sheets.kept).toBeGreaterThan(100);
  expect(sheets.insertedAgain).toEqual([]);
  expect(await look()).toEqual(drawnByEmotion);

  // Another theme than the one they were drawn in: none are written; and they outlive a sign-out (they hold no data).
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.reload();
  await expect(rows.first()).toBeVisible();
  await expect(page.locator('style[data-emotion^="css "]')).toHaveCount(0);
  await signOut(page);
  expect(await page.evaluate(() => localStorage.getItem('pecflow.styles'))).not.toBeNull();
});

test('a settings list loads none of the PEC pages’ code, nor form code, before its rows', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await page.goto('/settings/shops');
  await expect(page.getByTestId('list-shops').getByTestId('list-row').first()).toBeVisible();
  expect(asked.filter((path) => path.startsWith('/assets/SettingsPage-'))).toHaveLength(1);
  // The shell's menu, the date fields and the list frame read no rule of the PEC files (`pec`: PEC_CODE, vite.config.ts).
  expect(asked.filter((path) => /\/assets\/(pec|PecPage|DashboardPage|zod|forms|jsonld)-/.test(path))).toEqual([]);
});

test('a menu entry starts its page’s code when the pointer reaches it or the keyboard focuses it, before the click', async ({ page }) => {
  await signIn(page, 'direction@audition-horizon.fr');
  await expect(page).toHaveURL(/\/dashboard$/);
  const asked = (chunk: string) => page.waitForRequest((request) => new RegExp(`/assets/${chunk}-[\\w-]+\\.js$`).test(new URL(request.url()).pathname));
  const pecCode = asked('PecPage');
  await page.getByRole('menuitem', { name: /Demandes PEC/ }).hover();
  await pecCode;
  const settingsCode = asked('SettingsPage');
  await page.getByRole('menuitem', { name: 'Paramètres' }).focus();
  await settingsCode;
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('after a plain login the user lands on /dashboard; "/" and unknown paths lead to /pec', async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/pec$/);
  await page.goto('/nimporte-quoi');
  await expect(page).toHaveURL(/\/pec$/);
});

test("signing in from the site's address ('/') lands on /dashboard, as from /login", async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'direction@audition-horizon.fr');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard')).toBeVisible();
});

test('a page asked for before signing in is the one shown after', async ({ page }) => {
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'direction@audition-horizon.fr');
  await expect(page).toHaveURL(/\/profile$/);
});

test('an authenticated visitor of /login is sent back into the application', async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the theme is dark by default, and the chosen theme survives reload and logout', async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const darkBackground = await background();
  await page.getByRole('button', { name: 'Mode clair' }).click();
  await expect(page.getByRole('button', { name: 'Mode sombre' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  const lightBackground = await background();
  expect(lightBackground).not.toBe(darkBackground);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Mode sombre' })).toBeVisible();
  await signOut(page);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  expect(await background()).toBe(lightBackground);
  await signIn(page, 'audio@audition-horizon.fr');
  await expect(page.getByRole('button', { name: 'Mode sombre' })).toBeVisible();
});

test('"Paramètres" is hidden for a read-only user and shown for an organisation administrator', async ({ page }) => {
  await signIn(page, 'lecture@audition-horizon.fr');
  await expect(page.getByRole('menuitem', { name: /Demandes PEC/ })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Paramètres' })).toHaveCount(0);
  await signOut(page);
  await signIn(page, 'direction@audition-horizon.fr');
  await expect(page.getByRole('menuitem', { name: 'Paramètres' })).toBeVisible();
});

test('logout goes to /login, clears the session, and the back button does not reveal data', async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  await page.goto('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText('audio@audition-horizon.fr');
  await signOut(page);
  expect(
    await page.evaluate(() => [localStorage.getItem('access_token'), localStorage.getItem('refresh_token'), localStorage.getItem('auth-storage')]),
  ).toEqual([null, null, null]);
  await page.goBack();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('audio@audition-horizon.fr')).toHaveCount(0);
});

test('the account pages show the signed-in user’s real data', async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  await expect(page.getByTestId('sidebar-user')).toContainText('SB');
  await expect(page.getByTestId('app-version')).toHaveText('v1.0.0');

  await page.getByRole('button', { name: 'Profil' }).click();
  await page.getByRole('menuitem', { name: 'Mon profil' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('profile-fullname')).toHaveText('Sophie Bernard');
  await expect(page.getByTestId('profile-email')).toHaveText('audio@audition-horizon.fr');
  await expect(page.getByTestId('profile-status')).toHaveText('Actif');

  await page.getByRole('button', { name: 'Profil' }).click();
  await page.getByRole('menuitem', { name: 'Mes permissions' }).click();
  await expect(page).toHaveURL(/\/permissions$/);
  const patient = page.getByTestId('module-patient');
  await expect(patient).toContainText('Dossiers patients (PEC)');
  // The PEC's three and the documents' three (issue 29).
  await expect(patient).toContainText('6 permissions');
  await expect(patient).toContainText('Voir les demandes de PEC');
  await expect(patient).toContainText('pec.documents.delete');
  await expect(page.getByTestId('module-workflow')).toContainText('Lancer le DPEC et la facturation');
  await expect(page.getByTestId('module-user')).toHaveCount(0);

  await page.goto('/debug-permissions');
  await expect(page.getByTestId('raw-permissions')).toContainText('pec.create');
  await expect(page.getByTestId('check-pec.create')).toContainText('✓');
  await expect(page.getByTestId('check-delete.pec')).toContainText('✗');
  await page.getByRole('button', { name: 'Super administrateur' }).click();
  await expect(page.getByTestId('check-delete.pec')).toContainText('✓');
  await page.getByRole('button', { name: 'Lancer tous les tests' }).click();
  await expect(page.getByTestId('debug-report')).toContainText('48 / 48');
});

test('a session the server no longer accepts leads to /login with the "Session expirée" toast', async ({ page }) => {
  await signIn(page, 'audio@audition-horizon.fr');
  await expect(page).toHaveURL(/\/dashboard$/);
  // The refresh token is revoked server-side (as after a password change) and the access token is no longer valid.
  // The tokens are replaced as the next page loads, not on the live dashboard: a refetch there would end the
  // session (and show the toast) on the page that the navigation then throws away.
  await page.addInitScript(() => {
    if (sessionStorage.getItem('e2e.tokens-replaced')) return;
    sessionStorage.setItem('e2e.tokens-replaced', '1');
    localStorage.setItem('access_token', 'jeton.perime.invalide');
    localStorage.setItem('refresh_token', 'revoque');
  });
  await page.goto('/pec');
  await expect(page).toHaveURL(/\/login/);
  // Toasts stack: the one that says so, whatever else shows.
  const toast = page.getByTestId('toast').filter({ hasText: 'Session expirée' });
  await expect(toast).toContainText('Votre session a expiré. Veuillez vous reconnecter pour continuer.');
});

test('toasts show at once and stack, the newest at the bottom; each closes after 5 s unless hovered, and on click', async ({ page }) => {
  // The first export succeeds, the next fails: two toasts, the second while the first still shows.
  let exports = 0;
  await page.route(
    (url) => url.pathname === '/api/pec_dossiers/export',
    (route) =>
      ++exports === 1
        ? route.fulfill({ contentType: 'text/csv', headers: { 'Content-Disposition': 'attachment; filename="demandes-pec.csv"' }, body: 'N° dossier\r\n' })
        : route.fulfill({ status: 503, json: { message: 'Export momentanément indisponible' } }),
  );
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/pec');
  const toasts = page.getByTestId('toast');
  const done = toasts.filter({ hasText: 'Export terminé' });
  const failed = toasts.filter({ hasText: 'Erreur d’export' });

  await page.getByRole('button', { name: 'Exporter' }).click();
  await expect(done).toBeVisible();
  await page.getByRole('button', { name: 'Exporter' }).click();
  // At once (not after the first one's 5 s), under the first.
  await expect(toasts).toHaveText([/^Export terminé/, /^Erreur d’export.*Export momentanément indisponible/], { timeout: 2_000 });
  const shownAt = Date.now();

  // The hovered one stays; the other closes after its own 5 s.
  await failed.hover();
  await expect(done).toBeHidden({ timeout: 7_000 });
  await page.waitForTimeout(Math.max(0, shownAt + 6_000 - Date.now()));
  await expect(failed).toBeVisible();

  await failed.click();
  await expect(toasts).toHaveCount(0, { timeout: 1_000 });
});
