// The French name of an entity as the generic screens use it, with agreement: gender ("Nouvelle organisation",
// "Entreprise créée avec succès"), number ("1 centre trouvé", "3 centres trouvés") and elision ("Nouvel utilisateur").
import { useTranslate } from 'react-admin';

const startsWithVowel = (word: string) => /^[aeiouyàâéèêëîïôûh]/i.test(word);

export function useNouns(resource: string, feminine = false) {
  const translate = useTranslate();
  const singular = translate(`resources.${resource}.name`, { smart_count: 1 });
  const plural = translate(`resources.${resource}.name`, { smart_count: 2 });
  const args = { singular: singular.toLowerCase(), plural: plural.toLowerCase(), element: singular };
  /** A message of pecflow.settings in its feminine (key_f) or elided (key_v) variant when it has one. */
  const say = (key: string, extra: Record<string, unknown> = {}) => {
    const variant = feminine ? '_f' : startsWithVowel(singular) ? '_v' : '';
    const base = `pecflow.settings.${key}`;
    const text = variant ? translate(`${base}${variant}`, { ...args, ...extra, _: '' }) : '';
    return text || translate(base, { ...args, ...extra });
  };
  return { singular, plural, say };
}
