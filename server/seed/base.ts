// Data every installation needs, demo or not: the seeded roles and the system settings. Inserted when missing.
import { eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { configs, pecRuleValues, roles } from '../db/schema';
import { SEEDED_ROLES, type RoleDefinition, type SeededRoleKey } from '#domain/roles';
import { RESOURCES } from '../resources';
import { RULE_VALUES } from './ruleValues';
import { SYSTEM_SETTINGS } from '#domain/systemSettings';

/**
 * An organisation administrator manages everything its organisation owns: besides its listed keys, it holds every key
 * of each settings entity with an organisation column (an entity declared later, such as Prescripteurs, included).
 */
function seededPermissions(role: RoleDefinition): string[] {
  if (role !== SEEDED_ROLES.organisationAdmin) return role.permissions;
  const owned = RESOURCES.filter((d) => d.permissionModule && d.tenancy.holdingColumn).map((d) => d.permissions.view.replace(/\.[^.]+$/, '.*'));
  return [...new Set([...role.permissions, ...owned])];
}

export async function ensureBaseData(db: Db, opts: { robotMode?: string; robotUrl?: string } = {}) {
  // Found by their keys: a seeded role an administrator renamed is still there, not missing.
  const existingRoles = new Set((await db.select({ seedKey: roles.seedKey }).from(roles).where(isNotNull(roles.seedKey))).map((r) => r.seedKey));
  const missingRoles = (Object.entries(SEEDED_ROLES) as [SeededRoleKey, RoleDefinition][]).filter(([key]) => !existingRoles.has(key));
  if (missingRoles.length) {
    await db.insert(roles).values(missingRoles.map(([key, r]) => ({ ...r, permissions: seededPermissions(r), holdingId: null, seedKey: key })));
  }

  const initial: Record<string, unknown> = {
    'integrations.robot_mode': opts.robotMode ?? 'simulator',
    'integrations.robot_url': opts.robotUrl ?? '',
  };
  await db
    .insert(configs)
    .values(SYSTEM_SETTINGS.map(({ rule: _rule, ...s }) => ({ ...s, value: s.key in initial ? initial[s.key] : s.value })))
    .onConflictDoNothing({ target: configs.key });
  // A read-only setting says what the code does: its row follows the code. One that becomes editable starts from the
  // code's value (the password's minimum length was a read-only 6); an editable one keeps its value, not its words.
  const stored = new Map((await db.select().from(configs)).map((row) => [row.key, row]));
  for (const setting of SYSTEM_SETTINGS) {
    const row = stored.get(setting.key);
    if (!row) continue;
    const takesCodeValue = !row.isEditable;
    const same =
      row.description === setting.description &&
      row.isEditable === setting.isEditable &&
      row.category === setting.category &&
      (!takesCodeValue || JSON.stringify(row.value) === JSON.stringify(setting.value));
    if (same) continue;
    await db
      .update(configs)
      .set({
        description: setting.description,
        isEditable: setting.isEditable,
        category: setting.category,
        valueType: setting.valueType,
        ...(takesCodeValue ? { value: setting.value } : {}),
      })
      .where(eq(configs.key, setting.key));
  }
  await db.insert(pecRuleValues).values(RULE_VALUES).onConflictDoNothing({ target: pecRuleValues.key });
}
