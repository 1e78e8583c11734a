// Saved views of the PEC list (issue 28): a user names the list's filters, sort and columns ("Santéclair à relancer").
// A view is its author's; shared, every user of the organisation who sees the PEC list reads it, only its author
// changes or deletes it (403 for the others); another organisation never sees it (404).
import { and, count, eq, ne, or, sql } from 'drizzle-orm';
import { pecViews } from '../db/schema';
import { can } from '../auth/principal';
import { invalidField } from '../http/errors';
import { defineResource } from '../hydra/define';
import { bool, column, computed, text, timestamps } from '../hydra/fields';
import type { Tenancy } from '../hydra/types';
import { PEC_PERMISSIONS } from '#domain/permissions';
import { SAVED_VIEW_MESSAGES, SAVED_VIEW_NAME_MAX, SAVED_VIEWS_PER_USER } from '#domain/savedViews';
import { savedViewSchema } from '#domain/savedViewSchema';

const outer = (name: string) => sql`${sql.identifier('pec_views')}.${sql.identifier(name)}`;

// The author's own views and the shared views of the author's organisation; written by the author alone.
const viewTenancy: Tenancy = {
  holdingColumn: pecViews.holdingId,
  readScope: (principal) =>
    or(eq(pecViews.userId, principal.id), principal.holdingId ? and(eq(pecViews.shared, true), eq(pecViews.holdingId, principal.holdingId)) : sql`false`),
  writeScope: (principal) => eq(pecViews.userId, principal.id),
  async assignHolding(principal, _input, _tx, existing) {
    if (existing) return undefined;
    if (!principal.holdingId) throw invalidField('name', 'Organisation requise : seuls les utilisateurs d’une organisation enregistrent des vues.');
    return principal.holdingId;
  },
};

export const pecViewsResource = defineResource({
  name: 'pec_views',
  className: 'PecView',
  label: { singular: 'Vue enregistrée', plural: 'Vues enregistrées', feminine: true },
  table: pecViews,
  fields: {
    name: text(pecViews.name, {
      required: true,
      iri: 'name',
      label: 'Nom',
      constraints: { min: 1, max: SAVED_VIEW_NAME_MAX, message: SAVED_VIEW_MESSAGES.nameTooLong },
    }),
    query: column('object', pecViews.query, { required: true, label: 'Filtres et tri', description: 'Paramètres de la liste des PEC : {filter, sort, order}' }),
    columns: column('array', pecViews.columns, { label: 'Colonnes', description: 'Colonnes visibles de la liste, dans leur ordre' }),
    shared: bool(pecViews.shared, { label: 'Partagée avec l’organisation', default: false }),
    authorName: computed('string', sql`(select concat_ws(' ', u.first_name, u.last_name) from users u where u.id = ${outer('user_id')})`, {
      label: 'Auteur',
    }),
    // Whether the reader wrote it (and so may rename, share or delete it).
    mine: computed('boolean', (principal) => sql`(${outer('user_id')} = ${principal.id})`, { label: 'À moi' }),
    ...timestamps(pecViews, true),
  },
  schema: { create: savedViewSchema, update: savedViewSchema },
  // Whoever sees the PEC list keeps views of it.
  permissions: { view: PEC_PERMISSIONS.view, create: PEC_PERMISSIONS.view, update: PEC_PERMISSIONS.view, delete: PEC_PERMISSIONS.view },
  tenancy: viewTenancy,
  filters: { shared: pecViews.shared },
  order: { name: pecViews.name, createdAt: pecViews.createdAt, id: pecViews.id },
  frenchOrder: ['name'],
  hooks: {
    async beforeWrite({ tx, principal }, input, values, existing) {
      if (!existing) {
        values.userId = principal.id;
        const [own] = await tx.select({ n: count() }).from(pecViews).where(eq(pecViews.userId, principal.id));
        if ((own?.n ?? 0) >= SAVED_VIEWS_PER_USER) throw invalidField('name', SAVED_VIEW_MESSAGES.tooMany);
      }
      // Read-only staff keep their views to themselves: a shared view shows in every colleague's bar.
      if (values.shared === true && !existing?.shared && !can(principal, PEC_PERMISSIONS.update))
        throw invalidField('shared', SAVED_VIEW_MESSAGES.shareNotAllowed);
      if (typeof input.name === 'string') {
        // One name per author whatever its letter case ("Mes dossiers" and "mes dossiers" read as one view in the bar).
        const name = typeof values.name === 'string' ? values.name : input.name;
        const sameName = and(
          eq(pecViews.userId, principal.id),
          sql`lower(${pecViews.name}) = lower(${name})`,
          existing ? ne(pecViews.id, existing.id as number) : undefined,
        );
        const [taken] = await tx.select({ id: pecViews.id }).from(pecViews).where(sameName);
        if (taken) throw invalidField('name', SAVED_VIEW_MESSAGES.nameTaken);
      }
    },
  },
});
