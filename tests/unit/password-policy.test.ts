// The password policy's one function (domain/passwordPolicy.ts), as the browser runs it live and the server on writes.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY, passwordIssues, PASSWORD_MESSAGES, personalParts, policyContradiction } from '#domain/passwordPolicy';

const owner = { email: 'jean-francois.le-goff@exemple.fr', firstName: 'Jean-François', lastName: 'Le Goff' };
const issues = (password: string) => passwordIssues(password, DEFAULT_PASSWORD_POLICY, owner);

describe('the password policy', () => {
  it('asks 12 characters of every kind, or a passphrase of 14 mixing upper case, lower case and digits, or of 7 words', () => {
    expect(issues('')).toEqual([PASSWORD_MESSAGES.required]);
    expect(issues('Abc-12')).toEqual([PASSWORD_MESSAGES.tooShort(DEFAULT_PASSWORD_POLICY)]);
    expect(issues('abcdefgh-123')).toEqual([PASSWORD_MESSAGES.missingKinds(['upper'], DEFAULT_PASSWORD_POLICY)]);
    expect(issues('ABCDEFGHIJKL')).toEqual([
      'Le mot de passe doit contenir une minuscule, un chiffre et un caractère spécial (ou au moins 14 caractères pour une phrase de passe)',
    ]);
    expect(issues('Xk7#pLm2!qRz')).toEqual([]);
    // 14 characters and more: no symbol required with upper case, lower case and digits.
    expect(issues('Le soleil brille en 2026')).toEqual([]);
    // Or any characters in 7 words (of two letters or more); the hint says what is missing and counts the words.
    expect(issues('le soleil brille sur la mer ce matin')).toEqual([]);
    expect(issues('le soleil brille sur la mer')).toEqual([
      'Une phrase de passe doit contenir une majuscule et un chiffre, ou compter au moins 7 mots (elle en compte 6)',
    ]);
    expect(issues('Le soleil brille sur la mer')).toEqual([PASSWORD_MESSAGES.passphrase(['digit'], 6, DEFAULT_PASSWORD_POLICY)]);
    expect(issues('a b c d e f g h i j')[0]).toContain('(elle en compte 0)');
    expect(passwordIssues('le soleil brille sur la mer', { ...DEFAULT_PASSWORD_POLICY, passphraseMinWords: 6 })).toEqual([]);
  });

  it("refuses common and guessable passwords with zxcvbn's French advice", () => {
    expect(issues('P@ssw0rd2024!')[0]).toMatch(/^Ce mot de passe est trop courant ou trop facile à deviner : /);
    expect(issues('Qsdfghjklm1234')[0]).toContain('clavier');
    expect(issues('Aaaaaaaaaaaaaaa11')[0]).toMatch(/^Ce mot de passe est trop courant ou trop facile à deviner/);
    expect(issues('Pecflow2026!')).toEqual([]);
  });

  it("refuses the owner's names and email whatever their case, accents or separators", () => {
    expect(personalParts(owner)).toEqual(expect.arrayContaining(['jeanfrancois', 'legoff', 'jean', 'francois']));
    for (const password of ['LEGOFF-Soleil-2026', 'Jean.Francois#2026x', 'Soleil-le_goff-26!']) expect(issues(password)).toEqual([PASSWORD_MESSAGES.personal]);
  });

  it('follows the figures it is given (the system settings)', () => {
    expect(passwordIssues('Xk7#pLm2!qRz', { ...DEFAULT_PASSWORD_POLICY, minLength: 13 })[0]).toContain('au moins 13 caractères');
  });

  it('refuses figures below the CNIL floor or a passphrase shorter than a password', () => {
    expect(policyContradiction(DEFAULT_PASSWORD_POLICY)).toBeUndefined();
    expect(policyContradiction({ ...DEFAULT_PASSWORD_POLICY, minLength: 10 })).toBe(
      'Un mot de passe doit compter au moins 12 caractères selon la recommandation de la CNIL (délibération 2022-100).',
    );
    expect(policyContradiction({ ...DEFAULT_PASSWORD_POLICY, passphraseMinWords: 5 })).toContain('au moins 7 mots');
    expect(policyContradiction({ ...DEFAULT_PASSWORD_POLICY, minLength: 16 })).toBe(
      'La longueur minimale d’une phrase de passe (14) ne peut pas être inférieure à celle d’un mot de passe (16).',
    );
  });
});
