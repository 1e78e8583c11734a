// The password policy's figures, settings and messages (CNIL, délibération n° 2022-100): at least 12 characters with
// upper case, lower case, digits and symbols, or a passphrase of at least 14 characters; neither common nor easy to
// guess (zxcvbn's estimate), and without the user's names or email. Light: the check itself, with zxcvbn's
// dictionaries, is domain/passwordPolicy.ts, which the browser loads only on the pages that set a password.

/** The figures, system settings of the Sécurité category (Paramètres > Système). */
export interface PasswordPolicy {
  /** With every kind of character (upper case, lower case, digit, symbol). */
  minLength: number;
  /** A passphrase: any characters, no kind required. */
  passphraseMinLength: number;
  /** zxcvbn's score (0 to 4) a password must reach: below it, common, leaked or easy to guess. */
  minScore: number;
}

export const PASSWORD_POLICY_KEYS = {
  minLength: 'security.password_min_length',
  passphraseMinLength: 'security.passphrase_min_length',
  minScore: 'security.password_min_score',
} as const satisfies Record<keyof PasswordPolicy, string>;

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 12, passphraseMinLength: 14, minScore: 4 };

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
  personal: 'Le mot de passe ne doit contenir ni le nom, ni le prénom, ni l’email de l’utilisateur',
  guessable: (hint?: string | null) => `Ce mot de passe est trop courant ou trop facile à deviner${hint ? ` : ${hint.replace(/\.$/, '').toLowerCase()}` : ''}`,
  /** What the policy asks, shown under an empty field. */
  requirements: (policy: PasswordPolicy) =>
    `Au moins ${policy.minLength} caractères avec majuscules, minuscules, chiffres et caractères spéciaux, ou une phrase de passe d’au moins ${policy.passphraseMinLength} caractères.`,
  mismatch: 'Les deux mots de passe ne sont pas identiques',
} as const;

/** The kinds of character a password lacks. */
export function missingKinds(password: string): CharacterKind[] {
  const missing: CharacterKind[] = [];
  if (!/\p{Lu}/u.test(password)) missing.push('upper');
  if (!/\p{Ll}/u.test(password)) missing.push('lower');
  if (!/\p{Nd}/u.test(password)) missing.push('digit');
  if (!/[^\p{L}\p{Nd}]/u.test(password)) missing.push('symbol');
  return missing;
}

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
  if (password.length < policy.passphraseMinLength) {
    const missing = missingKinds(password);
    if (missing.length) return [PASSWORD_MESSAGES.missingKinds(missing, policy)];
  }
  const compared = comparable(password);
  if (personalParts(owner).some((part) => compared.includes(part))) return [PASSWORD_MESSAGES.personal];
  return [];
}
