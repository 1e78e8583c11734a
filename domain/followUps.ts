// Follow-ups that do not slip (issue 28): a file's owner ('Suivi par') and follow-up date ('Relance le'), the one rule
// of "À relancer" (its SQL twin: server/pec/followUps.ts), and the limits of a file's notes thread.
import { formatIsoDay } from './format';
import { todayInFrance, type PecStatus } from './pec';

/** The system setting: days a file may stay 'En attente' before it is "À relancer". */
export const FOLLOW_UP_PENDING_DAYS_KEY = 'general.follow_up_pending_days';
export const DEFAULT_FOLLOW_UP_PENDING_DAYS = 7;

const DAY_MS = 86_400_000;

export interface FollowUpFile {
  status: PecStatus | string;
  /** When the file's status last changed (it entered 'En attente' then). */
  statusChangedAt: string | Date | null;
  followUpDate: string | null;
  archived?: boolean;
}

/**
 * "À relancer": a file whose follow-up date has come (today or before), or, without one, waiting for the insurer
 * ('pending') longer than `pendingDays`. A date set later takes the file off the list until then: the office chased the
 * insurer and said when to chase again. Archived files are never due.
 */
export function isFollowUpDue(file: FollowUpFile, today: string, now: Date, pendingDays: number): boolean {
  if (file.archived) return false;
  if (file.followUpDate !== null) return file.followUpDate <= today;
  if (file.status !== 'pending' || !file.statusChangedAt) return false;
  return now.getTime() - new Date(file.statusChangedAt).getTime() > pendingDays * DAY_MS;
}

/**
 * Why a file "À relancer" is (isFollowUpDue's two cases), as the drawer and the dashboard say it: its follow-up date has
 * come, or it has waited 'En attente' since its status changed. undefined for a file neither case names (not due).
 */
export function followUpReason(file: FollowUpFile, today: string): string | undefined {
  if (file.followUpDate !== null) return file.followUpDate <= today ? FOLLOW_UP_MESSAGES.reasonDate(formatIsoDay(file.followUpDate)) : undefined;
  if (file.status !== 'pending' || !file.statusChangedAt) return undefined;
  // Days as the calendar counts them from the day it names, in France (not full 24-hour periods: just after midnight,
  // « depuis le 18/11 » on 30/11 is 12 days, where the hours since gave 11).
  const sinceDay = todayInFrance(new Date(file.statusChangedAt));
  return FOLLOW_UP_MESSAGES.reasonWaiting(formatIsoDay(sinceDay), Math.round((Date.parse(today) - Date.parse(sinceDay)) / DAY_MS));
}

/** The moment before which a file entered 'En attente' to be due now. */
export const pendingCutoff = (now: Date, pendingDays: number) => new Date(now.getTime() - pendingDays * DAY_MS);

/** The list filters: `aRelancer=true`, and `suiviPar=me|none|{user id}`. */
export const FOLLOW_UP_FILTER = 'aRelancer';
export const OWNER_FILTER = 'suiviPar';
export const OWNER_FILTER_ME = 'me';
export const OWNER_FILTER_NOBODY = 'none';

/** A follow-up date is a reminder: at most a year past (one already due, kept while the file is edited) and two ahead. */
const FOLLOW_UP_YEARS_BACK = 1;
const FOLLOW_UP_YEARS_AHEAD = 2;
const shiftYears = (isoDay: string, years: number) => `${Number(isoDay.slice(0, 4)) + years}${isoDay.slice(4, 10)}`;

/** Why a follow-up date (yyyy-mm-dd) is refused on `today` (Paris): a year typed wrong (1900, 2206) is no reminder. */
export function followUpDateError(day: string, today: string): string | undefined {
  const [from, to] = [shiftYears(today, -FOLLOW_UP_YEARS_BACK), shiftYears(today, FOLLOW_UP_YEARS_AHEAD)];
  return day < from || day > to ? FOLLOW_UP_MESSAGES.dateOutOfRange(formatIsoDay(from), formatIsoDay(to)) : undefined;
}

export const FOLLOW_UP_MESSAGES = {
  dateOutOfRange: (from: string, to: string) => `La date de relance doit être comprise entre le ${from} et le ${to}.`,
  reasonDate: (day: string) => `Relance prévue le ${day}`,
  reasonWaiting: (day: string, days: number) => `Sans nouvelles depuis le ${day} (statut inchangé depuis ${days} jour${days > 1 ? 's' : ''})`,
  owner: 'Choisissez le collaborateur qui suit le dossier.',
  ownerCannotSee: 'Ce collaborateur ne voit pas ce dossier : choisissez un utilisateur de son centre.',
  ownerCannotAct: 'Ce collaborateur consulte les demandes sans les traiter : choisissez quelqu’un qui peut les faire avancer.',
  notificationTitle: (count: number) => (count === 1 ? '1 dossier à relancer' : `${count} dossiers à relancer`),
  notificationDescription: 'Dossiers en attente depuis trop longtemps ou dont la date de relance est arrivée.',
} as const;

// ---------- notes ----------

export const NOTE_MAX = 2000;
/** A note may be changed or deleted by its author within this many minutes of its creation. */
export const NOTE_EDIT_MINUTES = 15;

export const NOTE_MESSAGES = {
  required: 'Saisissez le texte de la note.',
  tooLong: `La note ne peut pas dépasser ${NOTE_MAX} caractères.`,
  dossier: 'Choisissez la demande de PEC de la note.',
  notAuthor: 'Seul l’auteur d’une note peut la modifier ou la supprimer.',
  windowClosed: `Une note ne peut plus être modifiée ni supprimée ${NOTE_EDIT_MINUTES} minutes après sa création.`,
  mentionTitle: (author: string, numero: string) => `${author} vous a mentionné — ${numero}`,
} as const;

/** The query parameter of a mention's link (/pec?id=12&note=34): the drawer opens at that note. */
export const NOTE_LINK_PARAM = 'note';

/** Whether a note is still within its edit window. */
export const noteEditable = (createdAt: string | Date, now = new Date()) => now.getTime() - new Date(createdAt).getTime() < NOTE_EDIT_MINUTES * 60_000;

/** When its author changed a note, undefined for a note as written: a new note's updatedAt is its createdAt (one INSERT). */
export const noteEditedAt = ({ createdAt, updatedAt }: { createdAt: string; updatedAt?: string }) =>
  updatedAt && new Date(updatedAt).getTime() > new Date(createdAt).getTime() ? updatedAt : undefined;

/**
 * The colleagues a note mentions: `@First Last` (or `@First`), matched against the names of the file's centre users,
 * longest name first so that "@Marie Dupont" is not taken for "@Marie".
 */
export function mentionedUsers<T extends { id: number; name: string }>(body: string, users: readonly T[]): T[] {
  let text = body.toLocaleLowerCase('fr');
  const found = new Map<number, T>();
  for (const user of [...users].sort((a, b) => b.name.length - a.name.length)) {
    const tag = `@${user.name.toLocaleLowerCase('fr')}`;
    for (let at = text.indexOf(tag); at >= 0; at = text.indexOf(tag, at + 1)) {
      const next = text[at + tag.length];
      if (next !== undefined && /[\p{L}\p{N}]/u.test(next)) continue;
      found.set(user.id, user);
      // A longer name's mention is not also a shorter one's ("@Marie Dupont" is not "@Marie").
      text = `${text.slice(0, at)}${' '.repeat(tag.length)}${text.slice(at + tag.length)}`;
    }
  }
  return [...found.values()];
}
