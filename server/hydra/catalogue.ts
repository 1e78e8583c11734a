// The permission catalogue (GET /api/permissions, role validation, "Mes permissions"): the whole platform's
// administration, each settings entity's keys named after its declaration, then the keys of domain/permissions.ts.
import { ADMIN_PERMISSION, entityPermissionDefinitions, OTHER_PERMISSIONS, type PermissionDefinition } from '#domain/permissions';
import type { ResourceDeclaration } from './types';

const lowerFirst = (text: string) => text.charAt(0).toLocaleLowerCase('fr') + text.slice(1);
const joined = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} et ${names.at(-1)}` : names[0]!);

export function permissionCatalogue(declarations: readonly ResourceDeclaration[]): PermissionDefinition[] {
  // Entities sharing their keys (users and roles: settings.users.*) make one group, named after all of them.
  const groups = new Map<string, ResourceDeclaration[]>();
  for (const decl of declarations) {
    if (!decl.permissionModule) continue;
    groups.set(decl.permissions.view, [...(groups.get(decl.permissions.view) ?? []), decl]);
  }
  const entities = [...groups.values()].flatMap((group) =>
    entityPermissionDefinitions(group[0]!.permissions, group[0]!.permissionModule!, joined(group.map((d) => lowerFirst(d.label.plural)))),
  );
  return [ADMIN_PERMISSION, ...entities, ...OTHER_PERMISSIONS];
}
