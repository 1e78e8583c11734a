// The drawer form of every entity tab: a French validation error first (the shared zod schema, in the browser),
// then the creation, then an edit; the server's own violations under the fields; a drawer closed with nothing typed
// at once, an edited one only after « Abandonner les modifications ? ».
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, apiToken, chooseOption, fieldBox, formField, signIn, uniqueName } from './helpers';

interface Entity {
  section: string;
  collection: string;
  /** "Nouvelle organisation", "Modifier organisation", "Organisation créée avec succès"... */
  singular: string;
  feminine: boolean;
  /** The text field the test names its record with. */
  nameField: string;
  /** Provokes a validation error and says which message must show. */
  invalid: (drawer: Locator, page: Page) => Promise<string>;
  /** Fills the other required fields. */
  fill: (drawer: Locator, page: Page) => Promise<void>;
}

const submit = (drawer: Locator, label: 'Créer' | 'Enregistrer') => drawer.getByRole('button', { name: label, exact: true }).click();

const submitEmpty = async (drawer: Locator) => {
  await submit(drawer, 'Créer');
};

const ENTITIES: Entity[] = [
  {
    section: 'holdings',
    collection: 'holdings',
    singular: 'organisation',
    feminine: true,
    nameField: 'Nom',
    invalid: async (drawer) => (await submitEmpty(drawer), 'SIREN requis'),
    fill: async (drawer) => formField(drawer, 'SIREN').fill('552100554'),
  },
  {
    section: 'companies',
    collection: 'companies',
    singular: 'entreprise',
    feminine: true,
    nameField: 'Nom',
    invalid: async (drawer) => (await submitEmpty(drawer), 'Organisation requise'),
    fill: async (drawer, page) => {
      await formField(drawer, 'SIREN').fill('552100554');
      await chooseOption(page, drawer, 'Organisation', 'Audition Horizon');
    },
  },
  {
    section: 'shops',
    collection: 'shops',
    singular: 'centre',
    feminine: false,
    nameField: 'Nom',
    invalid: async (drawer) => (await formField(drawer, 'FINESS').fill('123'), 'FINESS doit contenir 9 chiffres'),
    fill: async (drawer, page) => {
      await formField(drawer, 'FINESS').fill('750012345');
      await formField(drawer, 'SIRET').fill('55210055400013');
      await formField(drawer, 'RPPS').fill('10101234567');
      await formField(drawer, 'Code client').fill('HZ-TEST');
      await chooseOption(page, drawer, 'Entreprise', 'Horizon Audition Île-de-France');
    },
  },
  {
    section: 'users',
    collection: 'users',
    singular: 'utilisateur',
    feminine: false,
    nameField: 'Nom',
    invalid: async (drawer, page) => {
      // Without the invitation (the default), the first empty submit already names the missing password, with the
      // other fields.
      await drawer.getByLabel('Envoyer une invitation').uncheck();
      await submitEmpty(drawer);
      await expect(drawer.getByText('Prénom requis')).toBeVisible();
      await expect(drawer.getByText('Le mot de passe est requis lors de la création d’un utilisateur')).toBeVisible();
      await formField(drawer, 'Prénom').fill('Alice');
      await formField(drawer, 'Nom').fill('Martin');
      await formField(drawer, 'Email').fill(`${uniqueName('alice').replace(/\W+/g, '.')}@exemple.fr`);
      await chooseOption(page, drawer, 'Organisation', 'Audition Horizon');
      return 'Le mot de passe est requis lors de la création d’un utilisateur';
    },
    fill: async (drawer) => formField(drawer, 'Mot de passe').fill('Horizon-Lyon-42!'),
  },
  {
    section: 'mutuelles',
    collection: 'mutuals',
    singular: 'mutuelle',
    feminine: true,
    nameField: 'Nom',
    invalid: async (drawer) => (await formField(drawer, 'Nom').fill('A'), 'Le nom de la mutuelle est requis (min. 2 caractères)'),
    fill: async () => undefined,
  },
  {
    section: 'networks',
    collection: 'networks',
    singular: 'réseau',
    feminine: false,
    nameField: 'Nom',
    invalid: async (drawer) => (await formField(drawer, 'Code').fill('X'.repeat(21)), 'Le code ne peut pas dépasser 20 caractères'),
    fill: async (drawer) => formField(drawer, 'Code').fill(uniqueName('R').replace(/\W+/g, '').slice(0, 20)),
  },
  {
    section: 'software',
    collection: 'software',
    singular: 'logiciel',
    feminine: false,
    nameField: 'Libellé',
    invalid: async (drawer) => (await formField(drawer, 'URL de l’API').fill('pas une adresse'), 'L’URL de l’API doit être valide'),
    fill: async (drawer, page) => {
      await formField(drawer, 'URL de l’API').fill('https://api.exemple.fr/v1');
      await chooseOption(page, drawer, 'Organisation', 'Audition Horizon');
    },
  },
  {
    section: 'credentials',
    collection: 'credential_software',
    singular: 'identifiant',
    feminine: false,
    nameField: 'Identifiant de connexion',
    invalid: async (drawer) => (await submitEmpty(drawer), 'La page de connexion est requise'),
    fill: async (drawer, page) => {
      await formField(drawer, 'Page de connexion').fill('https://exemple.fr/connexion');
      await chooseOption(page, drawer, 'Logiciel', 'Auditdata Manage');
    },
  },
];

const capitalized = (text: string) => text[0]!.toUpperCase() + text.slice(1);
/** "Nouvelle organisation", "Nouveau centre", "Nouvel utilisateur". */
const newLabel = (entity: Entity) => `${entity.feminine ? 'Nouvelle' : /^[aeiouy]/.test(entity.singular) ? 'Nouvel' : 'Nouveau'} ${entity.singular}`;

for (const entity of ENTITIES) {
  test(`${entity.section}: create after a validation error, then edit`, async ({ page }) => {
    const name = uniqueName('Formulaire');
    const e = entity.feminine ? 'e' : '';
    await signIn(page, 'admin@pecflow.fr');
    await page.goto(`/settings/${entity.collection}`);
    const list = page.getByTestId(`list-${entity.collection}`);
    await list.getByRole('button', { name: newLabel(entity) }).click();

    const drawer = page.getByTestId('resource-drawer');
    await expect(drawer.getByRole('heading', { name: newLabel(entity) })).toBeVisible();
    await expect(drawer.getByTestId('drawer-id')).toHaveCount(0);
    // Nothing typed: Escape closes the drawer at once, without asking (what the form fills in itself is not typed).
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await list.getByRole('button', { name: newLabel(entity) }).click();
    await expect(drawer.getByRole('heading', { name: newLabel(entity) })).toBeVisible();
    const message = await entity.invalid(drawer, page);
    await expect(drawer.getByText(message)).toBeVisible();

    await formField(drawer, entity.nameField).fill(name);
    await entity.fill(drawer, page);
    await expect(drawer.getByText(message)).toHaveCount(0);
    await submit(drawer, 'Créer');
    const toast = page.getByTestId('toast');
    // Toasts stack: the one of this creation, among the earlier ones.
    await expect(toast.filter({ hasText: `${capitalized(entity.singular)} créé${e} avec succès` })).toContainText('Succès');
    await expect(drawer).toBeHidden();

    await list.getByRole('searchbox', { name: 'Rechercher' }).fill(name);
    await expect(list.getByTestId('list-row')).toHaveCount(1);
    await list.getByTestId('list-row').getByText(name).click();
    await expect(drawer.getByRole('heading', { name: `Modifier ${entity.singular}` })).toBeVisible();
    await expect(drawer.getByTestId('drawer-id')).toHaveText(/^ID: \d+$/);
    await expect(formField(drawer, entity.nameField)).toHaveValue(name);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await list.getByTestId('list-row').getByText(name).click();
    await expect(formField(drawer, entity.nameField)).toHaveValue(name);
    await formField(drawer, entity.nameField).fill(`${name} modifié`);
    await submit(drawer, 'Enregistrer');
    await expect(toast.filter({ hasText: `${capitalized(entity.singular)} ${entity.feminine ? 'mise' : 'mis'} à jour avec succès` })).toBeVisible();
    await expect(drawer).toBeHidden();
    await expect(list.getByTestId('list-row')).toContainText(`${name} modifié`);
  });
}

test("the server's French violations show under the fields and the drawer stays open", async ({ page }) => {
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/users');
  const list = page.getByTestId('list-users');
  await list.getByRole('button', { name: 'Nouvel utilisateur' }).click();
  const drawer = page.getByTestId('resource-drawer');
  await formField(drawer, 'Prénom').fill('Double');
  // The field being typed in shows the one focus ring (the theme's, as a button reached with Tab), the others none.
  await expect(fieldBox(formField(drawer, 'Prénom'))).toHaveCSS('outline-style', 'solid');
  await expect(fieldBox(formField(drawer, 'Prénom'))).toHaveCSS('outline-width', '2px');
  await expect(fieldBox(formField(drawer, 'Nom'))).toHaveCSS('outline-style', 'none');
  await formField(drawer, 'Nom').fill('Courriel');
  await expect(fieldBox(formField(drawer, 'Prénom'))).toHaveCSS('outline-style', 'none');
  // Already the address of a demo account: only the server knows.
  await formField(drawer, 'Email').fill('audio@audition-horizon.fr');
  await drawer.getByLabel('Envoyer une invitation').uncheck();
  await formField(drawer, 'Mot de passe').fill('Horizon-Lyon-42!');
  await chooseOption(page, drawer, 'Organisation', 'Audition Horizon');
  await submit(drawer, 'Créer');
  await expect(drawer.getByText('Cet email est déjà utilisé')).toBeVisible();
  // The failure toast names the server's reason (react-admin's "Le formulaire n’est pas valide." stacks beside it).
  await expect(page.getByTestId('toast').filter({ hasText: 'Erreur' })).toContainText('Cet email est déjà utilisé');
  await expect(drawer).toBeVisible();
  // What was typed is not saved: « Annuler » asks before dropping it.
  await drawer.getByRole('button', { name: 'Annuler' }).click();
  await page.getByRole('dialog', { name: 'Abandonner les modifications ?' }).getByRole('button', { name: 'Abandonner' }).click();
  await expect(drawer).toBeHidden();
});

test('an edited drawer asks before Escape, its close button or a click beside it drops what was typed', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const network = await api<{ id: number; name: string }>(request, admin, 'POST', '/api/networks', { name: uniqueName('Réseau saisi') });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/networks');
  const list = page.getByTestId('list-networks');
  await list.getByRole('searchbox', { name: 'Rechercher' }).fill(network.name);
  const row = list.getByTestId('list-row').filter({ hasText: network.name });
  await row.click();
  // The focused dialog is the drawer itself, named by its title (not a nameless frame around a named one).
  const drawer = page.getByRole('dialog', { name: 'Modifier réseau' });
  await expect(drawer).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  const name = formField(drawer, 'Nom');
  await expect(name).toHaveValue(network.name);

  await name.fill(`${network.name} à abandonner`);
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Abandonner les modifications ?' });
  await expect(ask).toContainText('Ce que vous avez saisi n’a pas été enregistré et sera perdu.');
  // It opens on « Continuer la saisie »: Enter goes back to the field, what was typed kept.
  await expect(ask.getByRole('button', { name: 'Continuer la saisie' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toBeHidden();
  await expect(name).toBeFocused();
  await expect(name).toHaveValue(`${network.name} à abandonner`);
  // The close button asks too; Escape answers « Continuer la saisie ».
  await drawer.getByRole('button', { name: 'Fermer' }).click();
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(name).toHaveValue(`${network.name} à abandonner`);
  // A click beside the drawer too, which takes the focus from the field: « Continuer la saisie » gives it back to the
  // field typed in, not to the drawer, and typing goes on where it was.
  await name.click();
  await name.press('End');
  await page.keyboard.type(' encore');
  await page.mouse.click(10, 400);
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Continuer la saisie' }).click();
  await expect(ask).toBeHidden();
  await expect(name).toBeFocused();
  await page.keyboard.type(' et encore');
  await expect(name).toHaveValue(`${network.name} à abandonner encore et encore`);
  // Asked again from beside the drawer, « Abandonner » closes it, the record unchanged, the focus back on its row.
  await page.mouse.click(10, 400);
  await ask.getByRole('button', { name: 'Abandonner' }).click();
  await expect(drawer).toBeHidden();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(/\/settings\/networks(\?|$)/);
  await expect(row).toBeFocused();
  expect((await api<{ name: string }>(request, admin, 'GET', `/api/networks/${network.id}`)).name).toBe(network.name);
  // Opened again, it shows the record as it is.
  await row.click();
  await expect(name).toHaveValue(network.name);
});

test('an edited drawer asks the same before « Annuler » or the browser’s back button drops what was typed', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const network = await api<{ id: number; name: string }>(request, admin, 'POST', '/api/networks', { name: uniqueName('Réseau retour') });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/networks');
  const list = page.getByTestId('list-networks');
  await list.getByRole('searchbox', { name: 'Rechercher' }).fill(network.name);
  // The search in the URL first: the history then holds the list searched, then the drawer.
  await expect(page).toHaveURL(/filter=/);
  const row = list.getByTestId('list-row').filter({ hasText: network.name });
  await row.click();
  const drawer = page.getByRole('dialog', { name: 'Modifier réseau' });
  const name = formField(drawer, 'Nom');
  await expect(name).toHaveValue(network.name);
  const drawerUrl = new RegExp(`/settings/networks/${network.id}(\\?|$)`);
  await expect(page).toHaveURL(drawerUrl);
  const ask = page.getByRole('dialog', { name: 'Abandonner les modifications ?' });
  const discard = ask.getByRole('button', { name: 'Abandonner' });

  // Nothing typed: the back button closes the drawer at once.
  await page.goBack();
  await expect(drawer).toBeHidden();
  await expect(ask).toBeHidden();
  await page.goForward();
  await expect(name).toHaveValue(network.name);

  await name.fill(`${network.name} à garder`);
  // « Annuler » asks, opening on « Continuer la saisie »: Enter keeps what was typed.
  await drawer.getByRole('button', { name: 'Annuler', exact: true }).click();
  await expect(ask).toContainText('Ce que vous avez saisi n’a pas été enregistré et sera perdu.');
  await expect(ask.getByRole('button', { name: 'Continuer la saisie' })).toBeFocused();
  // « Abandonner » carries a mark of what is dropped, not react-admin's check mark (« valider »), in the error colour.
  await expect(discard.locator('svg')).toHaveCount(1);
  await expect(discard.getByTestId('discard-mark')).toBeVisible();
  const [red = 0, green = 0, blue = 0] = (await discard.evaluate((button) => getComputedStyle(button).color)).match(/\d+/g)!.map(Number);
  expect(red - Math.max(green, blue)).toBeGreaterThan(80);
  await page.keyboard.press('Enter');
  await expect(ask).toBeHidden();
  await expect(name).toHaveValue(`${network.name} à garder`);

  // The back button asks too; continuing, the drawer stays, on its own URL, what was typed kept.
  await page.goBack();
  await expect(ask).toBeVisible();
  await expect(page).toHaveURL(drawerUrl);
  await ask.getByRole('button', { name: 'Continuer la saisie' }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(drawerUrl);
  await expect(name).toHaveValue(`${network.name} à garder`);
  // Asked again, « Abandonner » goes back: the list, the record unchanged.
  await page.goBack();
  await discard.click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/settings\/networks(\?|$)/);
  expect((await api<{ name: string }>(request, admin, 'GET', `/api/networks/${network.id}`)).name).toBe(network.name);

  // « Annuler » then « Abandonner » closes it, unchanged too.
  await row.click();
  await name.fill(`${network.name} à abandonner`);
  await drawer.getByRole('button', { name: 'Annuler', exact: true }).click();
  await discard.click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/settings\/networks(\?|$)/);
  expect((await api<{ name: string }>(request, admin, 'GET', `/api/networks/${network.id}`)).name).toBe(network.name);
});

test('an edited drawer gets the browser’s own question before a reload or a closed tab drops what was typed', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@pecflow.fr');
  const network = await api<{ id: number; name: string }>(request, admin, 'POST', '/api/networks', { name: uniqueName('Réseau quitté') });
  await signIn(page, 'admin@pecflow.fr');
  await page.goto(`/settings/networks/${network.id}`);
  const drawer = page.getByRole('dialog', { name: 'Modifier réseau' });
  const name = formField(drawer, 'Nom');
  await expect(name).toHaveValue(network.name);
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  // Nothing typed: the page reloads without a question.
  await name.click();
  await page.reload();
  await expect(name).toHaveValue(network.name);
  expect(asked).toEqual([]);
  // Typed: the reload asks; staying keeps what was typed.
  await name.fill(`${network.name} à garder`);
  await page.evaluate(() => void setTimeout(() => location.reload()));
  await expect.poll(() => asked).toEqual(['beforeunload']);
  await expect(name).toHaveValue(`${network.name} à garder`);
  // Closing the tab asks the same.
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toEqual(['beforeunload', 'beforeunload']);
});

test('the invalid-form toast goes once the form is corrected, before the save says its own', async ({ page }) => {
  await signIn(page, 'admin@pecflow.fr');
  await page.goto('/settings/networks');
  await page.getByTestId('list-networks').getByRole('button', { name: 'Nouveau réseau' }).click();
  const drawer = page.getByTestId('resource-drawer');
  await submit(drawer, 'Créer');
  await expect(drawer.getByText('Le nom du réseau est requis (min. 2 caractères)')).toBeVisible();
  const invalid = page.getByTestId('toast').filter({ hasText: 'Le formulaire n’est pas valide.' });
  await expect(invalid).toBeVisible();
  // Held by the pointer (its timer paused), it goes because the form is no longer refused, not with time.
  await invalid.hover();
  await formField(drawer, 'Nom').fill(uniqueName('Réseau'));
  await expect(invalid).toHaveCount(0);
  await submit(drawer, 'Créer');
  await expect(page.getByTestId('toast').filter({ hasText: 'Réseau créé avec succès' })).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(invalid).toHaveCount(0);
});
