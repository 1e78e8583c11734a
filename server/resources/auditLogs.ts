import { auditLogs } from '../db/schema';
import { column, integer, text, timestamp } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { AUDIT_PERMISSIONS } from '#domain/permissions';
import { z } from 'zod';

const readOnly = z.object({});

export const auditLogsResource: ResourceDeclaration = {
  name: 'audit_logs',
  className: 'AuditLog',
  label: { singular: 'Entrée du journal d’audit', plural: 'Entrées du journal d’audit', feminine: true },
  auditName: 'audit',
  table: auditLogs,
  idColumn: auditLogs.id,
  // Written by every action of every user: its lists are read from the database each time (no list trigger).
  keptLists: false,
  fields: {
    action: text(auditLogs.action, { writable: false, iri: 'name', description: 'entité.action, par exemple holding.create', label: 'Action' }),
    entity: text(auditLogs.entity, { writable: false, label: 'Élément' }),
    entityId: text(auditLogs.entityId, { writable: false, label: 'N°' }),
    entityLabel: text(auditLogs.entityLabel, {
      writable: false,
      label: 'Nom de l’élément',
      description: 'Le numéro lisible de l’élément (une demande de PEC : son n° de dossier)',
    }),
    actorId: integer(auditLogs.actorId, { writable: false, label: 'N° utilisateur' }),
    actorEmail: text(auditLogs.actorEmail, { writable: false, iri: 'email', label: 'Utilisateur' }),
    changes: column('object', auditLogs.changes, { writable: false, description: 'Champs modifiés : {champ: {before, after}}', label: 'Champs modifiés' }),
    createdAt: timestamp(auditLogs.createdAt, 'Date'),
  },
  schema: { create: readOnly, update: readOnly },
  permissions: AUDIT_PERMISSIONS,
  settingsTab: { position: 11, label: 'Journal d’audit', aliases: ['audit'] },
  list: {
    columns: ['createdAt', 'actorEmail', 'action', 'entity', 'changes'],
    // The action filter is a picker of its own (src/resources/audit_logs/); the elements are the API's classes.
    filters: [
      { field: 'actor', kind: 'reference' },
      { field: 'entity', kind: 'choice' },
      { field: 'createdAt', kind: 'dateRange' },
    ],
    searchPlaceholder: 'Rechercher (email, action, élément)…',
    empty: 'Aucune entrée dans le journal',
  },
  form: { openIn: 'view' },
  // Organisations read their own trail; platform-level entries are for platform administrators.
  tenancy: holdingOwned(auditLogs.holdingId),
  readOnly: true,
  search: [auditLogs.actorEmail, auditLogs.action, auditLogs.entity, auditLogs.entityLabel],
  filters: { action: auditLogs.action, entity: auditLogs.entity, entityId: auditLogs.entityId, actor: auditLogs.actorId, actorEmail: auditLogs.actorEmail },
  rangeFilters: { createdAt: auditLogs.createdAt },
  order: { createdAt: auditLogs.createdAt, action: auditLogs.action, id: auditLogs.id },
  defaultOrder: ['createdAt', 'desc'],
  idsFollowDefaultOrder: true,
  deletion: { mode: 'none' },
};
