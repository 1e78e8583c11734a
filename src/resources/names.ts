// The API collections the settings screens show, one react-admin <Resource> each (App.tsx). Kept apart from the
// screens' declarations so that the application shell loads none of them.
export const SETTINGS_RESOURCE_NAMES = [
  'holdings',
  'companies',
  'shops',
  'users',
  'roles',
  'mutuals',
  'networks',
  'software',
  'credential_software',
  'audit_logs',
] as const;
