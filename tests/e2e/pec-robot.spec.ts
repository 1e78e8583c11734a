// The action tab with the built-in robot (the simulator answers after 500 ms per step): the DPEC button's states,
// live results without reload, billing, a shaped failure and its retry, and a result entered by hand.
import { expect, test } from '@playwright/test';
import { api, apiToken, signIn, typeDate } from './helpers';
import { drawer, markDocument, openFile, patientNumber, prepareFile, toast } from './pec-fixtures';
import { todayInFrance } from '#domain/pec';

const EUROS = /\d[\d\s]*,\d{2}\s€/;
/** A day as the French type it: 2026-11-03 -> 03/11/2026. */
const french = (isoDay: string) => isoDay.split('-').reverse().join('/');

test('DPEC from "Créer DPEC" through "En cours…" to "DPEC créé" with devices and amounts, then billing to "Facturé", with no reload', async ({
  page,
  request,
}) => {
  const file = await prepareFile(request, 'audio@audition-horizon.fr');
  await signIn(page, 'audio@audition-horizon.fr');
  await openFile(page, file);
  const sameDocument = await markDocument(page);
  const panel = drawer(page);
  const dpec = panel.getByTestId('dpec-button');
  const billing = panel.getByTestId('billing-button');

  await expect(dpec).toHaveText('Créer DPEC');
  await expect(dpec).toBeEnabled();
  await expect(billing).toHaveText('Facturer');
  await expect(billing).toBeDisabled();
  await expect(panel.getByTestId('step-scraping')).toHaveAttribute('data-state', 'none');
  await expect(panel.getByTestId('robot-results')).toContainText('Aucun appareil récupéré pour l’instant');

  await dpec.click();
  await expect(dpec).toHaveText('En cours…');
  // The run under way turns the button's mark into a spinner (the state says so, not its label).
  await expect(dpec.getByRole('progressbar')).toBeVisible();
  await expect(dpec).toBeDisabled();
  await expect(panel.getByTestId('step-scraping')).toHaveAttribute('data-state', /running|success/);

  // The robot's callbacks arrive as live events: the results show in place.
  await expect(dpec).toHaveText('DPEC créé');
  await expect(dpec).toBeDisabled();
  await expect(dpec.getByRole('progressbar')).toHaveCount(0);
  await expect(toast(page, 'DPEC créé avec succès')).toContainText(/N° PEC KALIXIA-\d+/);
  await expect(panel.getByTestId('step-scraping')).toHaveAttribute('data-state', 'success');
  await expect(panel.getByTestId('step-dpec')).toHaveAttribute('data-state', 'success');
  await expect(panel.getByTestId('step-dpec')).toContainText('Accord de la mutuelle');
  // The robot fits both ears or one (the simulator: one in 15 % of its runs): each ear shows what the file holds.
  const saved = await api<{ appareils: { oreille: string; codeLpp: string }[] }>(
    request,
    await apiToken(request, 'audio@audition-horizon.fr'),
    'GET',
    `/api/pec_dossiers/${file.id}`,
  );
  expect(saved.appareils.length).toBeGreaterThan(0);
  for (const ear of ['droite', 'gauche']) {
    const shown = panel.getByTestId(`device-${ear}`);
    const device = saved.appareils.find((a) => a.oreille === ear);
    await expect(shown).toContainText(`Oreille ${ear}`);
    if (device) {
      await expect(shown).toContainText('Code LPP');
      await expect(shown).toContainText(device.codeLpp);
      await expect(shown).toContainText(/23\d{5}/);
      await expect(shown).toContainText(EUROS);
    } else {
      await expect(shown).toContainText('Aucun appareil');
    }
  }
  await expect(panel.getByTestId('pec-agreement')).toContainText(/N° PEC\s*KALIXIA-\d+/);
  await expect(panel.getByTestId('pec-agreement')).toContainText(/Date de péremption\s*\d{2}\/\d{2}\/\d{4}/);
  const amounts = panel.getByTestId('pec-amounts');
  for (const label of ['Prix frais réels', 'Base Sécurité sociale', 'Part Sécurité sociale', 'Part complémentaire', 'Reste à charge']) {
    await expect(amounts.getByRole('row', { name: new RegExp(label) })).toContainText(EUROS);
  }
  await expect(panel.getByTestId('status-badge')).toHaveText('Approuvé');
  await expect(panel.getByTestId('execution')).toHaveCount(2);

  // Billing: Confirm waits for both fields.
  await expect(billing).toBeEnabled();
  await billing.click();
  const dialog = page.getByRole('dialog', { name: 'Facturation de la PEC' });
  const confirm = dialog.getByRole('button', { name: 'Confirmer' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/^N° de facture logiciel/).fill('FAC-E2E-1');
  await expect(confirm).toBeDisabled();
  // The invoice is dated between the DPEC's day (the simulator's: today) and today (issue 25).
  const invoiceDay = french(todayInFrance());
  await dialog.getByRole('textbox', { name: /^Date de facture logiciel/ }).fill(invoiceDay);
  await expect(confirm).toBeEnabled();
  // Clicked twice in a row (a double click): the invoice saved and the billing run started once, said once.
  const sent: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'PATCH' || pathname.endsWith('/setup-and-billing-pec')) sent.push(`${request.method()} ${pathname}`);
  });
  await confirm.dblclick();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Informations de facturation mises à jour')).toBeVisible();
  await expect(billing).toHaveText('Facturé');
  expect(sent).toEqual([`PATCH /api/pec_dossiers/${file.id}`, 'POST /api/robot-frontend/setup-and-billing-pec']);
  await expect(toast(page, 'Échec de la facturation')).toHaveCount(0);
  await expect(billing).toBeDisabled();
  await expect(panel.getByTestId('pec-billing')).toContainText('FAC-E2E-1');
  await expect(panel.getByTestId('pec-billing')).toContainText(invoiceDay);
  await expect(panel.getByTestId('status-badge')).toHaveText('Facturé');
  await sameDocument();
});

test('a scraping error shows the shaped message and "Réessayer"; after the patient number is corrected, the retry succeeds', async ({ page, request }) => {
  const file = await prepareFile(request, 'audio@audition-horizon.fr', { patient: patientNumber('-ERRSCRAP') });
  await signIn(page, 'audio@audition-horizon.fr');
  await openFile(page, file);
  const panel = drawer(page);
  const dpec = panel.getByTestId('dpec-button');

  await dpec.click();
  await expect(dpec).toHaveText('Réessayer');
  await expect(dpec).toBeEnabled();
  const step = panel.getByTestId('step-scraping');
  await expect(step).toHaveAttribute('data-state', 'error');
  await expect(step.getByTestId('robot-error')).toContainText('Échec du DPEC');
  await expect(step.getByTestId('robot-error')).toContainText('Erreur technique du service DPEC');
  await expect(step.getByTestId('robot-error')).toContainText('Contactez votre administrateur si le problème persiste.');
  await expect(toast(page, 'Échec du DPEC')).toContainText('Erreur technique du service DPEC');
  await expect(panel.getByTestId('step-dpec')).toHaveAttribute('data-state', 'none');

  // The file is corrected in "Informations initiales" (edit with pec.edit), then the DPEC is tried again.
  await panel.getByRole('tab', { name: 'Informations initiales' }).click();
  await panel.getByRole('button', { name: 'Modifier' }).click();
  await panel.getByRole('textbox', { name: /^N° dossier patient/ }).fill(file.numeroDossierAssure.replace('-ERRSCRAP', ''));
  await panel.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(page, 'PEC modifiée')).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'N° dossier patient' })).toHaveValue(file.numeroDossierAssure.replace('-ERRSCRAP', ''));

  await panel.getByRole('tab', { name: 'Actions DPEC' }).click();
  await dpec.click();
  await expect(dpec).toHaveText('DPEC créé');
  await expect(step).toHaveAttribute('data-state', 'success');
  await expect(panel.getByTestId('step-dpec')).toHaveAttribute('data-state', 'success');
  await expect(panel.getByTestId('execution')).toHaveCount(3);
});

test('a DPEC result entered by hand: "Dossier non initialisé" first, then prices like "1 450,50" with at most 2 decimals', async ({ page, request }) => {
  const file = await prepareFile(request, 'audio@audition-horizon.fr', { patient: patientNumber('-ERRDPEC') });
  await signIn(page, 'audio@audition-horizon.fr');
  await openFile(page, file);
  const panel = drawer(page);

  await panel.getByRole('tab', { name: 'Ajouter des informations' }).click();
  await expect(panel.getByTestId('not-initialised')).toContainText('Dossier non initialisé');
  await expect(panel.getByTestId('not-initialised')).toContainText('Ce dossier n’a pas d’external_id. Créez d’abord un DPEC pour activer les callbacks.');

  // A technical failure of the insurer's portal ("Robot API returned 502 ...") is reduced to its first error and a tip.
  await panel.getByRole('tab', { name: 'Actions DPEC' }).click();
  const dpec = panel.getByTestId('dpec-button');
  await dpec.click();
  await expect(dpec).toHaveText('Réessayer');
  const failure = panel.getByTestId('step-dpec').getByTestId('robot-error');
  await expect(failure).toContainText('Mutuelle non reconnue par le portail du réseau');
  await expect(failure).toContainText('Vérifiez la configuration de la mutuelle dans les paramètres du réseau.');
  await expect(failure).not.toContainText('Robot API returned');
  // The execution history says the same, never the robot's raw text nor its processing time (spec section 8).
  const history = panel.getByTestId('execution-history');
  await expect(history.getByTestId('robot-error')).toContainText('Mutuelle non reconnue par le portail du réseau');
  await expect(history.getByTestId('robot-error')).toContainText('Vérifiez la configuration de la mutuelle dans les paramètres du réseau.');
  await expect(history).not.toContainText('Robot API returned');
  await expect(history).not.toContainText(/traitée en \d+ ms/);

  await panel.getByRole('tab', { name: 'Ajouter des informations' }).click();
  // The devices form starts with the spec's defaults: 100 % Santé "oui", first fitting "non".
  const devices = panel.getByTestId('callback-form-scraping');
  await expect(devices.locator('[data-field="appareil.offre_100_sante"]')).toHaveValue('oui');
  await expect(devices.locator('[data-field="appareil.droit.premier_appareillage"]')).toHaveValue('non');
  await panel.getByRole('tab', { name: 'Demande de PEC' }).click();
  const form = panel.getByTestId('callback-form-dpec');
  const submit = form.getByRole('button', { name: 'Enregistrer le résultat' });
  const price = form.getByRole('textbox', { name: 'Prix frais réels' });
  await price.fill('1 450,505');
  await expect(form.getByText('Prix invalide : max 2 décimales (ex: 1 450,50)')).toBeVisible();
  await expect(submit).toBeDisabled();
  await price.fill('1 450,50');
  await expect(form.getByText('Prix invalide : max 2 décimales (ex: 1 450,50)')).toBeHidden();
  await form.getByRole('textbox', { name: 'Reste à charge' }).fill('0,5');
  const numPec = `MAN-${Date.now()}`;
  await form.getByRole('textbox', { name: 'N° PEC' }).fill(numPec);
  await form.getByRole('textbox', { name: 'Messages' }).fill('Accord saisi à la main\n\n   \nPEC vérifiée par téléphone');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(toast(page, 'Résultat « Demande de PEC » enregistré')).toContainText(/Exécution n° \d+, traitée en \d+ ms/);

  await panel.getByRole('tab', { name: 'Actions DPEC' }).click();
  await expect(dpec).toHaveText('DPEC créé');
  await expect(panel.getByTestId('pec-agreement')).toContainText(numPec);
  await expect(panel.getByTestId('pec-amounts').getByRole('row', { name: /Prix frais réels/ })).toContainText(/1\s450,50\s€/);
  await expect(panel.getByTestId('pec-amounts').getByRole('row', { name: /Reste à charge/ })).toContainText(/0,50\s€/);
  // One message per line, the empty ones dropped.
  await expect(panel.getByTestId('step-dpec').getByRole('listitem')).toHaveText(['Accord saisi à la main', 'PEC vérifiée par téléphone']);
  await expect(panel.getByTestId('execution').filter({ hasText: 'saisi à la main' })).toHaveCount(1);
});

test.describe('in an English browser', () => {
  test.use({ locale: 'en-US' });

  test('the billing date is typed dd/mm/yyyy and saved as that day', async ({ page, request }) => {
    const email = 'audio@audition-horizon.fr';
    const file = await prepareFile(request, email);
    const token = await apiToken(request, email);
    await api(request, token, 'POST', '/api/robot-frontend/setup-and-create-dpec', { pecDossierId: file.id });
    await expect
      .poll(async () => (await api<{ numPec: string | null; runInProgress: unknown }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).numPec, {
        timeout: 15_000,
      })
      .not.toBeNull();
    // An invoice cannot precede its DPEC (issue 25): the DPEC is dated, by hand, on a recent day whose day and month a
    // mm/dd reading would swap (the 3rd of November read as March the 11th).
    const day = ambiguousDayUpTo(todayInFrance());
    const { externalId } = await api<{ externalId: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`);
    await api(request, token, 'POST', '/api/callbacks/dpec', {
      id_pecflow: externalId,
      success: true,
      messages: ['Date du DPEC corrigée'],
      num_pec: 'PEC-EN-1',
      date_creation: day,
    });

    await signIn(page, email);
    await openFile(page, file);
    const billing = drawer(page).getByTestId('billing-button');
    await expect(billing).toBeEnabled();
    await billing.click();
    const dialog = page.getByRole('dialog', { name: 'Facturation de la PEC' });
    await dialog.getByRole('textbox', { name: /^N° de facture logiciel/ }).fill('FAC-EN-1');
    const date = dialog.getByRole('textbox', { name: /^Date de facture logiciel/ });
    // Read the French way: day, month, year.
    await typeDate(date, french(day).replace(/\//g, ''));
    await expect(date).toHaveValue(french(day));
    await dialog.getByRole('button', { name: 'Confirmer' }).click();
    await expect(toast(page, 'Informations de facturation mises à jour')).toBeVisible();
    await expect(drawer(page).getByTestId('pec-billing')).toContainText(french(day));
    expect((await api<{ dateBilling: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`)).dateBilling.slice(0, 10)).toBe(day);
  });
});

/** The latest day up to `today` whose day of the month is 12 or less and differs from its month (2026-11-03). */
function ambiguousDayUpTo(today: string): string {
  const date = new Date(`${today}T12:00:00Z`);
  while (date.getUTCDate() > 12 || date.getUTCDate() === date.getUTCMonth() + 1) date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}
