// The one form of the back-office entities: the fields the API documentation says are writable, laid out as the
// entity declares (two columns, full-width fields, tabs), guessed inputs (type, required mark, reference pickers),
// the shared zod schema on change, the server's French violations under the fields, toasts, delete.
import { Badge, Box, Button, Tab, Tabs } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { InputGuesser } from '@api-platform/admin';
import type { Resource } from '@api-platform/api-doc-parser';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useFormState, useWatch, type Resolver } from 'react-hook-form';
import { Form, required, SelectInput, useDataProvider, useGetList, useTranslate, useTranslateLabel, type RaRecord } from 'react-admin';
import type { AppDataProvider } from '../dataProvider';
import { extractErrorMessage } from '../domain/errors';
import { TEXTAREA_ROWS } from '../domain/limits';
import { useToast } from '../layout/Toasts';
import type { FormMode, FormTab, ResourceConfig } from '../resources/types';
import { ConfirmDelete } from './ConfirmDelete';
import { DrawerHeader } from './DrawerHeader';
import { useNouns } from './nouns';
import { useWrite } from './useWrite';
import { fieldOf, formFields, toFormValues, toPayload, useResourceRights, useSchemaAnalyzer } from './schema';

interface Props {
  config: ResourceConfig;
  schema: Resource;
  mode: FormMode;
  record?: RaRecord;
  /** Title and ID, shown next to the form's buttons. */
  heading: ReactNode;
  onDone: () => void;
}

/**
 * A record refetched while the form is open keeps what the user typed. One object for every render: react-admin resets
 * the form whenever this option changes, which would also wipe the server's violations.
 */
const RESET_OPTIONS = { keepDirtyValues: true };

/** Only marks the label with an asterisk: the zod resolver validates (react-hook-form ignores field rules then). */
const requiredMark = [required()];

/** The violations of a failed save: from the expanded JSON-LD of the Hydra provider, or from a plain JSON body. */
function violationsOf(error: unknown, fromHydra: (e: never) => Record<string, string> | null): Record<string, string> | undefined {
  const hydra = fromHydra(error as never);
  if (hydra) return hydra;
  const body = (error as { body?: { violations?: { propertyPath?: string; message?: string }[] } })?.body;
  if (!Array.isArray(body?.violations)) return undefined;
  return Object.fromEntries(body.violations.filter((v) => v.propertyPath && v.message).map((v) => [v.propertyPath!, v.message!]));
}

export function ResourceForm({ config, schema, mode, record, heading, onDone }: Props) {
  const translate = useTranslate();
  const analyzer = useSchemaAnalyzer();
  const dataProvider = useDataProvider<AppDataProvider>();
  const rights = useResourceRights(config.name, schema);
  const { say } = useNouns(config.name, config.feminine);
  const { write, busy: deleting } = useWrite(config.name);
  const [confirming, setConfirming] = useState(false);
  const readOnly = mode === 'edit' && !rights.update;

  const initial = useMemo(() => toFormValues(record ?? { id: '', ...config.defaults?.() }, schema), [record, schema, config]);
  const zod = mode === 'create' ? config.schema?.create : config.schema?.update;
  // raw: the form keeps what was typed (IRIs, text); the API applies the same schema and stores its output.
  const resolver = useMemo(() => (zod ? (zodResolver(zod as never, undefined, { raw: true }) as unknown as Resolver) : undefined), [zod]);

  const save = async (values: Record<string, unknown>) => {
    const { payload, fullPayload } = toPayload(values, schema, mode === 'edit' ? initial : undefined);
    const outcome = await write(
      async (): Promise<RaRecord> => {
        if (config.save) return config.save({ mode, dataProvider, values, payload, fullPayload, record });
        if (mode === 'create') return (await dataProvider.create(config.name, { data: payload })).data;
        return (await dataProvider.update(config.name, { id: record!.id, data: payload, previousData: record })).data;
      },
      (saved) => {
        const own = config.savedToast?.({ mode, saved, record });
        if (own) return { title: translate(own.title), message: translate(own.message, own.args) };
        return { title: translate('pecflow.settings.toast.success'), message: say(mode === 'create' ? 'toast.created' : 'toast.updated') };
      },
    );
    if (outcome.ok) {
      onDone();
      return undefined;
    }
    return violationsOf(outcome.error, analyzer.getSubmissionErrors) ?? {};
  };

  const remove = async () => {
    const outcome = await write(() => dataProvider.delete(config.name, { id: record!.id, previousData: record }), say('toast.deleted'));
    setConfirming(false);
    if (outcome.ok) onDone();
  };

  return (
    <Form
      record={initial}
      resolver={resolver}
      mode="onChange"
      onSubmit={save}
      resetOptions={RESET_OPTIONS}
      sanitizeEmptyValues={false}
      noValidate
      className="resource-form"
    >
      <DrawerHeader
        heading={heading}
        actions={
          <>
            <Button onClick={onDone}>{translate('pecflow.settings.form.cancel')}</Button>
            {!readOnly && <SubmitButton label={translate(mode === 'create' ? 'pecflow.settings.form.submitCreate' : 'pecflow.settings.form.submitEdit')} />}
          </>
        }
      />
      <Box sx={{ flex: 1, overflowY: 'auto', px: 3, py: 2 }}>
        <FormBody config={config} schema={schema} mode={mode} record={record} readOnly={readOnly} />
        {mode === 'edit' && rights.delete && (
          <Box sx={{ mt: 2, pt: 2, borderTop: 1, borderColor: 'divider' }}>
            <Button color="error" variant="outlined" onClick={() => setConfirming(true)} disabled={deleting}>
              {translate('pecflow.settings.form.delete')}
            </Button>
          </Box>
        )}
      </Box>
      <ConfirmDelete open={confirming} busy={deleting} onCancel={() => setConfirming(false)} onConfirm={remove} />
    </Form>
  );
}

function SubmitButton({ label }: { label: string }) {
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={isSubmitting}>
      {label}
    </Button>
  );
}

interface BodyProps {
  config: ResourceConfig;
  schema: Resource;
  mode: FormMode;
  record?: RaRecord;
  readOnly: boolean;
}

/** One grid of fields, or tabs (all kept mounted so that every field validates). */
function FormBody(props: BodyProps) {
  const { config, schema } = props;
  const fields = formFields(config, schema);
  const tabs = config.form?.tabs;
  if (!tabs) return <FieldGrid {...props} fields={fields} />;
  // Fields no tab names (a field new to the API) go to the first tab.
  const placed = new Set(tabs.flatMap((t) => t.fields ?? []));
  const loose = fields.filter((name) => !placed.has(name));
  return <TabbedBody {...props} tabs={tabs.map((tab, i) => (i === 0 ? { ...tab, fields: [...(tab.fields ?? []), ...loose] } : tab))} />;
}

function TabbedBody({ tabs, ...props }: BodyProps & { tabs: FormTab[] }) {
  const translate = useTranslate();
  const [current, setCurrent] = useState(0);
  const values = useWatch();
  const { errors } = useFormState();
  return (
    <>
      <Tabs value={current} onChange={(_e, value: number) => setCurrent(value)} variant="scrollable" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
        {tabs.map((tab, i) => {
          const badge = tab.badge?.(values);
          const invalid = (tab.fields ?? []).some((name) => errors[name]);
          const label: ReactNode = badge ? (
            <Badge badgeContent={badge} color="primary" sx={{ '& .MuiBadge-badge': { right: -12 } }}>
              {translate(tab.label)}
            </Badge>
          ) : (
            translate(tab.label)
          );
          return <Tab key={tab.label} value={i} label={label} sx={invalid ? { color: 'error.main' } : undefined} />;
        })}
      </Tabs>
      {tabs.map((tab, i) => {
        const Component = tab.component;
        return (
          <Box key={tab.label} role="tabpanel" hidden={current !== i}>
            {Component ? <Component mode={props.mode} record={props.record} readOnly={props.readOnly} /> : <FieldGrid {...props} fields={tab.fields ?? []} />}
          </Box>
        );
      })}
    </>
  );
}

function FieldGrid({ config, schema, mode, record, readOnly, fields }: BodyProps & { fields: string[] }) {
  const fullWidth = new Set(config.form?.fullWidth ?? []);
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
      {fields.map((source) => (
        <Box key={source} sx={{ gridColumn: fullWidth.has(source) ? '1 / -1' : undefined, minWidth: 0 }}>
          <FormInput config={config} schema={schema} source={source} mode={mode} record={record} readOnly={readOnly} />
        </Box>
      ))}
    </Box>
  );
}

function FormInput({ config, schema, source, mode, record, readOnly }: Omit<BodyProps, 'fields'> & { source: string }) {
  const analyzer = useSchemaAnalyzer();
  const translateLabel = useTranslateLabel();
  const field = fieldOf(schema, source);
  const isRequired = !!field?.required;
  // Named after this resource: a reference picker would otherwise look its label up under the referenced resource.
  const label = translateLabel({ source, resource: config.name }) as string;
  const validate = isRequired ? requiredMark : undefined;
  const Custom = config.inputs?.[source];
  if (Custom) return <Custom source={source} label={label} mode={mode} record={record} required={isRequired} readOnly={readOnly} />;
  const declared = config.choices?.[source];
  const choices = typeof declared === 'function' ? declared(record) : declared;
  if (choices) return <SelectInput source={source} label={label} choices={choices as never} validate={validate} readOnly={readOnly} fullWidth />;
  const reference = field?.reference && typeof field.reference === 'object' ? field.reference : undefined;
  const multiline = config.form?.multiline?.includes(source) ? { multiline: true, minRows: TEXTAREA_ROWS } : {};
  if (!reference) return <InputGuesser source={source} label={label} fullWidth readOnly={readOnly} {...multiline} />;
  const sort = { field: analyzer.getFieldNameFromSchema(reference), order: 'ASC' as const };
  return (
    <>
      <InputGuesser source={source} label={label} fullWidth readOnly={readOnly} perPage={REFERENCE_CHOICES} sort={sort} />
      <ReferenceLoadError reference={reference.name} sort={sort} />
    </>
  );
}

/** How many choices a reference picker offers (the API's page size ceiling). */
const REFERENCE_CHOICES = 100;

/**
 * "Impossible de charger la liste: {message}" when a picker's choices cannot be loaded (spec section 8). It asks for
 * the very list the picker asks for, so react-query answers both with one request.
 */
function ReferenceLoadError({ reference, sort }: { reference: string; sort: { field: string; order: 'ASC' } }) {
  const translate = useTranslate();
  const toast = useToast();
  const { error } = useGetList(reference, { pagination: { page: 1, perPage: REFERENCE_CHOICES }, sort, filter: {} });
  useEffect(() => {
    if (error) toast.error(translate('pecflow.settings.toast.error'), translate('pecflow.settings.form.listError', { message: extractErrorMessage(error) }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);
  return null;
}
