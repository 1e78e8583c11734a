// Opticians' files in the drawer (issue 15): the frame and a lens per eye, never ears; a hearing-aid file keeps its
// ears; the manual scraping result of an optician's file asks for the optical equipment. Reads Optique Riviera's demo
// files; the one written to is a draft, so the counts and amounts other tests compare do not move.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { api, apiToken, chooseOption, signIn } from './helpers';
import { drawer, listCount, openFile, toast, type PreparedFile } from './pec-fixtures';
import { formatDioptres, type EquipementOptique } from '#domain/optical';

const EMAIL = 'direction@optique-riviera.fr';
const EUROS = /\d[\d\s]*,\d{2}\s€/;

interface FileItem {
  id: number;
  numeroDossier: string;
  numeroDossierAssure: string;
  externalId: string | null;
  fileKind: string;
  equipementOptique: EquipementOptique | null;
  appareils: { oreille: string }[];
}

/** A demo file of the named centre, in this status, that satisfies `keep` (read through the API). */
async function demoFile(request: APIRequestContext, shopName: string, status: string, keep: (file: FileItem) => boolean): Promise<FileItem> {
  const token = await apiToken(request, EMAIL);
  const shops = await api<{ member: { id: number; name: string }[] }>(request, token, 'GET', '/api/shops?pagination=false');
  const shop = shops.member.find((s) => s.name === shopName)!;
  const page = await api<{ member: { id: number; externalId: string | null }[] }>(
    request,
    token,
    'GET',
    `/api/pec_dossiers?shop=${shop.id}&status=${status}&itemsPerPage=100`,
  );
  for (const member of page.member) {
    const file = await api<FileItem>(request, token, 'GET', `/api/pec_dossiers/${member.id}`);
    if (keep(file)) return file;
  }
  throw new Error(`aucun dossier ${status} de ${shopName}`);
}

const prepared = (file: FileItem): PreparedFile => ({ id: file.id, numeroDossier: file.numeroDossier, numeroDossierAssure: file.numeroDossierAssure });

test("an optician's file shows its frame and lenses (OD / OG), never ears", async ({ page, request }) => {
  const file = await demoFile(request, 'Riviera Nice Médecin', 'approved', (f) => f.equipementOptique?.verres.OD?.cylindre != null);
  const equipment = file.equipementOptique!;
  expect(file.fileKind).toBe('optical');
  await signIn(page, EMAIL);
  await openFile(page, prepared(file));
  const panel = drawer(page);

  await expect(panel.getByTestId('step-scraping')).toContainText('Récupération du patient et de l’équipement optique');
  const view = panel.getByTestId('optical-equipment');
  await expect(view).toContainText('Équipement optique');
  await expect(panel.getByTestId('optical-class')).toContainText(`Classe ${equipment.classe}`);
  const frame = panel.getByTestId('optical-frame');
  await expect(frame).toContainText(`${equipment.monture.marque} ${equipment.monture.modele}`);
  await expect(frame).toContainText(EUROS);
  await expect(frame).toContainText(equipment.monture.codeLpp!);

  for (const [eye, label] of [
    ['OD', 'Œil droit (OD)'],
    ['OG', 'Œil gauche (OG)'],
  ] as const) {
    const lens = equipment.verres[eye]!;
    const card = panel.getByTestId(`lens-${eye}`);
    await expect(card).toContainText(label);
    await expect(card).toContainText(lens.type === 'progressif' ? 'Progressif' : 'Unifocal');
    // French dioptres: a true minus sign and a decimal comma (−2,25), the index with a comma (1,6), prices in euros.
    await expect(card).toContainText(new RegExp(`Sphère\\s*${formatDioptres(lens.sphere).replace('+', '\\+')}`));
    await expect(card).toContainText(`Indice${lens.indice!.replace('.', ',')}`);
    await expect(card).toContainText(EUROS);
    await expect(card).toContainText(lens.codeLpp!);
  }
  await expect(panel.getByTestId('lens-OD')).toContainText(new RegExp(`Cylindre\\s*${formatDioptres(equipment.verres.OD!.cylindre)}`));
  await expect(panel.getByTestId('lens-OD')).toContainText(/Cylindre\s*\u2212\d,\d{2}/);

  // No ear anywhere: neither the devices block nor its labels.
  await expect(panel.getByTestId('device-droite')).toHaveCount(0);
  await expect(panel.getByTestId('device-gauche')).toHaveCount(0);
  await expect(panel.getByTestId('robot-results')).not.toContainText(/Oreille|oreille|Appareils|Aucun appareil/);
});

test('a hearing-aid file of the same organisation still shows its ears', async ({ page, request }) => {
  const file = await demoFile(request, 'Riviera Antibes', 'approved', (f) => f.appareils.some((a) => a.oreille === 'droite'));
  expect(file.fileKind).toBe('audio');
  expect(file.equipementOptique).toBeNull();
  await signIn(page, EMAIL);
  await openFile(page, prepared(file));
  const panel = drawer(page);
  await expect(panel.getByTestId('step-scraping')).toContainText('Récupération du patient et des appareils');
  await expect(panel.getByTestId('device-droite')).toContainText('Oreille droite');
  await expect(panel.getByTestId('device-droite')).toContainText(EUROS);
  await expect(panel.getByTestId('optical-equipment')).toHaveCount(0);
});

test("the manual scraping result of an optician's file asks for the optical equipment, checked as the server does", async ({ page, request }) => {
  const file = await demoFile(request, 'Riviera Nice Médecin', 'draft', (f) => f.externalId !== null);
  await signIn(page, EMAIL);
  await openFile(page, prepared(file));
  const panel = drawer(page);
  await panel.getByRole('tab', { name: 'Ajouter des informations' }).click();
  await expect(panel.getByRole('tab', { name: 'Patient et équipement' })).toHaveAttribute('aria-selected', 'true');

  const form = panel.getByTestId('callback-form-scraping');
  await expect(form.getByTestId('optical-form')).toBeVisible();
  // No device per ear in this form.
  await expect(form.locator('[data-field^="appareil."]')).toHaveCount(0);
  await expect(form).not.toContainText(/Appareil droit|Appareil gauche|Oreille/);

  const submit = form.getByRole('button', { name: 'Enregistrer le résultat' });
  const od = form.getByTestId('optical-form-OD');
  await chooseOption(page, form, 'Classe 100 % Santé', /^Classe B/);
  await form.getByRole('textbox', { name: 'Marque' }).fill('Lafont');
  await form.getByRole('textbox', { name: 'Modèle' }).fill('Issy E2E');
  await chooseOption(page, od, 'Type de verre', 'Progressif');
  const sphere = od.getByRole('textbox', { name: 'Sphère' });
  await sphere.fill('-2,30');
  await expect(od.getByText('Sphère invalide : de −30,00 à +30,00 par pas de 0,25')).toBeVisible();
  await expect(submit).toBeDisabled();
  await sphere.fill('-2,25');
  await expect(od.getByText('Sphère invalide : de −30,00 à +30,00 par pas de 0,25')).toBeHidden();
  await od.getByRole('textbox', { name: 'Cylindre' }).fill('-0,75');
  await od.getByRole('textbox', { name: 'Axe' }).fill('180');
  await od.getByRole('textbox', { name: 'Addition' }).fill('2');
  await od.getByRole('textbox', { name: 'Indice' }).fill('1,6');
  await od.getByRole('textbox', { name: 'Traitements' }).fill('antireflet, durci');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(toast(page, 'Résultat « Patient et équipement » enregistré')).toContainText(/Exécution n° \d+/);

  await panel.getByRole('tab', { name: 'Actions DPEC' }).click();
  await expect(panel.getByTestId('optical-frame')).toContainText('Lafont Issy E2E');
  await expect(panel.getByTestId('optical-class')).toContainText('Classe B');
  const lens = panel.getByTestId('lens-OD');
  await expect(lens).toContainText('Progressif');
  await expect(lens).toContainText(/Sphère\s*\u22122,25/);
  await expect(lens).toContainText(/Cylindre\s*\u22120,75/);
  await expect(lens).toContainText('180°');
  await expect(lens).toContainText(/Addition\s*\+2,00/);
  await expect(lens).toContainText('antireflet, durci');
  await expect(panel.getByTestId('lens-OG')).toContainText('Aucun verre');
});

test("the dashboard's files per kind open the list filtered by kind, with the same count", async ({ page }) => {
  await signIn(page, EMAIL);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Demandes par type de dossier' })).toBeVisible();
  for (const [kind, label] of [
    ['optical', 'Optique'],
    ['audio', 'Audioprothèse'],
  ] as const) {
    const card = page.getByTestId(`dashboard-kind-${kind}`);
    await expect(card).toContainText(label);
    const figure = card.getByTestId('figure');
    await expect(figure).toHaveText(/^\d+$/);
    const count = Number(await figure.textContent());
    expect(count).toBeGreaterThan(0);
    await card.click();
    await expect(page).toHaveURL(/\/pec\?/);
    await expect(page.getByTestId('pec-extra-filters')).toContainText(`Type de dossier : ${label}`);
    await expect.poll(() => listCount(page)).toBe(count);
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
  }
});
