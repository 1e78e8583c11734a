// The filters of the generic list (spec section 2: status, network for mutuelles...), each sent to the server.
import { MenuItem, TextField } from '@mui/material';
import { useGetList, useListContext, useTranslate } from 'react-admin';
import type { FilterDefinition, ResourceConfig } from '../resources/types';

/** Sets one filter of the list at once (no debounce), back to page 1. */
export function useFilter(source: string) {
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const set = (value: unknown) => {
    const next = { ...filterValues };
    if (value === undefined || value === '' || value === null) delete next[source];
    else next[source] = value;
    setFilters(next, displayedFilters, false);
  };
  return [filterValues[source], set] as const;
}

export function ListFilters({ config }: { config: ResourceConfig }) {
  return (
    <>
      {(config.filters ?? []).map((filter) => (
        <Filter key={filter.source} resource={config.name} filter={filter} />
      ))}
    </>
  );
}

function Filter({ resource, filter }: { resource: string; filter: FilterDefinition }) {
  const translate = useTranslate();
  const label = translate(`resources.${resource}.fields.${filter.source}`, { _: filter.source });
  switch (filter.kind) {
    case 'choice':
      return <SelectFilter source={filter.source} label={label} options={filter.choices.map((c) => ({ value: c.id, label: translate(c.name, { _: c.name, smart_count: 2 }) }))} />;
    case 'reference':
      return <ReferenceFilter source={filter.source} label={label} reference={filter.reference} optionText={filter.optionText} />;
    case 'dateRange':
      return <DateRangeFilter source={filter.source} />;
    case 'custom': {
      const Component = filter.component;
      return <Component source={filter.source} />;
    }
  }
}

interface SelectFilterProps {
  source: string;
  label: string;
  options: { value: string; label: string }[];
  /** The filter's value for a chosen option, when it is not the option itself (a list of actions for a verb). */
  toFilter?: (option: string) => unknown;
  fromFilter?: (value: unknown) => string | undefined;
}

export function SelectFilter({ source, label, options, toFilter, fromFilter }: SelectFilterProps) {
  const translate = useTranslate();
  const [value, set] = useFilter(source);
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

function ReferenceFilter({ source, label, reference, optionText }: { source: string; label: string; reference: string; optionText: string }) {
  const { data = [] } = useGetList(reference, { pagination: { page: 1, perPage: 100 }, sort: { field: optionText, order: 'ASC' } });
  return <SelectFilter source={source} label={label} options={data.map((record) => ({ value: String(record.id), label: String(record[optionText] ?? record.id) }))} />;
}

function DateRangeFilter({ source }: { source: string }) {
  const translate = useTranslate();
  const [value, set] = useFilter(source);
  const range = (value && typeof value === 'object' ? value : {}) as { after?: string; before?: string };
  const change = (bound: 'after' | 'before', date: string) => {
    const next = { ...range, [bound]: date || undefined };
    set(next.after || next.before ? next : undefined);
  };
  return (
    <>
      {(['after', 'before'] as const).map((bound) => (
        <TextField
          key={bound}
          type="date"
          size="small"
          label={translate(bound === 'after' ? 'pecflow.settings.list.dateFrom' : 'pecflow.settings.list.dateTo')}
          value={range[bound] ?? ''}
          onChange={(event) => change(bound, event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      ))}
    </>
  );
}
