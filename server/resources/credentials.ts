import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { credentialSoftware, shopCredentials, software } from '../db/schema';
import { invalidField } from '../http/errors';
import { derived, reference, text, timestamps, writeOnly } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration, Row } from '../hydra/types';
import { choicesOf, CONTEXT_TYPES, credentialSchema, ENTITY_STATUS_CHOICES, ENVIRONMENT_LABELS, SOFTWARE_TYPE_LABELS } from '#domain/schemas';
import { settingsPermissions } from '#domain/resources';

/** Secret fields: written in clear, stored encrypted, never returned (only whether one is set). */
const SECRETS = { password: 'passwordEnc', apiKey: 'apiKeyEnc', apiSecret: 'apiSecretEnc' } as const;

export const credentialsResource: ResourceDeclaration = {
  name: 'credential_software',
  className: 'CredentialSoftware',
  label: { singular: 'Identifiant', plural: 'Identifiants' },
  auditName: 'credential',
  table: credentialSoftware,
  idColumn: credentialSoftware.id,
  fields: {
    login: text(credentialSoftware.login, { required: true, iri: 'name', label: 'Identifiant de connexion' }),
    password: writeOnly('string', { secret: true, description: 'Chiffré ; laissé vide, il reste inchangé.', label: 'Mot de passe' }),
    loginPage: text(credentialSoftware.loginPage, { required: true, iri: 'url', label: 'Page de connexion' }),
    status: text(credentialSoftware.status, { label: 'Statut', choices: ENTITY_STATUS_CHOICES }),
    contextType: text(credentialSoftware.contextType, {
      description: 'general, mutual ou network',
      label: 'Contexte',
      choices: choicesOf(SOFTWARE_TYPE_LABELS, CONTEXT_TYPES),
    }),
    contextName: text(credentialSoftware.contextName, { label: 'Nom du contexte' }),
    software: reference('software', credentialSoftware.softwareId, { required: true, embed: ['label', 'type'], label: 'Logiciel' }),
    holding: reference('holdings', credentialSoftware.holdingId, { writable: false, embed: ['name'], label: 'Organisation' }),
    environment: text(credentialSoftware.environment, { description: 'production ou test', label: 'Environnement', choices: choicesOf(ENVIRONMENT_LABELS) }),
    apiKey: writeOnly('string', { secret: true, label: 'Clé API' }),
    apiSecret: writeOnly('string', { secret: true, label: 'Secret API' }),
    displayIdentifier: text(credentialSoftware.displayIdentifier, { label: 'Identifiant affiché' }),
    hasPassword: derived('boolean', (row: Row) => row.passwordEnc != null, { sql: sql`${credentialSoftware.passwordEnc} is not null`, label: 'Mot de passe' }),
    hasApiKey: derived('boolean', (row: Row) => row.apiKeyEnc != null, { sql: sql`${credentialSoftware.apiKeyEnc} is not null`, label: 'Clé API' }),
    hasApiSecret: derived('boolean', (row: Row) => row.apiSecretEnc != null, { sql: sql`${credentialSoftware.apiSecretEnc} is not null`, label: 'Secret API' }),
    ...timestamps(credentialSoftware),
  },
  schema: { create: credentialSchema, update: credentialSchema },
  // The spec's keys say settings.credentials (and edit, like software: spec section 6).
  permissions: settingsPermissions('settings.credentials', { update: 'edit' }),
  permissionModule: 'system',
  settingsTab: { position: 9, aliases: ['credentials'] },
  list: {
    columns: ['login', 'software', 'contextType', 'environment', 'hasPassword', 'status'],
    filters: [
      { field: 'software', kind: 'reference' },
      { field: 'status', kind: 'choice' },
    ],
    searchPlaceholder: 'Rechercher un identifiant (login, contexte)...',
    empty: 'Aucun identifiant configuré',
    scopeToHolding: true,
  },
  form: {
    fields: ['software', 'login', 'password', 'loginPage', 'contextType', 'contextName', 'environment', 'status', 'apiKey', 'apiSecret', 'displayIdentifier'],
    fullWidth: ['loginPage'],
    defaults: { status: 'Active', contextType: 'general', environment: 'production' },
  },
  // A credential belongs to the organisation of its software.
  tenancy: holdingOwned(credentialSoftware.holdingId, {
    derivedFrom: 'software',
    derivedOutOfScope: 'Logiciel introuvable ou hors de votre périmètre.',
    async derive(input, tx) {
      if (typeof input.software !== 'number') return undefined;
      const [owner] = await tx
        .select({ holdingId: software.holdingId })
        .from(software)
        .where(and(eq(software.id, input.software), isNull(software.deletedAt)));
      return owner ? owner.holdingId : null;
    },
  }),
  search: [credentialSoftware.login, credentialSoftware.contextName, credentialSoftware.displayIdentifier],
  filters: {
    status: credentialSoftware.status,
    software: credentialSoftware.softwareId,
    holding: credentialSoftware.holdingId,
    contextType: credentialSoftware.contextType,
    environment: credentialSoftware.environment,
  },
  rangeFilters: { createdAt: credentialSoftware.createdAt },
  order: { login: credentialSoftware.login, status: credentialSoftware.status, createdAt: credentialSoftware.createdAt, id: credentialSoftware.id },
  defaultOrder: ['id', 'asc'],
  paginated: false,
  deletion: { mode: 'soft', column: credentialSoftware.deletedAt },
  hooks: {
    async beforeWrite({ app, tx }, input, values, existing) {
      // Centres use the credentials of their own organisation: a credential they use keeps its organisation.
      if (existing && values.holdingId !== undefined && values.holdingId !== existing.holdingId) {
        const [row] = await tx
          .select({ n: count() })
          .from(shopCredentials)
          .where(eq(shopCredentials.credentialId, existing.id as number));
        const n = Number(row?.n ?? 0);
        if (n > 0) throw invalidField('software', `Impossible de changer l'organisation : ${n} centre${n > 1 ? 's utilisent' : ' utilise'} cet identifiant.`);
      }
      for (const [field, column] of Object.entries(SECRETS)) {
        const value = input[field];
        // Empty keeps the stored secret; null (explicitly) is treated the same way by the schema.
        if (typeof value === 'string' && value !== '') values[column] = app.secrets.encrypt(value);
      }
    },
    // An archived credential is no longer used by any centre (the robot must not log in with it).
    async beforeDelete({ tx }, existing) {
      await tx.delete(shopCredentials).where(eq(shopCredentials.credentialId, existing.id as number));
    },
  },
};
