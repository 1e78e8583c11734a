// Every back-office entity the settings page shows, by tab.
import { auditLogs } from './audit_logs';
import { companies } from './companies';
import { credentials } from './credentials';
import { holdings } from './holdings';
import { mutuals } from './mutuals';
import { networks } from './networks';
import { roles } from './roles';
import { shops } from './shops';
import { software } from './software';
import type { ResourceConfig, SettingsSection } from './types';
import { users } from './users';

export const RESOURCE_CONFIGS: ResourceConfig[] = [holdings, companies, shops, users, roles, mutuals, networks, software, credentials, auditLogs];

export const configForSection = (section: string) => RESOURCE_CONFIGS.find((config) => config.section === (section as SettingsSection));
