import { mutuals, pecDossiers } from '../db/schema';
import { reference, text, timestamp } from '../hydra/fields';
import { platformWide } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { mutualSchema } from '../../src/domain/schemas';
import { RESOURCE_PERMISSIONS } from '../../src/domain/resources';
import { stillAttached } from './messages';

export const mutualsResource: ResourceDeclaration = {
  name: 'mutuals',
  className: 'Mutual',
  title: 'Mutuelle',
  auditName: 'mutual',
  table: mutuals,
  idColumn: mutuals.id,
  fields: {
    name: text(mutuals.name, { required: true, iri: 'name' }),
    code: text(mutuals.code),
    network: reference('networks', mutuals.networkId, { embed: ['name', 'code'] }),
    status: text(mutuals.status),
    createdAt: timestamp(mutuals.createdAt),
    updatedAt: timestamp(mutuals.updatedAt),
  },
  schema: { create: mutualSchema, update: mutualSchema },
  permissions: RESOURCE_PERMISSIONS.mutuals,
  // Platform reference data: every signed-in user reads it (the PEC form chooses a mutual); writing needs settings.mutuelles.*.
  readAccess: 'everyone',
  tenancy: platformWide,
  search: [mutuals.name, mutuals.code],
  // network.id is the spec's filter (GET /api/mutuals?network.id=3&pagination=false).
  filters: { status: mutuals.status, network: mutuals.networkId, 'network.id': mutuals.networkId, code: mutuals.code },
  rangeFilters: { createdAt: mutuals.createdAt },
  order: { name: mutuals.name, code: mutuals.code, status: mutuals.status, createdAt: mutuals.createdAt, id: mutuals.id },
  defaultOrder: ['name', 'asc'],
  deletion: {
    mode: 'hard',
    refuseWhileReferenced: [{ table: pecDossiers, column: pecDossiers.mutualId, message: stillAttached({ one: 'demande de PEC', many: 'demandes de PEC', feminine: true }, 'à cette mutuelle') }],
  },
  versioned: true,
};
