// The system settings (Paramètres > Système). Those read by the server through SettingsService drive its behaviour.
import type { SettingRule } from '../../../src/domain/settings';

export interface SettingSeed {
  key: string;
  description: string;
  value: unknown;
  valueType: 'boolean' | 'number' | 'string' | 'array' | 'object';
  isEditable: boolean;
  category: 'general' | 'security' | 'email' | 'api' | 'storage' | 'integrations';
  /** Accepted range or values of a new value (checked on PUT /api/configs/{id}). */
  rule?: SettingRule;
}

export const SYSTEM_SETTINGS: SettingSeed[] = [
  { key: 'general.app_name', description: "Nom de l'application", value: 'Pecflow', valueType: 'string', isEditable: false, category: 'general' },
  { key: 'general.app_version', description: "Version de l'application", value: '1.0.0', valueType: 'string', isEditable: false, category: 'general' },
  { key: 'security.access_token_ttl', description: "Durée de vie du jeton d'accès, en secondes", value: 3600, valueType: 'number', isEditable: true, category: 'security', rule: { min: 300, max: 86_400 } },
  { key: 'security.refresh_token_ttl_days', description: 'Durée de vie de la session (jeton de rafraîchissement), en jours', value: 30, valueType: 'number', isEditable: true, category: 'security', rule: { min: 1, max: 365 } },
  { key: 'security.login_max_attempts', description: 'Nombre de tentatives de connexion échouées avant blocage temporaire', value: 5, valueType: 'number', isEditable: true, category: 'security', rule: { min: 3, max: 20 } },
  { key: 'security.login_window_minutes', description: 'Fenêtre de comptage des tentatives échouées et durée du blocage, en minutes', value: 15, valueType: 'number', isEditable: true, category: 'security', rule: { min: 1, max: 1440 } },
  { key: 'integrations.robot_mode', description: 'Robot utilisé pour le DPEC et la facturation : simulator (intégré) ou http (robot externe)', value: 'simulator', valueType: 'string', isEditable: true, category: 'integrations', rule: { choices: ['simulator', 'http'] } },
  { key: 'integrations.robot_url', description: "Adresse du robot externe (mode http)", value: '', valueType: 'string', isEditable: true, category: 'integrations', rule: { url: true } },
];
