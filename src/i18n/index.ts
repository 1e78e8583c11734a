import polyglotI18nProvider from 'ra-i18n-polyglot';
import frenchMessages from 'ra-language-french';
import { mergeTranslations } from 'ra-core';
import { fr } from './fr';

const messages = mergeTranslations(frenchMessages, fr);

// French only. Missing keys fall back to the text given as `_` (or to the key itself).
export const i18nProvider = polyglotI18nProvider(() => messages, 'fr', [{ locale: 'fr', name: 'Français' }], { allowMissing: true });
