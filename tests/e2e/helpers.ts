import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

export const PASSWORD = 'Pecflow2026!';

/** Signs in through the login form and waits to leave /login. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Profil' }).click();
  await page.getByRole('menuitem', { name: 'Déconnexion' }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** A bearer token for direct API calls that prepare test data. */
export async function apiToken(request: APIRequestContext, email: string, password = PASSWORD): Promise<string> {
  const response = await request.post('/api/login_check', { data: { email, password } });
  expect(response.ok(), `connexion API de ${email}`).toBeTruthy();
  const { token, step } = (await response.json()) as { token?: string; step?: string };
  // A sign-in that still asks a step (a password typed by an administrator, a second factor) gives no token.
  expect(token, `connexion API de ${email} : étape ${step} demandée`).toEqual(expect.any(String));
  return token!;
}

/** A user whose password an administrator typed chooses their own (the first sign-in's step): the tests' PASSWORD. */
export async function ownPassword(request: APIRequestContext, email: string, typed: string) {
  const first = await request.post('/api/login_check', { data: { email, password: typed } });
  const { step, challenge } = (await first.json()) as { step?: string; challenge?: string };
  expect(step, `première connexion de ${email}`).toBe('password_change');
  const chosen = await request.post('/api/login_check/password', { data: { challenge, password: PASSWORD } });
  expect(chosen.ok(), `mot de passe choisi par ${email}`).toBeTruthy();
}

/** Calls the API as a signed-in user; fails the test on an error answer. */
export async function api<T = Record<string, unknown>>(request: APIRequestContext, token: string, method: string, path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(path, { method, headers: { Authorization: `Bearer ${token}` }, data });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (response.status() === 204 ? undefined : await response.json()) as T;
}

/** A name no other test uses, for records a test creates. */
export const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A text field of a form by its label (the required mark is not part of its accessible name). */
export const formField = (scope: Page | Locator, label: string) => scope.getByRole('textbox', { name: label, exact: true });

/** The box MUI draws around a field's input (text, select, date): where its focus ring shows. */
export const fieldBox = (field: Locator) => field.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " MuiInputBase-root ")][1]');

/** A select (react-admin SelectInput, MUI select) by its label: its accessible name is the label then the value. */
export const selectField = (scope: Page | Locator, label: string) => scope.getByRole('combobox', { name: new RegExp(`^${escapeRegExp(label)}(\\s|$)`) });

/**
 * Once a popup (a calendar, a popover) has grown into place: during MUI's opening transition it is scaled down. A
 * transition restarted midway cancels its animation (its `finished` rejects) and starts another: wait for that one too.
 */
export async function grownIntoPlace(popup: Locator) {
  await popup.evaluate(async (element) => {
    const running = () => element.getAnimations({ subtree: true }).filter((animation) => animation.playState === 'running');
    for (let animations = running(); animations.length > 0; animations = running()) {
      await Promise.allSettled(animations.map((animation) => animation.finished));
    }
  });
}

/**
 * Clicks a day of an open calendar once it has grown into place, as a user's click comes: a click during MUI's opening
 * transition can miss its day (the calendar then closes with the date unchanged).
 */
export async function pickDay(calendar: Locator, day: string) {
  await grownIntoPlace(calendar);
  await calendar.getByRole('gridcell', { name: day, exact: true }).click();
}

/** Picks an option of a select by the field's label. */
export async function chooseOption(page: Page, scope: Page | Locator, label: string, option: string | RegExp) {
  await selectField(scope, label).click();
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * The link to `page` in the last email to `to` that the server wrote to its outbox (DATA_DIR/outbox: no SMTP_URL in
 * the browser tests), waiting for it to be written.
 */
export async function linkFromOutbox(to: string, page: '/reset-password' | '/invitation', since = 0): Promise<string> {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const path = await import('node:path');
  const { simpleParser } = await import('mailparser');
  const outbox = path.join(process.env.E2E_DATA_DIR!, 'outbox');
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        let files: string[];
        try {
          files = readdirSync(outbox).map((name) => path.join(outbox, name));
        } catch {
          return undefined; // no email written yet
        }
        for (const file of files
          .filter((f) => statSync(f).mtimeMs >= since)
          .sort()
          .reverse()) {
          const mail = await simpleParser(readFileSync(file));
          const recipients = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));
          const link = new RegExp(`https?://\\S+${page}/[\\w-]+`).exec(mail.text ?? '')?.[0];
          if (recipients.includes(to.toLowerCase()) && link) return (found = link);
        }
        return undefined;
      },
      { timeout: 20_000, message: `email pour ${to} dans ${outbox}` },
    )
    .toBeTruthy();
  return found!;
}

/**
 * Types dd/mm/yyyy digits into a MUI date field as a person does: once the field has focus and has selected a
 * section (it does so a moment after the focus; keys sent before are lost), at a person's pace. With `clear`, the
 * field's content is selected and erased first, and the typing waits for the emptied field's selection again.
 */
export async function typeDate(field: Locator, digits: string, { clear = false } = {}) {
  const page = field.page();
  const sectionSelected = () =>
    field.evaluate((input: HTMLInputElement) => input === document.activeElement && (input.selectionEnd ?? 0) > (input.selectionStart ?? 0));
  await field.click();
  await expect.poll(sectionSelected).toBe(true);
  if (clear) {
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await expect.poll(sectionSelected).toBe(true);
  }
  await page.keyboard.type(digits, { delay: 40 });
}
