// Mon profil: each user chooses the kinds of notification they receive; the choice is saved by the server and is
// still there after a reload (issue 12, item 11).
import { expect, test } from '@playwright/test';
import { api, apiToken, signIn } from './helpers';

test('a notification kind turned off in Mon profil stays off after a reload, and back on', async ({ page, request }) => {
  const email = 'assistant@audition-horizon.fr';
  await signIn(page, email);
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Notifications' });
  await expect(section.getByText('Choisissez les notifications que vous recevez sur les dossiers que vous suivez.')).toBeVisible();
  const timeout = section.getByRole('switch', { name: /^Délai dépassé/ });
  const granted = section.getByRole('switch', { name: /^DPEC accordé/ });
  await expect(timeout).toBeChecked();
  await expect(granted).toBeChecked();

  await timeout.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Vous ne recevrez plus les notifications « Délai dépassé ».' })).toBeVisible();
  await expect(timeout).not.toBeChecked();

  await page.reload();
  await expect(section.getByRole('switch', { name: /^Délai dépassé/ })).not.toBeChecked();
  await expect(section.getByRole('switch', { name: /^DPEC accordé/ })).toBeChecked();
  // The server holds the choice, not the browser.
  const token = await apiToken(request, email);
  const saved = await api<{ preferences: Record<string, boolean> }>(request, token, 'GET', '/api/user/notification-preferences');
  expect(saved.preferences).toMatchObject({ robot_timeout: false, robot_success: true });

  await section.getByRole('switch', { name: /^Délai dépassé/ }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Vous recevrez les notifications « Délai dépassé ».' })).toBeVisible();
  await page.reload();
  await expect(section.getByRole('switch', { name: /^Délai dépassé/ })).toBeChecked();
});
