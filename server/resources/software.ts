import { count, eq } from 'drizzle-orm';
import { credentialSoftware, software } from '../db/schema';
import { invalidField } from '../http/errors';
import { reference, text, timestamps } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { choicesOf, SOFTWARE_FORM_TYPES, SOFTWARE_TYPE_LABELS } from '#domain/schemas';
import { LONG_TEXT_MAX } from '#domain/validation';
import { entityStatus, optionalText } from './constraints';
import { settingsPermissions } from '#domain/resources';

export const softwareResource: ResourceDeclaration = {
  name: 'software',
  className: 'Software',
  label: { singular: 'Logiciel', plural: 'Logiciels' },
  auditName: 'software',
  table: software,
  idColumn: software.id,
  fields: {
    label: text(software.label, {
      required: true,
      iri: 'name',
      label: 'Libellé',
      constraints: { min: 2, message: 'Le libellé doit contenir au moins 2 caractères', messages: { max: 'Le libellé ne peut pas dépasser 255 caractères' } },
    }),
    description: text(software.description, { label: 'Description', constraints: optionalText(LONG_TEXT_MAX) }),
    type: text(software.type, {
      required: true,
      description: 'general, mutual, network, medical ou billing',
      label: 'Type',
      choices: choicesOf(SOFTWARE_TYPE_LABELS),
      constraints: { messages: { choice: 'Type de logiciel requis' } },
    }),
    vendor: text(software.vendor, {
      description: 'Éditeur',
      label: 'Éditeur',
      constraints: optionalText(255, 'Le fournisseur ne peut pas dépasser 255 caractères'),
    }),
    version: text(software.version, { label: 'Version', constraints: optionalText(100, 'La version ne peut pas dépasser 100 caractères') }),
    apiUrl: text(software.apiUrl, { iri: 'url', label: 'URL de l’API', constraints: { url: true, message: 'L’URL de l’API doit être valide' } }),
    documentationUrl: text(software.documentationUrl, {
      iri: 'url',
      label: 'URL de documentation',
      constraints: { url: true, message: 'L’URL de documentation doit être valide' },
    }),
    status: text(software.status, { label: 'Statut', ...entityStatus }),
    holding: reference('holdings', software.holdingId, {
      embed: ['name'],
      description: 'Organisation propriétaire (la vôtre par défaut)',
      label: 'Organisation',
      constraints: { message: 'Organisation requise' },
    }),
    ...timestamps(software),
  },
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
    searchPlaceholder: 'Rechercher (libellé, éditeur)…',
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
        throw invalidField('holding', `Impossible de changer l’organisation : ${n} identifiant${n > 1 ? 's sont rattachés' : ' est rattaché'} à ce logiciel.`);
    },
  },
};
