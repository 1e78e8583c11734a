// The French name of an entity as the generic screens use it, with gender agreement ("Nouvelle organisation",
// "3 centres trouvés", "Entreprise créée avec succès").
import { useTranslate } from 'react-admin';

export function useNouns(resource: string, feminine = false) {
  const translate = useTranslate();
  const singular = translate(`resources.${resource}.name`, { smart_count: 1 });
  const plural = translate(`resources.${resource}.name`, { smart_count: 2 });
  /** A message of pecflow.settings with its feminine variant (key_f) when the name is feminine. */
  const say = (key: string, args: Record<string, unknown> = {}) =>
    translate(`pecflow.settings.${key}${feminine ? '_f' : ''}`, {
      singular: singular.toLowerCase(),
      plural: plural.toLowerCase(),
      element: singular,
      ...args,
    });
  return { singular, plural, say };
}
