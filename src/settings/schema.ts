// The API documentation as @api-platform/admin reads it (useIntrospect, SchemaAnalyzerContext), and what the generic
// screens derive from it: which fields a list shows, which a form edits, and how form values become a request body.
import { useContext, useEffect } from 'react';
import { SchemaAnalyzerContext, useIntrospect } from '@api-platform/admin';
import type { Field, Resource } from '@api-platform/api-doc-parser';
import { usePermissions, type RaRecord } from 'react-admin';
import { hasPermission } from '../domain/permissions';
import { permissionFor } from '../domain/resources';
import type { Column, ResourceConfig } from '../resources/types';

/** Fields every record carries that no screen lists or edits on its own. */
const SYSTEM_FIELDS = new Set(['id', 'createdAt', 'updatedAt']);

/** The documentation of one API resource, introspected once for the whole application. */
export function useResourceSchema(resource: string) {
  const { data, error, refetch } = useIntrospect();
  useEffect(() => {
    if (!data && !error) void refetch();
  }, [data, error, refetch]);
  const schema = data?.data.resources?.find((r) => r.name === resource);
  return { schema, error: error ?? (data && !schema ? new Error(`Ressource ${resource} absente de la documentation de l'API`) : null) };
}

export function useSchemaAnalyzer() {
  const analyzer = useContext(SchemaAnalyzerContext);
  if (!analyzer) throw new Error('SchemaAnalyzerContext manquant');
  return analyzer;
}

export const isToOne = (field: Field) => !!field.reference && typeof field.reference === 'object' && field.maxCardinality === 1;
export const isToMany = (field: Field) => !!field.reference && typeof field.reference === 'object' && field.maxCardinality !== 1;

export const hasOperation = (schema: Resource | undefined, type: 'create' | 'edit' | 'delete') =>
  !!schema?.operations?.some((operation) => operation.type === type);

/** What the signed-in user may do on a resource (the server checks it again). */
export function useResourceRights(resource: string, schema: Resource | undefined) {
  const { permissions = [] } = usePermissions<string[]>();
  const may = (action: string) => {
    const required = permissionFor(resource, action);
    return required === undefined || hasPermission(permissions, required);
  };
  return {
    create: hasOperation(schema, 'create') && may('create'),
    update: hasOperation(schema, 'edit') && may('edit'),
    delete: hasOperation(schema, 'delete') && may('delete'),
  };
}

export const fieldOf = (schema: Resource | undefined, name: string) => schema?.fields?.find((f) => f.name === name);

/** The list's columns: the entity's own, then every readable field it neither lists nor leaves out on purpose. */
export function listColumns(config: ResourceConfig, schema: Resource): Column[] {
  const named = new Set([...config.columns.map((c) => c.source.split('.')[0]!), ...(config.listExclude ?? [])]);
  const extra = (schema.readableFields ?? [])
    .filter((f) => !named.has(f.name) && !SYSTEM_FIELDS.has(f.name))
    .map((f) => ({ source: f.name }));
  return [...config.columns, ...extra];
}

/** The fields the form edits, in the layout's order, then every writable field the layout does not know yet. */
export function formFields(config: ResourceConfig, schema: Resource): string[] {
  const writable = (schema.writableFields ?? []).map((f) => f.name);
  const placed = [...(config.form?.fields ?? []), ...(config.form?.tabs ?? []).flatMap((t) => t.fields ?? [])];
  const excluded = new Set([...(config.form?.exclude ?? []), ...placed]);
  return [...placed.filter((name) => writable.includes(name) || config.inputs?.[name]), ...writable.filter((name) => !excluded.has(name))];
}

const iriOf = (value: unknown) => (value && typeof value === 'object' && '@id' in value ? (value as { '@id': string })['@id'] : value);

/** A record as the form edits it: embedded references ({@id, name}) become their IRIs, the pickers' values. */
export function toFormValues(record: RaRecord, schema: Resource): RaRecord {
  const values: RaRecord = { ...record };
  for (const field of schema.fields ?? []) {
    const value = values[field.name];
    if (isToOne(field)) values[field.name] = iriOf(value) ?? null;
    else if (isToMany(field) && Array.isArray(value)) values[field.name] = value.map(iriOf);
  }
  return values;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The body of a save (spec section 5, "On submit"): writable fields only, empty values dropped. On edit the body is
 * a merge-patch: only the fields that changed, a cleared field sent as null. A write-only field (a password, an API
 * secret: the API never returns it) is sent only when typed: empty keeps the stored value.
 */
export function toPayload(values: Record<string, unknown>, schema: Resource, initial?: Record<string, unknown>) {
  const readable = new Set((schema.readableFields ?? []).map((f) => f.name));
  const full: Record<string, unknown> = {};
  const patch: Record<string, unknown> = {};
  for (const { name } of schema.writableFields ?? []) {
    const value = values[name];
    if (!isEmpty(value)) full[name] = value;
    if (!initial || !readable.has(name)) {
      if (!isEmpty(value)) patch[name] = value;
    } else if (!same(value, initial[name]) && !(isEmpty(value) && isEmpty(initial[name]))) {
      patch[name] = isEmpty(value) && !Array.isArray(value) ? null : value;
    }
  }
  return { payload: patch, fullPayload: full };
}
