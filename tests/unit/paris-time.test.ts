// @vitest-environment node
// What the server prints for an office (the summary's "Imprimé le") is Paris time, whatever the machine's time zone
// (servers often run in UTC): a print at 00:30 in Paris is dated that day, not the day before.
import { describe, expect, it } from 'vitest';
import { formatParisDateTime } from '#domain/format';

describe('formatParisDateTime', () => {
  it('writes the moment in Paris, winter and summer time', () => {
    expect(formatParisDateTime(new Date('2026-11-28T23:30:00Z'))).toBe('29/11/2026 à 00:30');
    expect(formatParisDateTime(new Date('2026-07-01T22:15:00Z'))).toBe('02/07/2026 à 00:15');
  });
});
