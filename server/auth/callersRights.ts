// What a user manager may change: only accounts holding no right the manager lacks (the users resource, the account routes).
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
