// The password policy as the server applies it: the figures of the system settings, the check of domain/passwordPolicy.ts.
import type { DbOrTx } from '../db/connect';
import { invalidField } from '../http/errors';
import type { SettingsService } from '../settings';
import { DEFAULT_PASSWORD_POLICY, PASSWORD_POLICY_KEYS, passwordIssues, type PasswordOwner, type PasswordPolicy } from '#domain/passwordPolicy';
import { policyContradiction } from '#domain/passwordRules';

/** `db`: inside a transaction, pass it. */
export async function readPasswordPolicy(settings: SettingsService, db?: DbOrTx): Promise<PasswordPolicy> {
  const policy = { ...DEFAULT_PASSWORD_POLICY };
  for (const key of Object.keys(PASSWORD_POLICY_KEYS) as (keyof PasswordPolicy)[]) {
    policy[key] = await settings.number(PASSWORD_POLICY_KEYS[key], DEFAULT_PASSWORD_POLICY[key], db);
  }
  return policy;
}

/** A 422 on `field` with the first reason the policy refuses the password. */
export async function assertPasswordAllowed(
  settings: SettingsService,
  password: string,
  owner: PasswordOwner,
  { field = 'password', db }: { field?: string; db?: DbOrTx } = {},
): Promise<void> {
  const [issue] = passwordIssues(password, await readPasswordPolicy(settings, db), owner);
  if (issue) throw invalidField(field, issue);
}

/**
 * Why setting `key` to `value` would leave a policy that contradicts the CNIL's floor or itself (a passphrase shorter
 * than a password), or undefined (also for any other setting, and for a value the setting's own rule refuses).
 */
export async function policySettingError(settings: SettingsService, key: string, value: unknown, db?: DbOrTx): Promise<string | undefined> {
  const field = (Object.keys(PASSWORD_POLICY_KEYS) as (keyof PasswordPolicy)[]).find((name) => PASSWORD_POLICY_KEYS[name] === key);
  if (!field || typeof value !== 'number' || !Number.isInteger(value)) return undefined;
  return policyContradiction({ ...(await readPasswordPolicy(settings, db)), [field]: value });
}
