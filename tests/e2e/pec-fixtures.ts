// What the PEC browser tests share: files prepared through the API, and the drawer of /pec.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiToken } from './helpers';

interface Member {
  id: number;
  name: string;
  network?: { id: number } | null;
}
interface Collection {
  member: Member[];
  totalItems: number;
}

export interface PreparedFile {
  id: number;
  numeroDossier: string;
  numeroDossierAssure: string;
}

/** A patient number no other test uses, with an optional simulator suffix (-ERRSCRAP, -ERRDPEC...). */
export const patientNumber = (suffix = '') => `E2E-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}${suffix}`.toUpperCase();

/** A draft file in the user's first centre, with a mutual of the network named (Kalixia unless told). */
export async function prepareFile(request: APIRequestContext, email: string, options: { patient?: string; network?: string } = {}): Promise<PreparedFile> {
  const token = await apiToken(request, email);
  const shops = await api<Collection>(request, token, 'GET', '/api/shops?pagination=false');
  const networks = await api<Collection>(request, token, 'GET', '/api/networks?pagination=false');
  const network = networks.member.find((n) => n.name === (options.network ?? 'Kalixia'))!;
  const mutuals = await api<Collection>(request, token, 'GET', `/api/mutuals?network.id=${network.id}&pagination=false`);
  const numeroDossierAssure = options.patient ?? patientNumber();
  const created = await api<{ id: number; numeroDossier: string }>(request, token, 'POST', '/api/pec_dossiers', {
    shop: `/api/shops/${shops.member[0]!.id}`,
    mutual: `/api/mutuals/${mutuals.member[0]!.id}`,
    numeroDossierAssure,
    numeroDevisAssure: `DEV-${numeroDossierAssure}`,
    status: 'draft',
  });
  return { id: created.id, numeroDossier: created.numeroDossier, numeroDossierAssure };
}

export const drawer = (page: Page) => page.getByTestId('pec-drawer');

/** Opens a file's drawer by its link (/pec/N) and waits for its actions tab. */
export async function openFile(page: Page, file: PreparedFile) {
  await page.goto(`/pec/${file.id}`);
  await expect(drawer(page).getByRole('heading', { level: 2 })).toHaveText(`Demande ${file.numeroDossier}`);
  await expect(drawer(page).getByRole('tab', { name: 'Actions DPEC' })).toHaveAttribute('aria-selected', 'true');
  await expect(drawer(page).getByTestId('dpec-button')).toBeVisible();
}

/** The toast with this title (and text, when given). */
export const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

/**
 * Marks the page so a test can prove that nothing reloaded it: the mark survives only in the same document.
 * Returns the check.
 */
export async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __e2eMark: number }).__e2eMark = 1));
  return async () => expect(await page.evaluate(() => (window as unknown as { __e2eMark?: number }).__e2eMark)).toBe(1);
}

/** The "N demandes trouvées" line of the list, as a number. */
export async function listCount(page: Page): Promise<number> {
  const text = page.getByTestId('pec-count');
  await expect(text).toHaveText(/\d+ demandes? trouvées?/);
  return Number((await text.textContent())!.replace(/\D/g, ''));
}
