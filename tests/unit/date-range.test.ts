// A « Du » / « Au » pair of a list's filters whose start is after its end (domain/format.ts): held at its field, never
// asked for (src/admin/dateRange.ts).
import { describe, expect, it } from 'vitest';
import { DATE_RANGE_MESSAGE, isReversedRange } from '#domain/format';

describe('isReversedRange', () => {
  it('is a start day after the end day, days or instants compared by their day', () => {
    expect(isReversedRange('2026-11-10', '2026-11-01')).toBe(true);
    expect(isReversedRange('2026-11-10T00:00:00+01:00', '2026-11-09T23:59:59.999+01:00')).toBe(true);
    // The same day, from its first instant to its last: one day, not reversed.
    expect(isReversedRange('2026-11-10T00:00:00+01:00', '2026-11-10T23:59:59.999+01:00')).toBe(false);
    expect(isReversedRange('2026-11-01', '2026-11-10')).toBe(false);
  });

  it('is never an open range', () => {
    expect(isReversedRange('2026-11-10', '')).toBe(false);
    expect(isReversedRange(undefined, '2026-11-01')).toBe(false);
    expect(isReversedRange(null, null)).toBe(false);
  });

  it('is said in French', () => {
    expect(DATE_RANGE_MESSAGE).toBe('La date de début est après la date de fin');
  });
});
