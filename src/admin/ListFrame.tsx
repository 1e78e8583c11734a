// The ONE list frame (settings lists and the PEC list), on ra-core's <ListBase> and react-admin's <DataTable>: the title and its
// count line ('{n} {plural} trouvés'), Actualiser, the create button, the search (debounced 500 ms), the filters, the
// bulk bar under the selected rows, 5 skeleton rows while loading, the rows dimmed and inert to the pointer under a
// moving bar (the table, or the empty state, aria-busy) while another page, sort or filter is read, the empty state with
// its create button, the error state with Réessayer (a refused search is said at the search box instead: with no rows
// read before it, the body points there), and the pagination. A sortable column sorts from anywhere in its header
// cell. Filters, sort and page live in the URL query (react-admin's List).
// Usage:
//   <ListFrame resource="holdings" title="Organisations" countText={(n) => …} emptyText="Aucun holding trouvé"
//              rowClick={(id) => `/settings/holdings/${id}`} filters={<SelectFilter source="status" … />}>
//     <DataTable.Col source="name" label="Nom" />
//   </ListFrame>
import AddIcon from '@mui/icons-material/Add';
import ClearFiltersIcon from '@mui/icons-material/FilterAltOff';
import FilterListIcon from '@mui/icons-material/FilterList';
import RefreshIcon from '@mui/icons-material/Refresh';
import ResetIcon from '@mui/icons-material/RestartAlt';
import SearchIcon from '@mui/icons-material/Search';
import {
  Box,
  Button,
  Checkbox,
  GlobalStyles,
  InputAdornment,
  MenuList,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableRow,
  TextField,
  ThemeProvider,
  Typography,
  popoverClasses,
  useMediaQuery,
  type SxProps,
  type Theme,
} from '@mui/material';
import { alpha } from '@mui/material/styles';
import { visuallyHidden } from '@mui/utils';
import {
  Children,
  cloneElement,
  createContext,
  isValidElement,
  useContext,
  useDeferredValue,
  useEffect,
  useEffectEvent,
  useId,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type ComponentProps,
  type FocusEvent,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
} from 'react';
import { createPortal } from 'react-dom';
import {
  DataTableCallbacksContext,
  DataTableColumnFilterContext,
  DataTableColumnRankContext,
  DataTableRenderContext,
  DataTableStoreContext,
  ListBase,
  ListContextProvider,
  shallowEqual,
  useDataTableCallbacksContext,
  useDataTableConfigContext,
  useDataTableDataContext,
  useDataTableRenderContext,
  useDataTableSelectedIdsContext,
  useDataTableSortContext,
  useRecordContext,
  useCanAccess,
  useStore,
  type ListControllerResult,
} from 'ra-core';
import {
  Button as RaButton,
  ColumnsButton,
  DataTable,
  DataTableBody,
  DataTableRow,
  ResettableTextField,
  useListContext,
  useTranslate,
  type DataTableBodyProps,
  type DataTableColumnProps,
  type Identifier,
  type ListProps,
  type RaRecord,
  type SortPayload,
} from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { PAGE_SIZE, SKELETON_ROWS } from '#domain/limits';
import { useKeptFrame } from '../keptFrame';
import { LoadError } from './LoadError';
import { pressed, ROW_KEYS } from './keys';
import { ROW_CLASSES } from '../layout/rowStyles';
import { Pagination } from './Pagination';
import { searchRefusalOf } from './searchRefusal';
import { useDebounced } from './useDebounced';

/** Unpaginated collections (credentials) come whole; the API caps them far above any real organisation. */
export const UNPAGINATED = 5000;

export interface ListFrameProps {
  resource: string;
  /** The h2 above the list (the plural: 'Organisations'). */
  title?: string;
  /** The count line: '3 organisations trouvées'. */
  countText: (total: number) => string;
  createLabel?: string;
  /** The create button shows only with this (the create permission). */
  onCreate?: () => void;
  searchPlaceholder?: string;
  /** false: the whole collection at once, searched here on the rows' text (spec section 2, credentials). */
  paginated?: boolean;
  /** For an unpaginated list: does the record match the search term (lower case, no accents)? */
  matches?: (record: RaRecord, term: string) => boolean;
  /** Filter inputs (SelectFilter, ReferenceFilter, DateRangeFilter…), hidden on small screens (spec section 2). */
  filters?: ReactNode;
  /** Buttons over the selected rows; without them, rows cannot be selected. */
  bulkActions?: (selectedIds: Identifier[]) => ReactNode;
  emptyText: string;
  /** Where a row leads (a path), or what it does. */
  rowClick: (id: Identifier, record: RaRecord) => string | false;
  /** Always applied, never shown (the user's organisation). */
  filter?: Record<string, unknown>;
  sort?: SortPayload;
  perPage?: number;
  /** The error state's text; the list's own error message comes first when given (spec section 8). */
  errorText?: (error: unknown) => ReactNode;
  /** Replaces the error state (the PEC list offers 'Se reconnecter' after a session error). */
  errorState?: (error: unknown, retry: () => void) => ReactNode | undefined;
  testId?: string;
  rowTestId?: string;
  paginationTestId?: string;
  /** More of the list controller's options (the PEC list: its refetch every 30 s, its retries, no store). */
  listProps?: Pick<ListProps, 'queryOptions' | 'storeKey' | 'debounce'>;
  /** Replaces the title row (the PEC page has its own h1, count and header buttons), inside the list's context. */
  header?: ReactNode;
  /** Replaces the search and filters row (the PEC filters: 'Plus de filtres', order, clear), inside the list's context. */
  toolbar?: ReactNode;
  /** Where the user's column choice is kept (react-admin's store; <ColumnsButton storeKey> edits it), and the columns hidden until chosen. */
  columns?: { storeKey: string; hidden: string[] };
  /** Columns: <DataTable.Col> elements. */
  children: ReactNode;
  /**
   * Loads the code a row's click needs (the page's drawer) when the user points at or focuses the list, once its rows
   * are shown: before them, on a phone's connection and CPU, it would compete with the rows it is for (the pointer
   * rests on the page after « Se connecter », so the browser reports it over the list as soon as the list is drawn).
   */
  prepare?: () => void;
}

/** Lower case without accents, as the server's search compares. */
export const normalize = (value: unknown) =>
  String(value ?? '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * ra-core's <ListBase> (the list's controller and context) rather than react-admin's <List>, whose view brings its
 * filter form (react-hook-form) and toolbar, which this frame draws itself: a list's first rows do not wait for them.
 */
export function ListFrame(props: ListFrameProps) {
  const { resource, filter, sort = { field: '', order: 'ASC' }, paginated = true, perPage = PAGE_SIZE, listProps } = props;
  const [chooserRoom, setChooserRoom] = useState<HTMLElement | null>(null);
  const chooser = useMemo(() => ({ room: chooserRoom, open: setChooserRoom }), [chooserRoom]);
  // <ListBase> reads once the access check has answered, even when it answered no (ra-core enables its query on the
  // check's end, then shows « Non autorisé »): a user without the right sends no request the server would refuse.
  const { canAccess } = useCanAccess({ action: 'list', resource });
  const queryOptions = { ...listProps?.queryOptions, enabled: canAccess === true && listProps?.queryOptions?.enabled !== false };
  return (
    <ListBase {...listProps} queryOptions={queryOptions} resource={resource} perPage={paginated ? perPage : UNPAGINATED} sort={sort} filter={filter}>
      <DeferredListContext>
        <ColumnsChooserContext.Provider value={chooser}>
          <ListBody {...props} paginated={paginated} />
        </ColumnsChooserContext.Provider>
      </DeferredListContext>
    </ListBase>
  );
}

/**
 * The filters: side by side from md, each as wide as its content (react-admin's theme makes a field full width: a row
 * too long for the search's line took the whole width under it, one filter a line); under md, behind « Filtres », one
 * a line across the screen.
 */
const FILTERS_SX = (shown: boolean) => ({
  display: { xs: shown ? 'flex' : 'none', md: 'flex' },
  gap: 1.5,
  flexWrap: 'wrap',
  '& > .MuiFormControl-root': { width: { md: 'auto' } },
});

/**
 * The list's state as its frame draws it. Each answer of react-query (the rows, and on their way each record copied
 * into the cache) renders at once, unsliced: the whole frame (title, filters, chips, table) in one task of 120 to
 * 160 ms on a phone at 4× CPU, twice before the first rows (CPU profile, issue 30). Here an answer that comes alone
 * draws only <ListBase>: the frame follows in a background render, which React does in slices between the browser's own
 * work. What the user changes (the selection, filters, sort, page) is drawn at once with the answer of that moment: a
 * box ticked is ticked when clicked, and a new sort shows its rows as being read from that same render.
 */
function DeferredListContext({ children }: { children: ReactNode }) {
  const { data, meta, error, total, isFetching, isLoading, isPaused, isPending, isPlaceholderData, hasNextPage, hasPreviousPage, ...rest } = useListContext();
  const answer = useShallowStable({ data, meta, error, total, isFetching, isLoading, isPaused, isPending, isPlaceholderData, hasNextPage, hasPreviousPage });
  const controls = useShallowStable(rest);
  const live = useMemo(() => ({ controls, answer }), [controls, answer]);
  const deferred = useDeferredValue(live);
  const shown = deferred.controls === controls ? deferred : live;
  // One answer and the controls it was drawn with: read together, one of react-admin's result shapes.
  const list = useMemo(() => ({ ...shown.controls, ...shown.answer }) as ListControllerResult, [shown]);
  return <ListContextProvider value={list}>{children}</ListContextProvider>;
}

/** The value of the previous render while each of its fields is the same (react-admin's list state is a new object at each render). */
function useShallowStable<T extends object>(value: T): T {
  const [kept, setKept] = useState(value);
  if (shallowEqual(kept, value)) return kept;
  setKept(value);
  return value;
}

/**
 * Where the list's column chooser is drawn (its popover's room), once its button has been pressed: react-admin's
 * <DataTable> draws a chooser (a switch per column) at every render of the table, a third of a PEC page's elements,
 * drawn with its first rows and again with each answer, on a phone. The frame draws its own instead (ColumnsChooser),
 * when the button is first pressed.
 */
const ColumnsChooserContext = createContext<{ room: HTMLElement | null; open: (room: HTMLElement | null) => void }>({
  room: null,
  open: () => undefined,
});

/**
 * The key <ColumnsButton> names its popover's room by (`{key}-columnsSelector`): not the table's store key, so that
 * <DataTable>'s own chooser, which looks for the room named by the table's key, finds none and draws nothing there.
 */
const chooserKey = (storeKey: string) => `${storeKey}.chooser`;
const chooserRoomId = (storeKey: string) => `${chooserKey(storeKey)}-columnsSelector`;

/**
 * react-admin's <ColumnsButton>, which hands the frame its popover's room when pressed (by pointer or keyboard: a click
 * either way), where the frame draws the chooser (ColumnsChooser). `storeKey`: the list's columns' (ListFrame's `columns`).
 * On a phone react-admin draws it as an icon button, which takes no `variant`: an outlined one (as its neighbours) is
 * given an outlined button's frame instead.
 */
export function ColumnsChooserButton({ variant, sx, storeKey, ...props }: ComponentProps<typeof ColumnsButton> & { storeKey: string }) {
  const { open } = useContext(ColumnsChooserContext);
  // ColumnsButton's own test for its icon button.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const tooltip = useTooltipNotOnReturn();
  return (
    // The popover is kept mounted from the button's first render: its room is there when the button is pressed.
    <Box component="span" onClickCapture={() => open(document.getElementById(chooserRoomId(storeKey)))}>
      <ThemeProvider theme={tooltip}>
        <ColumnsButton
          {...props}
          storeKey={chooserKey(storeKey)}
          variant={phone ? undefined : variant}
          sx={phone && variant === 'outlined' ? [OUTLINED_ICON_BUTTON, ...(Array.isArray(sx) ? sx : [sx])] : sx}
        />
      </ThemeProvider>
    </Box>
  );
}

/**
 * The phone's icon button is named by react-admin's tooltip, shown on hover and on a keyboard's focus; not on the
 * focus its popover gives back as it closes (Escape): shown then, it stayed over the list until the focus left.
 */
function useTooltipNotOnReturn() {
  const [open, setOpen] = useState(false);
  return useMemo(
    () =>
      (outer: Theme): Theme => ({
        ...outer,
        components: {
          ...outer.components,
          MuiTooltip: {
            ...outer.components?.MuiTooltip,
            defaultProps: {
              ...outer.components?.MuiTooltip?.defaultProps,
              open,
              onOpen: (event: SyntheticEvent) => setOpen(!fromPopover(event)),
              onClose: () => setOpen(false),
            },
          },
        },
      }),
    [open],
  );
}

/** A focus given back by a popover (or a menu) as it closes: it comes from inside it. */
const fromPopover = (event: SyntheticEvent) => {
  const from = event.type === 'focus' ? (event as FocusEvent).relatedTarget : null;
  return from instanceof Element && from.closest(`.${popoverClasses.root}`) !== null;
};

/**
 * An outlined button's frame (MUI's: 1 px of its colour at half opacity, whole on hover; the theme's corners; 36.5 px
 * high) around a primary icon button.
 */
const OUTLINED_ICON_BUTTON: SxProps<Theme> = (theme) => ({
  padding: '5.25px',
  border: `1px solid ${alpha(theme.palette.primary.main, 0.5)}`,
  borderRadius: `${theme.shape.borderRadius}px`,
  '@media (hover: hover)': { '&:hover': { borderColor: theme.palette.primary.main } },
});

/**
 * The list's one column chooser, react-admin's <ColumnsSelector> drawn by the frame: its filter box (more than five
 * columns), a switch per column (react-admin's: each <DataTable.Col> in the 'columnsSelector' context) and
 * « Réinitialiser ». One for the list whatever it shows (its first read, rows, an empty list, a failure), where
 * <DataTable> draws its own only with rows: the switch from one to the other, as the first rows came with the chooser
 * open, lost what was typed in its filter box.
 */
function ColumnsChooser({ storeKey, hidden, children }: { storeKey: string; hidden: string[]; children: ReactNode }) {
  const translate = useTranslate();
  const { room } = useContext(ColumnsChooserContext);
  const [ranks, setRanks] = useStore<number[] | undefined>(`${storeKey}_columnRanks`);
  const [, setHidden] = useStore<string[]>(storeKey, hidden);
  const [filter, setFilter] = useState('');
  const store = useMemo(() => ({ storeKey, defaultHiddenColumns: hidden }), [storeKey, hidden]);
  if (!room) return null;
  const columns = Children.toArray(children);
  // The columns in the user's order (react-admin's ranks), then those the ranks do not name yet.
  const ranked = ranks ?? [];
  const order = [...ranked, ...Array.from({ length: Math.max(0, columns.length - ranked.length) }, (_, i) => ranked.length + i)];
  return createPortal(
    <DataTableStoreContext.Provider value={store}>
      <DataTableRenderContext.Provider value="columnsSelector">
        <Box sx={{ pt: 1 }}>
          {columns.length > 5 && (
            <Box sx={{ mb: 1 }}>
              <ResettableTextField
                hiddenLabel
                label=""
                value={filter}
                onChange={(change: string | ChangeEvent<HTMLInputElement>) => setFilter(typeof change === 'string' ? change : change.target.value)}
                placeholder={translate('ra.action.search_columns')}
                InputProps={{
                  endAdornment: (
                    <InputAdornment position="end">
                      <SearchIcon color="disabled" />
                    </InputAdornment>
                  ),
                }}
                resettable
                autoFocus
                size="small"
              />
            </Box>
          )}
          <MenuList sx={{ pt: 0 }}>
            {order.map((position, index) => (
              <DataTableColumnRankContext.Provider value={position} key={index}>
                <DataTableColumnFilterContext.Provider value={filter}>{columns[position]}</DataTableColumnFilterContext.Provider>
              </DataTableColumnRankContext.Provider>
            ))}
          </MenuList>
          <Box className="columns-selector-actions" sx={{ textAlign: 'center', mb: 1 }}>
            {/* Its mark: on a phone react-admin's button shows it alone (named by its label, as a tooltip too). */}
            <RaButton
              label={translate('ra.action.reset')}
              onClick={() => {
                setRanks(undefined);
                setHidden(hidden);
              }}
            >
              <ResetIcon />
            </RaButton>
          </Box>
        </Box>
      </DataTableRenderContext.Provider>
    </DataTableStoreContext.Provider>,
    room,
  );
}

function ListBody({
  resource,
  title,
  countText,
  createLabel,
  onCreate,
  searchPlaceholder,
  paginated,
  matches,
  filters,
  bulkActions,
  emptyText,
  rowClick,
  errorText,
  errorState,
  testId = `list-${resource}`,
  rowTestId = 'list-row',
  paginationTestId = 'pagination',
  header,
  toolbar,
  columns,
  children,
  prepare,
}: ListFrameProps) {
  const translate = useTranslate();
  const list = useListContext();
  const [params, setParams] = useSearchParams();
  // The search of an unpaginated list is applied here, to the rows loaded (see SearchField).
  const term = paginated ? '' : (params.get('q') ?? '');
  // A list emptied by its filters offers to clear them first (and empties the search box), creating a record second.
  const filtered = Object.keys(list.filterValues ?? {}).length > 0 || !!term;
  const [clearings, setClearings] = useState(0);
  const frame = useRef<HTMLDivElement>(null);
  // The filters shown on a narrow screen (« Filtres »), and how many are set besides the search.
  const [filtersShown, setFiltersShown] = useState(false);
  const filtersId = useId();
  const filtersSet = Object.entries(list.filterValues ?? {}).filter(([key, value]) => key !== 'search' && value !== undefined && value !== '').length;
  const clearFilters = () => {
    list.setFilters({}, {}, false);
    if (term) setParams((current) => new URLSearchParams([...current].filter(([key]) => key !== 'q')), { replace: true });
    setClearings((count) => count + 1);
    // The button goes with the empty state: the focus goes to the search box (this frame's or the page's own toolbar's).
    frame.current?.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
  };

  // A search the server refuses (too many words) is said at the search box (SearchField, the PEC filters), not as the
  // list's failure, which « Réessayer » would not mend: the rows last read stay, with no count or pages (they answer the
  // search before).
  const refused = searchRefusalOf(list.error) !== undefined;
  const error = refused ? undefined : list.error;
  const [lastRead, setLastRead] = useState({ data: list.data, total: list.total });
  if (list.data && list.data !== lastRead.data) setLastRead({ data: list.data, total: list.total });
  const read = refused ? lastRead : list;
  const rows = useMemo(() => {
    const data = read.data ?? [];
    if (paginated || !term) return data;
    const needle = normalize(term);
    return data.filter((record) => (matches ? matches(record, needle) : normalize(JSON.stringify(record)).includes(needle)));
  }, [read.data, paginated, term, matches]);
  const total = paginated ? (read.total ?? 0) : rows.length;
  // The first rows are drawn in a background render, which React does in slices: react-query's answer renders at once,
  // and on a slow computer a page of rows drawn in one task kept the page from answering for a few hundred ms. Later
  // answers (a filter, a page) are drawn at once, with the count and the pagination they go with.
  const loading = useDeferredValue(!error && list.isPending);
  // The frame drawn, its rows on their way: kept for the next visit's first paint (src/keptFrame.ts).
  useKeptFrame(loading);
  // Another page, sort or filter being read: react-query keeps the rows shown (placeholder data) until it comes, while
  // the pagination already says the new page. The rows say it too: dimmed, the table busy, a polite word to screen
  // readers; and inert to the pointer (rowStyles.tsx), so that a click lands on no row about to go: the user clicks
  // again once the new rows are there. The keyboard's focus stays where it was. The empty state says it the same way.
  const reading = !error && !!list.isPlaceholderData;
  const retry = () => void list.refetch();
  const createButton = onCreate && createLabel && (
    <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate}>
      {createLabel}
    </Button>
  );

  const reach = !loading && !error ? prepare : undefined;
  const tableDrawn = !error && !loading && rows.length > 0;

  return (
    <Box ref={frame} data-testid={testId} onPointerOver={reach} onFocus={reach}>
      {header ?? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }} justifyContent="space-between" sx={{ mb: 2 }}>
          <Box>
            {title && (
              <Typography variant="h6" component="h2" fontWeight={700}>
                {title}
              </Typography>
            )}
            <Typography variant="body2" color="text.secondary" data-testid="list-count">
              {/* No count is claimed for a list that could not be read (nor for the rows kept under a refused search). */}
              {loading || list.error ? '\u00a0' : countText(total)}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" startIcon={<RefreshIcon />} onClick={retry}>
              {translate('pecflow.settings.list.refresh')}
            </Button>
            {createButton}
          </Stack>
        </Stack>
      )}

      {toolbar ?? (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }} alignItems={{ md: 'center' }} flexWrap="wrap" useFlexGap>
          <SearchField paginated={!!paginated} placeholder={searchPlaceholder} clearings={clearings} />
          {filters && (
            <>
              {/* Under md the filters wait behind « Filtres » (how many are set, said beside it): the rows come first. */}
              <Button
                variant="outlined"
                startIcon={<FilterListIcon />}
                aria-expanded={filtersShown}
                aria-controls={filtersId}
                onClick={() => setFiltersShown((shown) => !shown)}
                sx={{ display: { md: 'none' }, alignSelf: 'flex-start' }}
              >
                {filtersSet > 0 ? translate('pecflow.settings.list.filtersSet', { smart_count: filtersSet }) : translate('pecflow.settings.list.filters')}
              </Button>
              <Box id={filtersId} sx={FILTERS_SX(filtersShown)} data-testid="list-filters">
                {filters}
              </Box>
            </>
          )}
        </Stack>
      )}

      {error ? (
        (errorState?.(error, retry) ?? (
          <LoadError
            title={translate('pecflow.settings.list.errorTitle')}
            text={errorText?.(error) ?? translate('pecflow.settings.list.errorText')}
            onRetry={retry}
          />
        ))
      ) : loading ? (
        <SkeletonRows columns={Children.count(children) - (columns?.hidden.length ?? 0)} selectable={!!bulkActions} />
      ) : (
        // The rows or the empty state, in the box that marks them while another page, sort or filter is read (the bar
        // drawn over its top, the word said): the same box for both, so that a filter read from the empty state says it.
        <Box className={ROW_CLASSES.reading} data-reading={reading || undefined}>
          <Box role="status" sx={visuallyHidden}>
            {reading ? translate('pecflow.settings.list.reading') : ''}
          </Box>
          {rows.length === 0 ? (
            <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }} data-testid="list-empty" aria-busy={reading}>
              {/* One message: emptied by a search or filters, the list says so alone (its own empty text, 'Aucun relevé
                  de paiement importé', would be a second message, and untrue). A refused search (from a link: no rows
                  read before it) was not run: no result is claimed for it, the refusal is pointed at. */}
              <Typography color="text.secondary" sx={{ mb: createButton || filtered ? 2 : 0 }}>
                {refused ? translate('pecflow.settings.list.searchRefused') : filtered ? translate('pecflow.settings.list.noMatch') : emptyText}
              </Typography>
              <Stack direction="row" spacing={1} justifyContent="center" flexWrap="wrap" useFlexGap>
                {filtered && (
                  <Button variant="outlined" startIcon={<ClearFiltersIcon />} onClick={clearFilters}>
                    {translate('pecflow.settings.list.clearFilters')}
                  </Button>
                )}
                {createButton}
              </Stack>
            </Paper>
          ) : (
            // A list whose columns the user chooses may be wider than the window: it scrolls inside this frame, its first
            // column (after the selection's checkboxes) kept in view.
            <Paper variant="outlined" sx={columns ? stickyFirstColumn(!!bulkActions) : { overflowX: 'auto' }} data-testid="list-table-frame">
              <DataTable
                aria-busy={reading}
                data={rows}
                total={total}
                rowClick={(id, _resource, record) => rowClick(id, record)}
                bulkActionButtons={bulkActions ? <></> : false}
                // Drawn after the table (below): Tab from the rows reaches it (see BulkBar).
                bulkActionsToolbar={bulkActions ? <></> : undefined}
                body={rowTestId ? bodyWithTestId(rowTestId) : undefined}
                storeKey={columns?.storeKey}
                hiddenColumns={columns?.hidden}
                sx={HEADER_CELLS}
              >
                {Children.map(children, (column) => (isValidElement<DataTableColumnProps>(column) ? <SortedColumn column={column} /> : column))}
              </DataTable>
            </Paper>
          )}
        </Box>
      )}
      {columns && (
        <ColumnsChooser storeKey={columns.storeKey} hidden={columns.hidden}>
          {children}
        </ColumnsChooser>
      )}
      {bulkActions && tableDrawn && !reading && <BulkBar actions={bulkActions} rows={rows} />}

      {paginated && !list.error && !loading && total > 0 && <Pagination testId={paginationTestId} />}
    </Box>
  );
}

/**
 * The search box, debounced: the term goes to the list's filter for a paginated list (sent to the server, back to
 * page 1), to the URL's `q` for an unpaginated one. Its own component: a key stroke re-renders the box, not the table.
 * A search the server refuses says why under the box, announced (searchRefusal.ts).
 */
function SearchField({ paginated, placeholder, clearings }: { paginated: boolean; placeholder?: string; clearings: number }) {
  const translate = useTranslate();
  const list = useListContext();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(paginated ? String(list.filterValues.search ?? '') : (params.get('q') ?? ''));
  // The filters cleared from the empty list: the box empties too (adjusted during render).
  const [seenClearings, setSeenClearings] = useState(clearings);
  if (clearings !== seenClearings) {
    setSeenClearings(clearings);
    setSearch('');
  }
  const term = useDebounced(search.trim());
  // Only a new term (or mode) is applied: the list's other filters and the URL are read when it is, not followed.
  const apply = useEffectEvent(() => {
    if (paginated) {
      if ((list.filterValues.search ?? '') === term) return;
      list.setFilters({ ...list.filterValues, search: term || undefined }, list.displayedFilters, false);
    } else if ((params.get('q') ?? '') !== term) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (term) next.set('q', term);
          else next.delete('q');
          return next;
        },
        { replace: true },
      );
    }
  });
  useEffect(() => apply(), [term, paginated]);
  const refusal = searchRefusalOf(list.error);
  return (
    <TextField
      size="small"
      type="search"
      value={search}
      onChange={(event) => setSearch(event.target.value)}
      placeholder={placeholder ?? translate('pecflow.settings.list.search')}
      error={!!refusal}
      helperText={refusal}
      slotProps={{ htmlInput: { 'aria-label': translate('pecflow.settings.list.search') }, formHelperText: { role: 'alert' } }}
      sx={{ minWidth: { md: 340 }, flex: { md: '0 1 420px' } }}
    />
  );
}

/**
 * A column as given, whose header says the list's order to assistive technologies when the list is sorted by it
 * (aria-sort, through MUI's sortDirection): react-admin's header draws the arrow only. Its cells are left alone.
 */
function SortedColumn({ column }: { column: ReactElement<DataTableColumnProps> }) {
  const sort = useDataTableSortContext();
  const context = useDataTableRenderContext();
  const header = context === 'header';
  if (!header || column.props.disableSort || !sort?.field || sort.field !== column.props.source) return column;
  return cloneElement(column, { sortDirection: sort.order === 'ASC' ? 'asc' : 'desc' });
}

/**
 * The header cells, bold on one line. A sortable column sorts from anywhere in its cell, not only from its label and
 * arrow: the sort button (react-admin's TableSortLabel) is stretched over the cell by a pseudo-element placed by the
 * cell, not by the button (static: it has no ripple to hold), which brings the button's pointer cursor and click; the
 * button itself keeps the keyboard's focus and the cell its aria-sort.
 */
const HEADER_CELLS: SxProps<Theme> = {
  '& .RaDataTable-headerCell': { fontWeight: 700, whiteSpace: 'nowrap', position: 'relative' },
  '& .RaDataTable-headerCell .MuiTableSortLabel-root': { position: 'static' },
  '& .RaDataTable-headerCell .MuiTableSortLabel-root::after': { content: '""', position: 'absolute', inset: 0 },
};

/** Which row holds the list's one Tab stop (the last one focused, else the first): roving tabindex, WAI-ARIA grid. */
const RowFocusContext = createContext<{ active?: Identifier; setActive: (id: Identifier) => void }>({ setActive: () => undefined });

/**
 * A row, reached with Tab (the list's one stop) or the arrows (↑ ↓, Début, Fin): Enter opens it as a click would (WCAG
 * 2.1.1), Space or x selects it (its checkbox, out of the Tab order: one stop per row). Keys in src/admin/keys.ts.
 */
function FocusableRow({ testId, ...props }: { testId: string; children?: ReactNode }) {
  const record = useRecordContext();
  const data = useDataTableDataContext();
  const callbacks = useDataTableCallbacksContext();
  // A list without bulk actions has no checkbox column (as DataTableRow draws it).
  const { hasBulkActions = false } = useDataTableConfigContext();
  const { active, setActive } = useContext(RowFocusContext);
  const id = record?.id;
  const stop = data?.some((other) => other.id === active) ? active : data?.[0]?.id;
  const toggle = (event: SyntheticEvent) => {
    if (id === undefined || !hasBulkActions || !callbacks.handleToggleItem || callbacks.isRowSelectable?.(record!) === false) return;
    callbacks.handleToggleItem(id, event);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.target !== event.currentTarget) return;
    const row = event.currentTarget;
    const rows = () => [...(row.parentElement?.children ?? [])] as HTMLElement[];
    let to: HTMLElement | null | undefined;
    if (pressed(event, ROW_KEYS.open)) row.click();
    else if (pressed(event, ROW_KEYS.toggle)) toggle(event);
    else if (pressed(event, ROW_KEYS.down)) to = row.nextElementSibling as HTMLElement | null;
    else if (pressed(event, ROW_KEYS.up)) to = row.previousElementSibling as HTMLElement | null;
    else if (pressed(event, ROW_KEYS.first)) to = rows()[0];
    else if (pressed(event, ROW_KEYS.last)) to = rows().at(-1);
    else return;
    // The page does not scroll under the keys the row takes (Space, the arrows), even at the list's ends.
    event.preventDefault();
    to?.focus();
    to?.scrollIntoView({ block: 'nearest' });
  };
  return (
    // The row's own checkbox is drawn here (DataTableRow draws it without handleToggleItem) to leave the Tab order.
    <DataTableCallbacksContext.Provider value={{ ...callbacks, handleToggleItem: undefined }}>
      <DataTableRow
        {...props}
        data-testid={testId}
        tabIndex={id === stop ? 0 : -1}
        onFocus={() => id !== undefined && setActive(id)}
        onKeyDown={onKeyDown}
        className={ROW_CLASSES.focusable}
      >
        {hasBulkActions && callbacks.handleToggleItem && (
          <SelectCell record={record!} selectable={callbacks.isRowSelectable?.(record!) !== false} onToggle={toggle} />
        )}
        {props.children}
      </DataTableRow>
    </DataTableCallbacksContext.Provider>
  );
}

/** The row's selection checkbox, for the mouse and screen readers; the keyboard selects from the row (Space, x). */
function SelectCell({ record, selectable, onToggle }: { record: RaRecord; selectable: boolean; onToggle: (event: SyntheticEvent) => void }) {
  const translate = useTranslate();
  const selected = useDataTableSelectedIdsContext()?.includes(record.id) ?? false;
  return (
    <TableCell padding="checkbox">
      <Checkbox
        tabIndex={-1}
        className="select-item"
        aria-label={translate('ra.action.select_row')}
        checked={selectable && selected}
        disabled={!selectable}
        onClick={(event) => {
          event.stopPropagation();
          onToggle(event);
        }}
      />
    </TableCell>
  );
}

/** The selection's checkbox column, as MUI draws it (padding="checkbox"): the offset of the column kept beside it. */
const CHECKBOX_WIDTH = 48;

/** The frame's rules: horizontal scrolling, the first cells of each row sticky (opaque; the row's hover and selection tint over them). */
function stickyFirstColumn(selectable: boolean): SxProps<Theme> {
  const sticky = (left: number, last: boolean) => ({
    position: 'sticky',
    left,
    zIndex: 1,
    backgroundColor: 'background.paper',
    ...(last && { boxShadow: (theme: Theme) => `inset -1px 0 0 ${theme.palette.divider}` }),
  });
  const tinted = (color: string) => ({ backgroundImage: `linear-gradient(${color}, ${color})` });
  const stuck = selectable ? '.MuiTableCell-root:nth-of-type(-n+2)' : '.MuiTableCell-root:first-of-type';
  return (theme) => ({
    overflowX: 'auto',
    ...(selectable
      ? {
          '& .MuiTableCell-root:first-of-type': { ...sticky(0, false), width: CHECKBOX_WIDTH, minWidth: CHECKBOX_WIDTH, maxWidth: CHECKBOX_WIDTH },
          '& .MuiTableCell-root:nth-of-type(2)': sticky(CHECKBOX_WIDTH, true),
        }
      : { '& .MuiTableCell-root:first-of-type': sticky(0, true) }),
    [`& .MuiTableRow-hover:hover ${stuck}`]: tinted(theme.palette.action.hover),
    [`& .Mui-selected ${stuck}`]: tinted(theme.palette.action.selected),
  });
}

const bodies = new Map<string, (props: DataTableBodyProps) => ReactNode>();
/** DataTable rows carrying a test id, focusable: one body component per id, so React keeps the rows across renders. */
function bodyWithTestId(testId: string) {
  let Body = bodies.get(testId);
  if (!Body) {
    const Row = (props: object) => <FocusableRow {...props} testId={testId} />;
    Body = function Body(props: DataTableBodyProps) {
      const [active, setActive] = useState<Identifier>();
      return (
        <RowFocusContext.Provider value={{ active, setActive }}>
          <DataTableBody {...props} row={Row as never} />
        </RowFocusContext.Provider>
      );
    };
    bodies.set(testId, Body);
  }
  return Body as never;
}

/** The height the bulk bar takes at the bottom of the window, with its margin (one line of buttons, and some). */
const BULK_BAR_CLEARANCE = 88;
/**
 * Stuck at the bottom of the window. Its own buttons are exempt from the window's clearance, which they lie in: a
 * button focused (clicked, reached by Tab, given the focus back as a dialog closes) scrolled the page by hundreds of
 * pixels to take it clear of itself, the bar staying where it was.
 */
const BULK_BAR = { px: 2, py: 1, mt: 1, position: 'sticky', bottom: 8, zIndex: 2, '& *': { scrollMarginBottom: -BULK_BAR_CLEARANCE } } as const;

/**
 * The bar of the selected rows' actions (shown only while rows are selected), after the table as the keyboard meets it:
 * Tab from the rows reaches it (WCAG 2.4.3). It stays in sight at the bottom of the window while the rows scroll.
 */
function BulkBar({ actions, rows }: { actions: (selectedIds: Identifier[]) => ReactNode; rows: RaRecord[] }) {
  const { selectedIds: selected, onSelect } = useListContext();
  // A bulk action acts on the rows in view only. Rows selected, then gone with a sort, a filter or a page read (their
  // checkbox or « a » pressed while the next rows were read) leave the selection once the new rows are drawn.
  const selectedIds = useMemo(() => {
    const inView = new Set(rows.map((row) => row.id));
    return selected.filter((id) => inView.has(id));
  }, [rows, selected]);
  const gone = selectedIds.length !== selected.length;
  useEffect(() => {
    if (gone) onSelect(selectedIds);
  }, [gone, selectedIds, onSelect]);
  if (!selectedIds.length) return null;
  return (
    <Paper elevation={3} sx={BULK_BAR} data-testid="bulk-actions">
      {/* A row reached with the arrows scrolls clear of the bar, never under it (WCAG 2.4.11). */}
      <GlobalStyles styles={{ html: { scrollPaddingBottom: BULK_BAR_CLEARANCE } }} />
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        {actions(selectedIds)}
      </Stack>
    </Paper>
  );
}

/** Five skeleton rows (spec section 2) while the first page loads. */
function SkeletonRows({ columns, selectable }: { columns: number; selectable: boolean }) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-busy>
        <TableBody>
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            <TableRow key={i} data-testid="skeleton-row">
              {selectable && <TableCell padding="checkbox" />}
              {Array.from({ length: columns }, (_, j) => (
                <TableCell key={j}>
                  <Skeleton variant="text" />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
