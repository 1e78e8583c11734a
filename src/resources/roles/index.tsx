// Rôles: the organisation (or "Plateforme") and how many permissions, in the list.
import { useTranslate } from 'react-admin';
import { NameOr } from '../shared';
import type { Particular } from '../types';

function PermissionCount({ permissions }: { permissions: unknown }) {
  const translate = useTranslate();
  return <>{translate('pecflow.settings.roles.permissionsCount', { smart_count: Array.isArray(permissions) ? permissions.length : 0 })}</>;
}

export const particular: Particular = {
  cells: {
    holding: { sortBy: false, render: (record) => <NameOr value={record.holding} fallback="pecflow.settings.platformRole" /> },
    permissions: { sortBy: false, render: (record) => <PermissionCount permissions={record.permissions} /> },
  },
};
