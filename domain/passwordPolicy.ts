// The password policy's check, the one the server applies and the browser shows live under the field: the rules of
// domain/passwordRules.ts, then zxcvbn's estimate with its common-password and French dictionaries (no network).
// Heavy (the dictionaries are about 1 MB): the browser imports it lazily, on the pages that set a password only.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as frenchDictionary, translations } from '@zxcvbn-ts/language-fr';
import { PASSWORD_MAX, PASSWORD_MESSAGES, structuralIssues, type PasswordOwner, type PasswordPolicy } from './passwordRules';

export * from './passwordRules';

let estimator: ZxcvbnFactory | undefined;

/** zxcvbn, built once (reading the dictionaries takes a moment). */
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...frenchDictionary },
    translations,
    maxLength: PASSWORD_MAX,
  });
  return estimator;
}

/** Why the password is refused, most basic reason first; [] when the policy accepts it. */
export function passwordIssues(password: string, policy: PasswordPolicy, owner: PasswordOwner = {}): string[] {
  if (!password) return [PASSWORD_MESSAGES.required];
  const issues = structuralIssues(password, policy, owner);
  if (issues.length) return issues;
  const inputs = [owner.firstName, owner.lastName, owner.email, owner.email?.split('@')[0]].filter((v): v is string => !!v);
  const result = zxcvbn().check(password, inputs);
  return result.score < policy.minScore ? [PASSWORD_MESSAGES.guessable(result.feedback.warning)] : [];
}
