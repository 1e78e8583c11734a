import { auditLogs } from '../db/schema';
import { column, integer, text, timestamp } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { RESOURCE_PERMISSIONS } from '../../src/domain/resources';
import { z } from 'zod';

const readOnly = z.object({});

export const auditLogsResource: ResourceDeclaration = {
  name: 'audit_logs',
  className: 'AuditLog',
  title: "Entrée du journal d'audit",
  auditName: 'audit',
  table: auditLogs,
  idColumn: auditLogs.id,
  fields: {
    action: text(auditLogs.action, { writable: false, iri: 'name', description: 'entité.action, par exemple holding.create' }),
    entity: text(auditLogs.entity, { writable: false }),
    entityId: text(auditLogs.entityId, { writable: false }),
    actorId: integer(auditLogs.actorId, { writable: false }),
    actorEmail: text(auditLogs.actorEmail, { writable: false, iri: 'email' }),
    changes: column('object', auditLogs.changes, { writable: false, description: 'Champs modifiés : {champ: {before, after}}' }),
    createdAt: timestamp(auditLogs.createdAt),
  },
  schema: { create: readOnly, update: readOnly },
  permissions: RESOURCE_PERMISSIONS.audit_logs,
  // Organisations read their own trail; platform-level entries are for platform administrators.
  tenancy: holdingOwned(auditLogs.holdingId),
  readOnly: true,
  search: [auditLogs.actorEmail, auditLogs.action, auditLogs.entity],
  filters: { action: auditLogs.action, entity: auditLogs.entity, entityId: auditLogs.entityId, actor: auditLogs.actorId, actorEmail: auditLogs.actorEmail },
  rangeFilters: { createdAt: auditLogs.createdAt },
  order: { createdAt: auditLogs.createdAt, action: auditLogs.action, id: auditLogs.id },
  defaultOrder: ['createdAt', 'desc'],
  deletion: { mode: 'none' },
};
