// Journal d'audit: who did what and when, with the changed fields by their French labels; filtered by user, kind of
// action, element and date; opened to view, with the changes before and after.
import { formatDateTime } from '#domain/format';
import type { Particular } from '../types';
import { ActionFilter, ActionLabel, ActorFilter, ActorLabel, ChangedFields, ChangesTable, EntityFilter, EntityLabel } from './parts';

export const particular: Particular = {
  cells: {
    createdAt: { render: (record) => formatDateTime(record.createdAt as string) },
    actorEmail: { sortBy: false, render: (record) => <ActorLabel email={record.actorEmail} /> },
    action: { render: (record) => <ActionLabel action={record.action} /> },
    entity: { sortBy: false, render: (record) => <EntityLabel entity={record.entity} id={record.entityId} name={record.entityLabel} /> },
    changes: { sortBy: false, render: (record) => <ChangedFields changes={record.changes} entity={record.entity} /> },
  },
  filters: { actor: ActorFilter, action: ActionFilter, entity: EntityFilter },
  show: {
    createdAt: ({ record }) => <>{formatDateTime(record.createdAt as string)}</>,
    action: ({ record }) => <ActionLabel action={record.action} />,
    actorEmail: ({ record }) => <ActorLabel email={record.actorEmail} />,
    entity: ({ record }) => <EntityLabel entity={record.entity} name={record.entityLabel} />,
    changes: ({ record }) => <ChangesTable changes={record.changes} entity={record.entity} />,
  },
};
