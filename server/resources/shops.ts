import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { companies, credentialSoftware, pecDossiers, shopCredentials, shops, userShops } from '../db/schema';
import { invalidField } from '../http/errors';
import { reference, references, text, timestamps } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { SPECIALITES } from '#domain/schemas';
import { PEC_PERMISSIONS } from '#domain/permissions';
import { settingsPermissions } from '#domain/resources';
import { ADDRESS_FIELDS, addressFields } from './address';
import { digits, entityStatus, optionalEmail, optionalText, requiredText } from './constraints';
import { stillAttached } from './messages';

const SHOP_MOVE_USERS = (n: number) => `Impossible de changer l’organisation du centre : ${n} utilisateur${n > 1 ? 's y sont affectés' : ' y est affecté'}.`;
const SHOP_MOVE_FILES = (n: number) =>
  `Impossible de changer l’organisation du centre : ${n} demande${n > 1 ? 's' : ''} de PEC ${n > 1 ? 'y sont rattachées' : 'y est rattachée'}.`;

export const shopsResource: ResourceDeclaration = {
  name: 'shops',
  className: 'Shop',
  label: { singular: 'Centre', plural: 'Centres' },
  auditName: 'shop',
  table: shops,
  idColumn: shops.id,
  fields: {
    name: text(shops.name, { required: true, iri: 'name', label: 'Nom', constraints: requiredText(2, 'Nom requis') }),
    displayName: text(shops.displayName, { description: 'Nom affiché', label: 'Nom affiché', constraints: optionalText() }),
    numero: text(shops.numero, { label: 'Numéro', constraints: optionalText(50) }),
    siret: text(shops.siret, { required: true, description: 'SIRET', label: 'SIRET', constraints: requiredText(3, 'SIRET requis', 50) }),
    company: reference('companies', shops.companyId, { required: true, embed: ['name'], label: 'Entreprise', constraints: { message: 'Entreprise requise' } }),
    ...addressFields(shops),
    email: text(shops.email, { iri: 'email', label: 'Email', constraints: optionalEmail }),
    phone: text(shops.phone, { label: 'Téléphone', constraints: optionalText(50) }),
    status: text(shops.status, { label: 'Statut', ...entityStatus }),
    finess: text(shops.finess, {
      required: true,
      description: 'FINESS (9 chiffres)',
      label: 'FINESS',
      constraints: digits(9, 'FINESS doit contenir 9 chiffres'),
    }),
    rpps: text(shops.rpps, { required: true, description: 'RPPS (11 chiffres)', label: 'RPPS', constraints: digits(11, 'RPPS doit contenir 11 chiffres') }),
    codeClient: text(shops.codeClient, {
      required: true,
      description: 'Code client',
      label: 'Code client',
      constraints: { max: 50, message: 'Code client requis', messages: { max: 'Code client trop long' } },
    }),
    specialite: text(shops.specialite, {
      required: true,
      description: 'Audioprothésiste, Opticien ou Orthopédiste',
      label: 'Spécialité',
      choices: SPECIALITES.map((id) => ({ id, name: id })),
      constraints: { messages: { choice: 'Spécialité invalide : Audioprothésiste, Opticien ou Orthopédiste' } },
    }),
    credentials: references(
      'credential_software',
      { table: shopCredentials, ownerColumn: shopCredentials.shopId, targetColumn: shopCredentials.credentialId },
      { label: 'Identifiants', constraints: { message: 'Identifiant invalide' } },
    ),
    ...timestamps(shops),
  },
  permissions: settingsPermissions('settings.shops', { export: true }),
  permissionModule: 'user',
  settingsTab: { position: 3 },
  list: {
    columns: ['name', 'displayName', 'company', 'city', 'specialite', 'status'],
    filters: [{ field: 'status', kind: 'choice' }],
    searchPlaceholder: 'Rechercher (nom, ville, code client)…',
    empty: 'Aucun centre trouvé',
    scopeToHolding: true,
  },
  form: {
    tabs: [
      { label: 'Informations', fields: ['name', 'displayName', 'numero', 'company', 'specialite', 'status', 'siret', 'finess', 'rpps', 'codeClient'] },
      { label: 'Adresse et contact', fields: [...ADDRESS_FIELDS, 'email', 'phone'] },
      // Edited by the shop credential editor (src/resources/shops/), one credential per software.
      { label: 'Identifiants logiciels', fields: ['credentials'] },
    ],
    fullWidth: ['street'],
    defaults: { status: 'Active', country: 'France', specialite: 'Audioprothésiste' },
  },
  // Without settings.shops.view, a user who works on PEC files reads the centres they are assigned to (the PEC form).
  readAccess: {
    permission: PEC_PERMISSIONS.view,
    scope: (principal) => (principal.shopIds.length ? inArray(shops.id, principal.shopIds) : sql`false`),
  },
  // A centre belongs to its company's organisation.
  tenancy: holdingOwned(shops.holdingId, {
    derivedFrom: 'company',
    derivedOutOfScope: 'Entreprise introuvable ou hors de votre périmètre.',
    async derive(input, tx) {
      if (typeof input.company !== 'number') return undefined;
      const [company] = await tx.select({ holdingId: companies.holdingId }).from(companies).where(eq(companies.id, input.company));
      return company ? company.holdingId : null;
    },
  }),
  search: [shops.name, shops.displayName, shops.city, shops.siret, shops.codeClient],
  filters: { status: shops.status, company: shops.companyId, holding: shops.holdingId, specialite: shops.specialite },
  rangeFilters: { createdAt: shops.createdAt },
  order: { name: shops.name, displayName: shops.displayName, city: shops.city, status: shops.status, createdAt: shops.createdAt, id: shops.id },
  defaultOrder: ['name', 'asc'],
  frenchOrder: ['name'],
  deletion: {
    mode: 'hard',
    refuseWhileReferenced: [
      {
        table: pecDossiers,
        column: pecDossiers.shopId,
        message: stillAttached({ one: 'demande de PEC', many: 'demandes de PEC', feminine: true }, 'à ce centre'),
      },
    ],
  },
  hooks: {
    async beforeWrite({ tx }, input, values, existing) {
      const holdingId = (values.holdingId ?? existing?.holdingId) as number;
      const moved = existing !== undefined && holdingId !== existing.holdingId;
      if (moved) {
        // Its users, files and history belong to the organisation it leaves: a centre keeps its organisation while they exist.
        const id = existing.id as number;
        // One after the other: a transaction's one connection takes one query at a time.
        const [usersLinked] = await tx.select({ n: count() }).from(userShops).where(eq(userShops.shopId, id));
        if (Number(usersLinked?.n) > 0) throw invalidField('company', SHOP_MOVE_USERS(Number(usersLinked!.n)));
        const [files] = await tx.select({ n: count() }).from(pecDossiers).where(eq(pecDossiers.shopId, id));
        if (Number(files?.n) > 0) throw invalidField('company', SHOP_MOVE_FILES(Number(files!.n)));
      }

      let ids = input.credentials as number[] | undefined;
      if (ids === undefined && moved) {
        ids = (
          await tx
            .select({ id: shopCredentials.credentialId })
            .from(shopCredentials)
            .where(eq(shopCredentials.shopId, existing!.id as number))
        ).map((r) => r.id);
      }
      if (!ids?.length) return;
      const rows = await tx
        .select({ softwareId: credentialSoftware.softwareId, holdingId: credentialSoftware.holdingId })
        .from(credentialSoftware)
        .where(and(inArray(credentialSoftware.id, ids), isNull(credentialSoftware.deletedAt)));
      // A centre uses the credentials of its own organisation only (a platform administrator sees them all).
      if (rows.length !== ids.length || rows.some((r) => r.holdingId !== holdingId)) {
        throw invalidField('credentials', 'Les identifiants doivent appartenir à l’organisation du centre.');
      }
      // The shop credential editor chooses at most one credential per software (spec section 2).
      const softwareIds = rows.map((r) => r.softwareId);
      if (new Set(softwareIds).size !== softwareIds.length) throw invalidField('credentials', 'Un seul identifiant par logiciel pour un centre.');
    },
  },
};
