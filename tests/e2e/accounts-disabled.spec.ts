// An account disabled (or locked) by an administrator while its user is signed in: the user's open page leaves for the
// login page at once and says why, as the login form says it (« Compte désactivé »), not « Session expirée ».
import { expect, test, type APIRequestContext } from '@playwright/test';
import { api, apiToken, ownPassword, signIn, uniqueName } from './helpers';

/** A user of Audition Horizon, created by the platform's administrator, with the tests' password; their id and address. */
async function newUser(request: APIRequestContext, prefix: string) {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const email = `${uniqueName(prefix).replace(/\W+/g, '.')}@audition-horizon.fr`.toLowerCase();
  const typed = 'Tape-Par-Admin-2026!';
  const { id } = await api<{ id: number }>(request, admin, 'POST', '/api/users', {
    firstName: 'Denise',
    lastName: 'Désactivée',
    email,
    password: typed,
    holding: '/api/holdings/1',
  });
  await ownPassword(request, email, typed);
  return { id, email };
}

async function setStatus(request: APIRequestContext, id: number, status: string) {
  const admin = await apiToken(request, 'direction@audition-horizon.fr');
  const response = await request.patch(`/api/users/${id}`, {
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/merge-patch+json' },
    data: { status },
  });
  expect(response.ok(), `statut ${status}: ${response.status()}`).toBeTruthy();
}

test('an account disabled while signed in: the open page goes to /login and says « Compte désactivé »', async ({ page, request }) => {
  const { id, email } = await newUser(request, 'desactivee');
  await signIn(page, email);
  // A page that reads nothing again by itself: only the ended session (the live stream's) takes the user away from it.
  await page.goto('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(email);

  // Elsewhere, the organisation's director disables the account.
  await setStatus(request, id, 'Inactive');

  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('alert')).toContainText('Compte désactivé');
  // Not the plain expiry, which would hide why.
  await expect(page.getByTestId('toast').filter({ hasText: 'Session expirée' })).toHaveCount(0);
  // The message goes with the login form's next attempt, like any of its verdicts.
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a locked account whose page loads again: the refused refresh says « Compte bloqué »', async ({ page, request }) => {
  const { id, email } = await newUser(request, 'bloquee');
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard/);
  // The account is locked while the browser is away from the application: it finds out on its next page load.
  await page.goto('about:blank');
  await setStatus(request, id, 'Locked');
  await page.goto('/pec');

  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('alert')).toContainText('Compte bloqué');
  await expect(page.getByTestId('toast').filter({ hasText: 'Session expirée' })).toHaveCount(0);
});
