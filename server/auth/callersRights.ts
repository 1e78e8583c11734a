// What a user manager may change: only accounts holding no right the manager lacks (the users resource, the account
// routes), and only roles granting none (the roles resource).
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { roles, userRoles } from '../db/schema';
import { forbidden } from '../http/errors';
import type { Principal } from './principal';
import { permissionsBeyond } from '#domain/permissions';

/**
 * Changing or deleting an account needs every right that account holds: otherwise whoever manages users could take
 * over (new email or password) an account with more rights than theirs, an administrator's for example.
 * Returns the ids of the roles the account holds.
 */
export async function assertWithinCallersRights(tx: DbOrTx, principal: Principal, userId: number): Promise<number[]> {
  const held = await tx
    .select({ id: roles.id, permissions: roles.permissions })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId));
  if (
    permissionsBeyond(
      principal.permissions,
      held.flatMap((r) => r.permissions),
    ).length
  ) {
    throw forbidden('Accès refusé : cet utilisateur a des droits que vous n’avez pas.');
  }
  return held.map((r) => r.id);
}

/**
 * Changing or deleting a role needs every right it grants: otherwise whoever manages users could strip the rights of
 * the people holding it (an administrator's role, for example) or rename it into something else, rights they could not
 * give back.
 */
export function assertRoleWithinCallersRights(principal: Principal, role: { permissions?: unknown }) {
  const granted = Array.isArray(role.permissions) ? (role.permissions as string[]) : [];
  if (permissionsBeyond(principal.permissions, granted).length) throw forbidden('Accès refusé : ce rôle donne des droits que vous n’avez pas.');
}
