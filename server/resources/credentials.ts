import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { credentialSoftware, shopCredentials, software } from '../db/schema';
import { invalidField } from '../http/errors';
import { derived, reference, text, timestamps, writeOnly } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration, Row } from '../hydra/types';
import { choicesOf, CONTEXT_TYPES, ENVIRONMENT_LABELS, SOFTWARE_TYPE_LABELS } from '#domain/schemas';
import { entityStatus, optionalText, secret } from './constraints';
import { settingsPermissions } from '#domain/resources';

/** Secret fields: written in clear, stored encrypted, never returned (only whether one is set). */
const SECRETS = { password: 'passwordEnc', apiKey: 'apiKeyEnc', apiSecret: 'apiSecretEnc' } as const;
/** Whether a credential holds that secret (encrypted). */
const isStored = (secret: keyof typeof SECRETS) => (row: Row) => row[SECRETS[secret]] != null;

export const credentialsResource: ResourceDeclaration = {
  name: 'credential_software',
  className: 'CredentialSoftware',
  label: { singular: 'Identifiant', plural: 'Identifiants' },
  auditName: 'credential',
  table: credentialSoftware,
  idColumn: credentialSoftware.id,
  fields: {
    login: text(credentialSoftware.login, {
      required: true,
      iri: 'name',
      label: 'Identifiant de connexion',
      constraints: {
        min: 2,
        message: 'L’identifiant doit contenir au moins 2 caractères',
        messages: { max: 'L’identifiant ne peut pas dépasser 255 caractères' },
      },
    }),
    password: writeOnly('string', {
      secret: true,
      isSet: isStored('password'),
      description: 'Chiffré ; laissé vide, il reste inchangé.',
      label: 'Mot de passe',
      constraints: secret(4, 'Le mot de passe doit contenir au moins 4 caractères'),
    }),
    loginPage: text(credentialSoftware.loginPage, {
      required: true,
      iri: 'url',
      label: 'Page de connexion',
      constraints: { url: true, message: 'La page de connexion est requise', messages: { url: 'L’URL de connexion doit être valide' } },
    }),
    status: text(credentialSoftware.status, { label: 'Statut', ...entityStatus }),
    contextType: text(credentialSoftware.contextType, {
      description: 'general, mutual ou network',
      label: 'Contexte',
      choices: choicesOf(SOFTWARE_TYPE_LABELS, CONTEXT_TYPES),
      default: 'general',
      constraints: { messages: { choice: 'Contexte invalide : general, mutual ou network' } },
    }),
    contextName: text(credentialSoftware.contextName, { label: 'Nom du contexte', constraints: optionalText() }),
    software: reference('software', credentialSoftware.softwareId, {
      required: true,
      embed: ['label', 'type'],
      label: 'Logiciel',
      constraints: { message: 'Un logiciel doit être sélectionné' },
    }),
    holding: reference('holdings', credentialSoftware.holdingId, { writable: false, embed: ['name'], label: 'Organisation' }),
    environment: text(credentialSoftware.environment, {
      description: 'production ou test',
      label: 'Environnement',
      choices: choicesOf(ENVIRONMENT_LABELS),
      default: 'production',
      constraints: { messages: { choice: 'Environnement invalide : production ou test' } },
    }),
    apiKey: writeOnly('string', { secret: true, isSet: isStored('apiKey'), label: 'Clé API', constraints: secret(1, 'Clé API invalide') }),
    apiSecret: writeOnly('string', { secret: true, isSet: isStored('apiSecret'), label: 'Secret API', constraints: secret(1, 'Secret API invalide') }),
    displayIdentifier: text(credentialSoftware.displayIdentifier, { label: 'Identifiant affiché', constraints: optionalText() }),
    hasPassword: derived('boolean', isStored('password'), { sql: sql`${credentialSoftware.passwordEnc} is not null`, label: 'Mot de passe' }),
    hasApiKey: derived('boolean', isStored('apiKey'), { sql: sql`${credentialSoftware.apiKeyEnc} is not null`, label: 'Clé API' }),
    hasApiSecret: derived('boolean', isStored('apiSecret'), { sql: sql`${credentialSoftware.apiSecretEnc} is not null`, label: 'Secret API' }),
    ...timestamps(credentialSoftware),
  },
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
    searchPlaceholder: 'Rechercher (login, contexte)…',
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
        if (n > 0) throw invalidField('software', `Impossible de changer l’organisation : ${n} centre${n > 1 ? 's utilisent' : ' utilise'} cet identifiant.`);
      }
      for (const [field, column] of Object.entries(SECRETS)) {
        const value = input[field];
        // Empty (or blank, or null: the schema makes them null) keeps the stored secret.
        if (typeof value === 'string' && value !== '') values[column] = app.secrets.encrypt(value);
      }
    },
    // An archived credential is no longer used by any centre (the robot must not log in with it).
    async beforeDelete({ tx }, existing) {
      await tx.delete(shopCredentials).where(eq(shopCredentials.credentialId, existing.id as number));
    },
  },
};
