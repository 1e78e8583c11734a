// A « Du » / « Au » pair of a list's filters (the PEC list's creation dates, the settings lists' DateRangeFilter): a start
// after the end is not asked for, so the list stays as it was instead of emptying; the field just changed keeps the
// day typed and says why (DATE_RANGE_MESSAGE) until the range is valid again or the filter changes from elsewhere.
import { useState } from 'react';
import { DATE_RANGE_MESSAGE, isReversedRange } from '#domain/format';
import { INVALID_DAY } from './DatePickerField';

export type Bound = 'after' | 'before';
/** Days (yyyy-mm-dd), or '' for an open bound. */
export type DayRange = Record<Bound, string>;

const dayOf = (value: string | undefined) => (value ? value.slice(0, 10) : '');

/**
 * `range`: the filter as the list reads it (days or instants); `apply`: asks for a valid range, given as days. Returns
 * each field's shown day, its hint, and what its onChange calls.
 */
export function useDateRange(range: { after?: string; before?: string }, apply: (days: DayRange) => void) {
  const [held, setHeld] = useState<{ bound: Bound; day: string }>();
  // The filter changed from elsewhere (cleared, the URL): what was held goes, adjusted during render.
  const asked = `${range.after ?? ''}|${range.before ?? ''}`;
  const [seen, setSeen] = useState(asked);
  if (asked !== seen) {
    setSeen(asked);
    setHeld(undefined);
  }
  const shown = (bound: Bound) => (held?.bound === bound ? held.day : dayOf(range[bound]));
  return {
    value: shown,
    error: (bound: Bound) => (held?.bound === bound ? DATE_RANGE_MESSAGE : undefined),
    // A date still being typed changes nothing.
    change: (bound: Bound, day: string) => {
      if (day === INVALID_DAY) return;
      const days = { after: shown('after'), before: shown('before'), [bound]: day } as DayRange;
      if (isReversedRange(days.after, days.before)) return setHeld({ bound, day });
      setHeld(undefined);
      apply(days);
    },
  };
}
