// The toasts (spec section 2): shown at once, stacked (newest at the bottom, at most three), each closing after 5 s
// on its own, paused while hovered, closed on click; a title said once.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { AdminContext, memoryStore } from 'react-admin';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { i18nProvider } from '../../src/i18n';
import { Toasts, useToast, withoutTitle } from '../../src/layout/Toasts';

let toast: ReturnType<typeof useToast>;
function Capture() {
  const captured = useToast();
  useEffect(() => {
    toast = captured;
  }, [captured]);
  return null;
}

beforeEach(() => {
  vi.useFakeTimers();
  render(
    <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
      <Capture />
      <Toasts />
    </AdminContext>,
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const shown = () => screen.queryAllByTestId('toast').map((element) => element.textContent);
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

test('a new toast shows at once under the ones still shown, each closing 5 s after it appeared', async () => {
  act(() => toast.success('Succès', 'Paramètre mis à jour avec succès'));
  expect(shown()).toEqual(['SuccèsParamètre mis à jour avec succès']);
  await wait(2_000);
  act(() => toast.error('Erreur de sauvegarde', 'Impossible de sauvegarder le paramètre'));
  expect(shown()).toEqual(['SuccèsParamètre mis à jour avec succès', 'Erreur de sauvegardeImpossible de sauvegarder le paramètre']);
  await wait(3_000);
  expect(shown()).toEqual(['Erreur de sauvegardeImpossible de sauvegarder le paramètre']);
  await wait(2_000);
  expect(shown()).toEqual([]);
});

test('at most three show: the oldest leaves first', () => {
  act(() => {
    for (const n of [1, 2, 3, 4]) toast.info(`Message ${n}`);
  });
  expect(shown()).toEqual(['Message 2', 'Message 3', 'Message 4']);
});

test('hovering pauses its timer (the time left runs again on leaving), a click closes it', async () => {
  act(() => toast.info('Survolé'));
  act(() => toast.info('Cliqué'));
  await wait(4_000);
  fireEvent.mouseEnter(screen.getByText('Survolé'));
  await wait(10_000);
  expect(shown()).toEqual(['Survolé']);
  fireEvent.mouseLeave(screen.getByText('Survolé'));
  await wait(900);
  expect(shown()).toEqual(['Survolé']);
  await wait(200);
  expect(shown()).toEqual([]);

  act(() => toast.warning('Cliqué'));
  fireEvent.click(screen.getByText('Cliqué'));
  expect(shown()).toEqual([]);
});

test("a reason that begins with the toast's title shows without it, from a capital: the title is said once", () => {
  act(() => toast.error('Annulation impossible', 'Annulation impossible : le relevé n° 12 a été appliqué à ce dossier depuis ce paiement.'));
  expect(shown()).toEqual(['Annulation impossibleLe relevé n° 12 a été appliqué à ce dossier depuis ce paiement.']);
  // French spacing (a no-break space before the colon), another case, a full stop: the same.
  expect(withoutTitle('Suppression impossible', 'Suppression impossible\u00a0: la demande PEC-1 est payée.')).toBe('La demande PEC-1 est payée.');
  expect(withoutTitle('Annulation impossible', 'annulation impossible. « Payé » est un état final.')).toBe('« Payé » est un état final.');
  // Only the title: the toast shows the title alone.
  expect(withoutTitle('Note non supprimée', 'Note non supprimée')).toBe('');
  act(() => toast.error('Note non supprimée', 'Note non supprimée'));
  expect(shown()).toContain('Note non supprimée');
  // A reason that does not repeat the title, or begins with a longer word, is kept whole.
  expect(withoutTitle('Erreur', 'Erreurs dans le fichier : 3 lignes.')).toBe('Erreurs dans le fichier : 3 lignes.');
  expect(withoutTitle('Annulation impossible', 'Ce paiement vient du relevé n° 4.')).toBe('Ce paiement vient du relevé n° 4.');
});
