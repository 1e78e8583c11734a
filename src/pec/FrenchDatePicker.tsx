// MUI X's date picker in French on a plain text input (dd/mm/yyyy, a calendar button), loaded only where a date input
// shows (src/admin/DatePickerField.tsx): the list page does not carry it until its date filters open.
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { frFR } from '@mui/x-date-pickers/locales';
import { fr } from 'date-fns/locale';
import type { FieldSelectedSections } from '@mui/x-date-pickers/models';
import type { TextFieldProps } from '@mui/material';
import { useState, type KeyboardEvent, type ReactNode } from 'react';

const LOCALE_TEXT = frFR.components.MuiLocalizationProvider.defaultProps.localeText;

/** What closes a day or a month typed with one digit, as on paper (1/12/2026, 1.12.2026, 1-12-2026). */
const SEPARATORS = new Set(['/', '.', '-']);

export interface FrenchDatePickerProps {
  label: ReactNode;
  value: Date | null;
  onChange: (date: Date | null) => void;
  /** A day picked in the calendar (not one typed in the field). */
  onPick?: (date: Date | null) => void;
  disabled?: boolean;
  textField: TextFieldProps;
}

export default function FrenchDatePicker({ label, value, onChange, onPick, disabled, textField }: FrenchDatePickerProps) {
  // The part of the date being typed (0: day, 1: month, 2: year), followed as MUI moves it, so that it can be moved.
  const [selected, setSelected] = useState<FieldSelectedSections>(null);
  // MUI waits for a day's or a month's second digit and ignores « / »: « 1/12/2026 » became 12/02/0026. A separator
  // typed in a part that holds a digit moves on to the next part; in an empty one (MUI moved on by itself: « 5/ ») it
  // does nothing.
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!SEPARATORS.has(event.key)) return;
    event.preventDefault();
    const part = typeof selected === 'number' ? selected : undefined;
    const text = (event.target as HTMLInputElement).value ?? '';
    if (part !== undefined && part < 2 && /\d/.test(text.split('/')[part] ?? '')) setSelected(part + 1);
  };
  return (
    <LocalizationProvider dateAdapter={AdapterDateFns} adapterLocale={fr} localeText={LOCALE_TEXT}>
      <DatePicker
        label={label}
        value={value}
        onChange={onChange}
        // MUI accepts each complete date typed in the field too: only the calendar's ('view') is a pick.
        onAccept={(date, context) => {
          if (context.source === 'view') onPick?.(date);
        }}
        format="dd/MM/yyyy"
        enableAccessibleFieldDOMStructure={false}
        disabled={disabled}
        selectedSections={selected}
        onSelectedSectionsChange={setSelected}
        slotProps={{ textField: { ...textField, onKeyDownCapture } }}
      />
    </LocalizationProvider>
  );
}
