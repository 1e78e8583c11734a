import { and, count, eq, isNull } from 'drizzle-orm';
import { credentialSoftware, shopCredentials, software } from '../db/schema';
import { invalidField } from '../http/errors';
import { derived, reference, text, timestamp, writeOnly } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration, Row } from '../hydra/types';
import { credentialSchema } from '../../src/domain/schemas';
import { RESOURCE_PERMISSIONS } from '../../src/domain/resources';

/** Secret fields: written in clear, stored encrypted, never returned (only whether one is set). */
const SECRETS = { password: 'passwordEnc', apiKey: 'apiKeyEnc', apiSecret: 'apiSecretEnc' } as const;

export const credentialsResource: ResourceDeclaration = {
  name: 'credential_software',
  className: 'CredentialSoftware',
  title: 'Identifiant',
  auditName: 'credential',
  table: credentialSoftware,
  idColumn: credentialSoftware.id,
  fields: {
    login: text(credentialSoftware.login, { required: true, iri: 'name' }),
    password: writeOnly('string', { secret: true, description: 'Chiffré ; laissé vide, il reste inchangé.' }),
    loginPage: text(credentialSoftware.loginPage, { required: true, iri: 'url' }),
    status: text(credentialSoftware.status),
    contextType: text(credentialSoftware.contextType, { description: 'general, mutual ou network' }),
    contextName: text(credentialSoftware.contextName),
    software: reference('software', credentialSoftware.softwareId, { required: true, embed: ['label', 'type'] }),
    holding: reference('holdings', credentialSoftware.holdingId, { writable: false, embed: ['name'] }),
    environment: text(credentialSoftware.environment, { description: 'production ou test' }),
    apiKey: writeOnly('string', { secret: true }),
    apiSecret: writeOnly('string', { secret: true }),
    displayIdentifier: text(credentialSoftware.displayIdentifier),
    hasPassword: derived('boolean', (row: Row) => row.passwordEnc != null),
    hasApiKey: derived('boolean', (row: Row) => row.apiKeyEnc != null),
    hasApiSecret: derived('boolean', (row: Row) => row.apiSecretEnc != null),
    createdAt: timestamp(credentialSoftware.createdAt),
    updatedAt: timestamp(credentialSoftware.updatedAt),
  },
  schema: { create: credentialSchema, update: credentialSchema },
  permissions: RESOURCE_PERMISSIONS.credential_software,
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
  filters: { status: credentialSoftware.status, software: credentialSoftware.softwareId, holding: credentialSoftware.holdingId, contextType: credentialSoftware.contextType, environment: credentialSoftware.environment },
  rangeFilters: { createdAt: credentialSoftware.createdAt },
  order: { login: credentialSoftware.login, status: credentialSoftware.status, createdAt: credentialSoftware.createdAt, id: credentialSoftware.id },
  defaultOrder: ['id', 'asc'],
  paginated: false,
  deletion: { mode: 'soft', column: credentialSoftware.deletedAt },
  hooks: {
    async beforeWrite({ app, tx }, input, values, existing) {
      // Centres use the credentials of their own organisation: a credential they use keeps its organisation.
      if (existing && values.holdingId !== undefined && values.holdingId !== existing.holdingId) {
        const [row] = await tx.select({ n: count() }).from(shopCredentials).where(eq(shopCredentials.credentialId, existing.id as number));
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
