// The generated form of an entity, in the drawer frame: the writable fields of the API docs laid out as the
// declaration says (two columns, full-width fields, tabs with badges), guessed inputs (@api-platform/admin's
// InputGuesser: type, required mark, reference pickers), declared choices as selects, the shared zod schema (or the
// one the docs' constraints make) on change, Supprimer behind the one confirmation dialog (ConfirmDialog). Writes go through
// react-admin's useCreate / useUpdate / useDelete (or useMutation for an entity's own save), then one toast.
import { Box, Button, Chip, Tab, Tabs } from '@mui/material';
import { InputGuesser } from '@api-platform/admin';
import type { Field, Resource } from '@api-platform/api-doc-parser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useMemo, useState, type ReactNode } from 'react';
import { useFormState, useWatch } from 'react-hook-form';
import { required, SelectInput, useCreate, useDataProvider, useDelete, useGetList, useTranslate, useUpdate, type RaRecord } from 'react-admin';
import { ConfirmDialog, DeleteMark } from '../admin/ConfirmDialog';
import type { AppDataProvider } from '../dataProvider';
import type { AdminEntity } from '../dataProvider/adminSchema';
import { schemaFromConstraints, type ConstrainedField, type ConstrainedObject } from '#domain/constraints';
import { extractErrorMessage } from '#domain/errors';
import { TEXTAREA_ROWS } from '#domain/limits';
import { useToast } from '../layout/Toasts';
import { AdminForm, CancelButton, SubmitButton } from '../admin/AdminForm';
import { DrawerFrame } from '../admin/DrawerFrame';
import { fieldOf, toFormValues, toPayload, useRights, useSchemaAnalyzer } from '../admin/docs';
import { useMutationToasts, WRITE_RETRY } from '../admin/mutations';
import { formParticularOf } from '../resources/forms';
import type { FormMode, FormParticular, SaveContext } from '../resources/types';
import { recordName, useNouns } from './nouns';

interface GeneratedFormProps {
  entity: AdminEntity;
  schema: Resource;
  mode: FormMode;
  record?: RaRecord;
  /** The drawer frame's props (open, title, the tab's title, 'ID: …', close). */
  frame: { open: boolean; onClose: () => void; title: string; tabTitle?: string; subtitle?: ReactNode };
  /** Shown in the drawer instead of the form (the record loading, its load error, the read-only view). */
  placeholder?: ReactNode;
}

/** Only marks the label with an asterisk: the zod resolver validates (react-hook-form ignores field rules then). */
const requiredMark = [required()];

/** How many choices a reference picker offers (the API's page size ceiling). */
const REFERENCE_CHOICES = 100;

const XSD_TYPES: Record<string, ConstrainedField['type']> = {
  integer: 'integer',
  decimal: 'decimal',
  boolean: 'boolean',
  date: 'date',
  dateTime: 'dateTime',
  array: 'array',
};

/** The rules of a form: the docs' constraints, choices and required marks, as the server applies them. */
function constraintsSchema(entity: AdminEntity, schema: Resource): ConstrainedObject {
  const fields: Record<string, ConstrainedField> = {};
  for (const field of schema.writableFields ?? []) {
    const declared = entity.fields[field.name];
    const reference = field.reference && typeof field.reference === 'object' ? field.reference : undefined;
    const xsd =
      String(field.range ?? '')
        .split('#')
        .pop() ?? '';
    if (reference && field.maxCardinality !== 1) continue;
    fields[field.name] = {
      type: reference ? 'reference' : (XSD_TYPES[xsd] ?? 'string'),
      required: !!field.required,
      choices: declared?.choices,
      constraints: declared?.constraints,
      target: reference?.name,
    };
  }
  // Loose: what the form holds beside its fields (a centre's credential choices) reaches its save.
  return schemaFromConstraints(fields).loose() as unknown as ConstrainedObject;
}

/** The fields the form edits: the declared layout's order, then every writable field it does not place. */
export function formFields(entity: AdminEntity, schema: Resource): string[] {
  const writable = (schema.writableFields ?? []).map((f) => f.name);
  const placed = [...(entity.form?.fields ?? []), ...(entity.form?.tabs ?? []).flatMap((t) => t.fields)];
  return [...placed.filter((name) => writable.includes(name)), ...writable.filter((name) => !placed.includes(name))];
}

export function GeneratedForm({ entity, schema, mode, record, frame, placeholder }: GeneratedFormProps) {
  const translate = useTranslate();
  // The entity's inputs, rules and save (src/resources/<collection>/form.tsx).
  const particular = formParticularOf(entity.name);
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const toasts = useMutationToasts();
  const rights = useRights(entity, schema);
  const { say, singular } = useNouns(entity.label);
  const [confirming, setConfirming] = useState(false);
  const readOnly = mode === 'edit' && !rights.update;
  const resource = entity.name;

  // The defaults are a declaration (the docs, read once) and a module function: stable, so they never reset the form.
  const declaredDefaults = entity.form?.defaults;
  const ownDefaults = particular.defaults;
  const initial = useMemo(
    () => toFormValues(record ?? { id: '', ...declaredDefaults, ...ownDefaults?.() }, schema),
    [record, schema, declaredDefaults, ownDefaults],
  );
  const zod = useMemo(() => {
    const constrained = constraintsSchema(entity, schema);
    return particular.rules?.(constrained)[mode === 'create' ? 'create' : 'update'] ?? constrained;
  }, [particular, mode, entity, schema]);

  const [create] = useCreate(resource, undefined, { returnPromise: true, ...WRITE_RETRY });
  const [update] = useUpdate(resource, undefined, { returnPromise: true, ...WRITE_RETRY });
  const [remove, { isPending: deleting }] = useDelete(resource, undefined, { returnPromise: true, ...WRITE_RETRY });
  const own = useMutation({ mutationFn: (context: SaveContext) => particular.save!(context), ...WRITE_RETRY });

  // One write changes others on the server (a new default network unmarks the former one): every record of the
  // entity is read again when next shown.
  const refresh = () => queryClient.invalidateQueries({ queryKey: [resource] });

  const save = async (values: Record<string, unknown>) => {
    const { payload, fullPayload } = toPayload(values, schema, mode === 'edit' ? initial : undefined);
    let saved: RaRecord;
    try {
      if (particular.save) saved = await own.mutateAsync({ mode, dataProvider, values, fullPayload, record });
      else if (mode === 'create') saved = await create(resource, { data: payload });
      else saved = await update(resource, { id: record!.id, data: payload, previousData: record });
    } catch (error) {
      toasts.failure(error);
      throw error;
    }
    await refresh();
    const custom = particular.savedToast?.({ mode, saved, record });
    if (custom) toasts.success(translate(custom.message, custom.args), translate(custom.title));
    else toasts.success(say(mode === 'create' ? 'toast.created' : 'toast.updated'));
    frame.onClose();
  };

  const confirmDelete = async () => {
    try {
      await remove(resource, { id: record!.id, previousData: record });
    } catch (error) {
      setConfirming(false);
      toasts.failure(error);
      return;
    }
    setConfirming(false);
    await refresh();
    toasts.success(say('toast.deleted'));
    frame.onClose();
  };

  const actions = (
    <>
      {mode === 'edit' && rights.delete && (
        <Button color="error" onClick={() => setConfirming(true)} disabled={deleting}>
          {translate('pecflow.settings.form.delete')}
        </Button>
      )}
      <CancelButton label={translate('pecflow.settings.form.cancel')} onCancel={frame.onClose} />
      {!readOnly && <SubmitButton label={translate(mode === 'create' ? 'pecflow.settings.form.submitCreate' : 'pecflow.settings.form.submitEdit')} />}
    </>
  );

  // One drawer whatever it shows: the form replaces the placeholder inside it, without the drawer sliding in again.
  return (
    <>
      {placeholder ? (
        <DrawerFrame {...frame}>{placeholder}</DrawerFrame>
      ) : (
        <DrawerFrame
          {...frame}
          actions={actions}
          wrap={(content) => (
            <AdminForm record={initial} schema={zod} onSave={save} className="resource-form" invalidToast>
              {content}
            </AdminForm>
          )}
        >
          <FormBody entity={entity} particular={particular} schema={schema} mode={mode} record={record} readOnly={readOnly} />
        </DrawerFrame>
      )}
      <ConfirmDialog
        isOpen={confirming}
        loading={deleting}
        title={translate('pecflow.settings.confirm.title')}
        content={record ? translate('pecflow.settings.confirm.textNamed', { name: recordName(record, singular) }) : translate('pecflow.settings.confirm.text')}
        confirm={translate('pecflow.settings.confirm.confirm')}
        cancel={translate('pecflow.settings.confirm.cancel')}
        ConfirmIcon={DeleteMark}
        destructive
        onConfirm={confirmDelete}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

interface BodyProps {
  entity: AdminEntity;
  particular: FormParticular;
  schema: Resource;
  mode: FormMode;
  record?: RaRecord;
  readOnly: boolean;
}

/** One grid of fields, or tabs (all kept mounted so that every field validates). */
function FormBody(props: BodyProps) {
  const { entity, schema } = props;
  const fields = formFields(entity, schema);
  const tabs = entity.form?.tabs;
  if (!tabs?.length) return <FieldGrid {...props} fields={fields} />;
  // Fields no tab names (a field new to the API) go to the first tab.
  const placed = new Set(tabs.flatMap((t) => t.fields));
  const loose = fields.filter((name) => !placed.has(name));
  return <TabbedBody {...props} tabs={tabs.map((tab, i) => (i === 0 ? { ...tab, fields: [...tab.fields, ...loose] } : tab))} />;
}

function TabbedBody({ tabs, ...props }: BodyProps & { tabs: { label: string; fields: string[] }[] }) {
  const [current, setCurrent] = useState(0);
  const values = useWatch();
  const { errors } = useFormState();
  const badges = props.particular.badges ?? {};
  return (
    <>
      <Tabs value={current} onChange={(_e, value: number) => setCurrent(value)} variant="scrollable" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
        {tabs.map((tab, i) => {
          const badge = tab.fields.reduce((sum, name) => sum + (badges[name]?.(values) ?? 0), 0);
          const invalid = tab.fields.some((name) => errors[name]);
          // The count sits beside the label, inside the tab: a corner badge is clipped by the tab strip's edge.
          return (
            <Tab
              key={tab.label}
              value={i}
              label={tab.label}
              icon={badge ? <Chip size="small" color="primary" label={badge} data-testid="tab-count" /> : undefined}
              iconPosition="end"
              sx={{ minHeight: 48, ...(invalid ? { color: 'error.main' } : {}) }}
            />
          );
        })}
      </Tabs>
      {tabs.map((tab, i) => (
        <Box key={tab.label} role="tabpanel" hidden={current !== i}>
          <FieldGrid {...props} fields={tab.fields} />
        </Box>
      ))}
    </>
  );
}

function FieldGrid({ fields, ...props }: BodyProps & { fields: string[] }) {
  const fullWidth = new Set(props.entity.form?.fullWidth ?? []);
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
      {fields.map((source) => (
        <Box key={source} sx={{ gridColumn: fullWidth.has(source) ? '1 / -1' : undefined, minWidth: 0 }}>
          <FormInput {...props} source={source} />
        </Box>
      ))}
    </Box>
  );
}

function FormInput({ entity, particular, schema, source, mode, record, readOnly }: BodyProps & { source: string }) {
  const analyzer = useSchemaAnalyzer();
  const field: Field | undefined = fieldOf(schema, source);
  const isRequired = !!field?.required;
  const label = entity.fields[source]?.label ?? source;
  const validate = isRequired ? requiredMark : undefined;
  const Own = particular.inputs?.[source];
  if (Own) return <Own source={source} label={label} mode={mode} record={record} required={isRequired} readOnly={readOnly} />;
  const choices = entity.fields[source]?.choices;
  if (choices) {
    // The form offers the declared subset (software types), and a record keeps its own value.
    const offer = entity.form?.offer?.[source];
    const offered = offer ? choices.filter((c) => offer.includes(c.id) || c.id === record?.[source]) : choices;
    return <SelectInput source={source} label={label} choices={offered} validate={validate} readOnly={readOnly} fullWidth />;
  }
  const reference = field?.reference && typeof field.reference === 'object' ? field.reference : undefined;
  const multiline = entity.form?.multiline?.includes(source) ? { multiline: true, minRows: TEXTAREA_ROWS } : {};
  if (!reference) return <InputGuesser source={source} label={label} fullWidth readOnly={readOnly} {...multiline} />;
  const sort = { field: analyzer.getFieldNameFromSchema(reference), order: 'ASC' as const };
  return (
    <>
      <InputGuesser source={source} label={label} fullWidth readOnly={readOnly} perPage={REFERENCE_CHOICES} sort={sort} />
      <ReferenceLoadError reference={reference.name} sort={sort} />
    </>
  );
}

/**
 * "Impossible de charger la liste: {message}" when a picker's choices cannot be loaded (spec section 8). It asks for
 * the very list the picker asks for, so react-query answers both with one request.
 */
function ReferenceLoadError({ reference, sort }: { reference: string; sort: { field: string; order: 'ASC' } }) {
  const translate = useTranslate();
  const toast = useToast();
  const { error } = useGetList(reference, { pagination: { page: 1, perPage: REFERENCE_CHOICES }, sort, filter: {} });
  // Once per error, not at each render: the toast and the translation are read, not followed.
  const announce = useEffectEvent((failure: unknown) =>
    toast.error(translate('pecflow.settings.toast.error'), translate('pecflow.settings.form.listError', { message: extractErrorMessage(failure) })),
  );
  useEffect(() => {
    if (error) announce(error);
  }, [error]);
  return null;
}
