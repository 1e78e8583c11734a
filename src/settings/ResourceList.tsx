// The one list screen of the back-office entities (spec section 2, "Generic list screen"): title, count, refresh,
// create, search, filters, skeleton, empty and error states, selection with bulk actions, pagination, and the drawer.
import AddIcon from '@mui/icons-material/Add';
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  Box,
  Button,
  Checkbox,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Resource } from '@api-platform/api-doc-parser';
import { useEffect, useMemo, useState } from 'react';
import {
  FieldTitle,
  ListBase,
  RecordContextProvider,
  ResourceContextProvider,
  useListContext,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { readAuthStore } from '../authProvider/session';
import { PAGE_SIZE, SEARCH_DEBOUNCE_MS, SKELETON_ROWS } from '../domain/limits';
import type { ResourceConfig } from '../resources/types';
import { BulkActions } from './BulkActions';
import { ListFilters } from './ListFilters';
import { useNouns } from './nouns';
import { ResourceDrawer } from './ResourceDrawer';
import { Cell, getPath } from './cells';
import { LoadError } from './fields';
import { listColumns, useResourceRights, useResourceSchema, useSchemaAnalyzer } from './schema';

/** Unpaginated collections (credentials) come whole; the API caps them far above any real organisation. */
const UNPAGINATED = 5000;

function useDebounced<T>(value: T, delay = SEARCH_DEBOUNCE_MS) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/** Lower case without accents, as the server's search compares. */
const normalize = (value: unknown) =>
  String(value ?? '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export function ResourceScreen({ config }: { config: ResourceConfig }) {
  const { schema, error } = useResourceSchema(config.name);
  const [drawer, setDrawer] = useState<{ open: boolean; target?: Identifier | 'create' }>({ open: false });
  const holdingId = readAuthStore().user?.holdingId;
  const permanentFilter = config.scopeToHolding && holdingId ? { holding: holdingId } : undefined;
  const paginated = config.paginated !== false;

  return (
    <ResourceContextProvider value={config.name}>
      <ListBase
        resource={config.name}
        perPage={paginated ? PAGE_SIZE : UNPAGINATED}
        // No order asked: the API's own default order (by name for most entities).
        sort={{ field: '', order: 'ASC' }}
        filter={permanentFilter}
        disableSyncWithLocation
        storeKey={false}
      >
        <ListView config={config} schema={schema} schemaError={error} onOpen={(target) => setDrawer({ open: true, target })} />
      </ListBase>
      {schema && (
        <ResourceDrawer
          config={config}
          schema={schema}
          open={drawer.open}
          target={drawer.target}
          onClose={() => setDrawer((d) => ({ ...d, open: false }))}
          onExited={() => setDrawer({ open: false })}
        />
      )}
    </ResourceContextProvider>
  );
}

interface ListViewProps {
  config: ResourceConfig;
  schema: Resource | undefined;
  schemaError: Error | null;
  onOpen: (target: Identifier | 'create') => void;
}

function ListView({ config, schema, schemaError, onOpen }: ListViewProps) {
  const translate = useTranslate();
  const list = useListContext();
  const { plural, say } = useNouns(config.name, config.feminine);
  const rights = useResourceRights(config.name, schema);
  const paginated = config.paginated !== false;

  // Search: debounced, then sent to the server (page back to 1) or applied here for unpaginated lists.
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  useEffect(() => {
    if (!paginated) return;
    if ((list.filterValues.search ?? '') === term) return;
    list.setFilters({ ...list.filterValues, search: term || undefined }, list.displayedFilters, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [term, paginated]);

  const rows = useMemo(() => {
    const data = list.data ?? [];
    if (paginated || !term) return data;
    const needle = normalize(term);
    return data.filter((record) => config.searchable.some((source) => normalize(getPath(record, source)).includes(needle)));
  }, [list.data, paginated, term, config.searchable]);
  const total = paginated ? (list.total ?? 0) : rows.length;

  const error = schemaError ?? list.error;
  const loading = !error && (!schema || list.isPending);

  return (
    <Box data-testid={`list-${config.name}`}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }} justifyContent="space-between" sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h6" component="h2" fontWeight={700}>
            {plural}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="list-count">
            {loading || error ? '\u00a0' : say('list.count', { smart_count: total })}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" startIcon={<RefreshIcon />} onClick={() => list.refetch()}>
            {translate('pecflow.settings.list.refresh')}
          </Button>
          {rights.create && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => onOpen('create')}>
              {say('list.create')}
            </Button>
          )}
        </Stack>
      </Stack>

      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }} alignItems={{ md: 'center' }}>
        <MuiTextField
          size="small"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={translate(`resources.${config.name}.search`, { _: translate('pecflow.settings.list.search') })}
          slotProps={{ htmlInput: { 'aria-label': translate('pecflow.settings.list.search') } }}
          sx={{ minWidth: { md: 340 }, flex: { md: '0 1 420px' } }}
        />
        {config.filters && config.filters.length > 0 && (
          <Box sx={{ display: { xs: 'none', md: 'flex' }, gap: 1.5, flexWrap: 'wrap' }} data-testid="list-filters">
            <ListFilters config={config} />
          </Box>
        )}
      </Stack>

      {schema && <BulkActions config={config} schema={schema} rights={rights} />}

      {error ? (
        <LoadError
          title={translate('pecflow.settings.list.errorTitle')}
          text={translate('pecflow.settings.list.errorText')}
          onRetry={() => list.refetch()}
        />
      ) : !loading && rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }} data-testid="list-empty">
          <Typography color="text.secondary" sx={{ mb: rights.create ? 2 : 0 }}>
            {translate(`resources.${config.name}.empty`, { _: translate('pecflow.settings.list.empty') })}
          </Typography>
          {rights.create && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => onOpen('create')}>
              {say('list.create')}
            </Button>
          )}
        </Paper>
      ) : (
        <DataTable config={config} schema={schema} rows={rows} loading={loading} selectable={rights.update || rights.delete} onOpen={onOpen} />
      )}

      {paginated && !error && !loading && total > 0 && <Pagination total={total} />}
    </Box>
  );
}

interface DataTableProps {
  config: ResourceConfig;
  schema: Resource | undefined;
  rows: RaRecord[];
  loading: boolean;
  selectable: boolean;
  onOpen: (id: Identifier) => void;
}

function DataTable({ config, schema, rows, loading, selectable, onOpen }: DataTableProps) {
  const translate = useTranslate();
  const analyzer = useSchemaAnalyzer();
  const { selectedIds, onSelect, onToggleItem, onUnselectItems, sort, setSort } = useListContext();
  const columns = schema ? listColumns(config, schema) : config.columns;
  // Sortable columns: the order[...] keys of the collection's search template.
  const { data: orderKeys = [] } = useQuery({
    queryKey: ['pecflow', 'orderKeys', config.name],
    queryFn: () => analyzer.getOrderParametersFromSchema(schema!),
    enabled: !!schema,
    staleTime: Infinity,
  });
  const pageIds = rows.map((r) => r.id);
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selectedIds.includes(id));
  const someSelected = pageIds.some((id) => selectedIds.includes(id));

  return (
    <TableContainer component={Paper} variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-busy={loading}>
        <TableHead>
          <TableRow>
            {selectable && (
              <TableCell padding="checkbox">
                <Checkbox
                  checked={allSelected}
                  indeterminate={someSelected && !allSelected}
                  disabled={loading || pageIds.length === 0}
                  onChange={() => (allSelected ? onUnselectItems() : onSelect(pageIds))}
                  slotProps={{ input: { 'aria-label': translate('pecflow.settings.list.selectAll') } }}
                />
              </TableCell>
            )}
            {columns.map((column) => {
              const orderKey = column.sortBy === false ? undefined : (column.sortBy ?? column.source);
              const sortable = !!orderKey && orderKeys.includes(orderKey);
              const label = <FieldTitle source={column.source.split('.')[0]} resource={config.name} />;
              return (
                <TableCell key={column.source} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                  {sortable ? (
                    <TableSortLabel
                      active={sort.field === orderKey}
                      direction={sort.field === orderKey && sort.order === 'DESC' ? 'desc' : 'asc'}
                      onClick={() => setSort({ field: orderKey!, order: sort.field === orderKey && sort.order === 'ASC' ? 'DESC' : 'ASC' })}
                    >
                      {label}
                    </TableSortLabel>
                  ) : (
                    label
                  )}
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <TableBody>
          {loading
            ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <TableRow key={i} data-testid="skeleton-row">
                  {selectable && <TableCell padding="checkbox" />}
                  {columns.map((column) => (
                    <TableCell key={column.source}>
                      <Skeleton variant="text" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : rows.map((record) => (
                <RecordContextProvider key={record.id} value={record}>
                  <TableRow hover sx={{ cursor: 'pointer' }} onClick={() => onOpen(record.id)} data-testid="list-row">
                    {selectable && (
                      <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                        <Checkbox
                          checked={selectedIds.includes(record.id)}
                          onChange={() => onToggleItem(record.id)}
                          slotProps={{ input: { 'aria-label': translate('pecflow.settings.list.selectRow') } }}
                        />
                      </TableCell>
                    )}
                    {columns.map((column) => (
                      <TableCell key={column.source}>
                        <Cell column={column} record={record} schema={schema} />
                      </TableCell>
                    ))}
                  </TableRow>
                </RecordContextProvider>
              ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function Pagination({ total }: { total: number }) {
  const translate = useTranslate();
  const { page, perPage, setPage, isFetching, onUnselectItems } = useListContext();
  const pages = Math.max(1, Math.ceil(total / perPage));
  // A selection is the rows in view: bulk actions never act on rows of another page the user no longer sees.
  const goTo = (next: number) => {
    onUnselectItems();
    setPage(next);
  };
  return (
    <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mt: 1.5, flexWrap: 'wrap', gap: 1 }} data-testid="pagination">
      <Typography variant="body2" color="text.secondary">
        {translate('pecflow.settings.list.results', { smart_count: total })}
      </Typography>
      <Stack direction="row" alignItems="center" spacing={1}>
        <Button size="small" disabled={page <= 1 || isFetching} onClick={() => goTo(page - 1)}>
          {translate('pecflow.settings.list.previous')}
        </Button>
        <Typography variant="body2">{translate('pecflow.settings.list.page', { page, pages })}</Typography>
        <Button size="small" disabled={page >= pages || isFetching} onClick={() => goTo(page + 1)}>
          {translate('pecflow.settings.list.next')}
        </Button>
      </Stack>
    </Stack>
  );
}
