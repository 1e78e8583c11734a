// Dates typed and shown dd/mm/yyyy whatever the browser's language (an English browser's <input type="date"> shows
// mm/dd/yyyy): MUI X's date picker in French, on a plain text input, with its calendar button (loaded when a date input
// first shows). The list filters use it as it is; a form uses it through src/pec/DateInput.tsx. The value is a day as
// the API reads it (yyyy-mm-dd), '' for none (given when the emptied field is left), INVALID_DAY while what is typed is
// not a date (then 'Date invalide (jj/mm/aaaa)' shows under the field). A field that saves by itself (saveOnLeave)
// gives its day only once complete: on leaving the field, on Enter, or picked in the calendar.
import { TextField } from '@mui/material';
import { isValid, parseISO } from 'date-fns';
import { lazy, Suspense, useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import { DATE_MESSAGE } from '#domain/format';

const FrenchDatePicker = lazy(() => import('../pec/FrenchDatePicker'));

/** What the value is while the typed text is not a date (the schemas answer 'Date invalide (jj/mm/aaaa)'). */
export const INVALID_DAY = 'invalide';

const toDate = (day: string | null | undefined) => {
  const date = day ? parseISO(day.slice(0, 10)) : null;
  return date && isValid(date) ? date : null;
};

/** A picked or typed date as a day; a year still being typed (0002, 0020...) is not a date yet. */
const toDay = (date: Date | null) => {
  if (!date) return '';
  if (!isValid(date) || date.getFullYear() < 1900 || date.getFullYear() > 2999) return INVALID_DAY;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
};

/** How other programs write a day (a spreadsheet, an export, a mail), besides the field's own dd/mm/yyyy: year, month, day. */
const PASTED_SHAPES: [RegExp, (parts: string[]) => number[]][] = [
  [/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/, ([, y, m, d]) => [y, m, d].map(Number)],
  [/^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/, ([, d, m, y]) => [y, m, d].map(Number)],
];

/**
 * A date pasted whole, as the field writes it or as another program does (2026-11-01 is the 1st of November): MUI's
 * field fills its sections with the digits of another shape ("20/02/0001"), and empties itself on an impossible day,
 * which is kept here as a date that is not one (said 'Date invalide', as typed). Read here rather than by date-fns's
 * `parse`, which would bring its English locale into the page's code.
 */
const pastedDate = (text: string) => {
  for (const [shape, read] of PASTED_SHAPES) {
    const parts = shape.exec(text.trim());
    if (!parts) continue;
    const [year, month, day] = read(parts);
    const date = new Date(year!, month! - 1, day);
    const exact = date.getFullYear() === year && date.getMonth() === month! - 1 && date.getDate() === day;
    return exact && toDay(date) !== INVALID_DAY ? date : new Date(Number.NaN);
  }
  return null;
};

export interface DatePickerFieldProps {
  label: ReactNode;
  value: string | null | undefined;
  onChange: (day: string) => void;
  onBlur?: () => void;
  /**
   * The day is given when the field is left, on Enter or when picked in the calendar, not at each keystroke: typing
   * over 20/01/2027 passes through 01/01/2027, 15/01/2027... which a field saving at once would each save.
   */
  saveOnLeave?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
  name?: string;
  /** Attributes of the text input (data-field...). */
  inputProps?: Record<string, unknown>;
}

export function DatePickerField({
  label,
  value,
  onChange,
  onBlur,
  saveOnLeave,
  error,
  helperText,
  required,
  disabled,
  fullWidth,
  size = 'small',
  name,
  inputProps,
}: DatePickerFieldProps) {
  // The picker keeps its own date while the text is incomplete; a new value from outside (a reset, the URL) replaces it.
  const [date, setDate] = useState<Date | null>(() => toDate(value));
  const emitted = useRef(value ?? '');
  useEffect(() => {
    if ((value ?? '') === emitted.current) return;
    emitted.current = value ?? '';
    setDate(toDate(value));
  }, [value]);
  // The picker turns the field red on an impossible date (31/02/2026): say why under it, unless the form already does.
  const invalid = toDay(date) === INVALID_DAY;
  const emit = (day: string) => {
    if (day === emitted.current) return;
    emitted.current = day;
    onChange(day);
  };
  // A date still being typed is not given; an emptied field gives ''.
  const commit = (next: Date | null) => {
    const day = toDay(next);
    if (day !== INVALID_DAY) emit(day);
  };

  const textField = {
    // Before MUI's own paste handler, which cannot be told to leave a paste alone.
    onPasteCapture: (event: ClipboardEvent) => {
      const pasted = pastedDate(event.clipboardData.getData('text'));
      if (!pasted) return;
      event.preventDefault();
      event.stopPropagation();
      setDate(pasted);
      // As typed: a day, or INVALID_DAY for an impossible one (a filter keeps its bound, a form says it is no date).
      if (!saveOnLeave) emit(toDay(pasted));
    },
    name,
    size,
    fullWidth,
    required,
    error: error || invalid,
    helperText: helperText ?? (invalid ? DATE_MESSAGE : undefined),
    // Emptied, the field says so on leaving: clearing the text to type another date does not drop the value meanwhile.
    onBlur: () => {
      if (saveOnLeave) commit(date);
      else if (!date) emit('');
      onBlur?.();
    },
    onKeyDown: saveOnLeave
      ? (event: KeyboardEvent) => {
          if (event.key === 'Enter') commit(date);
        }
      : undefined,
    inputProps,
    InputLabelProps: { shrink: true },
  };
  return (
    <Suspense fallback={<TextField label={label} disabled {...textField} />}>
      <FrenchDatePicker
        label={label}
        value={date}
        onChange={(next) => {
          setDate(next);
          if (next && !saveOnLeave) emit(toDay(next));
        }}
        onPick={saveOnLeave ? commit : undefined}
        disabled={disabled}
        textField={textField}
      />
    </Suspense>
  );
}
