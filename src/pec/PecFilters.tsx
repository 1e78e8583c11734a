// The list's filters (spec section 2): search (one the server refuses says why under its box), status (all plus the
// seven statuses), the "Archivées" chip (issue 25: the archived files alone), "Plus de filtres" (creation date from/to,
// centre, réseau, mutuelle, kind, payment state, expiry before a day — issue 28 —, sort field, direction) and the clear
// button. Every filter lives in the URL.
// Filters set from elsewhere (the dashboard's links: expiry, billing, validation dates, a selection of files) show as
// chips that can be removed one by one.
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ClearIcon from '@mui/icons-material/FilterAltOff';
import TuneIcon from '@mui/icons-material/Tune';
import ArchiveIcon from '@mui/icons-material/Inventory2Outlined';
import { Box, Button, Checkbox, Chip, Collapse, MenuItem, Paper, Stack, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useGetIdentity, useGetList, useGetOne, useListContext, useTranslate, type RaRecord } from 'react-admin';
import { formatDate } from '#domain/format';
import { PEC_STATUSES } from '#domain/pec';
import { PAYMENT_FILTER_LABELS, PAYMENT_FILTERS, type PaymentFilter } from '#domain/payments';
import { DatePickerField, INVALID_DAY } from '../admin/DatePickerField';
import { dayBound, DEFAULT_SORT } from './filters';
import { useDateRange } from '../admin/dateRange';
import { searchRefusalOf } from '../admin/searchRefusal';
import { PecStatusBadge, useMyColleagues } from './shared';
import { pecNumericId } from '../dataProvider/pec';
import { FILE_KIND_LABELS, FILE_KINDS, type FileKind } from '#domain/fileKinds';
import { FOLLOW_UP_FILTER, OWNER_FILTER, OWNER_FILTER_ME, OWNER_FILTER_NOBODY } from '#domain/followUps';

/** The sort fields of spec section 2. */
export const SORT_FIELDS = ['createdAt', 'numeroDossier', 'totalTtc', 'status', 'dateValidation', 'shop', 'mutual', 'followUpDate'] as const;
/** Filters the panel edits; any other is shown as a chip. */
const PANEL_FILTERS = new Set(['search', 'status', 'createdAt']);
/** Filters the panel edits that also show as chips (they may come from a dashboard link, with bounds of their own). */
const PANEL_AND_CHIP_FILTERS = ['shop', 'network', 'mutual', 'fileKind', 'payment', 'datePeremption', OWNER_FILTER];
/** The reference lists the panel chooses from, by name (read once, kept 10 minutes as the form's). */
const REFERENCE_FILTERS = ['shop', 'network', 'mutual'] as const;
const REFERENCE_RESOURCES: Record<string, string> = { shop: 'shops', network: 'networks', mutual: 'mutuals' };
const WHOLE_LIST = { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' as const } };
const MINUTE = 60_000;

interface Range {
  after?: string;
  before?: string;
}

const isRange = (value: unknown): value is Range => !!value && typeof value === 'object' && !Array.isArray(value);
const day = (value: string | undefined) => (value ? value.slice(0, 10) : '');
/** The status filter as a list: one status (a plain value) or several. */
const statusesOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

export function PecFilters() {
  const translate = useTranslate();
  const { filterValues, setFilters, sort, setSort, error } = useListContext();
  const created = isRange(filterValues.createdAt) ? filterValues.createdAt : {};
  const expiry = isRange(filterValues.datePeremption) ? filterValues.datePeremption : {};
  const customSort = sort.field !== DEFAULT_SORT.field || sort.order !== DEFAULT_SORT.order;
  const panelSet = !!(created.after || created.before) || PANEL_AND_CHIP_FILTERS.some((key) => key in filterValues);
  const [more, setMore] = useState(() => panelSet || customSort);

  // Search: typed here at once, sent after the pause (react-admin's debounce, page back to 1).
  // A search changed elsewhere (the URL, clearing) replaces what is in the box, adjusted during render.
  const filterSearch = typeof filterValues.search === 'string' ? filterValues.search : '';
  const [search, setSearch] = useState<string>(filterSearch);
  const [syncedSearch, setSyncedSearch] = useState(filterSearch);
  if (filterSearch !== syncedSearch) {
    setSyncedSearch(filterSearch);
    setSearch(filterSearch);
  }

  // The filters as last asked for. react-router draws a new address in a transition: a change made before the previous
  // one is drawn (a payment state chosen, then a date typed at once) started from the filters of before and undid it.
  const asked = useRef(filterValues);
  useEffect(() => {
    asked.current = filterValues;
  }, [filterValues]);
  const change = (key: string, value: unknown, debounce = false) => {
    const next = { ...asked.current };
    if (value === undefined || value === '' || (isRange(value) && !value.after && !value.before)) delete next[key];
    else next[key] = value;
    asked.current = next;
    setFilters(next, undefined, debounce);
  };

  // A date still being typed changes nothing; a start after the end is held at its field, not asked for.
  const createdRange = useDateRange(created, ({ after, before }) =>
    change('createdAt', { after: after ? dayBound(after, 'after') : undefined, before: before ? dayBound(before, 'before') : undefined }),
  );
  const setExpiry = (date: string) => date !== INVALID_DAY && change('datePeremption', { ...expiry, before: date ? date : undefined });
  const selectValue = (key: string) => (typeof filterValues[key] === 'string' || typeof filterValues[key] === 'number' ? String(filterValues[key]) : '');
  const sortFields: string[] = SORT_FIELDS.includes(sort.field as never) ? [...SORT_FIELDS] : [...SORT_FIELDS, sort.field];
  // The archived files alone: the bar's own chip (issue 25); every file (archived=all, from the dashboard) an extra chip.
  const archivedOnly = String(filterValues.archived) === 'true';
  const followUpsOnly = filterValues[FOLLOW_UP_FILTER] === 'true';
  const extra = Object.entries(filterValues).filter(
    ([key]) => !PANEL_FILTERS.has(key) && !(key === 'archived' && archivedOnly) && !(key === FOLLOW_UP_FILTER && followUpsOnly),
  );
  // A sort is not a filter: the list keeps it, and it alone leaves « Effacer les filtres » inert.
  const filtered = Object.keys(filterValues).length > 0;
  const statuses = statusesOf(filterValues.status);

  const clear = () => {
    setSearch('');
    asked.current = {};
    setFilters({}, {}, false);
  };
  // A search the server refuses (more words than it takes) says why under the box, announced; the list keeps its rows.
  const refusal = searchRefusalOf(error);
  const placeholder = useWholePlaceholder(translate('pecflow.pec.filters.searchPlaceholder'), translate('pecflow.pec.filters.searchPlaceholderShort'));

  return (
    <Box sx={{ mb: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} useFlexGap flexWrap="wrap" alignItems={{ md: 'center' }}>
        <TextField
          size="small"
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            change('search', event.target.value.trim(), true);
          }}
          inputRef={placeholder.ref}
          placeholder={placeholder.text}
          error={!!refusal}
          helperText={refusal}
          // The hint: a tooltip on hover, the field's description for a screen reader (the refusal's while there is one).
          slotProps={{
            htmlInput: { 'aria-label': translate('pecflow.pec.filters.search'), title: translate('pecflow.pec.filters.searchHint') },
            formHelperText: { role: 'alert' },
          }}
          sx={{ minWidth: { md: 340 }, flex: { md: '1 1 440px' } }}
        />
        <TextField
          select
          size="small"
          label={translate('pecflow.pec.filters.status')}
          value={statuses}
          onChange={(event) => {
            // Several statuses at once (issue 28): one stays a plain value, as the dashboard's links write it.
            const picked = (event.target.value as unknown as string[]).filter(Boolean);
            change('status', picked.length > 1 ? picked : picked[0]);
          }}
          sx={{ minWidth: 180, flex: { md: '0 0 180px' } }}
          slotProps={{
            select: {
              multiple: true,
              displayEmpty: true,
              renderValue: () =>
                statuses.length === 0 ? (
                  translate('pecflow.pec.filters.allStatuses')
                ) : statuses.length === 1 ? (
                  <PecStatusBadge status={statuses[0]} />
                ) : (
                  translate('pecflow.pec.filters.statusCount', { smart_count: statuses.length })
                ),
            },
            inputLabel: { shrink: true },
          }}
          data-testid="filter-status"
        >
          {PEC_STATUSES.map((status) => (
            <MenuItem key={status} value={status}>
              <Checkbox size="small" checked={statuses.includes(status)} sx={{ p: 0.5, mr: 1 }} />
              <PecStatusBadge status={status} />
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" spacing={1}>
          <Button
            variant={more ? 'contained' : 'outlined'}
            color="inherit"
            startIcon={<TuneIcon />}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            onClick={() => setMore((m) => !m)}
            aria-expanded={more}
          >
            {translate('pecflow.pec.filters.more')}
          </Button>
          <Button
            color="inherit"
            startIcon={<ClearIcon />}
            onClick={filtered ? clear : undefined}
            aria-disabled={!filtered || undefined}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          >
            {translate('pecflow.pec.filters.clear')}
          </Button>
        </Stack>
      </Stack>

      <Collapse in={more} unmountOnExit>
        {/* A grid: one field a row on a phone, up to four side by side on a wide screen, each filling its cell. */}
        <Paper variant="outlined" sx={{ p: 2, mt: 1.5 }} data-testid="pec-more-filters">
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
              gap: 1.5,
              // Fields line up by their top: a hint under one (a reversed date range) does not lift it from its row.
              alignItems: 'start',
              '& .MuiFormControl-root': { minWidth: 0, width: '100%', m: 0 },
            }}
          >
            {(['after', 'before'] as const).map((bound) => (
              <DatePickerField
                key={bound}
                label={translate(bound === 'after' ? 'pecflow.pec.filters.dateFrom' : 'pecflow.pec.filters.dateTo')}
                value={createdRange.value(bound)}
                onChange={(date) => createdRange.change(bound, date)}
                error={!!createdRange.error(bound)}
                helperText={createdRange.error(bound)}
              />
            ))}
            {REFERENCE_FILTERS.map((key) => (
              <ReferenceFilter key={key} name={key} value={selectValue(key)} onChange={(value) => change(key, value)} network={selectValue('network')} />
            ))}
            <ChoiceFilter
              name="fileKind"
              value={selectValue('fileKind')}
              choices={FILE_KINDS.map((kind) => ({ id: kind, name: FILE_KIND_LABELS[kind] }))}
              onChange={(value) => change('fileKind', value)}
            />
            <ChoiceFilter
              name="payment"
              value={selectValue('payment')}
              choices={PAYMENT_FILTERS.map((state) => ({ id: state, name: PAYMENT_FILTER_LABELS[state] }))}
              onChange={(value) => change('payment', value)}
            />
            <DatePickerField label={translate('pecflow.pec.filters.expiresBefore')} value={day(expiry.before)} onChange={setExpiry} />
            <OwnerFilter value={selectValue(OWNER_FILTER)} onChange={(value) => change(OWNER_FILTER, value)} />
            <Stack direction="row" spacing={1} alignItems="center" sx={{ gridColumn: { sm: 'span 2' } }}>
              <TextField
                select
                size="small"
                label={translate('pecflow.pec.filters.sortField')}
                value={sort.field}
                onChange={(event) => setSort({ field: event.target.value, order: sort.order })}
              >
                {sortFields.map((field) => (
                  <MenuItem key={field} value={field}>
                    {translate(`pecflow.pec.sortFields.${field}`, { _: field })}
                  </MenuItem>
                ))}
              </TextField>
              <Button
                variant="outlined"
                color="inherit"
                startIcon={sort.order === 'ASC' ? <ArrowUpwardIcon /> : <ArrowDownwardIcon />}
                onClick={() => setSort({ field: sort.field, order: sort.order === 'ASC' ? 'DESC' : 'ASC' })}
                aria-label={translate('pecflow.pec.filters.direction')}
                sx={{ flexShrink: 0 }}
              >
                {translate(sort.order === 'ASC' ? 'pecflow.pec.filters.ascending' : 'pecflow.pec.filters.descending')}
              </Button>
            </Stack>
          </Box>
        </Paper>
      </Collapse>

      {/* The bar's chips: the archived files alone (a toggle), then the filters set from elsewhere, each removable. */}
      <Stack direction="row" spacing={1} sx={{ mt: 1.5 }} flexWrap="wrap" useFlexGap alignItems="center" data-testid="pec-filter-chips">
        <Chip
          label={translate('pecflow.pec.filters.archived')}
          icon={<ArchiveIcon />}
          color={archivedOnly ? 'warning' : 'default'}
          variant={archivedOnly ? 'filled' : 'outlined'}
          onClick={() => change('archived', archivedOnly ? undefined : 'true')}
          aria-pressed={archivedOnly}
          title={translate('pecflow.pec.filters.archivedHelp')}
          data-testid="filter-archived"
        />
        <Chip
          label={translate('pecflow.pec.filters.followUps')}
          color={followUpsOnly ? 'warning' : 'default'}
          variant={followUpsOnly ? 'filled' : 'outlined'}
          onClick={() => change(FOLLOW_UP_FILTER, followUpsOnly ? undefined : 'true')}
          aria-pressed={followUpsOnly}
          title={translate('pecflow.pec.filters.followUpsHelp')}
          data-testid="filter-follow-ups"
        />
        {extra.length > 0 && (
          <Box sx={{ display: 'contents' }} data-testid="pec-extra-filters">
            {extra.map(([key, value]) => (
              <Chip key={key} label={<FilterLabel name={key} value={value} />} onDelete={() => change(key, undefined)} color="primary" variant="outlined" />
            ))}
          </Box>
        )}
      </Stack>
    </Box>
  );
}

/**
 * A placeholder read whole: `full` where it fits in its input (measured in the input's font, again when the input is
 * resized), else `short` (a narrow phone).
 */
function useWholePlaceholder(full: string, short: string) {
  const [input, setInput] = useState<HTMLInputElement | null>(null);
  const [fits, setFits] = useState(true);
  useEffect(() => {
    const context = input && document.createElement('canvas').getContext('2d');
    if (!input || !context) return;
    const observer = new ResizeObserver(() => {
      const style = getComputedStyle(input);
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      setFits(context.measureText(full).width <= room);
    });
    observer.observe(input);
    return () => observer.disconnect();
  }, [input, full]);
  return { ref: setInput, text: fits ? full : short };
}

interface FilterChoice {
  id: string;
  name: string;
}

/** A select of the panel: "Tous" first, then the choices; the empty choice removes the filter. */
function ChoiceFilter({
  name,
  value,
  choices,
  onChange,
  feminine = false,
}: {
  name: string;
  value: string;
  choices: FilterChoice[];
  onChange: (value: string) => void;
  /** "Toutes" rather than "Tous" (la mutuelle). */
  feminine?: boolean;
}) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={translate(`pecflow.pec.filters.names.${name}`)}
      value={choices.some((c) => c.id === value) ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 200 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{translate(feminine ? 'pecflow.pec.filters.anyFeminine' : 'pecflow.pec.filters.any')}</MenuItem>
      {choices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id}>
          {choice.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Centre, réseau or mutuelle: the records the user may see, by name; the mutuals of the chosen network only. */
function ReferenceFilter({
  name,
  value,
  network,
  onChange,
}: {
  name: (typeof REFERENCE_FILTERS)[number];
  value: string;
  network: string;
  onChange: (value: string) => void;
}) {
  const resource = REFERENCE_RESOURCES[name];
  const filter = name === 'mutual' && network ? { 'network.id': network, pagination: false } : { pagination: false };
  const { data } = useGetList<RaRecord & { name?: string }>(resource, { ...WHOLE_LIST, filter }, { staleTime: 10 * MINUTE, gcTime: 10 * MINUTE });
  const choices = (data ?? []).map((record) => ({ id: String(pecNumericId(record)), name: record.name ?? '' }));
  return <ChoiceFilter name={name} value={value} choices={choices} onChange={onChange} feminine={name === 'mutual'} />;
}

/** 'Suivi par': me, nobody, or one of the reader's colleagues (by id, as the URL keeps it). */
function OwnerFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const colleagues = useMyColleagues().filter((c) => String(c.id) !== String(identity?.id));
  const choices = [
    ...[OWNER_FILTER_ME, OWNER_FILTER_NOBODY].map((id) => ({ id, name: translate(`pecflow.pec.filters.owner.${id}`) })),
    ...colleagues.map((c) => ({ id: String(c.id), name: `${c.firstName} ${c.lastName}`.trim() })),
  ];
  return <ChoiceFilter name={OWNER_FILTER} value={value} choices={choices} onChange={onChange} />;
}

/** A colleague's name in the 'Suivi par' chip ("un collègue" until it is known). */
function OwnerName({ value }: { value: string }) {
  const translate = useTranslate();
  const known = /^\d+$/.test(value);
  const colleague = useMyColleagues(known).find((c) => String(c.id) === value);
  if (!known) return <>{translate(`pecflow.pec.filters.owner.${value}`, { _: translate('pecflow.pec.filters.owner.colleague') })}</>;
  return <>{colleague ? `${colleague.firstName} ${colleague.lastName}`.trim() : translate('pecflow.pec.filters.owner.colleague')}</>;
}

/**
 * Keys the server reads as another filter's (server/hydra/query.ts: `q` for the search, `dateFrom` / `dateTo` for the
 * creation dates), as an address typed by hand may name them: labelled as the filter they stand for.
 */
const ALIAS_LABELS: Record<string, string> = {
  q: 'pecflow.pec.filters.search',
  dateFrom: 'pecflow.pec.filters.dateFrom',
  dateTo: 'pecflow.pec.filters.dateTo',
};

/**
 * A filter that the panel does not edit, in words: "Péremption : du 21/11/2026 au 06/12/2026". Named by its chip's
 * label, else by the file's field it filters (react-admin's field labels), never by its key in the address.
 */
function FilterLabel({ name, value }: { name: string; value: unknown }) {
  const translate = useTranslate();
  const label = translate(ALIAS_LABELS[name] ?? `pecflow.pec.filters.names.${name}`, { _: translate(`resources.pec_dossiers.fields.${name}`, { _: name }) });
  let text: string;
  if (name === 'dateFrom' || name === 'dateTo') text = formatDate(String(value));
  else if (name === 'robotFailedWithinDays') text = translate('pecflow.pec.filters.lastDays', { smart_count: Number(value) });
  else if (name === 'fileKind') text = FILE_KIND_LABELS[value as FileKind] ?? String(value);
  else if (name === 'payment') text = PAYMENT_FILTER_LABELS[value as PaymentFilter] ?? String(value);
  else if (name === OWNER_FILTER)
    return (
      <span>
        {label} : <OwnerName value={String(value)} />
      </span>
    );
  else if (name === 'archived') text = translate(`pecflow.pec.filters.archivedValues.${String(value)}`, { _: String(value) });
  else if (name in REFERENCE_RESOURCES && (typeof value === 'string' || typeof value === 'number'))
    return <ReferenceChipLabel label={label} name={name} id={value} />;
  else if (Array.isArray(value)) text = translate('pecflow.pec.filters.selection', { smart_count: value.length });
  else if (typeof value === 'boolean' || value === 'true' || value === 'false')
    text = translate(String(value) === 'true' ? 'pecflow.pec.filters.yes' : 'pecflow.pec.filters.no');
  else if (isRange(value)) {
    const from = value.after ? formatDate(value.after) : undefined;
    const to = value.before ? formatDate(value.before) : undefined;
    text =
      from && to
        ? translate('pecflow.pec.filters.between', { from, to })
        : from
          ? translate('pecflow.pec.filters.since', { from })
          : translate('pecflow.pec.filters.until', { to });
  } else text = String(value);
  return (
    <span>
      {label} : {text}
    </span>
  );
}

/**
 * "Centre : Optique Riviera Nice": the record's name, read once (its number until it arrives). A record the reader may
 * not see (a colleague's shared view naming a centre of theirs) is said so, never by its number.
 */
function ReferenceChipLabel({ label, name, id }: { label: string; name: string; id: string | number }) {
  const translate = useTranslate();
  const { data, isError } = useGetOne<RaRecord & { name?: string }>(
    REFERENCE_RESOURCES[name]!,
    { id: `/api/${REFERENCE_RESOURCES[name]}/${id}` },
    { staleTime: 10 * MINUTE, retry: false },
  );
  return (
    <span>
      {label} : {isError ? translate('pecflow.pec.filters.unreachable') : (data?.name ?? String(id))}
    </span>
  );
}
