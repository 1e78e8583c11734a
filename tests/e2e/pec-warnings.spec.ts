// Issue 15 in the drawer: the server's warnings, each with its reason and source, never blocking the DPEC button;
// the prescriber and the prescription date in 'Informations initiales'.
import { expect, test, type Locator } from '@playwright/test';
import { api, apiToken, signIn, typeDate } from './helpers';
import { attachDocument, drawer, openFile, prepareFile, toast, type PreparedFile } from './pec-fixtures';

const AUDIO = 'audio@audition-horizon.fr';

/** An alert says its title once: its body does not say it again (whatever the case). */
async function expectTitleOnce(alert: Locator, title: string) {
  await expect(alert.locator('.MuiAlertTitle-root')).toHaveText(title);
  expect((await alert.innerText()).toLocaleLowerCase('fr').split(title.toLocaleLowerCase('fr'))).toHaveLength(2);
}

/** "dd/mm/yyyy" of the day `months` months before today. */
function monthsAgo(months: number) {
  const d = new Date();
  d.setMonth(d.getMonth() - months);
  return {
    iso: `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`,
    french: d.toLocaleDateString('fr-FR'),
  };
}

test('the warnings show in the drawer with their reason and source, and the DPEC stays possible', async ({ page, request }) => {
  const token = await apiToken(request, AUDIO);
  const file = await prepareFile(request, AUDIO);
  const old = monthsAgo(14);
  await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { datePrescription: old.iso });
  // Without its standard quote, the file says so first (issue 29); with it, only the prescription's age remains.
  await signIn(page, AUDIO);
  await openFile(page, file);
  await expect(drawer(page).getByTestId('pec-warning')).toHaveCount(2);
  await expect(drawer(page).locator('[data-testid="pec-warning"][data-code="devis_normalise_manquant"]')).toContainText('Devis normalisé manquant');
  await attachDocument(request, token, file.id, 'standard_quote');
  await page.reload();
  const warnings = drawer(page).getByTestId('pec-warnings');
  await expect(warnings).toContainText('Ces alertes n’empêchent pas l’envoi');
  const alert = warnings.getByTestId('pec-warning');
  await expect(alert).toHaveCount(1);
  await expect(alert).toHaveAttribute('data-code', 'prescription_trop_ancienne');
  await expectTitleOnce(alert, 'Prescription trop ancienne');
  await expect(alert).toContainText(`Datée du ${old.french}, elle est valable 1 an pour une aide auditive`);
  await expect(alert).toContainText('Source : Validité d’une prescription d’aide auditive');
  await expect(drawer(page).getByTestId('dpec-button')).toBeEnabled();

  // The other tabs show them too.
  await drawer(page).getByRole('tab', { name: 'Informations initiales' }).click();
  await expect(drawer(page).getByTestId('pec-warning')).toContainText('Prescription trop ancienne');
});

test("a demo file's insurer answer above the 100 % Santé limits: one alert per problem", async ({ page, request }) => {
  const token = await apiToken(request, AUDIO);
  const found = await api<{ member: { id: number; numeroDossier: string; numeroDossierAssure: string }[] }>(
    request,
    token,
    'GET',
    '/api/pec_dossiers?search=DP-ALERTE-03',
  );
  const demo = found.member[0]! as PreparedFile;
  await signIn(page, AUDIO);
  await openFile(page, demo);
  const alerts = drawer(page).getByTestId('pec-warning');
  await expect(alerts).toHaveCount(2);
  await expectTitleOnce(alerts.nth(0), 'Classe I au-dessus du prix limite');
  await expect(alerts.nth(0)).toContainText('1 100,00');
  await expect(alerts.nth(0)).toContainText('oreille droite');
  await expect(alerts.nth(0)).toContainText('Arrêté du 14 novembre 2018');
  await expectTitleOnce(alerts.nth(1), 'Reste à charge sur un équipement 100 % Santé');
  // Its DPEC is done: the advice to check the alerts before the DPEC is no longer given.
  await expect(drawer(page).getByTestId('pec-warnings-intro')).toHaveCount(0);
});

test("the prescriber and the prescription date are chosen and shown in 'Informations initiales'", async ({ page, request }) => {
  const file = await prepareFile(request, AUDIO);
  await attachDocument(request, await apiToken(request, AUDIO), file.id, 'standard_quote');
  await signIn(page, AUDIO);
  await openFile(page, file);
  await expect(drawer(page).getByTestId('pec-warnings')).toHaveCount(0);
  await drawer(page).getByRole('tab', { name: 'Informations initiales' }).click();
  const info = drawer(page).getByTestId('pec-initial-info');
  await expect(info.getByRole('textbox', { name: 'Prescripteur' })).toHaveValue('Aucun prescripteur');
  await info.getByRole('button', { name: 'Modifier' }).click();

  const form = drawer(page).getByTestId('pec-form');
  const prescriber = form.getByRole('combobox', { name: /^Prescripteur/ });
  await prescriber.fill('Lefèv');
  await page.getByRole('option', { name: /Claire Lefèvre — ORL — RPPS 10003456781/ }).click();
  const date = form.getByRole('textbox', { name: /^Date de prescription/ });
  await typeDate(date, '01102026');
  await expect(date).toHaveValue('01/10/2026');
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(page, 'PEC modifiée')).toBeVisible();

  const shown = drawer(page).getByTestId('pec-initial-info');
  await expect(shown.getByRole('textbox', { name: 'Prescripteur' })).toHaveValue('Dr Claire Lefèvre — ORL — RPPS 10003456781');
  await expect(shown.getByRole('textbox', { name: 'Date de prescription' })).toHaveValue('01/10/2026');
  const token = await apiToken(request, AUDIO);
  const saved = await api<{ prescriber: { lastName: string }; datePrescription: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`);
  expect(saved.prescriber.lastName).toBe('Lefèvre');
  expect(saved.datePrescription).toBe('2026-10-01');
});
