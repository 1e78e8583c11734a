// Cells, filter and detail of the audit trail.
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ReferenceFilter, SelectFilter } from '../../admin/filters';
import { useAdminSchema, useEntity } from '../../admin/docs';
import { formatDateTime, formatEuros, formatIsoDay } from '#domain/format';
import { ACTION_OPTIONS, VERBS } from './actions';
import { recordedCodeLabel } from './values';

/** The element filter: every entity of the API docs but the trail itself, by its French plural. */
export function EntityFilter({ source, label }: { source: string; label: string }) {
  const { data } = useAdminSchema();
  const entities = (data?.entities ?? []).filter((e) => e.name !== 'audit_logs');
  return <SelectFilter source={source} label={label} options={entities.map((e) => ({ value: e.name, label: e.label.plural }))} />;
}

/** The user filter: the users by name (the trail's actor). */
export function ActorFilter({ source }: { source: string }) {
  const label = useEntity('audit_logs').entity?.fields.actorEmail?.label ?? source;
  return <ReferenceFilter source={source} label={label} reference="users" optionText="fullName" />;
}

const verbOf = (action: unknown) => {
  const text = String(action ?? '');
  return VERBS.find((verb) => text.endsWith(`.${verb}`));
};

/** "Modification" for holding.update, "Consultation" for pec_dossier.read; the raw action when it has no label. */
export function ActionLabel({ action }: { action: unknown }) {
  const translate = useTranslate();
  const text = String(action ?? '');
  const event = verbOf(action) ?? text.slice(text.lastIndexOf('.') + 1);
  return <>{translate(`pecflow.settings.audit.actions.${event}`, { _: text })}</>;
}

/** A changed field by its declared French label ("Montant du devis"), else as the API names it. */
function useFieldLabel(entity: unknown) {
  const translate = useTranslate();
  const { entity: declared } = useEntity(String(entity ?? ''));
  return (field: string) => declared?.fields[field]?.label ?? translate(`pecflow.settings.audit.fields.${field}`, { _: field });
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** The audit's amounts: named « montant… » (montant, montantPaye), and a statement's own (its amount, what it applied). */
const MONEY = /^(montant|amount$|applied$)/;
const IRI = /^\/api\/([a-z_]+)\/(\d+)$/;

/**
 * A recorded value as the office reads it: a declared choice or a recorded code (a line's outcome) by its label, a day dd/mm/yyyy, a moment with its time,
 * an amount in euros, what an action recorded together (a payment cancelled) field by field, « — » for nothing.
 */
function useShowValue(entity: unknown) {
  const translate = useTranslate();
  const label = useFieldLabel(entity);
  const { entity: declared } = useEntity(String(entity ?? ''));
  const { data: schema } = useAdminSchema();
  /** A robot result's outcome ('success') as a file's run history names it (« Réussie »). */
  const robotOutcome = (code: string) => translate(`pecflow.pec.history.outcome.${code}`, { _: '' }) || undefined;
  /** '/api/pec_dossiers/83' as « Demande de PEC n° 83 ». */
  const record = (iri: string) => {
    const [, name, id] = IRI.exec(iri) ?? [];
    const named = schema?.entities.find((e) => e.name === name);
    return named ? `${named.label.singular} n° ${id}` : iri;
  };
  const show = (value: unknown, field?: string): string => {
    if (value === undefined || value === null || value === '') return '—';
    const choice = field ? declared?.fields[field]?.choices?.find((c) => c.id === value) : undefined;
    if (choice) return choice.name;
    const code = recordedCodeLabel(String(entity ?? ''), field, value, robotOutcome);
    if (code) return code;
    if (typeof value === 'boolean') return translate(`ra.boolean.${value}`);
    if (typeof value === 'number' && field && MONEY.test(field)) return formatEuros(value);
    if (typeof value === 'string')
      return ISO_DAY.test(value) ? formatIsoDay(value) : ISO_MOMENT.test(value) ? formatDateTime(value) : IRI.test(value) ? record(value) : value;
    if (Array.isArray(value)) return value.map((item) => show(item)).join(', ');
    if (typeof value === 'object')
      return Object.entries(value)
        .map(([key, item]) => `${label(key)} : ${show(item, key)}`)
        .join(' · ');
    return String(value);
  };
  return show;
}

/** Who did it: the user's email, or the robot / the platform's own jobs. */
export function ActorLabel({ email }: { email: unknown }) {
  const translate = useTranslate();
  return <>{email ? String(email) : translate('pecflow.settings.audit.system')}</>;
}

/** "Demande de PEC PEC-2026-000401" when the entry kept the record's name (its number), else "Organisation n° 3". */
export function EntityLabel({ entity, id, name: recordName }: { entity: unknown; id?: unknown; name?: unknown }) {
  const name = String(entity ?? '');
  const label = useEntity(name).entity?.label.singular ?? name;
  if (recordName) return <>{`${label} ${String(recordName)}`}</>;
  return <>{id ? `${label} n° ${String(id)}` : label}</>;
}

export function ChangedFields({ changes, entity }: { changes: unknown; entity: unknown }) {
  const translate = useTranslate();
  const label = useFieldLabel(entity);
  const keys = changes && typeof changes === 'object' ? Object.keys(changes) : [];
  return <>{keys.length ? keys.map(label).join(', ') : translate('pecflow.settings.audit.noChange')}</>;
}

/** A field's change from one value to another, or (any other value) what the action recorded of itself. */
const isChange = (value: unknown): value is { before?: unknown; after?: unknown } =>
  !!value && typeof value === 'object' && !Array.isArray(value) && ('before' in value || 'after' in value);

export function ChangesTable({ changes, entity }: { changes: unknown; entity: unknown }) {
  const translate = useTranslate();
  const label = useFieldLabel(entity);
  const show = useShowValue(entity);
  const entries = Object.entries((changes && typeof changes === 'object' ? changes : {}) as Record<string, unknown>);
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
            <TableCell>{label(field)}</TableCell>
            {isChange(change) ? (
              <>
                <TableCell sx={{ wordBreak: 'break-word' }}>{show(change.before, field)}</TableCell>
                <TableCell sx={{ wordBreak: 'break-word' }}>{show(change.after, field)}</TableCell>
              </>
            ) : (
              <TableCell colSpan={2} sx={{ wordBreak: 'break-word' }}>
                {show(change, field)}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The action filter: a kind of action, sent as the list of full actions it stands for (action[]=holding.update&...). */
export function ActionFilter({ source, label }: { source: string; label: string }) {
  const translate = useTranslate();
  return (
    <SelectFilter
      source={source}
      label={label}
      options={ACTION_OPTIONS.map(({ value }) => ({ value, label: translate(`pecflow.settings.audit.actions.${value}`) }))}
      toFilter={(value: string) => ACTION_OPTIONS.find((option) => option.value === value)?.actions ?? []}
      fromFilter={(value: unknown) => (Array.isArray(value) ? ACTION_OPTIONS.find((option) => option.actions[0] === value[0])?.value : undefined)}
    />
  );
}
