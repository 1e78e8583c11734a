// The password policy's one function (domain/passwordPolicy.ts), as the browser runs it live and the server on writes.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY, passwordIssues, PASSWORD_MESSAGES, personalParts } from '#domain/passwordPolicy';

const owner = { email: 'jean-francois.le-goff@exemple.fr', firstName: 'Jean-François', lastName: 'Le Goff' };
const issues = (password: string) => passwordIssues(password, DEFAULT_PASSWORD_POLICY, owner);

describe('the password policy', () => {
  it('asks 12 characters of every kind, or a passphrase of 14', () => {
    expect(issues('')).toEqual([PASSWORD_MESSAGES.required]);
    expect(issues('Abc-12')).toEqual([PASSWORD_MESSAGES.tooShort(DEFAULT_PASSWORD_POLICY)]);
    expect(issues('abcdefgh-123')).toEqual([PASSWORD_MESSAGES.missingKinds(['upper'], DEFAULT_PASSWORD_POLICY)]);
    expect(issues('ABCDEFGHIJKL')).toEqual([
      'Le mot de passe doit contenir une minuscule, un chiffre et un caractère spécial (ou au moins 14 caractères pour une phrase de passe)',
    ]);
    expect(issues('Xk7#pLm2!qRz')).toEqual([]);
    // 14 characters and more: no kind of character required.
    expect(issues('le soleil brille sur la mer')).toEqual([]);
  });

  it("refuses common and guessable passwords with zxcvbn's French advice", () => {
    expect(issues('P@ssw0rd2024!')[0]).toMatch(/^Ce mot de passe est trop courant ou trop facile à deviner : /);
    expect(issues('azertyuiopqsdfgh')[0]).toContain('clavier');
    expect(issues('aaaaaaaaaaaaaaaa')[0]).toMatch(/^Ce mot de passe est trop courant ou trop facile à deviner/);
    expect(issues('Pecflow2026!')).toEqual([]);
  });

  it("refuses the owner's names and email whatever their case, accents or separators", () => {
    expect(personalParts(owner)).toEqual(expect.arrayContaining(['jeanfrancois', 'legoff', 'jean', 'francois']));
    for (const password of ['LEGOFF-Soleil-2026', 'Jean.Francois#2026x', 'Soleil-le_goff-26!']) expect(issues(password)).toEqual([PASSWORD_MESSAGES.personal]);
  });

  it('follows the figures it is given (the system settings)', () => {
    expect(passwordIssues('Xk7#pLm2!qRz', { ...DEFAULT_PASSWORD_POLICY, minLength: 13 })[0]).toContain('au moins 13 caractères');
  });
});
