import { count, eq } from 'drizzle-orm';
import { credentialSoftware, software } from '../db/schema';
import { invalidField } from '../http/errors';
import { reference, text, timestamps } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { choicesOf, ENTITY_STATUS_CHOICES, SOFTWARE_FORM_TYPES, SOFTWARE_TYPE_LABELS, softwareSchema } from '#domain/schemas';
import { settingsPermissions } from '#domain/resources';

export const softwareResource: ResourceDeclaration = {
  name: 'software',
  className: 'Software',
  label: { singular: 'Logiciel', plural: 'Logiciels' },
  auditName: 'software',
  table: software,
  idColumn: software.id,
  fields: {
    label: text(software.label, { required: true, iri: 'name', label: 'Libellé' }),
    description: text(software.description, { label: 'Description' }),
    type: text(software.type, {
      required: true,
      description: 'general, mutual, network, medical ou billing',
      label: 'Type',
      choices: choicesOf(SOFTWARE_TYPE_LABELS),
    }),
    vendor: text(software.vendor, { description: 'Éditeur', label: 'Éditeur' }),
    version: text(software.version, { label: 'Version' }),
    apiUrl: text(software.apiUrl, { iri: 'url', label: "URL de l'API" }),
    documentationUrl: text(software.documentationUrl, { iri: 'url', label: 'URL de documentation' }),
    status: text(software.status, { label: 'Statut', choices: ENTITY_STATUS_CHOICES }),
    holding: reference('holdings', software.holdingId, {
      embed: ['name'],
      description: 'Organisation propriétaire (la vôtre par défaut)',
      label: 'Organisation',
    }),
    ...timestamps(software),
  },
  schema: { create: softwareSchema, update: softwareSchema },
  // Software and credentials say edit where the others say update (spec section 6).
  permissions: settingsPermissions('settings.software', { update: 'edit' }),
  permissionModule: 'system',
  settingsTab: { position: 8 },
  list: {
    columns: ['label', 'type', 'vendor', 'version', 'status'],
    filters: [
      { field: 'type', kind: 'choice' },
      { field: 'status', kind: 'choice' },
    ],
    searchPlaceholder: 'Rechercher un logiciel (libellé, éditeur)...',
    empty: 'Aucun logiciel configuré',
    scopeToHolding: true,
  },
  form: {
    fields: ['label', 'type', 'vendor', 'version', 'status', 'holding', 'apiUrl', 'documentationUrl', 'description'],
    fullWidth: ['apiUrl', 'documentationUrl', 'description'],
    multiline: ['description'],
    defaults: { status: 'Active', type: 'general' },
    // medical and billing come from the API only.
    offer: { type: [...SOFTWARE_FORM_TYPES] },
  },
  tenancy: holdingOwned(software.holdingId),
  search: [software.label, software.vendor, software.description],
  filters: { status: software.status, type: software.type, holding: software.holdingId },
  rangeFilters: { createdAt: software.createdAt },
  order: { label: software.label, type: software.type, vendor: software.vendor, status: software.status, createdAt: software.createdAt, id: software.id },
  defaultOrder: ['label', 'asc'],
  deletion: { mode: 'soft', column: software.deletedAt },
  versioned: true,
  hooks: {
    // Its credentials are used by the centres of its organisation: a software with credentials keeps its organisation.
    async beforeWrite({ tx }, _input, values, existing) {
      if (!existing || values.holdingId === undefined || values.holdingId === existing.holdingId) return;
      const [row] = await tx
        .select({ n: count() })
        .from(credentialSoftware)
        .where(eq(credentialSoftware.softwareId, existing.id as number));
      const n = Number(row?.n ?? 0);
      if (n > 0)
        throw invalidField('holding', `Impossible de changer l'organisation : ${n} identifiant${n > 1 ? 's sont rattachés' : ' est rattaché'} à ce logiciel.`);
    },
  },
};
