// The filter inputs of the list frame (settings and PEC): each sets one filter of the react-admin list at once
// (back to page 1, kept in the URL): a choice among labelled values, a reference's records, a date range.
// Usage: <ListFrame filters={<><SelectFilter source="status" label="Statut" options={…} /><DateRangeFilter source="createdAt" /></>}>
import { MenuItem, TextField } from '@mui/material';
import { useGetList, useListContext, useTranslate } from 'react-admin';
import { DatePickerField } from './DatePickerField';
import { useDateRange } from './dateRange';

/** One filter's value and its setter (empty removes it). */
export function useListFilter(source: string) {
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const set = (value: unknown) => {
    const next = { ...filterValues };
    if (value === undefined || value === '' || value === null) delete next[source];
    else next[source] = value;
    setFilters(next, displayedFilters, false);
  };
  return [filterValues[source], set] as const;
}

interface SelectFilterProps {
  source: string;
  label: string;
  options: { value: string; label: string }[];
  /** The filter's value for a chosen option, when it is not the option itself (a list of actions for a verb). */
  toFilter?: (option: string) => unknown;
  fromFilter?: (value: unknown) => string | undefined;
}

/** A select with 'Tous' first. */
export function SelectFilter({ source, label, options, toFilter, fromFilter }: SelectFilterProps) {
  const translate = useTranslate();
  const [value, set] = useListFilter(source);
  const selected = fromFilter ? fromFilter(value) : value;
  return (
    <TextField
      select
      size="small"
      label={label}
      value={typeof selected === 'string' ? selected : ''}
      onChange={(event) => set(event.target.value && toFilter ? toFilter(event.target.value) : event.target.value)}
      sx={{ minWidth: 180 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{translate('pecflow.settings.list.all')}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The records of another collection, labelled by `optionText` (the mutuelles' network filter). */
export function ReferenceFilter({ source, label, reference, optionText }: { source: string; label: string; reference: string; optionText: string }) {
  const { data = [] } = useGetList(reference, { pagination: { page: 1, perPage: 100 }, sort: { field: optionText, order: 'ASC' } });
  return (
    <SelectFilter
      source={source}
      label={label}
      options={data.map((record) => ({ value: String(record.id), label: String(record[optionText] ?? record.id) }))}
    />
  );
}

/** 'Du' and 'Au': {after, before} of one date field, typed and shown dd/mm/yyyy. */
export function DateRangeFilter({ source }: { source: string }) {
  const translate = useTranslate();
  const [value, set] = useListFilter(source);
  const range = (value && typeof value === 'object' ? value : {}) as { after?: string; before?: string };
  // A start after the end is held at its field, not asked for (src/admin/dateRange.ts).
  const dates = useDateRange(range, ({ after, before }) => set(after || before ? { after: after || undefined, before: before || undefined } : undefined));
  return (
    <>
      {(['after', 'before'] as const).map((bound) => (
        <DatePickerField
          key={bound}
          label={translate(bound === 'after' ? 'pecflow.settings.list.dateFrom' : 'pecflow.settings.list.dateTo')}
          value={dates.value(bound)}
          onChange={(day) => dates.change(bound, day)}
          error={!!dates.error(bound)}
          helperText={dates.error(bound)}
          // As wide as a date (jj/mm/aaaa), not the browser's 20 characters: the list's filters hold on one line.
          inputProps={{ size: 11 }}
        />
      ))}
    </>
  );
}
