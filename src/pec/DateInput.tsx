// A date input of a react-admin form (the PEC forms): the French date field (src/admin/DatePickerField.tsx) whose value
// and message are the form's. Its own module: the list filters use the field without react-hook-form.
import { useInput } from 'react-admin';
import { DatePickerField } from '../admin/DatePickerField';

/** The same as a react-admin form input: its value and message are the form's (the zod schema checks it). */
export function DateInput({
  source,
  label,
  disabled,
  required,
  inputProps,
}: {
  source: string;
  label: string;
  disabled?: boolean;
  required?: boolean;
  inputProps?: Record<string, unknown>;
}) {
  const { field, fieldState } = useInput({ source });
  return (
    <DatePickerField
      label={label}
      name={field.name}
      value={field.value as string}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={!!fieldState.error}
      helperText={fieldState.error?.message}
      required={required}
      disabled={disabled}
      fullWidth
      inputProps={inputProps}
    />
  );
}
