// The one rule of "À relancer" and the notes' mentions and edit window (domain/followUps.ts).
import { describe, expect, it } from 'vitest';
import { followUpReason, isFollowUpDue, mentionedUsers, noteEditable, noteEditedAt } from '#domain/followUps';

const now = new Date('2026-11-28T09:00:00Z');
const today = '2026-11-28';
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

describe('isFollowUpDue', () => {
  it('a file 8 days “En attente” is due after 7 days, not after 10', () => {
    const file = { status: 'pending', statusChangedAt: daysAgo(8), followUpDate: null };
    expect(isFollowUpDue(file, today, now, 7)).toBe(true);
    expect(isFollowUpDue(file, today, now, 10)).toBe(false);
  });

  it('a later follow-up date takes a file waiting too long off the list until that day', () => {
    const chased = { status: 'pending', statusChangedAt: daysAgo(30), followUpDate: '2026-12-05' };
    expect(isFollowUpDue(chased, today, now, 7)).toBe(false);
    expect(isFollowUpDue(chased, '2026-12-05', new Date('2026-12-05T09:00:00Z'), 7)).toBe(true);
  });

  it('a follow-up date that has come makes any file due; a later one or none does not', () => {
    expect(isFollowUpDue({ status: 'draft', statusChangedAt: daysAgo(1), followUpDate: today }, today, now, 7)).toBe(true);
    expect(isFollowUpDue({ status: 'approved', statusChangedAt: daysAgo(1), followUpDate: '2026-11-20' }, today, now, 7)).toBe(true);
    expect(isFollowUpDue({ status: 'pending', statusChangedAt: daysAgo(2), followUpDate: '2026-12-01' }, today, now, 7)).toBe(false);
    expect(isFollowUpDue({ status: 'approved', statusChangedAt: daysAgo(30), followUpDate: null }, today, now, 7)).toBe(false);
  });

  it('an archived file is never due', () => {
    expect(isFollowUpDue({ status: 'pending', statusChangedAt: daysAgo(30), followUpDate: today, archived: true }, today, now, 7)).toBe(false);
  });
});

describe('followUpReason', () => {
  it('names the follow-up date that has come, or the day the file began to wait and for how long', () => {
    expect(followUpReason({ status: 'approved', statusChangedAt: daysAgo(1), followUpDate: '2026-11-12' }, today)).toBe('Relance prévue le 12/11/2026');
    // Its day in Paris: 23:30 UTC on 01/11 is already 02/11 there.
    const since = { status: 'pending', statusChangedAt: '2026-11-01T23:30:00Z', followUpDate: null };
    expect(followUpReason(since, today)).toBe('Sans nouvelles depuis le 02/11/2026 (statut inchangé depuis 26 jours)');
    expect(followUpReason({ status: 'pending', statusChangedAt: daysAgo(1), followUpDate: null }, today)).toBe(
      'Sans nouvelles depuis le 27/11/2026 (statut inchangé depuis 1 jour)',
    );
    // Just after midnight in Paris (00:14 on 30/11, still 29/11 in UTC): the days the calendar counts from the day named.
    const lateWait = { status: 'pending', statusChangedAt: '2026-11-18T09:00:00Z', followUpDate: null };
    expect(followUpReason(lateWait, '2026-11-30')).toBe('Sans nouvelles depuis le 18/11/2026 (statut inchangé depuis 12 jours)');
  });

  it('says nothing of a file neither case names', () => {
    expect(followUpReason({ status: 'pending', statusChangedAt: daysAgo(30), followUpDate: '2026-12-05' }, today)).toBeUndefined();
    expect(followUpReason({ status: 'approved', statusChangedAt: daysAgo(30), followUpDate: null }, today)).toBeUndefined();
  });
});

describe('notes', () => {
  const users = [
    { id: 1, name: 'Marie Dupont' },
    { id: 2, name: 'Marie' },
    { id: 3, name: 'Léa Petit' },
  ];
  it('finds the colleagues named after @, the longest name first, whatever the case', () => {
    expect(mentionedUsers('@marie dupont, tu peux voir ? cc @Léa Petit', users).map((u) => u.id)).toEqual([1, 3]);
    expect(mentionedUsers('@Marie, merci', users).map((u) => u.id)).toEqual([2]);
    expect(mentionedUsers('marie@exemple.fr @Mariette', users)).toEqual([]);
  });

  it('may be changed for 15 minutes', () => {
    expect(noteEditable(new Date(now.getTime() - 14 * 60_000), now)).toBe(true);
    expect(noteEditable(new Date(now.getTime() - 15 * 60_000), now)).toBe(false);
  });

  it('is said changed once its updatedAt moved past its createdAt, not as written', () => {
    const createdAt = '2026-11-28T09:00:00.123Z';
    expect(noteEditedAt({ createdAt, updatedAt: createdAt })).toBeUndefined();
    expect(noteEditedAt({ createdAt })).toBeUndefined();
    expect(noteEditedAt({ createdAt, updatedAt: '2026-11-28T10:04:00+01:00' })).toBe('2026-11-28T10:04:00+01:00');
  });
});
