// /pec, "Gestion des PEC" (spec section 2): the one list frame of the application (react-admin List and DataTable,
// the shared pagination) with the PEC header, filters and columns, and the file in the one drawer frame. Filters,
// order and page live in the URL (react-admin's list parameters: /pec?filter=...), the open file in its path (/pec/12,
// kept with the list's parameters), so a link reproduces the view after a reload. The list is refetched every 30 s
// while the page is visible (not while its search is refused), retried 3 times (exponential delay capped at 30 s), and
// refreshed by the live events.
import { Box } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { StoreContext, useTranslate } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { ListFrame } from '../admin/ListFrame';
import { refetchUnlessSearchRefused } from '../admin/searchRefusal';
import { PEC_RESOURCE, pecNumericId } from '../dataProvider/pec';
import { DRAWER_CLEAR_DELAY_MS, PAGE_SIZE, PEC_LIST_REFETCH_MS, SEARCH_DEBOUNCE_MS } from '#domain/limits';
import { DEFAULT_SORT, pecFilePath } from './filters';
import { PecFilters } from './PecFilters';
import { PecShortcuts } from './PecShortcuts';
import { PEC_COLUMN_SOURCES, PEC_OPTIONAL_COLUMNS, pecColumns, PecListError, PecListHeader } from './PecList';
import { PecSavedViews } from './SavedViews';
import { useColumnsFromUrl } from './useColumnsFromUrl';
import { preferenceKey } from '../layout/store';
import { readAuthStore } from '../session';
import { usePecRights } from './shared';
import { chunk, lazyChunk } from '../lazyChunk';
import type { PecBulkActionsProps } from './BulkActions';

// The drawer (a file's tabs, the forms and their zod schemas) loads when the user reaches for the list once its rows are
// shown (ListFrame's prepare) or a link opens a file: showing the list does not wait for it.
const loadDrawer = chunk(() => import('./PecDrawer').then((m) => ({ default: m.PecDrawer })));
const PecDrawer = lazyChunk(loadDrawer);
const prepareDrawer = () => void loadDrawer().then(undefined, () => undefined);
// The bar over the selected rows (its confirmations and summary) loads with the first selection.
const PecBulkActions = lazyChunk<PecBulkActionsProps>(chunk(() => import('./BulkActions').then((m) => ({ default: m.PecBulkActions }))));

/** Which file the drawer shows: a number (view), 'create', or none. */
export type DrawerTarget = number | 'create' | undefined;

/**
 * The drawer's target from the path (/pec/12) or the creation button; the shown target is kept 500 ms after closing
 * (spec section 9) so the drawer closes with its content. The older link form /pec?id=12 (notifications) becomes /pec/12.
 */
function useDrawerTarget() {
  const navigate = useNavigate();
  const { search } = useLocation();
  const idParam = Number(useParams()['*']);
  const [creating, setCreating] = useState(false);
  const target: DrawerTarget = creating ? 'create' : Number.isInteger(idParam) && idParam > 0 ? idParam : undefined;
  // The last target, adjusted during render, cleared once the drawer has closed.
  const [last, setLast] = useState<DrawerTarget>(target);
  if (target !== undefined && target !== last) setLast(target);
  useEffect(() => {
    if (target !== undefined) return;
    const timer = setTimeout(() => setLast(undefined), DRAWER_CLEAR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [target]);
  const shown = target ?? last;

  const params = new URLSearchParams(search);
  const legacyId = params.get('id');
  params.delete('id');
  const listSearch = params.size ? `?${params}` : '';
  useEffect(() => {
    if (legacyId) navigate({ pathname: pecFilePath(legacyId), search: listSearch }, { replace: true });
  }, [legacyId, listSearch, navigate]);

  return {
    open: target !== undefined,
    shown,
    view: (id: number) => {
      setCreating(false);
      navigate({ pathname: pecFilePath(id), search: listSearch });
    },
    create: () => setCreating(true),
    close: () => {
      setCreating(false);
      if (target !== undefined && target !== 'create') navigate({ pathname: '/pec', search: listSearch }, { replace: true });
    },
  };
}

export default function PecPage() {
  const translate = useTranslate();
  const rights = usePecRights();
  const drawer = useDrawerTarget();
  const defaults = useQueryClient().getDefaultOptions().queries;
  const onCreate = rights.create ? drawer.create : undefined;
  // No selection for who could do nothing with it (read-only staff).
  const selectable = rights.run || rights.edit || rights.export;
  // Each user's choice of columns, kept across sessions in this browser; a link's columns are its view's only.
  const columns = { storeKey: preferenceKey(readAuthStore().user?.id, 'pec.columns'), hidden: PEC_OPTIONAL_COLUMNS };
  const columnsStore = useColumnsFromUrl(columns.storeKey, PEC_COLUMN_SOURCES, columns.hidden);

  return (
    <StoreContext.Provider value={columnsStore}>
      <Box sx={{ p: { xs: 1, sm: 3 } }} data-testid="pec-page">
        <PageTitle title={translate('pecflow.pec.title')} />
        <ListFrame
          resource={PEC_RESOURCE}
          sort={DEFAULT_SORT}
          perPage={PAGE_SIZE}
          listProps={{
            storeKey: false,
            debounce: SEARCH_DEBOUNCE_MS,
            queryOptions: {
              staleTime: PEC_LIST_REFETCH_MS,
              // Not while the search is refused: the same read would be refused again (searchRefusal.ts).
              refetchInterval: refetchUnlessSearchRefused(PEC_LIST_REFETCH_MS),
              refetchIntervalInBackground: false,
              // The application's retry rule (3 tries, nothing for 401/403/404/422) and delay (exponential, capped at 30 s).
              retry: defaults?.retry,
              retryDelay: defaults?.retryDelay,
              // The page shows its own error state and toasts.
              onError: () => undefined,
            },
          }}
          header={<PecListHeader onCreate={onCreate} columnsStoreKey={columns.storeKey} />}
          columns={columns}
          toolbar={
            <>
              <PecSavedViews columnsStoreKey={columns.storeKey} allColumns={PEC_COLUMN_SOURCES} defaultHidden={columns.hidden} />
              <PecFilters />
              <PecShortcuts current={drawer.open ? drawer.shown : undefined} view={drawer.view} selectable={selectable} />
            </>
          }
          countText={(n) => translate('pecflow.pec.count', { smart_count: n })}
          createLabel={translate('pecflow.pec.actions.create')}
          onCreate={onCreate}
          emptyText={translate('pecflow.pec.empty')}
          bulkActions={
            selectable
              ? (ids) => (
                  <Suspense fallback={null}>
                    <PecBulkActions ids={ids} />
                  </Suspense>
                )
              : undefined
          }
          rowClick={(_id, record) => {
            drawer.view(pecNumericId(record)!);
            return false;
          }}
          errorState={(error, retry) => <PecListError error={error} retry={retry} />}
          testId="pec-list"
          prepare={prepareDrawer}
          rowTestId="pec-row"
          paginationTestId="pec-pagination"
        >
          {pecColumns((key) => translate(`pecflow.pec.columns.${key}`))}
        </ListFrame>
        {drawer.shown !== undefined && (
          <Suspense fallback={null}>
            <PecDrawer open={drawer.open} target={drawer.shown} onClose={drawer.close} onCreated={drawer.view} />
          </Suspense>
        )}
      </Box>
    </StoreContext.Provider>
  );
}
