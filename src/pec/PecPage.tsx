// /pec, "Gestion des PEC" (spec section 2): a react-admin list page, like the reviews list with its drawer in
// react-admin's demo. Filters, order and page live in the URL (react-admin's list parameters: /pec?filter=...), the open
// file in its path (/pec/12, kept with the list's parameters), so a link reproduces the view after a reload. The list
// is refetched every 30 s while the page is visible, retried 3 times (exponential delay capped at 30 s), and refreshed
// by the live events.
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { ListBase, Title, useListContext, useTranslate } from 'react-admin';
import { PEC_RESOURCE } from '../dataProvider/pec';
import { DRAWER_CLEAR_DELAY_MS, PAGE_SIZE, PEC_LIST_REFETCH_MS, SEARCH_DEBOUNCE_MS } from '../domain/limits';
import { useToast } from '../layout/Toasts';
import { pecFilePath } from './filters';
import { ImportDialog } from './ImportDialog';
import { PecDrawer } from './PecDrawer';
import { PecFilters } from './PecFilters';
import { PecTable } from './PecTable';
import { useErrorText, usePecData, usePecRights } from './shared';

export const DEFAULT_SORT = { field: 'createdAt', order: 'DESC' } as const;

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
  const [shown, setShown] = useState<DrawerTarget>(target);

  useEffect(() => {
    if (target !== undefined) {
      setShown(target);
      return;
    }
    const timer = setTimeout(() => setShown(undefined), DRAWER_CLEAR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [target]);

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
  const drawer = useDrawerTarget();
  const defaults = useQueryClient().getDefaultOptions().queries;

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }} data-testid="pec-page">
      <Title title={translate('pecflow.pec.title')} />
      <ListBase
        resource={PEC_RESOURCE}
        perPage={PAGE_SIZE}
        sort={DEFAULT_SORT}
        storeKey={false}
        debounce={SEARCH_DEBOUNCE_MS}
        queryOptions={{
          staleTime: PEC_LIST_REFETCH_MS,
          refetchInterval: PEC_LIST_REFETCH_MS,
          refetchIntervalInBackground: false,
          // The application's retry rule (3 tries, nothing for 401/403/404/422) and delay (exponential, capped at 30 s).
          retry: defaults?.retry,
          retryDelay: defaults?.retryDelay,
          // The page shows its own error state and toasts.
          onError: () => undefined,
        }}
      >
        <PecListView onOpen={drawer.view} onCreate={drawer.create} />
      </ListBase>
      <PecDrawer open={drawer.open} target={drawer.shown} onClose={drawer.close} onCreated={drawer.view} />
    </Box>
  );
}

function PecListView({ onOpen, onCreate }: { onOpen: (id: number) => void; onCreate: () => void }) {
  const translate = useTranslate();
  const rights = usePecRights();
  const list = useListContext();
  const toast = useToast();
  const errorText = useErrorText();
  const dataProvider = usePecData();
  const [importing, setImporting] = useState(false);
  // The CSV of the list's current filters and order.
  const exportCsv = useMutation({
    mutationFn: () => dataProvider.pecExport({ filter: list.filterValues, sort: list.sort }),
    onSuccess: (filename) => toast.success(translate('pecflow.pec.export.done'), translate('pecflow.pec.export.doneText', { filename })),
    onError: (error) => toast.error(translate('pecflow.pec.export.error'), errorText(error)),
  });

  useListErrorToasts();

  return (
    <>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} alignItems={{ md: 'center' }} justifyContent="space-between" sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h5" component="h1" fontWeight={700}>
            {translate('pecflow.pec.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="pec-count">
            {list.isPending || list.error ? '\u00a0' : translate('pecflow.pec.count', { smart_count: list.total ?? 0 })}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
          {rights.export && (
            <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => exportCsv.mutate()} disabled={exportCsv.isPending}>
              {translate('pecflow.pec.actions.export')}
            </Button>
          )}
          {rights.import && (
            <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
              {translate('pecflow.pec.actions.import')}
            </Button>
          )}
          {rights.create && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate}>
              {translate('pecflow.pec.actions.create')}
            </Button>
          )}
        </Stack>
      </Stack>
      <PecFilters />
      <PecTable onOpen={onOpen} onCreate={rights.create ? onCreate : undefined} />
      {rights.import && <ImportDialog open={importing} onClose={() => setImporting(false)} />}
    </>
  );
}

/** "Session expirée" (warning) on a 401, "Erreur de chargement" otherwise: once per failure, not at every retry. */
function useListErrorToasts() {
  const translate = useTranslate();
  const toast = useToast();
  const errorText = useErrorText();
  const { error, isFetching } = useListContext();
  const announced = useRef<unknown>(null);
  useEffect(() => {
    if (!error) {
      if (!isFetching) announced.current = null;
      return;
    }
    if (isFetching || announced.current) return;
    announced.current = error;
    if ((error as { status?: number }).status === 401) toast.warning(translate('pecflow.pec.error.sessionTitle'), translate('pecflow.pec.error.sessionText'));
    else toast.error(translate('pecflow.pec.error.title'), errorText(error));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error, isFetching]);
}
