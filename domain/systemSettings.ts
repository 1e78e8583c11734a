// The system settings (Paramètres > Système), in the six categories of the screen: seeded at the first start
// (server/seed/base.ts) and declared by the configs resource (server/resources/configs.ts), whose rules it checks.
// An editable setting is one the server obeys (read through SettingsService): changing it changes behaviour.
// A read-only setting describes how this installation works; its value comes from the code that does it, so it
// cannot say something the server does not do.
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from './auth';
import { DEFAULT_FOLLOW_UP_PENDING_DAYS, FOLLOW_UP_PENDING_DAYS_KEY } from './followUps';
import { BILLING_TIMEOUT_MS, DPEC_TIMEOUT_MS, MAX_PAGE_SIZE, PAGE_SIZE, ROBOT_CONCURRENCY_DEFAULT, UNPAGINATED_MAX } from './limits';
import { ROBOT_CONCURRENCY_KEY } from './bulk';
import { CNIL_PASSWORD_FLOOR, DEFAULT_PASSWORD_POLICY, PASSWORD_POLICY_KEYS } from './passwordRules';
import { API_MAX_ITEMS_PER_PAGE_KEY, TWO_FACTOR_REQUIRED_KEY, TWO_FACTOR_REQUIREMENTS, type SettingRule } from './settings';
import { PRESCRIPTION_VALIDITY_KEYS } from './warnings';
import { DOCUMENT_MAX_PER_FILE, DOCUMENT_MAX_PER_FILE_KEY, DOCUMENT_MAX_SIZE_MB, DOCUMENT_MAX_SIZE_MB_CEILING, DOCUMENT_MAX_SIZE_MB_KEY } from './documents';

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

/** Largest request body the API reads (server/app.ts, bodyLimit). */
export const REQUEST_BODY_LIMIT_MB = 5;

export const SYSTEM_SETTINGS: SettingSeed[] = [
  // general
  { key: 'general.app_name', description: 'Nom de l’application', value: 'Pecflow', valueType: 'string', isEditable: false, category: 'general' },
  { key: 'general.app_version', description: 'Version de l’application', value: '1.0.0', valueType: 'string', isEditable: false, category: 'general' },
  {
    key: 'general.locale',
    description: 'Langue et formats : interface en français, dates jj/mm/aaaa, montants en euros',
    value: 'fr-FR',
    valueType: 'string',
    isEditable: false,
    category: 'general',
  },
  {
    key: 'general.currency',
    description: 'Devise des montants (devis, prises en charge, restes à charge)',
    value: 'EUR',
    valueType: 'string',
    isEditable: false,
    category: 'general',
  },

  // security — the first four drive sign-in and sessions (server/auth)
  {
    key: 'security.access_token_ttl',
    description: 'Durée de vie du jeton d’accès, en secondes',
    value: DEFAULT_TOKEN_LIFETIME_SECONDS,
    valueType: 'number',
    isEditable: true,
    category: 'security',
    rule: { integer: true, min: 300, max: 86_400 },
  },
  {
    key: 'security.refresh_token_ttl_days',
    description: 'Durée de vie de la session (jeton de rafraîchissement), en jours',
    value: 30,
    valueType: 'number',
    isEditable: true,
    category: 'security',
    rule: { integer: true, min: 1, max: 365 },
  },
  {
    key: 'security.login_max_attempts',
    description: 'Nombre de tentatives de connexion échouées avant blocage temporaire',
    value: 5,
    valueType: 'number',
    isEditable: true,
    category: 'security',
    rule: { integer: true, min: 3, max: 20 },
  },
  {
    key: 'security.login_window_minutes',
    description: 'Fenêtre de comptage des tentatives échouées et durée du blocage, en minutes',
    value: 15,
    valueType: 'number',
    isEditable: true,
    category: 'security',
    rule: { integer: true, min: 1, max: 1440 },
  },
  // the password policy (domain/passwordRules.ts; CNIL, délibération n° 2022-100) and the second factor (server/auth)
  {
    key: PASSWORD_POLICY_KEYS.minLength,
    description:
      'Longueur minimale d’un mot de passe, qui doit alors contenir majuscules, minuscules, chiffres et caractères spéciaux (CNIL, délibération 2022-100 : 12)',
    value: DEFAULT_PASSWORD_POLICY.minLength,
    valueType: 'number',
    isEditable: true,
    category: 'security',
    rule: { integer: true, min: CNIL_PASSWORD_FLOOR.minLength, max: 64 },
  },
  {
    key: PASSWORD_POLICY_KEYS.passphraseMinLength,
    description: 'Longueur minimale d’une phrase de passe, qui doit alors mêler majuscules, minuscules et chiffres ou compter assez de mots (CNIL : 14)',
    value: DEFAULT_PASSWORD_POLICY.passphraseMinLength,
    valueType: 'number',
    isEditable: true,
    category: 'security',
    rule: { integer: true, min: CNIL_PASSWORD_FLOOR.passphraseMinLength, max: 64 },
  },
  {
    key: PASSWORD_POLICY_KEYS.passphraseMinWords,
    description: 'Nombre de mots d’une phrase de passe acceptée sans majuscule, minuscule ni chiffre imposés (CNIL : 7)',
    value: DEFAULT_PASSWORD_POLICY.passphraseMinWords,
    valueType: 'number',
    isEditable: true,
    category: 'security',
    rule: { integer: true, min: CNIL_PASSWORD_FLOOR.passphraseMinWords, max: 20 },
  },
  {
    key: PASSWORD_POLICY_KEYS.minScore,
    description: 'Robustesse minimale d’un mot de passe estimée par zxcvbn, de 3 à 4 : refuse les mots de passe courants, divulgués ou faciles à deviner',
    value: DEFAULT_PASSWORD_POLICY.minScore,
    valueType: 'number',
    isEditable: true,
    category: 'security',
    rule: { integer: true, min: 3, max: 4 },
  },
  {
    key: TWO_FACTOR_REQUIRED_KEY,
    description:
      'Double authentification (TOTP) obligatoire : none (pour personne), platform_admins (super administrateurs, admin.*), administrators (super administrateurs et gestionnaires des utilisateurs, settings.users.*)',
    value: 'platform_admins',
    valueType: 'string',
    isEditable: true,
    category: 'security',
    rule: { choices: TWO_FACTOR_REQUIREMENTS },
  },
  {
    key: 'security.password_hashing',
    description: 'Algorithme de hachage des mots de passe des utilisateurs',
    value: 'argon2id',
    valueType: 'string',
    isEditable: false,
    category: 'security',
  },

  // email — the account emails (server/mail): password reset and invitations
  {
    key: 'email.sending_enabled',
    description:
      'Envoi d’emails : réinitialisation du mot de passe et invitations, par le serveur SMTP de SMTP_URL (sans lui, écrits dans le dossier outbox de DATA_DIR)',
    value: true,
    valueType: 'boolean',
    isEditable: false,
    category: 'email',
  },
  {
    key: 'email.notification_channels',
    description: 'Canaux par lesquels les utilisateurs sont prévenus des résultats du robot',
    value: ['application'],
    valueType: 'array',
    isEditable: false,
    category: 'email',
  },

  // api
  {
    key: API_MAX_ITEMS_PER_PAGE_KEY,
    description: 'Nombre maximal d’éléments par page qu’un client peut demander (itemsPerPage)',
    value: MAX_PAGE_SIZE,
    valueType: 'number',
    isEditable: true,
    category: 'api',
    rule: { integer: true, min: PAGE_SIZE, max: 1000 },
  },
  {
    key: 'api.default_items_per_page',
    description: 'Nombre d’éléments par page quand le client ne le précise pas',
    value: PAGE_SIZE,
    valueType: 'number',
    isEditable: false,
    category: 'api',
  },
  {
    key: 'api.documentation_url',
    description: 'Documentation Hydra de l’API (lue par le back-office)',
    value: '/api/docs.jsonld',
    valueType: 'string',
    isEditable: false,
    category: 'api',
  },
  {
    key: 'api.request_body_max_mb',
    description: 'Taille maximale du corps d’une requête, en Mo',
    value: REQUEST_BODY_LIMIT_MB,
    valueType: 'number',
    isEditable: false,
    category: 'api',
  },

  // storage
  {
    key: 'storage.credentials_encryption',
    description: 'Chiffrement au repos des mots de passe et clés API des identifiants (clé APP_SECRET_KEY)',
    value: 'AES-256-GCM',
    valueType: 'string',
    isEditable: false,
    category: 'storage',
  },
  {
    key: DOCUMENT_MAX_SIZE_MB_KEY,
    description: 'Taille maximale d’un document joint à une demande de PEC, en Mo',
    value: DOCUMENT_MAX_SIZE_MB,
    valueType: 'number',
    isEditable: true,
    category: 'storage',
    rule: { integer: true, min: 1, max: DOCUMENT_MAX_SIZE_MB_CEILING },
  },
  {
    key: DOCUMENT_MAX_PER_FILE_KEY,
    description: 'Nombre maximal de documents joints à une demande de PEC',
    value: DOCUMENT_MAX_PER_FILE,
    valueType: 'number',
    isEditable: true,
    category: 'storage',
    rule: { integer: true, min: 1, max: 200 },
  },
  {
    key: 'storage.unpaginated_list_max',
    description: 'Nombre maximal d’éléments d’une liste non paginée (pagination=false)',
    value: UNPAGINATED_MAX,
    valueType: 'number',
    isEditable: false,
    category: 'storage',
  },
  {
    key: 'storage.audit_trail',
    description: 'Journal d’audit : chaque création, modification, archivage et suppression, avec son auteur et les champs changés (secrets masqués)',
    value: true,
    valueType: 'boolean',
    isEditable: false,
    category: 'storage',
  },

  // integrations — robot mode and URL drive the robot driver
  {
    key: 'integrations.robot_mode',
    description: 'Robot utilisé pour le DPEC et la facturation : simulator (intégré) ou http (robot externe)',
    value: 'simulator',
    valueType: 'string',
    isEditable: true,
    category: 'integrations',
    rule: { choices: ['simulator', 'http'] },
  },
  {
    key: 'integrations.robot_url',
    description: 'Adresse du robot externe (mode http)',
    value: '',
    valueType: 'string',
    isEditable: true,
    category: 'integrations',
    rule: { url: true },
  },
  {
    key: ROBOT_CONCURRENCY_KEY,
    description: 'Appels robot simultanés par organisation : les appels lancés en masse au-delà attendent leur tour',
    value: ROBOT_CONCURRENCY_DEFAULT,
    valueType: 'number',
    isEditable: true,
    category: 'integrations',
    rule: { integer: true, min: 1, max: 50 },
  },
  {
    key: 'integrations.dpec_timeout_seconds',
    description: 'Délai d’attente de la demande de DPEC par l’interface, en secondes',
    value: DPEC_TIMEOUT_MS / 1000,
    valueType: 'number',
    isEditable: false,
    category: 'integrations',
  },
  {
    key: 'integrations.billing_timeout_seconds',
    description: 'Délai d’attente du lancement de la facturation par l’interface, en secondes',
    value: BILLING_TIMEOUT_MS / 1000,
    valueType: 'number',
    isEditable: false,
    category: 'integrations',
  },
  {
    key: 'integrations.callback_signature',
    description: 'Signature des retours du robot : HMAC-SHA256 du corps avec la clé ROBOT_CALLBACK_SECRET',
    value: 'HMAC-SHA256',
    valueType: 'string',
    isEditable: false,
    category: 'integrations',
  },

  // general, PEC rules — "À relancer" (domain/followUps.ts): a file 'En attente' longer than this is to chase
  {
    key: FOLLOW_UP_PENDING_DAYS_KEY,
    description: 'Nombre de jours en attente de réponse de la mutuelle après lesquels une demande est « À relancer »',
    value: DEFAULT_FOLLOW_UP_PENDING_DAYS,
    valueType: 'number',
    isEditable: true,
    category: 'general',
    rule: { integer: true, min: 1, max: 365 },
  },
  // general, PEC rules — the validity of a prescription, for the "Prescription trop ancienne" warning (server/pec/warnings.ts)
  {
    key: PRESCRIPTION_VALIDITY_KEYS.audio,
    description: 'Validité d’une prescription d’aide auditive, en mois (pratique de la LPP titre II chapitre 3 : ordonnance de moins d’un an)',
    value: 12,
    valueType: 'number',
    isEditable: true,
    category: 'general',
    rule: { integer: true, min: 1, max: 120 },
  },
  {
    key: PRESCRIPTION_VALIDITY_KEYS.opticalUnder16,
    description: 'Validité d’une prescription optique avant 16 ans, en mois (code de la santé publique, art. D. 4362-12-1)',
    value: 12,
    valueType: 'number',
    isEditable: true,
    category: 'general',
    rule: { integer: true, min: 1, max: 120 },
  },
  {
    key: PRESCRIPTION_VALIDITY_KEYS.optical16To42,
    description: 'Validité d’une prescription optique de 16 à 42 ans, en mois (code de la santé publique, art. D. 4362-12-1)',
    value: 60,
    valueType: 'number',
    isEditable: true,
    category: 'general',
    rule: { integer: true, min: 1, max: 120 },
  },
  {
    key: PRESCRIPTION_VALIDITY_KEYS.opticalFrom42,
    description: 'Validité d’une prescription optique à partir de 42 ans, en mois (code de la santé publique, art. D. 4362-12-1)',
    value: 36,
    valueType: 'number',
    isEditable: true,
    category: 'general',
    rule: { integer: true, min: 1, max: 120 },
  },
];
