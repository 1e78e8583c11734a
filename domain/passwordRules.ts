// The password policy's figures, settings and messages (CNIL, délibération n° 2022-100): at least 12 characters with
// upper case, lower case, digits and symbols, or a passphrase of at least 14 characters mixing upper case, lower case
// and digits, or of at least 7 words; neither common nor easy to guess (zxcvbn's estimate), and without the user's
// names or email. Light: the check itself, with zxcvbn's
// dictionaries, is domain/passwordPolicy.ts, which the browser loads only on the pages that set a password.

/** The figures, system settings of the Sécurité category (Paramètres > Système). */
export interface PasswordPolicy {
  /** With every kind of character (upper case, lower case, digit, symbol). */
  minLength: number;
  /** A passphrase: upper case, lower case and digits (no symbol required), or passphraseMinWords words. */
  passphraseMinLength: number;
  /** Words that make a passphrase of any characters. */
  passphraseMinWords: number;
  /** zxcvbn's score (0 to 4) a password must reach: below it, common, leaked or easy to guess. */
  minScore: number;
}

export const PASSWORD_POLICY_KEYS = {
  minLength: 'security.password_min_length',
  passphraseMinLength: 'security.passphrase_min_length',
  passphraseMinWords: 'security.passphrase_min_words',
  minScore: 'security.password_min_score',
} as const satisfies Record<keyof PasswordPolicy, string>;

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 12, passphraseMinLength: 14, passphraseMinWords: 7, minScore: 4 };

/** The CNIL's figures: the settings may ask more, never less. */
export const CNIL_PASSWORD_FLOOR = { minLength: 12, passphraseMinLength: 14, passphraseMinWords: 7 } as const;

/** Longest password accepted (argon2id takes any length; a bound keeps the strength estimate fast). */
export const PASSWORD_MAX = 128;

/** Who the password belongs to: it must not contain their names or email. */
export interface PasswordOwner {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

export type CharacterKind = 'upper' | 'lower' | 'digit' | 'symbol';

const KIND_LABELS: Record<CharacterKind, string> = {
  upper: 'une majuscule',
  lower: 'une minuscule',
  digit: 'un chiffre',
  symbol: 'un caractère spécial',
};

const frenchList = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} et ${items.at(-1)}`);

export const PASSWORD_MESSAGES = {
  required: 'Le mot de passe est requis',
  tooLong: `Le mot de passe ne peut pas dépasser ${PASSWORD_MAX} caractères`,
  tooShort: (policy: PasswordPolicy) =>
    `Le mot de passe doit contenir au moins ${policy.minLength} caractères (ou ${policy.passphraseMinLength} pour une phrase de passe)`,
  missingKinds: (missing: CharacterKind[], policy: PasswordPolicy) =>
    `Le mot de passe doit contenir ${frenchList(missing.map((kind) => KIND_LABELS[kind]))} (ou au moins ${policy.passphraseMinLength} caractères pour une phrase de passe)`,
  passphrase: (missing: CharacterKind[], words: number, policy: PasswordPolicy) =>
    `Une phrase de passe doit contenir ${frenchList(missing.map((kind) => KIND_LABELS[kind]))}, ou compter au moins ${policy.passphraseMinWords} mots (elle en compte ${words})`,
  personal: 'Le mot de passe ne doit contenir ni le nom, ni le prénom, ni l’email de l’utilisateur',
  guessable: (hint?: string | null) => `Ce mot de passe est trop courant ou trop facile à deviner${hint ? ` : ${hint.replace(/\.$/, '').toLowerCase()}` : ''}`,
  /** What the policy asks, shown under an empty field. */
  requirements: (policy: PasswordPolicy) =>
    `Au moins ${policy.minLength} caractères avec majuscules, minuscules, chiffres et caractères spéciaux, ou une phrase de passe d’au moins ${policy.passphraseMinLength} caractères avec majuscules, minuscules et chiffres, ou d’au moins ${policy.passphraseMinWords} mots.`,
  mismatch: 'Les deux mots de passe ne sont pas identiques',
} as const;

/** Why these figures cannot make one policy (below the CNIL's floor, a passphrase shorter than a password), or undefined. */
export function policyContradiction(policy: PasswordPolicy): string | undefined {
  const floor = CNIL_PASSWORD_FLOOR;
  const cnil = 'la recommandation de la CNIL (délibération 2022-100)';
  if (policy.minLength < floor.minLength) return `Un mot de passe doit compter au moins ${floor.minLength} caractères selon ${cnil}.`;
  if (policy.passphraseMinLength < floor.passphraseMinLength)
    return `Une phrase de passe doit compter au moins ${floor.passphraseMinLength} caractères selon ${cnil}.`;
  if (policy.passphraseMinWords < floor.passphraseMinWords) return `Une phrase de passe doit compter au moins ${floor.passphraseMinWords} mots selon ${cnil}.`;
  if (policy.passphraseMinLength < policy.minLength)
    return `La longueur minimale d’une phrase de passe (${policy.passphraseMinLength}) ne peut pas être inférieure à celle d’un mot de passe (${policy.minLength}).`;
  return undefined;
}

/** The kinds of character a password lacks. */
export function missingKinds(password: string): CharacterKind[] {
  const missing: CharacterKind[] = [];
  if (!/\p{Lu}/u.test(password)) missing.push('upper');
  if (!/\p{Ll}/u.test(password)) missing.push('lower');
  if (!/\p{Nd}/u.test(password)) missing.push('digit');
  if (!/[^\p{L}\p{Nd}]/u.test(password)) missing.push('symbol');
  return missing;
}

/** The words of a passphrase: runs of two letters or digits or more, whatever separates them (spaces, hyphens…). */
export const wordCount = (password: string) => password.match(/[\p{L}\p{Nd}]{2,}/gu)?.length ?? 0;

/** Lower case, without accents or anything but letters and digits: "Le Goff" and "le-goff" are one name. */
export const comparable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{Nd}]/gu, '');

/** The parts of the owner's identity a password must not contain (3 characters or more once compared). */
export function personalParts(owner: PasswordOwner): string[] {
  const local = owner.email?.split('@')[0] ?? '';
  const candidates = [owner.firstName, owner.lastName, local, ...local.split(/[._+-]+/)];
  return [...new Set(candidates.map((part) => comparable(part ?? '')).filter((part) => part.length >= 3))];
}

/** The rules that need no dictionary: length, kinds of character, the owner's names. First issue first. */
export function structuralIssues(password: string, policy: PasswordPolicy, owner: PasswordOwner = {}): string[] {
  if (password.length > PASSWORD_MAX) return [PASSWORD_MESSAGES.tooLong];
  if (password.length < policy.minLength) return [PASSWORD_MESSAGES.tooShort(policy)];
  const missing = missingKinds(password);
  if (missing.length && password.length < policy.passphraseMinLength) return [PASSWORD_MESSAGES.missingKinds(missing, policy)];
  // A passphrase: without symbols, it mixes the other three kinds, or it has enough words.
  const lacking = missing.filter((kind) => kind !== 'symbol');
  if (lacking.length && wordCount(password) < policy.passphraseMinWords) return [PASSWORD_MESSAGES.passphrase(lacking, wordCount(password), policy)];
  const compared = comparable(password);
  if (personalParts(owner).some((part) => compared.includes(part))) return [PASSWORD_MESSAGES.personal];
  return [];
}
