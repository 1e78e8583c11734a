// Journal d'audit: who did what and when, with the changed fields; filtered by user, action, element and date.
import { formatDateTime } from '../../domain/format';
import type { ResourceConfig } from '../types';
import { ActionFilter, ActionLabel, ActorLabel, ChangedFields, ChangesTable, EntityLabel, ENTITY_CHOICES } from './parts';

export const auditLogs: ResourceConfig = {
  name: 'audit_logs',
  section: 'audit',
  feminine: true,
  columns: [
    { source: 'createdAt', render: (record) => formatDateTime(record.createdAt as string) },
    { source: 'actorEmail', sortBy: false, render: (record) => <ActorLabel email={record.actorEmail} /> },
    { source: 'action', render: (record) => <ActionLabel action={record.action} /> },
    { source: 'entity', sortBy: false, render: (record) => <EntityLabel entity={record.entity} id={record.entityId} /> },
    { source: 'changes', sortBy: false, render: (record) => <ChangedFields changes={record.changes} entity={record.entity} /> },
  ],
  listExclude: ['entityId', 'actorId'],
  filters: [
    { kind: 'reference', source: 'actor', reference: 'users', optionText: 'fullName' },
    { kind: 'custom', source: 'action', component: ActionFilter },
    { kind: 'choice', source: 'entity', choices: ENTITY_CHOICES },
    { kind: 'dateRange', source: 'createdAt' },
  ],
  searchable: ['actorEmail', 'action', 'entity'],
  show: {
    createdAt: ({ record }) => <>{formatDateTime(record.createdAt as string)}</>,
    action: ({ record }) => <ActionLabel action={record.action} />,
    actorEmail: ({ record }) => <ActorLabel email={record.actorEmail} />,
    entity: ({ record }) => <EntityLabel entity={record.entity} />,
    changes: ({ record }) => <ChangesTable changes={record.changes} entity={record.entity} />,
  },
};
