// Utilisateurs: centres counted in the list, the password behind "Modifier le mot de passe" when editing,
// centres chosen among the user's organisation, roles.
import { userCreateSchema, userSchema } from '../../domain/schemas';
import { ownHolding, statusColumn, statusFilter, USER_STATUS_CHOICES } from '../shared';
import { OrganisationShopsInput, PasswordField, ShopCount } from './inputs';
import type { ResourceConfig } from '../types';

export const users: ResourceConfig = {
  name: 'users',
  section: 'users',
  columns: [
    { source: 'fullName', sortBy: 'lastName' },
    { source: 'email' },
    { source: 'holding' },
    { source: 'shops', sortBy: false, render: (record) => <ShopCount shops={record.shops} /> },
    statusColumn,
  ],
  listExclude: ['firstName', 'lastName', 'initials', 'roles', 'lastLoginAt'],
  filters: [statusFilter(USER_STATUS_CHOICES)],
  searchable: ['firstName', 'lastName', 'email'],
  form: { fields: ['firstName', 'lastName', 'email', 'password', 'holding', 'status', 'shops', 'roles'], fullWidth: ['shops', 'roles'] },
  choices: { status: USER_STATUS_CHOICES },
  inputs: { password: PasswordField, shops: OrganisationShopsInput },
  schema: { create: userCreateSchema, update: userSchema },
  defaults: () => ({ status: 'Active', shops: [], roles: [], ...ownHolding() }),
};
