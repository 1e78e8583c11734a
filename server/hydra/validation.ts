// What a declaration accepts as input: its own schemas, or the one its fields' constraints make.
import { schemaFromConstraints, type ConstrainedField } from '#domain/constraints';
import type { PermissionDefinition } from '#domain/permissions';
import type { ResourceDeclaration, Schemas } from './types';

export /** The declaration's schemas; without any, the one its writable fields' constraints and choices make. */
function schemasOf(decl: ResourceDeclaration, permissionCatalogue: readonly PermissionDefinition[]): Schemas {
  if (typeof decl.schema === 'function') return decl.schema({ permissionCatalogue });
  if (decl.schema) return decl.schema;
  const fields: Record<string, ConstrainedField> = {};
  for (const [name, field] of Object.entries(decl.fields)) {
    if (!field.writable || field.kind === 'computed' || field.kind === 'derived') continue;
    const rules = { required: field.required, choices: field.choices, constraints: field.constraints, default: decl.form?.defaults?.[name] };
    fields[name] =
      field.kind === 'reference' || field.kind === 'references' ? { ...rules, type: field.kind, target: field.target } : { ...rules, type: field.type };
  }
  const schema = schemaFromConstraints(fields);
  return { create: schema, update: schema };
}
