// The whole database, one table per entity. Columns are snake_case; the API exposes the spec's camelCase names.
// Every organisation-owned table carries holding_id so that every query can be confined to one organisation.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const status = () => text('status').notNull().default('Active');
const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });

const address = {
  street: text('street'),
  postalCode: text('postal_code'),
  city: text('city'),
  country: text('country').notNull().default('France'),
};

export const holdings = pgTable('holdings', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  registrationNumber: text('registration_number').notNull(),
  vatNumber: text('vat_number'),
  email: text('email'),
  phone: text('phone'),
  ...address,
  status: status(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    name: text('name').notNull(),
    registrationNumber: text('registration_number').notNull(),
    vatNumber: text('vat_number'),
    ...address,
    status: status(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Lists sort by name then id, across the platform or inside one organisation.
  (t) => [index('companies_name_idx').on(t.name, t.id), index('companies_holding_name_idx').on(t.holdingId, t.name, t.id)],
);

export const shops = pgTable(
  'shops',
  {
    id: serial('id').primaryKey(),
    // Copied from the company on write: the tenancy filter never needs a join.
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    numero: text('numero'),
    siret: text('siret').notNull(),
    ...address,
    email: text('email'),
    phone: text('phone'),
    status: status(),
    displayName: text('display_name'),
    finess: text('finess'),
    rpps: text('rpps'),
    codeClient: text('code_client'),
    specialite: text('specialite'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('shops_name_idx').on(t.name, t.id), index('shops_holding_name_idx').on(t.holdingId, t.name, t.id), index('shops_company_idx').on(t.companyId)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id').references(() => holdings.id),
    // Always stored lower-cased: the unique index is then case-insensitive.
    email: text('email').notNull(),
    // Null until an invited user chooses a password: no password signs such an account in.
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    status: status(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
    // Access tokens issued before this instant are refused (set when the password changes).
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true, mode: 'date' }),
    // When the pending invitation was sent (null once the user chose a password): the list's 'Invitation envoyée'.
    invitationSentAt: timestamp('invitation_sent_at', { withTimezone: true, mode: 'date' }),
    // A password an administrator typed: its owner chooses another at the next sign-in (server/auth/signIn.ts).
    passwordMustChange: boolean('password_must_change').notNull().default(false),
    // Wrong second-factor codes in a row (sign-in, turning it off): every SECOND_FACTOR_ALERT_FAILURES, its owner is told.
    secondFactorFailures: integer('second_factor_failures').notNull().default(0),
    // The second factor (RFC 6238): its secret encrypted with APP_SECRET_KEY, set once confirmed, and the last time
    // step a code was accepted for (a code is used once).
    totpSecretEnc: text('totp_secret_enc'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, mode: 'date' }),
    totpLastCounter: bigint('totp_last_counter', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(t.email),
    index('users_last_name_idx').on(t.lastName, t.id),
    index('users_holding_last_name_idx').on(t.holdingId, t.lastName, t.id),
  ],
);

export const userShops = pgTable(
  'user_shops',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.shopId] }), index('user_shops_shop_idx').on(t.shopId)],
);

// Roles with holding_id null are the platform's seeded roles, readable by every organisation.
export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id').references(() => holdings.id),
    name: text('name').notNull(),
    description: text('description'),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * A seeded platform role's key in SEEDED_ROLES (domain/roles.ts: 'organisationAdmin'…), null for the others: the
     * seed, the migrations and the tests find a seeded role by it, never by its French name, which may change.
     */
    seedKey: text('seed_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('roles_holding_idx').on(t.holdingId), uniqueIndex('roles_seed_key_idx').on(t.seedKey)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

// A refresh token is stored only as its SHA-256; every rotation stays in the family of the first login,
// so that presenting a used token revokes the whole family.
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Single-use links sent by email: a password reset (30 minutes) or an invitation (7 days). Only their hash is kept. */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    /** The job of the forgotten-password request that made it: a job run twice makes one link. */
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_idx').on(t.tokenHash),
    uniqueIndex('account_tokens_request_idx').on(t.requestId),
    index('account_tokens_user_idx').on(t.userId, t.purpose),
  ],
);

/**
 * A sign-in under way after the password: the steps still to pass (the second factor, a new password, an enrolment)
 * before any token is issued. Only the hash of its reference is kept; it expires within minutes.
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** two_factor, password_change or two_factor_enrolment. */
    step: text('step').notNull(),
    /** The secret offered for enrolment, encrypted, until a code confirms it. */
    pendingSecretEnc: text('pending_secret_enc'),
    failures: integer('failures').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('login_challenges_hash_idx').on(t.tokenHash)],
);

/** The ten single-use recovery codes of a user's second factor, hashed. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    /** The client address (TRUST_PROXY decides whether X-Forwarded-For is believed): failures block per email and address. */
    ip: text('ip'),
    succeeded: boolean('succeeded').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('login_attempts_email_idx').on(t.email, t.createdAt)],
);

export const networks = pgTable(
  'networks',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    code: text('code'),
    description: text('description'),
    isDefault: boolean('is_default').notNull().default(false),
    status: status(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('networks_code_idx').on(t.code)],
);

export const mutuals = pgTable(
  'mutuals',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    code: text('code'),
    networkId: integer('network_id').references(() => networks.id),
    status: status(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('mutuals_network_idx').on(t.networkId), index('mutuals_name_idx').on(t.name, t.id)],
);

// The doctors who prescribe the aids (ORL, médecin généraliste, ophtalmologiste), per organisation.
export const prescribers = pgTable(
  'prescribers',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    civility: text('civility').notNull(),
    lastName: text('last_name').notNull(),
    firstName: text('first_name'),
    specialty: text('specialty').notNull(),
    rpps: text('rpps').notNull(),
    city: text('city'),
    phone: text('phone'),
    email: text('email'),
    status: status(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // One RPPS per organisation; an organisation's list and the platform's, by name.
  (t) => [
    uniqueIndex('prescribers_holding_rpps_idx').on(t.holdingId, t.rpps),
    index('prescribers_holding_name_idx').on(t.holdingId, t.lastName, t.id),
    index('prescribers_name_idx').on(t.lastName, t.id),
  ],
);

export const software = pgTable(
  'software',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    label: text('label').notNull(),
    description: text('description'),
    type: text('type').notNull(),
    vendor: text('vendor'),
    version: text('version'),
    apiUrl: text('api_url'),
    documentationUrl: text('documentation_url'),
    status: status(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('software_label_idx')
      .on(t.label, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('software_holding_label_idx')
      .on(t.holdingId, t.label, t.id)
      .where(sql`${t.deletedAt} is null`),
  ],
);

// Secrets (password, apiKey, apiSecret) are AES-256-GCM ciphertexts; the API never returns them.
export const credentialSoftware = pgTable(
  'credential_software',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    softwareId: integer('software_id')
      .notNull()
      .references(() => software.id),
    login: text('login').notNull(),
    passwordEnc: text('password_enc'),
    loginPage: text('login_page').notNull(),
    status: status(),
    contextType: text('context_type').notNull().default('general'),
    contextName: text('context_name'),
    environment: text('environment').notNull().default('production'),
    apiKeyEnc: text('api_key_enc'),
    apiSecretEnc: text('api_secret_enc'),
    displayIdentifier: text('display_identifier'),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('credential_software_holding_idx').on(t.holdingId, t.id), index('credential_software_software_idx').on(t.softwareId)],
);

export const shopCredentials = pgTable(
  'shop_credentials',
  {
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    credentialId: integer('credential_id')
      .notNull()
      .references(() => credentialSoftware.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.credentialId] }), index('shop_credentials_credential_idx').on(t.credentialId)],
);

// System settings: platform-wide. value_type fixes the JSON type a new value must have.
export const configs = pgTable(
  'configs',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    description: text('description'),
    value: jsonb('value'),
    valueType: text('value_type').notNull(),
    isEditable: boolean('is_editable').notNull().default(true),
    category: text('category').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('configs_key_idx').on(t.key)],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    holdingId: integer('holding_id'),
    actorId: integer('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** What the record was called when the entry was written (a PEC file's number): a deleted record keeps its name. */
    entityLabel: text('entity_label'),
    changes: jsonb('changes'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_logs_holding_idx').on(t.holdingId, t.createdAt),
    index('audit_logs_entity_idx').on(t.entity, t.entityId),
    index('audit_logs_created_idx').on(t.createdAt),
  ],
);

/** The kinds of notification a user chose not to receive (domain/notifications.ts); no row: every kind. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  mutedKinds: text('muted_kinds')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: updatedAt(),
});

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    holdingId: integer('holding_id'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    link: text('link'),
    dossierId: integer('dossier_id').references((): AnyPgColumn => pecDossiers.id, { onDelete: 'set null' }),
    /** What it is about: one of NOTIFICATION_KINDS (domain/notifications.ts). */
    kind: text('kind'),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    /** A notification sent once whatever the instances and restarts (the daily follow-ups: `follow_up:{user}:{day}`). */
    uniqueKey: text('unique_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('notifications_unique_key_idx').on(t.uniqueKey),
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    index('notifications_dossier_idx').on(t.dossierId),
  ],
);

export const pecDossiers = pgTable(
  'pec_dossiers',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id),
    networkId: integer('network_id').references(() => networks.id),
    mutualId: integer('mutual_id').references(() => mutuals.id),
    numeroDossier: text('numero_dossier').notNull(),
    status: text('status').notNull().default('draft'),
    numeroDossierAssure: text('numero_dossier_assure'),
    numeroDevisAssure: text('numero_devis_assure'),
    commentaire: text('commentaire'),
    dateCreation: date('date_creation', { mode: 'string' }),
    totalTtc: money('total_ttc'),
    externalId: text('external_id'),
    numDossierDpec: text('num_dossier_dpec'),
    numPec: text('num_pec'),
    prixFraisReels: money('prix_frais_reels'),
    baseSs: money('base_ss'),
    partSs: money('part_ss'),
    partComplementaire: money('part_complementaire'),
    resteCharge: money('reste_charge'),
    datePeremption: date('date_peremption', { mode: 'string' }),
    dateValidation: timestamp('date_validation', { withTimezone: true, mode: 'date' }),
    dateFacturationEffective: date('date_facturation_effective', { mode: 'string' }),
    statutFacturation: boolean('statut_facturation').notNull().default(false),
    numBilling: text('num_billing'),
    dateBilling: date('date_billing', { mode: 'string' }),
    detailRefus: text('detail_refus'),
    // The prescription (issue 15): its prescriber and date; the beneficiary's birth date sets the optical rules' age band.
    prescriberId: integer('prescriber_id').references(() => prescribers.id),
    datePrescription: date('date_prescription', { mode: 'string' }),
    dateNaissanceBeneficiaire: date('date_naissance_beneficiaire', { mode: 'string' }),
    // The insured as the insurer's portal asks for them (issue 29): names and contract number (numéro d'adhérent),
    // optional, searchable (migration 0024's search trigger), never logged.
    nomAssure: text('nom_assure'),
    prenomAssure: text('prenom_assure'),
    numeroAdherent: text('numero_adherent'),
    // Payment by the insurer (issue 15; domain/payments.ts): what it paid so far, when last, whether it falls short
    // of what it owes ('Paiement partiel', the file stays billed) and the amount still due.
    montantPaye: money('montant_paye'),
    datePaiement: date('date_paiement', { mode: 'string' }),
    paiementPartiel: boolean('paiement_partiel').notNull().default(false),
    montantDu: money('montant_du'),
    // Lower-cased, accent-free text of the searchable fields (file, patient, quote, PEC and invoice numbers, the insured's
    // names and contract number, centre, mutual; the file, PEC and invoice numbers folded too, as statements name them),
    // kept by the trigger of migrations 0003, 0026, 0032 and 0038 on every write and when a centre or a mutual is renamed.
    searchText: text('search_text').notNull().default(''),
    /** The datePeremption value the last expiry notification was sent for (the daily scan notifies each date once). */
    expiryNotifiedFor: date('expiry_notified_for', { mode: 'string' }),
    // Archived (issue 25, domain/archive.ts): out of the default list and of the robot's reach, kept everywhere else.
    archived: boolean('archived').notNull().default(false),
    archivedAt: timestamp('archived_at', { withTimezone: true, mode: 'date' }),
    /** ARCHIVE_REASONS (domain/archive.ts): settled, abandoned, duplicate, input_error, other (with archiveNote). */
    archiveReason: text('archive_reason'),
    archiveNote: text('archive_note'),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    // Follow-ups (issue 28, domain/followUps.ts): who follows the file ('Suivi par', its creator by default), when to
    // chase the insurer ('Relance le'), and when its status last changed (kept by the trigger of migration 0025).
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    followUpDate: date('follow_up_date', { mode: 'string' }),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // One index per list order within an organisation (the id breaks ties), and one per centre for assigned users. Each
  // has `archived` after the organisation (issue 25): the default list (not archived) and the archived files are each
  // one ordered range of the index, read from the index alone as before; a partial index would serve only one of them.
  (t) => [
    uniqueIndex('pec_dossiers_numero_idx').on(t.holdingId, t.numeroDossier),
    uniqueIndex('pec_dossiers_external_idx').on(t.externalId),
    index('pec_dossiers_holding_created_idx').on(t.holdingId, t.archived, t.createdAt, t.id),
    index('pec_dossiers_shop_created_idx').on(t.shopId, t.archived, t.createdAt, t.id),
    index('pec_dossiers_holding_status_idx').on(t.holdingId, t.archived, t.status, t.createdAt, t.id),
    index('pec_dossiers_holding_status_id_idx').on(t.holdingId, t.archived, t.status, t.id),
    // The narrowest index of an organisation's files: its list total (count) reads the fewest pages.
    index('pec_dossiers_holding_idx').on(t.holdingId, t.archived),
    // The totals of a centre's staff (their centres, and a status): counted from this index alone, not from the table's
    // pages of the whole organisation (load bench: 3.8 ms a count, 60 % of PostgreSQL's time, ~1 ms now).
    index('pec_dossiers_holding_shop_status_idx').on(t.holdingId, t.shopId, t.archived, t.status),
    // The list sorted by centre name: the organisation's files and their centres from this index alone (the centres'
    // names are then read from shops). From the table's pages, one page per file, it took 1.2 s at 1,000,000 files.
    index('pec_dossiers_holding_shop_id_idx').on(t.holdingId, t.archived, t.shopId, t.id),
    index('pec_dossiers_holding_total_idx').on(t.holdingId, t.archived, t.totalTtc, t.id),
    index('pec_dossiers_holding_validation_idx').on(t.holdingId, t.archived, t.dateValidation, t.id),
    // Descending sorts put empty values last (server/hydra/repository.ts): their own order.
    index('pec_dossiers_holding_total_desc_idx').on(t.holdingId, t.archived, t.totalTtc.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('pec_dossiers_holding_validation_desc_idx').on(t.holdingId, t.archived, t.dateValidation.desc().nullsLast(), t.id.desc().nullsFirst()),
    // The search within an organisation in one index scan (btree_gin for the id): with the trigram index alone,
    // PostgreSQL intersected it with the organisation's 20,000 entries of pec_dossiers_holding_idx (15 ms instead of 2).
    // A condition on search_text alone (the platform administrator) uses it too.
    index('pec_dossiers_holding_search_idx').using('gin', t.holdingId, t.searchText.op('gin_trgm_ops')),
    // A patient's earlier files in the organisation (the renewal warning).
    index('pec_dossiers_holding_patient_idx').on(t.holdingId, t.numeroDossierAssure),
    // Twins: the files of an organisation with the same quote number (the duplicate warning, the DPEC's check, the import).
    index('pec_dossiers_holding_quote_idx').on(t.holdingId, t.numeroDevisAssure),
    // 'Suivi par' (an owner's files, newest first) and "À relancer" (the two halves of its rule, each a small range).
    // The owner's files within the reader's organisation: PostgreSQL cannot know that an owner implies the organisation,
    // so without the holding first it combined two bitmaps and read 13,000 rows for a page of 30 (bench: 531 ms at 1M).
    index('pec_dossiers_holding_owner_created_idx').on(t.holdingId, t.ownerId, t.archived, t.createdAt, t.id),
    // A user's files across organisations (a platform administrator's view, a user removed).
    index('pec_dossiers_owner_created_idx').on(t.ownerId, t.archived, t.createdAt, t.id),
    index('pec_dossiers_follow_up_date_idx')
      .on(t.holdingId, t.followUpDate)
      .where(sql`${t.followUpDate} is not null and ${t.archived} = false`),
    index('pec_dossiers_pending_since_idx')
      .on(t.holdingId, t.statusChangedAt)
      .where(sql`${t.status} = 'pending' and ${t.archived} = false`),
    index('pec_dossiers_expiry_idx')
      .on(t.holdingId, t.datePeremption)
      .where(sql`${t.statutFacturation} = false`),
    // A statement's lines name files by PEC number, invoice number or Pecflow ID as the insurer writes them, compared
    // folded (foldForKey; pecflow_fold, the same in SQL, created by migration 0037): an import reads the files it
    // names from these, not every file of the organisation.
    index('pec_dossiers_holding_num_pec_fold_idx').on(t.holdingId, sql`pecflow_fold(${t.numPec})`),
    index('pec_dossiers_holding_num_billing_fold_idx').on(t.holdingId, sql`pecflow_fold(${t.numBilling})`),
    index('pec_dossiers_holding_numero_fold_idx').on(t.holdingId, sql`pecflow_fold(${t.numeroDossier})`),
    // The dashboard's receivables: billed files not paid yet, by age of their billing.
    index('pec_dossiers_receivables_idx')
      .on(t.holdingId, t.dateFacturationEffective)
      .where(sql`${t.status} = 'billed'`),
  ],
);

export const appareils = pgTable(
  'appareils',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id').notNull(),
    dossierId: integer('dossier_id')
      .notNull()
      .references(() => pecDossiers.id, { onDelete: 'cascade' }),
    oreille: text('oreille').notNull(),
    fabricant: text('fabricant'),
    marque: text('marque'),
    modele: text('modele'),
    prixTtc: money('prix_ttc'),
    codeLpp: text('code_lpp'),
    premierAppareillage: boolean('premier_appareillage').notNull().default(false),
    forme: text('forme'),
    /** 'I' (100 % Santé) or 'II'. */
    classe: text('classe'),
    offre100Sante: boolean('offre_100_sante').notNull().default(true),
  },
  (t) => [index('appareils_dossier_idx').on(t.dossierId)],
);

// An optician's file holds one optical equipment (issue 15; domain/optical.ts): the frame in columns, each lens as
// the API shows it (Lens) in a JSON column, null when that eye is not equipped.
export const opticalEquipments = pgTable(
  'optical_equipments',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id').notNull(),
    dossierId: integer('dossier_id')
      .notNull()
      .references(() => pecDossiers.id, { onDelete: 'cascade' }),
    /** 100 % Santé class 'A' or 'B'; null when unknown. */
    classe: text('classe'),
    montureMarque: text('monture_marque'),
    montureModele: text('monture_modele'),
    monturePrix: money('monture_prix'),
    montureCodeLpp: text('monture_code_lpp'),
    verreOd: jsonb('verre_od'),
    verreOg: jsonb('verre_og'),
  },
  (t) => [uniqueIndex('optical_equipments_dossier_idx').on(t.dossierId)],
);

// The reference values of the checks on PEC files (issue 15, server/pec/warnings.ts): price limits, Sécurité sociale
// rates and renewal periods, each with its legal source. Platform-wide, seeded with every installation.
export const pecRuleValues = pgTable('pec_rule_values', {
  key: text('key').primaryKey(),
  value: numeric('value', { precision: 12, scale: 2, mode: 'number' }).notNull(),
  /** eur, percent, months or years. */
  unit: text('unit').notNull(),
  label: text('label').notNull(),
  source: text('source').notNull(),
  updatedAt: updatedAt(),
});

// One row per robot step and per callback received (spec section 3, "Workflow execution"). A robot run opens a step
// (completed_at null: "en cours") that its callback completes; a DPEC run has two steps (scraping, then dpec), a billing
// run one. At most one open step per file: that is the "run in progress".
export const workflowExecutions = pgTable(
  'workflow_executions',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id').notNull(),
    dossierId: integer('dossier_id')
      .notNull()
      .references(() => pecDossiers.id, { onDelete: 'cascade' }),
    workflowName: text('workflow_name').notNull(),
    /** dpec or billing: the run this step belongs to; null for a callback outside a run. */
    runKind: text('run_kind'),
    /** Id of the run's first step (shared by its steps and callbacks). */
    runId: integer('run_id'),
    /** scraping, dpec, billing, or {type}_error once completed with a failure. */
    callbackType: text('callback_type'),
    success: boolean('success'),
    /** running, success, pending, refused, error, timeout. */
    outcome: text('outcome'),
    /** The file's status before the run: a technical failure returns it there. */
    previousStatus: text('previous_status'),
    /** After this instant a run with no final callback fails (ROBOT_RUN_TIMEOUT_MS). */
    deadlineAt: timestamp('deadline_at', { withTimezone: true, mode: 'date' }),
    /** The user who started the run or entered the result; null for the robot. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    robotResponse: jsonb('robot_response'),
    // Hash of a callback's body: a repeated delivery finds its first execution instead of acting twice.
    dedupeKey: text('dedupe_key'),
    processingTimeMs: integer('processing_time_ms'),
  },
  (t) => [
    index('workflow_executions_dossier_idx').on(t.dossierId, t.startedAt),
    uniqueIndex('workflow_executions_dedupe_idx').on(t.dedupeKey),
    index('workflow_executions_holding_idx').on(t.holdingId, t.startedAt),
    uniqueIndex('workflow_executions_open_idx')
      .on(t.dossierId)
      .where(sql`${t.completedAt} is null`),
    index('workflow_executions_run_idx').on(t.runId),
    index('workflow_executions_deadline_idx')
      .on(t.deadlineAt)
      .where(sql`${t.completedAt} is null`),
  ],
);

// Next readable file number per organisation and year (PEC-2026-000123).
export const pecCounters = pgTable(
  'pec_counters',
  {
    holdingId: integer('holding_id').notNull(),
    year: integer('year').notNull(),
    lastValue: integer('last_value').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.holdingId, t.year] })],
);

// Payment statements (relevés de paiement, issue 15): a CSV of an insurer's payments applied to an organisation's
// billed files all or nothing, kept with each line's outcome and the file's payment state before and after, so that
// the statement can be undone as a whole.
export const paymentStatements = pgTable(
  'payment_statements',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    /** The payer of its lines (several names joined when they differ). */
    payer: text('payer'),
    fileName: text('file_name'),
    /** applied or undone (PAYMENT_STATEMENT_STATUSES). */
    status: text('status').notNull().default('applied'),
    linesCount: integer('lines_count').notNull().default(0),
    totalAmount: money('total_amount').notNull(),
    /** The part of the total that went to files (lines paid in full, partial or over-paid). */
    appliedAmount: money('applied_amount').notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    undoneAt: timestamp('undone_at', { withTimezone: true, mode: 'date' }),
    undoneById: integer('undone_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** Why it was undone (required: a posted payment is reversed with its reason, never silently). */
    undoReason: text('undo_reason'),
    // Issue 25: what makes it the same statement again. The fingerprint of its content (sha256 of its lines' keys,
    // sorted: server/pec/statementFile.ts) and its own number and period when the file carries them.
    contentHash: text('content_hash'),
    reference: text('reference'),
    period: text('period'),
    /** Its lines whose money reached no file and that nobody handled yet ('À traiter': domain/payments.ts isPendingLine). */
    pendingLines: integer('pending_lines').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('payment_statements_holding_created_idx').on(t.holdingId, t.createdAt, t.id),
    // A statement is applied once (issue 25): two imports of the same content, or of the same payer's same number,
    // cannot both be applied, even sent at the same moment; undone, it may be applied again.
    uniqueIndex('payment_statements_applied_content_idx')
      .on(t.holdingId, t.contentHash)
      .where(sql`${t.status} = 'applied'`),
    uniqueIndex('payment_statements_applied_reference_idx')
      .on(t.holdingId, t.payer, t.reference)
      .where(sql`${t.status} = 'applied' and ${t.reference} is not null`),
  ],
);

export const paymentStatementLines = pgTable(
  'payment_statement_lines',
  {
    id: serial('id').primaryKey(),
    statementId: integer('statement_id')
      .notNull()
      .references(() => paymentStatements.id, { onDelete: 'cascade' }),
    holdingId: integer('holding_id').notNull(),
    /** The line of the CSV file (the header is line 1). */
    lineNumber: integer('line_number').notNull(),
    paymentDate: date('payment_date', { mode: 'string' }).notNull(),
    payer: text('payer'),
    reference: text('reference').notNull(),
    amount: money('amount').notNull(),
    label: text('label'),
    dossierId: integer('dossier_id').references(() => pecDossiers.id, { onDelete: 'set null' }),
    /** PAYMENT_OUTCOMES (domain/payments.ts). */
    outcome: text('outcome').notNull(),
    /** Partial: the amount still due; over-paid: the excess. */
    difference: money('difference'),
    /** Already applied (issue 25): the statement that paid this line before. */
    appliedInId: integer('applied_in_id').references(() => paymentStatements.id),
    /** The file's payment state before and after this line (PaymentState), for the undo. */
    stateBefore: jsonb('state_before'),
    stateAfter: jsonb('state_after'),
    /**
     * A line to be handled (PENDING_OUTCOMES), handled after the import (LINE_RESOLUTIONS): attached to a file by hand
     * (its outcome, file and states then are the payment's) or set aside with its reason; by whom and when.
     */
    resolution: text('resolution'),
    resolutionNote: text('resolution_note'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolvedById: integer('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** The line as the insurer wrote it (receivedLineKey): an overlapping statement's copy of a line that reached no file is recognised by it. */
    lineKey: text('line_key'),
    /** Already applied: what counted it (STATEMENT_MESSAGES: the statement, the line of this one, the payment entered by hand); else null. */
    outcomeLabel: text('outcome_label'),
    /**
     * A line attached or counted by hand: its fields before (LineBeforePayment, server/pec/statements.ts), which its
     * detach puts back; null otherwise, and for a line handled before migration 0041 (its detach is refused).
     */
    beforePayment: jsonb('before_payment'),
  },
  (t) => [
    index('payment_statement_lines_statement_idx').on(t.statementId, t.lineNumber),
    index('payment_statement_lines_dossier_idx').on(t.dossierId),
    index('payment_statement_lines_key_idx').on(t.holdingId, t.lineKey),
    index('payment_statement_lines_applied_in_idx').on(t.appliedInId),
  ],
);

// The payment history of a file (issue 25): every payment that touches it, from a statement's line or entered by hand
// ('Enregistrer un paiement'). A row is never deleted: a payment is cancelled (reversed_at, who, why), a manual one on
// its own, a statement's lines when the statement is undone. The file's amount paid, last payment date, partial flag,
// amount due and billed/paid status are derived from its rows that count (domain/payments.ts, paymentStateOf).
export const pecPayments = pgTable(
  'pec_payments',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    // A file that carries money is never erased: its payments keep it (restrict).
    dossierId: integer('dossier_id')
      .notNull()
      .references(() => pecDossiers.id, { onDelete: 'restrict' }),
    paymentDate: date('payment_date', { mode: 'string' }).notNull(),
    amount: money('amount').notNull(),
    /** PAYMENT_SOURCES: statement or manual. */
    source: text('source').notNull(),
    statementId: integer('statement_id').references(() => paymentStatements.id),
    statementLineId: integer('statement_line_id').references(() => paymentStatementLines.id),
    payer: text('payer'),
    reference: text('reference'),
    label: text('label'),
    /**
     * A statement line's payment on its file (filePaymentKey: amount and day, then `|2`, `|3`… for a second payment of
     * the same amount and day counted by hand: distinctPaymentKey); null for a manual payment.
     */
    lineKey: text('line_key'),
    /** A second payment of the same amount on the same day as another of the file's, recorded as such: why (SAME_DAY_CONFLICT). */
    distinctReason: text('distinct_reason'),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    reversedAt: timestamp('reversed_at', { withTimezone: true, mode: 'date' }),
    reversedById: integer('reversed_by_id').references(() => users.id, { onDelete: 'set null' }),
    reversalReason: text('reversal_reason'),
  },
  (t) => [
    index('pec_payments_dossier_idx').on(t.dossierId, t.paymentDate, t.id),
    index('pec_payments_statement_idx').on(t.statementId),
    // A line pays once at a time: a line detached (its payment reversed) can be attached again.
    uniqueIndex('pec_payments_statement_line_idx')
      .on(t.statementLineId)
      .where(sql`${t.reversedAt} is null`),
    // A statement's line counts once on its file (issue 25): the same line in another statement is refused by the
    // database too, whatever the timing of the two imports.
    uniqueIndex('pec_payments_line_key_idx')
      .on(t.dossierId, t.lineKey)
      .where(sql`${t.lineKey} is not null and ${t.reversedAt} is null`),
  ],
);

/** Saved views of the PEC list (issue 28): a user's named filters, sort and columns, optionally shared with the organisation. */
export const pecViews = pgTable(
  'pec_views',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    query: jsonb('query').notNull(),
    columns: jsonb('columns').notNull(),
    shared: boolean('shared').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // One name per author; the author's views and the organisation's shared ones, by name.
  (t) => [
    uniqueIndex('pec_views_user_name_idx').on(t.userId, sql`lower(${t.name})`),
    index('pec_views_holding_shared_idx')
      .on(t.holdingId, t.name)
      .where(sql`${t.shared}`),
  ],
);

// The files of bulk actions (issue 28, server/robot/bulk.ts): one row per file named, with its outcome. A robot run
// started in bulk waits here ('queued') until its organisation has fewer runs open than its robot concurrency; the
// sweep and each run's end start the next ones, so a queue outlives a restart.
export const bulkRuns = pgTable(
  'bulk_runs',
  {
    id: serial('id').primaryKey(),
    bulkId: text('bulk_id').notNull(),
    holdingId: integer('holding_id').references(() => holdings.id, { onDelete: 'cascade' }),
    /** null when the file named is unknown to its author (another organisation's, or gone). */
    dossierId: integer('dossier_id').references(() => pecDossiers.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    /** queued (a robot run waiting its turn), starting (claimed by a start), done, refused. */
    state: text('state').notNull(),
    reason: text('reason'),
    runId: integer('run_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('bulk_runs_bulk_idx').on(t.bulkId, t.id),
    index('bulk_runs_waiting_idx')
      .on(t.holdingId, t.id)
      .where(sql`${t.state} in ('queued', 'starting')`),
  ],
);

/** Raw bytes (bytea), read and written as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

// The documents of a PEC file (issue 29): what they are here, their content in pec_document_chunks (encrypted at rest,
// server/pec/documentStore.ts). A document goes with its file: deleting a draft deletes its documents.
export const pecDocuments = pgTable(
  'pec_documents',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    dossierId: integer('dossier_id')
      .notNull()
      .references(() => pecDossiers.id, { onDelete: 'cascade' }),
    /** DOCUMENT_KINDS (domain/documents.ts). */
    kind: text('kind').notNull(),
    originalName: text('original_name').notNull(),
    size: integer('size').notNull(),
    mimeType: text('mime_type').notNull(),
    /** SHA-256 of the plain content, hex. */
    sha256: text('sha256').notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** DOCUMENT_SOURCES: 'user' (a person, or Pecflow for them), 'robot' (posted back with its callbacks). */
    source: text('source').notNull().default('user'),
    createdAt: createdAt(),
  },
  (t) => [
    index('pec_documents_dossier_idx').on(t.dossierId, t.createdAt, t.id),
    index('pec_documents_holding_idx').on(t.holdingId),
    // The robot's documents are idempotent by content: the same bytes posted twice for a file are one document.
    uniqueIndex('pec_documents_robot_content_idx')
      .on(t.dossierId, t.sha256)
      .where(sql`${t.source} = 'robot'`),
  ],
);

/** A document's content, in order: each chunk AES-256-GCM encrypted on its own (nonce | tag | data). */
export const pecDocumentChunks = pgTable(
  'pec_document_chunks',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => pecDocuments.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.seq] })],
);

// A file's notes thread (issue 28, domain/followUps.ts): what colleagues tell each other about it. Changed or deleted
// by its author within 15 minutes; never sent to the robot.
export const pecNotes = pgTable(
  'pec_notes',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id')
      .notNull()
      .references(() => holdings.id),
    dossierId: integer('dossier_id')
      .notNull()
      .references(() => pecDossiers.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('pec_notes_dossier_idx').on(t.dossierId, t.createdAt, t.id)],
);
