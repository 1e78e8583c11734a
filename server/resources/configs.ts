import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { configs } from '../db/schema';
import { invalidField } from '../http/errors';
import { bool, column, derived, text, timestamp } from '../hydra/fields';
import { platformWide } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { SYSTEM_SETTINGS } from '#domain/systemSettings';
import { policySettingError } from '../auth/passwordPolicy';
import { SYSTEM_SETTINGS_PERMISSIONS } from '#domain/permissions';
import { settingValueError } from '#domain/settings';

const configSchema = z.object({ value: z.unknown().refine((v) => v !== undefined, 'Valeur requise') });

/** The same rules in SQL, for lists written by PostgreSQL: json (not jsonb) keeps the keys in their order. */
const quoted = (text: string) => sql.raw(`'${text.replace(/'/g, "''")}'`);
const ruleSql = sql`case ${configs.key} ${sql.join(
  SYSTEM_SETTINGS.filter((s) => s.rule).map((s) => sql`when ${quoted(s.key)} then ${quoted(JSON.stringify(s.rule))}::json`),
  sql` `,
)} else null end`;

export const configsResource: ResourceDeclaration = {
  name: 'configs',
  className: 'Config',
  label: { singular: 'Paramètre système', plural: 'Paramètres système' },
  auditName: 'system.setting',
  table: configs,
  idColumn: configs.id,
  fields: {
    key: text(configs.key, { writable: false, iri: 'name', label: 'Clé' }),
    description: text(configs.description, { writable: false, label: 'Description' }),
    value: column('object', configs.value, { description: 'Booléen, nombre, texte, liste ou objet selon valueType', label: 'Valeur' }),
    valueType: text(configs.valueType, { writable: false, label: 'Type de valeur' }),
    isEditable: bool(configs.isEditable, { writable: false, label: 'Modifiable' }),
    category: text(configs.category, { writable: false, description: 'general, security, email, api, storage ou integrations', label: 'Catégorie' }),
    // What a new value must respect (min, max, integer, choices, url), so that the screen checks it as the server does.
    rule: derived('object', (row) => SYSTEM_SETTINGS.find((s) => s.key === row.key)?.rule ?? null, {
      sql: ruleSql,
      description: 'Contraintes de la valeur : min, max, integer, choices, url',
      label: 'Règle',
    }),
    updatedAt: timestamp(configs.updatedAt, 'Modifié le'),
  },
  schema: { create: configSchema, update: configSchema },
  permissions: SYSTEM_SETTINGS_PERMISSIONS,
  // A screen of its own (the settings by category, each edited by its rule), not a generated list.
  settingsTab: { position: 10, label: 'Système', aliases: ['system'] },
  // Platform reference data every signed-in user may read (domain.md); only settings.system.edit changes it.
  readAccess: 'everyone',
  tenancy: platformWide,
  creatable: false,
  search: [configs.key, configs.description],
  filters: { category: configs.category, key: configs.key, isEditable: configs.isEditable },
  order: { key: configs.key, category: configs.category, updatedAt: configs.updatedAt, id: configs.id },
  defaultOrder: ['key', 'asc'],
  paginated: false,
  deletion: { mode: 'none' },
  hooks: {
    // Only editable settings change, and only to a value of their own type and range (the password policy's
    // figures, also to one that keeps the policy coherent: server/auth/passwordPolicy.ts).
    async beforeWrite({ app, tx }, input, _values, existing) {
      if (!existing || !('value' in input)) return;
      if (!existing.isEditable) throw invalidField('value', 'Ce paramètre est en lecture seule.');
      const contradiction = await policySettingError(app.settings, existing.key as string, input.value, tx);
      if (contradiction) throw invalidField('value', contradiction);
      const rule = SYSTEM_SETTINGS.find((s) => s.key === existing.key)?.rule;
      const error = settingValueError(existing.valueType as string, input.value, rule);
      if (error) throw invalidField('value', error);
    },
    afterWrite({ app }) {
      app.settings.invalidate();
    },
  },
};
