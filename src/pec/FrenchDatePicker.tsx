// MUI X's date picker in French on a plain text input (dd/mm/yyyy, a calendar button), loaded only where a date input
// shows (src/admin/DatePickerField.tsx): the list page does not carry it until its date filters open.
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { frFR } from '@mui/x-date-pickers/locales';
import { fr } from 'date-fns/locale';
import type { TextFieldProps } from '@mui/material';
import type { ReactNode } from 'react';

const LOCALE_TEXT = frFR.components.MuiLocalizationProvider.defaultProps.localeText;

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
        slotProps={{ textField }}
      />
    </LocalizationProvider>
  );
}
