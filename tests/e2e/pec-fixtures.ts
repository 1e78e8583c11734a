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

/** Opens a file's drawer on its « Documents » tab; answers the drawer. */
export async function openDocuments(page: Page, file: PreparedFile) {
  await openFile(page, file);
  const panel = drawer(page);
  await panel.getByRole('tab', { name: 'Documents' }).click();
  await expect(panel.getByTestId('pec-documents')).toBeVisible();
  return panel;
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

/** A one-page PDF with a real cross-reference table (what a reader, and the server's check, expects). */
export function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** Adds a document of `kind` (a one-page PDF) to a file through the API, as the drawer's upload does. */
export async function attachDocument(request: APIRequestContext, token: string, fileId: number, kind: string) {
  const response = await request.post('/api/pec_documents', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { file: { name: `${kind}.pdf`, mimeType: 'application/pdf', buffer: onePagePdf(kind) }, dossier: `/api/pec_dossiers/${fileId}`, kind },
  });
  expect(response.status(), await response.text()).toBe(201);
}
