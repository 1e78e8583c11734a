import { expect, type Page } from '@playwright/test';

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
