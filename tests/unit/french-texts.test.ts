// react-admin's own French texts, as the application shows them (ra-language-french merged with src/i18n/fr.ts): French
// typography, the apostrophe included ('Le formulaire n’est pas valide.', never n'est).
import { expect, test } from 'vitest';
import { i18nProvider } from '../../src/i18n';
import { fr } from '../../src/i18n/fr';
import frenchMessages from 'ra-language-french';

/** Every key of react-admin's French messages ('ra.message.invalid_form', …). */
function keysOf(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keysOf(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

test('no react-admin text is shown with a straight apostrophe', () => {
  const keys = keysOf(frenchMessages);
  expect(keys).toContain('ra.message.invalid_form');
  const straight = keys.filter((key) => i18nProvider.translate(key, { _: '' }).includes("'"));
  expect(straight).toEqual([]);
  expect(i18nProvider.translate('ra.message.invalid_form')).toBe('Le formulaire n’est pas valide.');
});

test('no Pecflow text is written with a straight apostrophe', () => {
  const keys = keysOf(fr);
  expect(keys).toContain('pecflow.settings.form.loadError');
  const straight = keys.filter((key) => i18nProvider.translate(key, { _: '' }).includes("'"));
  expect(straight).toEqual([]);
  expect(i18nProvider.translate('pecflow.settings.form.loadError')).toBe('Impossible de charger l’élément');
});

test('no Pecflow text writes an ellipsis as three dots (« Chargement… », one character)', () => {
  const keys = keysOf(fr);
  const dots = keys.filter((key) => i18nProvider.translate(key, { _: '' }).includes('...'));
  expect(dots).toEqual([]);
  expect(i18nProvider.translate('pecflow.app.loading')).toBe('Chargement…');
});
