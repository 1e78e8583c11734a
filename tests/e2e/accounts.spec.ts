// Issue 26 in the browser: a forgotten password from the login page to signed in with the new one, an invitation
// accepted, the second factor enrolled from Mon profil and asked at the next sign-in. The emails are read from the
// server's outbox (no SMTP_URL: DATA_DIR/outbox/*.eml).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { api, apiToken, chooseOption, formField, linkFromOutbox, ownPassword, signIn, signOut, uniqueName } from './helpers';

const NEW_PASSWORD = 'Correct-Cheval-2026';

const uniqueEmail = (prefix: string) => `${uniqueName(prefix).replace(/\W+/g, '.')}@audition-horizon.fr`.toLowerCase();

/** A user of Audition Horizon created by the platform's administrator with `typed` as password; their address. */
async function createdByAdmin(request: APIRequestContext, prefix: string, names: { firstName: string; lastName: string }, typed: string) {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const email = uniqueEmail(prefix);
  await api(request, admin, 'POST', '/api/users', { ...names, email, password: typed, holding: '/api/holdings/1' });
  return email;
}

/** The new password and its confirmation, in a page that sets one. */
async function chooseNewPassword(page: Page, password: string) {
  await page.getByLabel('Nouveau mot de passe', { exact: false }).first().fill(password);
  await page.getByLabel('Confirmez le nouveau mot de passe').fill(password);
}

test('a forgotten password: from the login page to signed in with the new password', async ({ page, request }) => {
  const email = await createdByAdmin(request, 'oubli', { firstName: 'Odile', lastName: 'Oubli' }, 'Ancien-Mot-2026!');
  const since = Date.now();

  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Mot de passe oublié' })).toBeVisible();
  // The address typed on the login page is carried over.
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await page.getByRole('button', { name: 'Envoyer le lien' }).click();
  await expect(page.getByRole('status')).toContainText('Si un compte correspond à cette adresse');

  const link = await linkFromOutbox(email, '/reset-password', since);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Nouveau mot de passe' })).toBeVisible();
  await expect(page.getByText(email)).toHaveText(`Choisissez le nouveau mot de passe du compte ${email}. Vos sessions ouvertes seront fermées.`);
  // The policy speaks live under the field.
  await page.getByLabel('Nouveau mot de passe', { exact: false }).first().fill('odile2026');
  await expect(page.getByTestId('password-issues')).toContainText('Le mot de passe doit contenir au moins 12 caractères');
  await page.getByLabel('Nouveau mot de passe', { exact: false }).first().fill('Oubli-Odile-2026!');
  await expect(page.getByTestId('password-issues')).toContainText('ni le nom, ni le prénom');
  await chooseNewPassword(page, NEW_PASSWORD);
  await expect(page.getByTestId('password-accepted')).toBeVisible();
  await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(page.getByRole('status')).toContainText('Votre mot de passe est enregistré');
  await page.getByRole('link', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/login/);

  // The old password no longer works; the new one does. The link served once.
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('Ancien-Mot-2026!');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('alert')).toContainText('Identifiants invalides.');
  await signIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Lien invalide' })).toBeVisible();
});

test('a password reset ends the sessions open elsewhere at once: the open page goes to /login and says why', async ({ page, request }) => {
  const email = await createdByAdmin(request, 'ailleurs', { firstName: 'Aline', lastName: 'Ailleurs' }, 'Ancien-Mot-2026!');
  await ownPassword(request, email, 'Ancien-Mot-2026!');
  await signIn(page, email);
  // A page that reads nothing again by itself: only the ended session can take the user away from it.
  await page.goto('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(email);

  // Elsewhere (another browser), the password is reset by its e-mailed link.
  const since = Date.now();
  expect((await request.post('/api/forgot-password', { data: { email } })).status()).toBe(202);
  const link = await linkFromOutbox(email, '/reset-password', since);
  const resetToken = new URL(link).pathname.split('/').pop();
  expect((await request.post(`/api/forgot-password/${resetToken}`, { data: { password: NEW_PASSWORD } })).status()).toBe(204);

  await expect(page).toHaveURL(/\/login/);
  const toast = page.getByTestId('toast').filter({ hasText: 'Session expirée' });
  await expect(toast).toContainText('Votre session a expiré. Veuillez vous reconnecter pour continuer.');
});

test('an invitation: created from the users screen, accepted, and the new user signs in', async ({ page }) => {
  const email = uniqueEmail('invite');
  const lastName = uniqueName('Invité');
  const since = Date.now();
  await signIn(page, 'direction@audition-horizon.fr');
  await page.goto('/settings/users');
  const list = page.getByTestId('list-users');
  await list.getByRole('button', { name: 'Nouvel utilisateur' }).click();
  const drawer = page.getByTestId('resource-drawer');
  // The invitation is the default: no password to type.
  await expect(drawer.getByLabel('Envoyer une invitation')).toBeChecked();
  await expect(formField(drawer, 'Mot de passe')).toHaveCount(0);
  await formField(drawer, 'Prénom').fill('Inès');
  await formField(drawer, 'Nom').fill(lastName);
  await formField(drawer, 'Email').fill(email);
  await chooseOption(page, drawer, 'Centres', 'Horizon Boulogne');
  await page.keyboard.press('Escape');
  await drawer.getByRole('button', { name: 'Créer' }).click();
  await expect(drawer).toBeHidden();
  await list.getByRole('searchbox').or(list.getByPlaceholder('Rechercher (nom, prénom, email)…')).first().fill(lastName);
  const row = list.getByTestId('list-row').filter({ hasText: lastName });
  await expect(row.getByTestId('invitation-status')).toHaveText('Invitation envoyée');
  await expect(row.getByRole('button', { name: 'Renvoyer l’invitation' })).toBeVisible();
  await signOut(page);

  const link = await linkFromOutbox(email, '/invitation', since);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Bienvenue sur Pecflow' })).toBeVisible();
  await expect(page.getByText('Audition Horizon')).toBeVisible();
  await chooseNewPassword(page, NEW_PASSWORD);
  await page.getByRole('button', { name: 'Activer mon compte' }).click();
  await expect(page.getByRole('status')).toContainText('Votre mot de passe est enregistré');
  await page.getByRole('link', { name: 'Se connecter' }).click();
  await signIn(page, email, NEW_PASSWORD);
  await page.goto('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(email);
});

test('the second factor: enrolled from Mon profil, then asked after the password at sign-in', async ({ page, request }) => {
  const email = await createdByAdmin(request, 'totp', { firstName: 'Théo', lastName: 'Tacite' }, 'Tape-Par-Admin-2026!');
  // The password the administrator typed opens nothing: its owner chooses another first, the live hints under the field.
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('Tape-Par-Admin-2026!');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByText('Votre mot de passe a été choisi par un administrateur : choisissez le vôtre pour continuer.')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  await page.getByLabel('Nouveau mot de passe', { exact: false }).first().fill('le soleil brille sur la mer');
  await expect(page.getByTestId('password-issues')).toContainText(
    'Une phrase de passe doit contenir une majuscule et un chiffre, ou compter au moins 7 mots (elle en compte 6)',
  );
  await chooseNewPassword(page, NEW_PASSWORD);
  await page.getByRole('button', { name: 'Enregistrer et continuer' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/profile');
  const card = page.getByTestId('two-factor');
  await expect(card.getByTestId('two-factor-status')).toHaveText('Désactivée');
  await card.getByRole('button', { name: 'Activer la double authentification' }).click();
  await expect(card.getByRole('img', { name: 'QR code à scanner avec l’application d’authentification' })).toBeVisible();
  const secret = (await card.getByTestId('totp-secret').textContent())!.trim();
  // Shown by groups of 4 to be typed into a phone; its text (as copied) is the key itself.
  expect(await card.getByTestId('totp-secret').locator('span').allTextContents()).toEqual(secret.match(/.{1,4}/g));
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  await card.getByLabel('Code de vérification').fill(totp.generate());
  await card.getByRole('button', { name: 'Activer' }).click();
  await expect(card.getByTestId('two-factor-status')).toHaveText('Activée');
  await expect(card.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  // The codes to keep take the focus (the form that had it is gone).
  await expect(card.getByTestId('two-factor-codes')).toBeFocused();
  // A wrong code when turning it off is said under the form, and the session is left alone (no refresh).
  const refreshes: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().endsWith('/api/token/refresh')) refreshes.push(sent.url());
  });
  await card.getByRole('button', { name: 'Désactiver' }).click();
  await card.getByLabel('Code de vérification').fill('000000');
  await card.getByRole('button', { name: 'Désactiver' }).click();
  await expect(card.getByRole('alert').filter({ hasText: 'Code invalide.' })).toHaveText('Code invalide.');
  expect(refreshes).toEqual([]);
  await expect(card.getByTestId('two-factor-status')).toHaveText('Activée');
  await card.getByRole('button', { name: 'Annuler' }).click();
  // The app bar hides while the page is scrolled down (react-admin's AppBar).
  await page.evaluate(() => window.scrollTo(0, 0));
  await signOut(page);

  // The password alone no longer signs in: the code is asked, and no token is kept before it.
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('heading', { name: 'Double authentification' })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  await page.getByLabel('Code de vérification').fill('000000');
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page.getByRole('alert')).toContainText('Code invalide.');
  // The code of the next 30-second step (the enrolment used this one: a code serves once).
  await page.getByLabel('Code de vérification').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(email);
});

test('the password policy figures on Paramètres > Système: 7 words for a passphrase, and no figure that contradicts another', async ({ page }) => {
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/system');
  const screen = page.getByTestId('system-settings');
  await chooseOption(page, screen, 'Catégorie', 'Sécurité');
  await expect(screen.getByTestId('setting-security.passphrase_min_words').getByRole('spinbutton')).toHaveValue('7');
  // Below the CNIL's floor: the setting's own rule says so at once.
  const length = screen.getByTestId('setting-security.password_min_length');
  await length.getByRole('spinbutton').fill('10');
  await expect(length).toContainText('Valeur trop petite : au moins 12.');
  // Longer than a passphrase: the server refuses it in French, and the figure stays.
  await length.getByRole('spinbutton').fill('16');
  await length.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(
    page.getByText('La longueur minimale d’une phrase de passe (14) ne peut pas être inférieure à celle d’un mot de passe (16).').first(),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('setting-security.password_min_length').getByRole('spinbutton')).toHaveValue('12');
});
