// What a declaration accepts as input: the schema its fields' constraints make, with its named rules; or a schema of
// its own (read-only resources, PEC files).
import { schemaFromConstraints, type ConstrainedField } from '#domain/constraints';
import type { PermissionDefinition } from '#domain/permissions';
import type { ResourceDeclaration, Schemas } from './types';

export /** The declaration's schemas: its writable fields' constraints, choices and defaults, then its named rules. */
function schemasOf(decl: ResourceDeclaration, permissionCatalogue: readonly PermissionDefinition[]): Schemas {
  if (decl.schema) return decl.schema;
  const fields: Record<string, ConstrainedField> = {};
  for (const [name, field] of Object.entries(decl.fields)) {
    if (!field.writable || field.kind === 'computed' || field.kind === 'derived') continue;
    const rules = { required: field.required, choices: field.choices, constraints: field.constraints, default: field.default };
    fields[name] =
      field.kind === 'reference' || field.kind === 'references' ? { ...rules, type: field.kind, target: field.target } : { ...rules, type: field.type };
  }
  const schema = schemaFromConstraints(fields);
  return decl.rules ? decl.rules(schema, { permissionCatalogue }) : { create: schema, update: schema };
}
