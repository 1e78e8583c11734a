// The API docs as the generated screens read them: @api-platform/admin's introspection (field types, required marks,
// references, operations, sortable fields) and the pecflow: annotations (French names, labels, choices, rules,
// settings tabs, list and form hints) of src/dataProvider/adminSchema.ts, both read once for the whole application.
import { useContext, useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { SchemaAnalyzerContext, useIntrospect } from '@api-platform/admin';
import type { Field, Resource } from '@api-platform/api-doc-parser';
import { useDataProvider, usePermissions, type RaRecord } from 'react-admin';
import type { AppDataProvider } from '../dataProvider';
import type { AdminEntity, AdminSchema } from '../dataProvider/adminSchema';
import { hasPermission } from '#domain/permissions';

export const ADMIN_SCHEMA_KEY = ['pecflow', 'adminSchema'];

/** Every entity the docs annotate, by collection name. */
export function useAdminSchema() {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery<AdminSchema>({ queryKey: ADMIN_SCHEMA_KEY, queryFn: () => dataProvider.adminSchema(), staleTime: Infinity, gcTime: Infinity });
}

export function useEntity(name: string): { entity: AdminEntity | undefined; error: unknown } {
  const { data, error } = useAdminSchema();
  return { entity: data?.entities.find((e) => e.name === name), error };
}

/** The French label of an enumeration value ('✅ Activé' for status Active), else the value itself. */
export function useChoiceLabel(collection: string) {
  const { entity } = useEntity(collection);
  return (field: string, value: unknown) => {
    const id = String(value ?? '');
    return entity?.fields[field]?.choices?.find((c) => c.id === id)?.name ?? id;
  };
}

/** The documentation of one API resource as @api-platform/admin parsed it. */
export function useResourceSchema(resource: string) {
  const { data, error, refetch } = useIntrospect();
  useEffect(() => {
    if (!data && !error) void refetch();
  }, [data, error, refetch]);
  const schema = data?.data.resources?.find((r) => r.name === resource);
  return { schema, refetch, error: error ?? (data && !schema ? new Error(`Ressource ${resource} absente de la documentation de l’API`) : null) };
}

export function useSchemaAnalyzer() {
  const analyzer = useContext(SchemaAnalyzerContext);
  if (!analyzer) throw new Error('SchemaAnalyzerContext manquant');
  return analyzer;
}

export const isToOne = (field: Field) => !!field.reference && typeof field.reference === 'object' && field.maxCardinality === 1;
export const isToMany = (field: Field) => !!field.reference && typeof field.reference === 'object' && field.maxCardinality !== 1;
export const fieldOf = (schema: Resource | undefined, name: string) => schema?.fields?.find((f) => f.name === name);
export const hasOperation = (schema: Resource | undefined, type: 'create' | 'edit' | 'delete') =>
  !!schema?.operations?.some((operation) => operation.type === type);

/** What the signed-in user may do on an entity: its declared keys (the server checks them again) and the API's operations. */
export function useRights(entity: AdminEntity | undefined, schema: Resource | undefined) {
  const { permissions = [] } = usePermissions<string[]>();
  const may = (key: string | undefined) => !!key && hasPermission(permissions, key);
  return {
    create: hasOperation(schema, 'create') && may(entity?.permissions.create),
    update: hasOperation(schema, 'edit') && may(entity?.permissions.update),
    delete: hasOperation(schema, 'delete') && may(entity?.permissions.delete),
  };
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
