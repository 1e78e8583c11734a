// The signed-in user as every route sees it: who they are, their organisation, centres and effective permissions.
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/connect';
import { roles, shops, userRoles, userShops, users } from '../db/schema';
import { forbidden } from '../http/errors';
import { hasPermission } from '#domain/permissions';

export interface Principal {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  holdingId: number | null;
  status: string;
  /** Union of the user's roles' keys, wildcards included. */
  permissions: string[];
  shopIds: number[];
  roles: { id: number; name: string; permissions: string[] }[];
  /** Access tokens issued before this are refused (the password changed since). */
  tokensValidAfter: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface PrincipalRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  holding_id: number | null;
  status: string;
  tokens_valid_after: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  roles: { id: number; name: string; permissions: string[] }[] | null;
  shop_ids: number[] | null;
}

/**
 * The tables a principal is read from (loadPrincipal), and those whose deleted rows take rows of these with them (ON
 * DELETE CASCADE): only a write to one of them can change who may do what.
 */
export const PRINCIPAL_TABLES: readonly PgTable[] = [users, roles, userRoles, userShops, shops];

/** One query: the user, their roles with permissions, their centres. */
export async function loadPrincipal(database: Database, userId: number): Promise<Principal | undefined> {
  const [row] = await database.query<PrincipalRow>(
    `select u.id, u.email, u.first_name, u.last_name, u.holding_id, u.status, u.tokens_valid_after, u.created_at, u.updated_at,
       (select json_agg(json_build_object('id', r.id, 'name', r.name, 'permissions', r.permissions) order by r.id)
          from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id) as roles,
       (select array_agg(us.shop_id order by us.shop_id) from user_shops us where us.user_id = u.id) as shop_ids
     from users u where u.id = $1`,
    [userId],
  );
  if (!row) return undefined;
  const roles = row.roles ?? [];
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    holdingId: row.holding_id,
    status: row.status,
    permissions: [...new Set(roles.flatMap((r) => r.permissions))].sort(),
    shopIds: row.shop_ids ?? [],
    roles,
    tokensValidAfter: row.tokens_valid_after ? new Date(row.tokens_valid_after) : null,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * Principals loaded in the last few seconds, so that a burst of requests costs one query per user, not one each.
 * Every write through the API clears it on this instance (roles, centres, status take effect at once); another
 * instance sees a change made elsewhere within `ttlMs`.
 */
export class PrincipalCache {
  private readonly entries = new Map<number, { principal: Promise<Principal | undefined>; at: number }>();

  constructor(
    private readonly database: Database,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(userId: number): Promise<Principal | undefined> {
    const hit = this.entries.get(userId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.principal;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const principal = loadPrincipal(this.database, userId);
    this.entries.set(userId, { principal, at: Date.now() });
    principal.catch(() => this.entries.delete(userId));
    return principal;
  }

  clear(): void {
    this.entries.clear();
  }
}

export function can(principal: Principal, permission: string): boolean {
  return hasPermission(principal.permissions, permission);
}

/** Throws 403 unless the user holds the permission. */
export function requirePermission(principal: Principal, permission: string): void {
  if (!can(principal, permission)) throw forbidden();
}

/** A platform administrator (admin.*) has no organisation boundary. */
export function isPlatformAdmin(principal: Principal): boolean {
  return principal.permissions.includes('admin.*');
}
