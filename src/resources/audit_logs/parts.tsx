// Cells, filter and detail of the audit trail.
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { SelectFilter } from '../../settings/ListFilters';
import { SETTINGS_RESOURCE_NAMES } from '../names';

/** The audit's name of each entity ("holding" in "holding.update"), as the API writes its actions. */
const AUDIT_NAMES: Record<string, string> = {
  holdings: 'holding',
  companies: 'company',
  shops: 'shop',
  users: 'user',
  roles: 'role',
  mutuals: 'mutual',
  networks: 'network',
  software: 'software',
  credential_software: 'credential',
  configs: 'system.setting',
};

const VERBS = ['create', 'update', 'delete', 'archive', 'bulk_update', 'bulk_delete'] as const;

/** The entities of the trail, labelled with their French plural. */
export const ENTITY_CHOICES = [...SETTINGS_RESOURCE_NAMES.filter((name) => name !== 'audit_logs'), 'configs'].map((name) => ({ id: name, name: `resources.${name}.name` }));

type Changes = Record<string, { before?: unknown; after?: unknown }>;

const verbOf = (action: unknown) => {
  const text = String(action ?? '');
  return VERBS.find((verb) => text.endsWith(`.${verb}`));
};

/** "Modification" for holding.update; the raw action when it is not one of the generic verbs. */
export function ActionLabel({ action }: { action: unknown }) {
  const translate = useTranslate();
  const verb = verbOf(action);
  return <>{verb ? translate(`pecflow.settings.audit.actions.${verb}`) : String(action ?? '')}</>;
}

/** "Organisations n° 3". */
export function EntityLabel({ entity, id }: { entity: unknown; id?: unknown }) {
  const translate = useTranslate();
  const name = String(entity ?? '');
  const label = translate(`resources.${name}.name`, { smart_count: 1, _: name });
  return <>{id ? `${label} n° ${String(id)}` : label}</>;
}

export function ChangedFields({ changes }: { changes: unknown }) {
  const translate = useTranslate();
  const keys = changes && typeof changes === 'object' ? Object.keys(changes) : [];
  return <>{keys.length ? keys.join(', ') : translate('pecflow.settings.audit.noChange')}</>;
}

const show = (value: unknown) => (value === undefined || value === null || value === '' ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

export function ChangesTable({ changes }: { changes: unknown }) {
  const translate = useTranslate();
  const entries = Object.entries((changes && typeof changes === 'object' ? changes : {}) as Changes);
  if (entries.length === 0) return <Typography variant="body2">{translate('pecflow.settings.audit.noChange')}</Typography>;
  return (
    <Table size="small" data-testid="audit-changes">
      <TableHead>
        <TableRow>
          <TableCell>{translate('pecflow.settings.audit.field')}</TableCell>
          <TableCell>{translate('pecflow.settings.audit.before')}</TableCell>
          <TableCell>{translate('pecflow.settings.audit.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entries.map(([field, change]) => (
          <TableRow key={field}>
            <TableCell>{field}</TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>{show(change?.before)}</TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>{show(change?.after)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The action filter: a verb, sent as the list of full actions it stands for (action[]=holding.update&...). */
export function ActionFilter({ source }: { source: string }) {
  const translate = useTranslate();
  return (
    <SelectFilter
      source={source}
      label={translate('resources.audit_logs.fields.action')}
      options={VERBS.map((verb) => ({ value: verb, label: translate(`pecflow.settings.audit.actions.${verb}`) }))}
      toFilter={(verb) => Object.values(AUDIT_NAMES).map((name) => `${name}.${verb}`)}
      fromFilter={(value) => (Array.isArray(value) ? verbOf(value[0]) : undefined)}
    />
  );
}
