// Issue 29 in the browser: the insured's names and contract number typed in 'Informations initiales' and shown there,
// then 'Imprimer le récapitulatif' downloads the file's summary, a PDF whose text reads back (pdftotext).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { formField, signIn } from './helpers';
import { drawer, openFile, prepareFile, toast } from './pec-fixtures';

const ADMIN = 'direction@audition-horizon.fr';
const run = promisify(execFile);

test('the insured typed in the file, then its summary printed as a PDF that names them', async ({ page, request }) => {
  const file = await prepareFile(request, ADMIN);
  await signIn(page, ADMIN);
  await openFile(page, file);
  const panel = drawer(page);
  await panel.getByRole('tab', { name: 'Informations initiales' }).click();
  await panel.getByRole('button', { name: 'Modifier' }).click();
  // A digit in a name is refused with the rule's message, before any call.
  await formField(panel, 'Nom de l’assuré').fill('Lefèvre2');
  await formField(panel, 'Prénom de l’assuré').fill('Hélène');
  await formField(panel, 'N° d’adhérent').fill('AD-12');
  await panel.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(panel).toContainText('Le nom ne peut contenir que des lettres, des espaces, des traits d’union et des apostrophes');
  await expect(panel).toContainText('Le numéro d’adhérent ne peut contenir que des chiffres et des lettres');
  await formField(panel, 'Nom de l’assuré').fill('Lefèvre-Durand');
  await formField(panel, 'N° d’adhérent').fill('AD778899');
  await panel.getByRole('button', { name: 'Enregistrer' }).click();
  const initial = panel.getByTestId('pec-initial-info');
  await expect(formField(initial, 'Nom de l’assuré')).toHaveValue('Lefèvre-Durand');
  await expect(formField(initial, 'Prénom de l’assuré')).toHaveValue('Hélène');
  await expect(formField(initial, 'N° d’adhérent')).toHaveValue('AD778899');

  const downloading = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Imprimer le récapitulatif' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`recapitulatif-${file.numeroDossier}.pdf`);
  await expect(toast(page, 'Récapitulatif prêt')).toBeVisible();
  const { stdout } = await run('pdftotext', ['-layout', (await download.path())!, '-']);
  expect(stdout).toContain('Récapitulatif de prise en charge');
  expect(stdout).toContain(file.numeroDossier);
  expect(stdout).toMatch(/Nom\s+Lefèvre-Durand/);
  expect(stdout).toMatch(/N° d’adhérent\s+AD778899/);
  expect(stdout).toContain('Signatures');
});
