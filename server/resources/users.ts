import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { roles, shops, userRoles, userShops, users } from '../db/schema';
import { hashPassword } from '../auth/passwords';
import { assertPasswordAllowed } from '../auth/passwordPolicy';
import { endSignIns, inviteUser, notifyAccount, voidAccountLinks } from '../auth/accounts';
import { assertWithinCallersRights } from '../auth/callersRights';
import { conflict, invalidField } from '../http/errors';
import { computed, reference, references, text, timestamp, timestamps, writeOnly } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { userRules } from '#domain/rules';
import { USER_STATUS_CHOICES } from '#domain/schemas';
import { requiredText } from './constraints';
import { permissionsBeyond } from '#domain/permissions';
import { settingsPermissions } from '#domain/resources';

export const EMAIL_TAKEN = 'Cet email est déjà utilisé';

export const usersResource: ResourceDeclaration = {
  name: 'users',
  className: 'User',
  label: { singular: 'Utilisateur', plural: 'Utilisateurs' },
  auditName: 'user',
  table: users,
  idColumn: users.id,
  fields: {
    firstName: text(users.firstName, { required: true, label: 'Prénom', constraints: requiredText(2, 'Prénom requis') }),
    lastName: text(users.lastName, { required: true, label: 'Nom', constraints: requiredText(2, 'Nom requis') }),
    fullName: computed('string', sql`${users.firstName} || ' ' || ${users.lastName}`, { iri: 'name', label: 'Nom complet' }),
    initials: computed('string', sql`upper(left(${users.firstName}, 1) || left(${users.lastName}, 1))`, { label: 'Initiales' }),
    email: text(users.email, { required: true, iri: 'email', label: 'Email', constraints: { email: true, lowercase: true, message: 'Email invalide' } }),
    sendInvitation: writeOnly('boolean', {
      description: 'À la création : un email invite l’utilisateur à choisir son mot de passe (lien valable 7 jours), au lieu d’en saisir un.',
      label: 'Envoyer une invitation',
    }),
    password: writeOnly('string', {
      secret: true,
      // An invited user who has not chosen theirs yet has none.
      isSet: (row) => row.passwordHash != null,
      description: 'À la création sans invitation ; laissé vide, il reste inchangé. Soumis à la politique des mots de passe (Paramètres > Système > Sécurité).',
      label: 'Mot de passe',
    }),
    holding: reference('holdings', users.holdingId, {
      required: true,
      embed: ['name'],
      label: 'Organisation',
      constraints: { message: 'Organisation requise' },
    }),
    status: text(users.status, {
      description: 'Active, Inactive ou Locked',
      label: 'Statut',
      choices: USER_STATUS_CHOICES,
      default: 'Active',
      constraints: { messages: { choice: 'Statut invalide' } },
    }),
    shops: references(
      'shops',
      { table: userShops, ownerColumn: userShops.userId, targetColumn: userShops.shopId },
      { label: 'Centres', constraints: { message: 'Centre invalide' } },
    ),
    roles: references(
      'roles',
      { table: userRoles, ownerColumn: userRoles.userId, targetColumn: userRoles.roleId },
      { label: 'Rôles', constraints: { message: 'Rôle invalide' } },
    ),
    lastLoginAt: { ...timestamp(users.lastLoginAt, 'Dernière connexion'), description: 'Dernière connexion' },
    invitationSentAt: {
      ...timestamp(users.invitationSentAt, 'Invitation envoyée le'),
      description: 'L’invitation en attente : vide une fois le mot de passe choisi',
    },
    twoFactorEnabled: computed('boolean', sql`${users.totpEnabledAt} is not null`, { label: 'Double authentification' }),
    ...timestamps(users),
  },
  // The password on creation (or an invitation) and its bound: domain/rules.ts.
  rules: userRules,
  permissions: settingsPermissions('settings.users', { export: true }),
  permissionModule: 'user',
  settingsTab: { position: 4 },
  list: {
    columns: ['fullName', 'email', 'holding', 'shops', 'status'],
    filters: [{ field: 'status', kind: 'choice' }],
    searchPlaceholder: 'Rechercher (nom, prénom, email)…',
    empty: 'Aucun utilisateur trouvé',
  },
  form: {
    // The password after the status: hidden behind an invitation, it leaves no hole in the grid.
    fields: ['firstName', 'lastName', 'email', 'holding', 'sendInvitation', 'status', 'password', 'shops', 'roles'],
    fullWidth: ['sendInvitation', 'shops', 'roles'],
    defaults: { status: 'Active', shops: [], roles: [], sendInvitation: true },
  },
  tenancy: holdingOwned(users.holdingId),
  search: [users.firstName, users.lastName, users.email],
  filters: { status: users.status, holding: users.holdingId, email: users.email },
  rangeFilters: { createdAt: users.createdAt, lastLoginAt: users.lastLoginAt },
  order: {
    lastName: users.lastName,
    firstName: users.firstName,
    email: users.email,
    status: users.status,
    createdAt: users.createdAt,
    lastLoginAt: users.lastLoginAt,
    id: users.id,
  },
  defaultOrder: ['lastName', 'asc'],
  deletion: { mode: 'hard' },
  hooks: {
    async beforeWrite({ app, tx, principal }, input, values, existing) {
      if (typeof input.password === 'string' && input.password !== '') {
        const owner = {
          email: (input.email ?? existing?.email) as string,
          firstName: (input.firstName ?? existing?.firstName) as string,
          lastName: (input.lastName ?? existing?.lastName) as string,
        };
        await assertPasswordAllowed(app.settings, input.password, owner, { db: tx });
        values.passwordHash = await hashPassword(input.password);
        // The access tokens issued before the new password are refused (server/auth/plugin.ts).
        values.tokensValidAfter = new Date();
        // A password typed for an invited user ends the invitation (its link is void: afterWrite).
        values.invitationSentAt = null;
        // Someone else's password, which its typist knows: its owner replaces it at the first sign-in.
        values.passwordMustChange = existing?.id !== principal.id;
      }
      if (existing && existing.id === principal.id && typeof input.status === 'string' && input.status !== 'Active') {
        throw invalidField('status', 'Vous ne pouvez pas désactiver ou bloquer votre propre compte.');
      }

      // The centres and roles of a user belong to the user's organisation (also when an administrator moves the user).
      const holdingId = (values.holdingId ?? existing?.holdingId) as number | null;
      const moved = existing !== undefined && holdingId !== existing.holdingId;
      const userId = existing?.id as number;
      const shopIds =
        (input.shops as number[] | undefined) ??
        (moved ? (await tx.select({ id: userShops.shopId }).from(userShops).where(eq(userShops.userId, userId))).map((r) => r.id) : undefined);
      if (shopIds?.length) {
        const inOrganisation = await tx
          .select({ id: shops.id })
          .from(shops)
          .where(and(inArray(shops.id, shopIds), holdingId ? eq(shops.holdingId, holdingId) : sql`false`));
        if (inOrganisation.length !== shopIds.length) throw invalidField('shops', 'Les centres doivent appartenir à l’organisation de l’utilisateur.');
      }

      const heldRoleIds = existing ? await assertWithinCallersRights(tx, principal, userId) : [];
      if (existing && userId === principal.id && input.roles !== undefined && !sameIds(input.roles as number[], heldRoleIds)) {
        throw invalidField('roles', 'Vous ne pouvez pas modifier vos propres rôles.');
      }
      const roleIds = (input.roles as number[] | undefined) ?? (moved ? heldRoleIds : undefined);
      if (roleIds?.length) {
        const granted = await tx
          .select({ id: roles.id, name: roles.name, permissions: roles.permissions, holdingId: roles.holdingId })
          .from(roles)
          .where(inArray(roles.id, roleIds));
        if (granted.some((r) => r.holdingId !== null && r.holdingId !== holdingId)) {
          throw invalidField('roles', 'Les rôles doivent être ceux de la plateforme ou de l’organisation de l’utilisateur.');
        }
        // Nobody hands out a right they do not hold themselves (roles the user already has may be kept).
        const added = granted.filter((r) => !heldRoleIds.includes(r.id));
        const beyond = added.filter((r) => permissionsBeyond(principal.permissions, r.permissions).length > 0).map((r) => `« ${r.name} »`);
        if (beyond.length) {
          const roleWord = beyond.length > 1 ? `les rôles ${beyond.join(', ')} : ils donnent` : `le rôle ${beyond[0]} : il donne`;
          throw invalidField('roles', `Vous ne pouvez pas attribuer ${roleWord} des droits que vous n’avez pas.`);
        }
      }

      // Emails are unique on the whole platform. Checked last, once rights and the rest of the request are accepted,
      // and answered alike whether the account is in the caller's organisation, another one or the platform's: a
      // request that is wrong anyway says nothing about the email, and a right one learns no more than an email
      // taken in the caller's own organisation would tell (see README, Security).
      if (typeof input.email === 'string') {
        const [taken] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, input.email), existing ? ne(users.id, existing.id as number) : undefined));
        if (taken) throw invalidField('email', EMAIL_TAKEN);
      }
    },
    async afterWrite({ app, tx, principal }, id, input, existing) {
      // A new user invited: the email leaves with the transaction's commit (server/auth/accounts.ts).
      if (!existing && input.sendInvitation === true) await inviteUser(app, tx, id, principal);
      // A new password, or an account that is no longer active, ends the sessions in progress (no more refresh) and
      // the sign-ins left halfway with the previous password.
      const newPassword = typeof input.password === 'string' && input.password !== '';
      if (newPassword) await endSignIns(tx, id);
      // Its owner learns of a new password for an existing account (issue 26's follow-up).
      if (newPassword && existing) await notifyAccount(app, tx, id, { kind: 'password_changed', by: id === principal.id ? 'owner' : 'administrator' });
      // The links sent by email (a reset, an invitation) were for the address and the password of then.
      if (newPassword || (existing && typeof input.email === 'string' && input.email !== existing.email)) await voidAccountLinks(tx, id);
      if (newPassword || (typeof input.status === 'string' && input.status !== 'Active')) {
        await app.tokens.revokeAllForUser(id, tx);
      }
    },
    async beforeDelete({ tx, principal }, existing) {
      if (existing.id === principal.id) throw conflict('Vous ne pouvez pas supprimer votre propre compte.');
      await assertWithinCallersRights(tx, principal, existing.id as number);
    },
  },
};

const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
