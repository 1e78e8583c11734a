// The kinds of notification the server creates, as each user sees them in Mon profil to choose which they receive.
import { EXPIRY_WARNING_DAYS } from './limits';

export const NOTIFICATION_KINDS = [
  'robot_success',
  'robot_pending',
  'robot_refused',
  'robot_error',
  'robot_timeout',
  'billing_success',
  'expiry',
  'follow_up',
  'mention',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, { label: string; description: string }> = {
  robot_success: { label: 'DPEC accordé', description: 'La mutuelle a accordé la prise en charge (N° PEC reçu).' },
  robot_pending: { label: 'DPEC en attente', description: 'La mutuelle a reçu la demande et n’a pas encore répondu.' },
  robot_refused: { label: 'DPEC refusé', description: 'La mutuelle a refusé la prise en charge.' },
  robot_error: { label: 'Erreur technique', description: 'Le robot a échoué pendant le DPEC ou la facturation.' },
  robot_timeout: { label: 'Délai dépassé', description: 'Le robot n’a pas répondu dans les 10 minutes.' },
  billing_success: { label: 'Facturation effectuée', description: 'Le robot a facturé le dossier.' },
  expiry: {
    label: 'PEC bientôt périmée',
    description: `L’accord expire dans les ${EXPIRY_WARNING_DAYS} prochains jours et le dossier n’est pas facturé.`,
  },
  follow_up: { label: 'Dossiers à relancer', description: 'Chaque matin, le nombre de dossiers que vous suivez et qu’il faut relancer.' },
  mention: { label: 'Mention dans une note', description: 'Un collègue vous a mentionné (@) dans la note d’un dossier.' },
};

export const isNotificationKind = (value: unknown): value is NotificationKind =>
  typeof value === 'string' && (NOTIFICATION_KINDS as readonly string[]).includes(value);

/** A user's choice: for each kind, whether they receive it. */
export type NotificationPreferences = Record<NotificationKind, boolean>;
