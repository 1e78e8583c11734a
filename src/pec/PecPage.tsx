// /pec, "Gestion des PEC" (spec section 2): a react-admin list page written by hand, like the reviews list with its
// drawer in react-admin's demo. Filters, order and page live in the URL (react-admin's list parameters), the open file
// too (?id=12, the link of the notifications), so a link reproduces the view. The list is refetched every 30 s while
// the page is visible, retried 3 times (exponential delay capped at 30 s), and refreshed by the live events.
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ListBase, Title, useListContext, useTranslate } from 'react-admin';
import { listQueryString, pecApi } from '../dataProvider/pec';
import { DRAWER_CLEAR_DELAY_MS, PAGE_SIZE, PEC_LIST_REFETCH_MS, SEARCH_DEBOUNCE_MS } from '../domain/limits';
import { useToast } from '../layout/Toasts';
import { ImportDialog } from './ImportDialog';
import { PEC_RESOURCE } from './liveEvents';
import { PecDrawer } from './PecDrawer';
import { PecFilters } from './PecFilters';
import { PecTable } from './PecTable';
import { usePecRights, useErrorText } from './shared';

export const DEFAULT_SORT = { field: 'createdAt', order: 'DESC' } as const;

/** Which file the drawer shows: a number (view), 'create', or none. */
export type DrawerTarget = number | 'create' | undefined;

/**
 * The drawer's target from the URL (?id=12) or the creation button; the shown target is kept 500 ms after closing
 * (spec section 9) so the drawer closes with its content.
 */
function useDrawerTarget() {
  const [params, setParams] = useSearchParams();
  const idParam = Number(params.get('id'));
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

  const setId = (id: number | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id === undefined) next.delete('id');
        else next.set('id', String(id));
        return next;
      },
      { replace: id === undefined },
    );

  return {
    open: target !== undefined,
    shown,
    view: (id: number) => {
      setCreating(false);
      setId(id);
    },
    create: () => setCreating(true),
    close: () => {
      setCreating(false);
      if (params.has('id')) setId(undefined);
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
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const filename = await pecApi.exportCsv(listQueryString(list.filterValues, list.sort));
      toast.success(translate('pecflow.pec.export.done'), translate('pecflow.pec.export.doneText', { filename }));
    } catch (error) {
      toast.error(translate('pecflow.pec.export.error'), errorText(error));
    } finally {
      setExporting(false);
    }
  };

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
            <Button variant="outlined" startIcon={<DownloadIcon />} onClick={exportCsv} disabled={exporting}>
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
      {rights.import && <ImportDialog open={importing} onClose={() => setImporting(false)} onImported={() => list.refetch()} />}
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
