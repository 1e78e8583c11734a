// The password policy in the browser: the check of domain/passwordPolicy.ts (with zxcvbn's dictionaries, a chunk of
// its own loaded only by the pages that set a password) and the figures of the system settings (GET /api/password-policy).
import { useQuery } from '@tanstack/react-query';
import { publicFetch } from '../dataProvider/http';
import { DEFAULT_PASSWORD_POLICY, type PasswordOwner, type PasswordPolicy } from '#domain/passwordRules';

type PolicyModule = typeof import('#domain/passwordPolicy');

let module: Promise<PolicyModule> | undefined;
const loadModule = () =>
  (module ??= import('#domain/passwordPolicy').catch((error: unknown) => {
    module = undefined; // tried again at the next use
    throw error;
  }));

export interface PasswordChecker {
  policy: PasswordPolicy;
  issues(password: string, owner?: PasswordOwner): string[];
}

/** The check with the installation's figures; `known`: figures already read (a link's page gets them with its data). */
export async function loadPasswordChecker(known?: PasswordPolicy): Promise<PasswordChecker> {
  const [checks, policy] = await Promise.all([loadModule(), known ?? publicFetch<PasswordPolicy>('/api/password-policy').catch(() => DEFAULT_PASSWORD_POLICY)]);
  return { policy, issues: (password, owner) => checks.passwordIssues(password, policy, owner) };
}

export function usePasswordChecker(known?: PasswordPolicy) {
  return useQuery({ queryKey: ['pecflow', 'password-policy', known ?? null], queryFn: () => loadPasswordChecker(known), staleTime: 60_000 }).data;
}
