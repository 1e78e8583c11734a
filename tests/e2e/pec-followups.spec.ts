// Follow-ups (issue 28): the dashboard's 'À relancer' card opens the list filtered the same way, with its count; a
// note mentioning a colleague, chosen from the '@' suggestions, reaches the colleague's bell.
import { expect, test } from '@playwright/test';
import { api, apiToken, fieldBox, pickDay, signIn, signOut, uniqueName } from './helpers';
import { drawer, listCount, openFile, prepareFile, toast } from './pec-fixtures';

test("'À relancer' from the dashboard's card to the filtered list", async ({ page, request }) => {
  const email = 'audio@audition-horizon.fr';
  const file = await prepareFile(request, email);
  const token = await apiToken(request, email);
  // A follow-up date that came long ago: the file is due, among the first the card lists (earliest dates first).
  const longAgo = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(Date.now() - 300 * 86_400_000));
  await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { followUpDate: longAgo });
  const reason = `Relance prévue le ${longAgo.split('-').reverse().join('/')}`;

  await signIn(page, email);
  const card = page.getByTestId('dashboard-follow-ups');
  await expect(card).toContainText('À relancer');
  // The card names the file, its patient and centre, and why it is due; it opens the file.
  const listed = card.getByTestId('dashboard-follow-up').filter({ hasText: file.numeroDossier });
  await expect(listed).toContainText(`N° patient ${file.numeroDossierAssure}`);
  await expect(listed).toContainText(reason);
  await expect(listed.getByRole('link')).toHaveAttribute('href', `/pec/${file.id}`);
  const figure = card.getByTestId('figure').first();
  await expect(figure).toHaveText(/^\d+$/);
  const due = Number(await figure.textContent());
  expect(due).toBeGreaterThan(0);
  await page.getByTestId('dashboard-follow-ups-link').click();
  await expect(page).toHaveURL(/\/pec\?.*aRelancer/);
  await expect(page.getByTestId('filter-follow-ups')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => listCount(page)).toBe(due);
  await expect(page.getByText(file.numeroDossier)).toBeVisible();

  // The drawer says why too, in the file's follow-up panel.
  await openFile(page, file);
  await expect(drawer(page).getByTestId('follow-up-reason')).toHaveText(`À relancer : ${reason}`);
});

test("a note mentioning a colleague reaches the colleague's bell", async ({ page, request }) => {
  const file = await prepareFile(request, 'audio@audition-horizon.fr');
  await signIn(page, 'audio@audition-horizon.fr');
  await openFile(page, file);
  // No follow-up date yet: the panel says so, and nothing is due.
  await expect(drawer(page).getByTestId('pec-follow-up')).toContainText('Aucune relance prévue');
  await expect(drawer(page).getByTestId('follow-up-reason')).toHaveCount(0);
  const notes = drawer(page).getByTestId('pec-notes');
  const text = notes.getByTestId('note-text').locator('textarea').first();
  await text.fill('Mutuelle relancée, @Mar');
  await notes.getByTestId('note-mention-option').filter({ hasText: 'Marc Lefèvre' }).click();
  await expect(text).toHaveValue('Mutuelle relancée, @Marc Lefèvre ');
  // The text keeps the focus: what follows is typed after the name.
  await expect(text).toBeFocused();
  await page.keyboard.type('peux-tu rappeler jeudi ?');
  // Added from the keyboard: the button greys once the text is cleared, the focus stays in the note box.
  await notes.getByTestId('note-add').focus();
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Note ajoutée')).toBeVisible();
  await expect(notes.getByTestId('pec-note')).toContainText('Mutuelle relancée, @Marc Lefèvre peux-tu rappeler jeudi ?');
  await expect(notes.getByTestId('pec-note')).toContainText('Sophie Bernard');
  await expect(text).toBeFocused();

  // Its author edits it within 15 minutes: the text takes the focus; Échap leaves the edit, the note unchanged and the
  // drawer open; 'Annuler la modification' too.
  const note = notes.getByTestId('pec-note').first();
  await note.getByRole('button', { name: 'Modifier', exact: true }).click();
  const edit = note.getByRole('textbox', { name: 'Modifier la note' });
  await expect(edit).toBeFocused();
  await page.keyboard.type(' (brouillon)');
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  await expect(drawer(page)).toBeVisible();
  await expect(note).not.toContainText('(brouillon)');
  await note.getByRole('button', { name: 'Modifier', exact: true }).click();
  await note.getByRole('button', { name: 'Annuler la modification' }).click();
  await expect(note.getByRole('textbox', { name: 'Modifier la note' })).toBeHidden();
  // Saved changed, it says so beside its time (the server's updatedAt): it kept its first time with nothing to tell.
  await expect(note).not.toContainText('modifiée le');
  await note.getByRole('button', { name: 'Modifier', exact: true }).click();
  await note.getByRole('textbox', { name: 'Modifier la note' }).fill('Mutuelle relancée, @Marc Lefèvre peux-tu rappeler jeudi ? Urgent.');
  await note.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(page, 'Note modifiée')).toBeVisible();
  await expect(note).toContainText('jeudi ? Urgent.');
  await expect(note).toContainText(/Sophie Bernard · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} · modifiée le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}/);

  // From the keyboard: ↓/Entrée choose a name; Échap closes the suggestions, not the drawer.
  await text.fill('Et @Ma');
  await expect(notes.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(text).toHaveValue('Et @Marc Lefèvre ');
  await page.keyboard.type('merci @Ma');
  await page.keyboard.press('Escape');
  await expect(notes.getByRole('listbox')).toBeHidden();
  await expect(drawer(page)).toBeVisible();
  // A note half-written survives closing the drawer: it is there again when the file opens.
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
  await openFile(page, file);
  await expect(drawer(page).getByTestId('note-text').locator('textarea').first()).toHaveValue('Et @Marc Lefèvre merci @Ma');
  // The drawer closed first: while it is open, the rest of the page is out of reach (a modal).
  await drawer(page).getByTestId('note-text').locator('textarea').first().fill('');
  await page.keyboard.press('Escape');
  await expect(drawer(page)).toBeHidden();
  await signOut(page);

  await signIn(page, 'direction@audition-horizon.fr');
  await page
    .getByRole('button', { name: /notification/i })
    .first()
    .click();
  await expect(page.getByRole('menuitem').filter({ hasText: `Sophie Bernard vous a mentionné — ${file.numeroDossier}` })).toBeVisible();
});

test('deleting a note is asked first, the focus staying in the notes; a focused field shows the focus ring', async ({ page, request }) => {
  const file = await prepareFile(request, 'audio@audition-horizon.fr');
  await signIn(page, 'audio@audition-horizon.fr');
  await openFile(page, file);
  const notes = drawer(page).getByTestId('pec-notes');
  const text = notes.getByTestId('note-text').locator('textarea').first();
  await text.fill('Appeler la mutuelle avant vendredi');
  await notes.getByTestId('note-add').click();
  await expect(toast(page, 'Note ajoutée')).toBeVisible();
  const note = notes.getByTestId('pec-note');
  await expect(note).toHaveCount(1);

  // 'Supprimer' asks first, naming the note; the harmless choice carries a close mark, not a warning sign.
  const remove = note.getByRole('button', { name: 'Supprimer' });
  await remove.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Supprimer la note ?' });
  await expect(confirm).toContainText(/Vous allez supprimer votre note du \d\d\/\d\d\/\d{4} à \d\d:\d\d : « Appeler la mutuelle avant vendredi »\./);
  const cancel = confirm.getByRole('button', { name: 'Annuler' });
  await expect(cancel.locator('svg')).toHaveCount(1);
  await expect(cancel.getByTestId('confirm-cancel-mark')).toBeVisible();
  // « Supprimer » says what it does with the delete mark, not react-admin's check mark.
  await expect(confirm.getByRole('button', { name: 'Supprimer' }).locator('svg')).toHaveCount(1);
  await expect(confirm.getByRole('button', { name: 'Supprimer' }).getByTestId('confirm-delete-mark')).toBeVisible();
  // It opens on 'Annuler' (a deletion): Enter, Enter deletes nothing, the focus is back on the note's button.
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(note).toHaveCount(1);
  await expect(remove).toBeFocused();
  // Échap closes it the same way.
  await page.keyboard.press('Enter');
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(note).toHaveCount(1);
  await expect(remove).toBeFocused();
  // Confirmed (Tab to 'Supprimer'): the note goes and the focus goes to the note box, never to the page's body.
  await page.keyboard.press('Enter');
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Supprimer' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Note supprimée')).toBeVisible();
  await expect(note).toHaveCount(0);
  await expect(text).toBeFocused();

  // The note box shows the one focus ring on its box (MUI's underline alone was too thin), of the colour a button reached
  // with Tab shows; leaving it for the button leaves one ring, the button's.
  await expect(fieldBox(text)).toHaveCSS('outline-style', 'solid');
  await expect(fieldBox(text)).toHaveCSS('outline-width', '2px');
  const ring = await fieldBox(text).evaluate((box) => getComputedStyle(box).outlineColor);
  await page.keyboard.type('Rappel');
  await page.keyboard.press('Tab');
  await expect(notes.getByTestId('note-add')).toBeFocused();
  await expect(notes.getByTestId('note-add')).toHaveCSS('outline-color', ring);
  await expect(fieldBox(text)).toHaveCSS('outline-style', 'none');
  // 'Suivi par' (a select) and 'Relance le' (a date) the same.
  const owner = drawer(page).getByTestId('follow-up-owner').getByRole('combobox');
  await owner.focus();
  await expect(fieldBox(owner)).toHaveCSS('outline-style', 'solid');
  await expect(fieldBox(owner)).toHaveCSS('outline-color', ring);
  const date = drawer(page).getByRole('textbox', { name: /^Relance le/ });
  await date.focus();
  await expect(fieldBox(date)).toHaveCSS('outline-style', 'solid');
  await expect(fieldBox(date)).toHaveCSS('outline-color', ring);
  await expect(fieldBox(owner)).toHaveCSS('outline-style', 'none');
});

test('a follow-up date typed over digit by digit is saved once, on leaving the field, and not again when left unchanged; one picked in the calendar at once', async ({
  page,
  request,
}) => {
  const email = 'audio@audition-horizon.fr';
  const file = await prepareFile(request, email);
  const token = await apiToken(request, email);
  await api(request, token, 'PATCH', `/api/pec_dossiers/${file.id}`, { followUpDate: '2027-01-20' });
  const patches: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'PATCH' && new URL(sent.url()).pathname === `/api/pec_dossiers/${file.id}`) patches.push(sent.postData() ?? '');
  });
  await signIn(page, email);
  await openFile(page, file);
  const date = drawer(page).getByRole('textbox', { name: /^Relance le/ });
  await expect(date).toHaveValue('20/01/2027');
  await date.click();
  await page.keyboard.press('ControlOrMeta+a');
  // 01/01/2027, 15/01/2027, 15/12/2027... pass by while typing: none is saved.
  await page.keyboard.type('15122026', { delay: 40 });
  await expect(date).toHaveValue('15/12/2026');
  expect(patches).toEqual([]);
  await page.keyboard.press('Tab');
  await expect(toast(page, 'Suivi enregistré')).toBeVisible();
  await expect.poll(() => patches.map((body) => JSON.parse(body) as unknown)).toEqual([{ followUpDate: '2026-12-15' }]);
  // Back in the field and out again with nothing changed: nothing more is written.
  await date.focus();
  await page.keyboard.press('Tab');
  await expect(date).toHaveValue('15/12/2026');
  const saved = await api<{ followUpDate: string }>(request, token, 'GET', `/api/pec_dossiers/${file.id}`);
  expect(saved.followUpDate.slice(0, 10)).toBe('2026-12-15');
  await page.waitForTimeout(500);
  expect(patches).toHaveLength(1);

  // A day picked in the calendar is saved at once, once.
  await drawer(page)
    .getByTestId('pec-follow-up')
    .getByRole('button', { name: /^Choisir la date/ })
    .click();
  const calendar = page.getByRole('dialog', { name: 'Relance le' });
  await expect(calendar).toContainText('décembre 2026');
  await pickDay(calendar, '20');
  await expect(date).toHaveValue('20/12/2026');
  await expect.poll(() => patches.map((body) => JSON.parse(body) as unknown)).toEqual([{ followUpDate: '2026-12-15' }, { followUpDate: '2026-12-20' }]);
});

test("a file's owner who may no longer follow it is shown as such in the drawer, not as nobody", async ({ page, request }) => {
  const email = 'direction@audition-horizon.fr';
  const file = await prepareFile(request, email);
  const admin = await apiToken(request, email);
  const role = await api(request, admin, 'POST', '/api/roles', { name: uniqueName('Suivi'), permissions: ['pec.view', 'pec.create', 'settings.shops.view'] });
  const colleague = await api(request, admin, 'POST', '/api/users', {
    firstName: 'Paule',
    lastName: 'Partie',
    email: `${uniqueName('partie').replace(/\W+/g, '.')}@audition-horizon.fr`.toLowerCase(),
    password: 'Tape-Par-Admin-2026!',
    holding: '/api/holdings/1',
    roles: [role['@id']],
  });
  await api(request, admin, 'PATCH', `/api/pec_dossiers/${file.id}`, { owner: colleague['@id'] });
  // She leaves: her account is deactivated, she may follow nothing any more.
  await api(request, admin, 'PATCH', colleague['@id'] as string, { status: 'Inactive' });

  await signIn(page, email);
  await openFile(page, file);
  const owner = drawer(page).getByTestId('follow-up-owner');
  await expect(owner).toContainText('Paule Partie (ne peut plus suivre ce dossier : choisissez un collègue)');
});
