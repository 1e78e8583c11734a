import { count, eq } from 'drizzle-orm';
import { credentialSoftware, software } from '../db/schema';
import { invalidField } from '../http/errors';
import { reference, text, timestamp } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { softwareSchema } from '../../src/domain/schemas';
import { RESOURCE_PERMISSIONS } from '../../src/domain/resources';

export const softwareResource: ResourceDeclaration = {
  name: 'software',
  className: 'Software',
  title: 'Logiciel',
  auditName: 'software',
  table: software,
  idColumn: software.id,
  fields: {
    label: text(software.label, { required: true, iri: 'name' }),
    description: text(software.description),
    type: text(software.type, { required: true, description: 'general, mutual, network, medical ou billing' }),
    vendor: text(software.vendor, { description: 'Éditeur' }),
    version: text(software.version),
    apiUrl: text(software.apiUrl, { iri: 'url' }),
    documentationUrl: text(software.documentationUrl, { iri: 'url' }),
    status: text(software.status),
    holding: reference('holdings', software.holdingId, { embed: ['name'], description: "Organisation propriétaire (la vôtre par défaut)" }),
    createdAt: timestamp(software.createdAt),
    updatedAt: timestamp(software.updatedAt),
  },
  schema: { create: softwareSchema, update: softwareSchema },
  permissions: RESOURCE_PERMISSIONS.software,
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
      const [row] = await tx.select({ n: count() }).from(credentialSoftware).where(eq(credentialSoftware.softwareId, existing.id as number));
      const n = Number(row?.n ?? 0);
      if (n > 0) throw invalidField('holding', `Impossible de changer l'organisation : ${n} identifiant${n > 1 ? 's sont rattachés' : ' est rattaché'} à ce logiciel.`);
    },
  },
};
