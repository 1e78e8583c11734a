// Who sees which PEC files (domain.md): a platform administrator sees all; a user with settings.shops.view sees every
// centre of their organisation; anyone else sees the files of the centres they are assigned to. Used by the list and
// item queries, the robot routes, the callbacks, the notifications and the live events.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { pecDossiers } from '../db/schema';
import { hasPermission } from '#domain/permissions';
import { PEC_PERMISSIONS } from '#domain/permissions';

/** The little a visibility decision needs (a Principal has it; so does a user row with its roles' permissions). */
export interface Viewer {
  permissions: readonly string[];
  holdingId: number | null;
  shopIds: readonly number[];
}

export const PEC_VIEW_PERMISSION = PEC_PERMISSIONS.view;
/** Seeing every centre of the organisation. */
export const ALL_SHOPS_PERMISSION = 'settings.shops.view';

export const isPlatformAdmin = (viewer: Pick<Viewer, 'permissions'>) => viewer.permissions.includes('admin.*');

export const seesWholeOrganisation = (viewer: Pick<Viewer, 'permissions'>) =>
  isPlatformAdmin(viewer) || hasPermission(viewer.permissions, ALL_SHOPS_PERMISSION);

/** SQL condition on pec_dossiers for the files the viewer may see; undefined means all. */
export function pecReadScope(viewer: Viewer): SQL | undefined {
  if (isPlatformAdmin(viewer)) return undefined;
  if (!viewer.holdingId) return sql`false`;
  const holding = eq(pecDossiers.holdingId, viewer.holdingId);
  if (seesWholeOrganisation(viewer)) return holding;
  if (viewer.shopIds.length === 0) return sql`false`;
  return and(holding, inArray(pecDossiers.shopId, [...viewer.shopIds]));
}

/** The same rule in JavaScript, for one file. */
export function canSeeFile(viewer: Viewer, file: { holdingId: number; shopId: number }): boolean {
  if (isPlatformAdmin(viewer)) return true;
  if (!viewer.holdingId || viewer.holdingId !== file.holdingId) return false;
  return seesWholeOrganisation(viewer) || viewer.shopIds.includes(file.shopId);
}

/** A centre the viewer may create files for (the same perimeter as the files they see). */
export const canUseShop = (viewer: Viewer, shop: { id: number; holdingId: number }) => canSeeFile(viewer, { holdingId: shop.holdingId, shopId: shop.id });

/** Seeing the file and holding the permission to read PEC files: who is notified and who receives its events. */
export const mayReadFile = (viewer: Viewer, file: { holdingId: number; shopId: number }) =>
  hasPermission(viewer.permissions, PEC_VIEW_PERMISSION) && canSeeFile(viewer, file);
