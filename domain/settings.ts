// System settings: the categories of the Système screen and the check of a new value against its type.
export const SETTING_CATEGORIES = ['general', 'security', 'email', 'api', 'storage', 'integrations'] as const;
export type SettingCategory = (typeof SETTING_CATEGORIES)[number];

export const SETTING_CATEGORY_LABELS: Record<SettingCategory, string> = {
  general: 'Général',
  security: 'Sécurité',
  email: 'Email',
  api: 'API',
  storage: 'Stockage',
  integrations: 'Intégrations',
};

/** The largest itemsPerPage a client may ask for (an editable system setting the API obeys). */
export const API_MAX_ITEMS_PER_PAGE_KEY = 'api.max_items_per_page';

/** Who must sign in with a second factor (server/auth/twoFactor.ts): nobody, the super administrators, or they and whoever manages users. */
export const TWO_FACTOR_REQUIRED_KEY = 'security.two_factor_required';
export const TWO_FACTOR_REQUIREMENTS = ['none', 'platform_admins', 'administrators'] as const;
export type TwoFactorRequirement = (typeof TWO_FACTOR_REQUIREMENTS)[number];

export type SettingValueType = 'boolean' | 'number' | 'string' | 'array' | 'object';

export interface SettingRule {
  min?: number;
  max?: number;
  /** For numbers: a whole number. */
  integer?: boolean;
  /** For strings: the accepted values. */
  choices?: readonly string[];
  /** For strings: an http(s) URL, or empty. */
  url?: boolean;
}

/**
 * Why a URL setting (the external robot's address) is refused, or undefined: an absolute http(s) URL with a host, no
 * user name or password in it (settings are readable by every user) and no link-local host (cloud metadata services).
 */
export function robotUrlError(value: string): string | undefined {
  const invalid = 'Valeur invalide : une URL http(s) est attendue.';
  if (/\s/.test(value) || !/^https?:\/\//i.test(value)) return invalid;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return invalid;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return invalid;
  if (url.username || url.password) return 'Valeur invalide : l’URL ne doit contenir ni identifiant ni mot de passe.';
  if (/^169\.254\./.test(url.hostname) || /^\[fe[89ab][0-9a-f]:/i.test(url.hostname))
    return 'Valeur invalide : adresse locale de lien (169.254.x.x, fe80::) refusée.';
  return undefined;
}

/** Longest JSON text of a list or object setting. */
export const SETTING_JSON_MAX = 10_000;

/** Why `value` is not acceptable for a setting of this type, or undefined when it is. */
export function settingValueError(valueType: string, value: unknown, rule: SettingRule = {}): string | undefined {
  switch (valueType) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Valeur invalide : oui ou non attendu.';
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Valeur invalide : un nombre est attendu.';
      if (rule.integer && !Number.isInteger(value)) return 'Valeur invalide : un nombre entier est attendu.';
      if (rule.min !== undefined && value < rule.min) return `Valeur trop petite : au moins ${rule.min}.`;
      if (rule.max !== undefined && value > rule.max) return `Valeur trop grande : au plus ${rule.max}.`;
      return undefined;
    case 'string':
      if (typeof value !== 'string') return 'Valeur invalide : un texte est attendu.';
      if (value.length > 2000) return 'Valeur trop longue : 2000 caractères au plus.';
      if (rule.choices && !rule.choices.includes(value)) return `Valeur invalide : ${rule.choices.join(' ou ')} attendu.`;
      if (rule.url && value !== '') return robotUrlError(value);
      return undefined;
    case 'array':
      if (!Array.isArray(value)) return 'Valeur invalide : une liste JSON est attendue.';
      return JSON.stringify(value).length > SETTING_JSON_MAX ? `Valeur trop longue : ${SETTING_JSON_MAX} caractères au plus.` : undefined;
    case 'object':
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'Valeur invalide : un objet JSON est attendu.';
      return JSON.stringify(value).length > SETTING_JSON_MAX ? `Valeur trop longue : ${SETTING_JSON_MAX} caractères au plus.` : undefined;
    default:
      return 'Type de paramètre inconnu.';
  }
}
