// What the PEC list puts in the one list frame (src/admin/ListFrame.tsx), spec section 2: its header ('Gestion des
// PEC', the count, Exporter / Importer / 'Nouvelle Demande de PEC'), its columns (État, ID Pecflow, Centre, Réseau,
// Date Création, Montant du devis right aligned, Numéro devis) and its error state (Réessayer, or Se reconnecter after
// a session error), plus the error toasts.
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import { DataTable, useListContext, useLogout, useTranslate } from 'react-admin';
import { LoadError } from '../admin/LoadError';
import { searchRefusalOf } from '../admin/searchRefusal';
import { ROW_CLASSES } from '../layout/rowStyles';
import type { PecDossierRecord } from '../dataProvider/pec';
import { formatDate, formatEuros } from '#domain/format';
import { amountDue } from '#domain/payments';
import { useToast } from '../layout/Toasts';
import { chunk, lazyChunk } from '../lazyChunk';
import type { ImportDialogProps } from './ImportDialog';
import { ArchivedChip, PecStatusBadge, RobotFailureChip, useDossierText, useErrorText, usePecMutation, usePecRights } from './shared';
import { ColumnsChooserButton } from '../admin/ListFrame';

// The import dialog loads when first opened: the list's first rows do not wait for it.
const ImportDialog = lazyChunk<ImportDialogProps>(chunk(() => import('./ImportDialog').then((m) => ({ default: m.ImportDialog }))));

/** The title, the count and the header buttons, as the rights allow. */
export function PecListHeader({ onCreate, columnsStoreKey }: { onCreate?: () => void; columnsStoreKey: string }) {
  const { translate, dataProvider, success, failure } = usePecMutation();
  const rights = usePecRights();
  const list = useListContext();
  // Undefined until first opened; then kept, closed or open, so that it closes with its transition.
  const [importing, setImporting] = useState<boolean>();
  // The CSV of the list's current filters and order.
  const exportCsv = useMutation({
    mutationFn: () => dataProvider.pecExport({ filter: list.filterValues, sort: list.sort }),
    onSuccess: (filename) => success(translate('pecflow.pec.export.done'), translate('pecflow.pec.export.doneText', { filename })),
    onError: (error) => failure(translate('pecflow.pec.export.error'), error),
  });
  useListErrorToasts();

  return (
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
        <ColumnsChooserButton storeKey={columnsStoreKey} variant="outlined" size="medium" />
        {rights.export && (
          // Inert while the file is written, not disabled: the focus stays on it (disabled, it fell to the page).
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            onClick={exportCsv.isPending ? undefined : () => exportCsv.mutate()}
            aria-disabled={exportCsv.isPending || undefined}
          >
            {translate('pecflow.pec.actions.export')}
          </Button>
        )}
        {rights.import && (
          <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
            {translate('pecflow.pec.actions.import')}
          </Button>
        )}
        {onCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate}>
            {translate('pecflow.pec.actions.create')}
          </Button>
        )}
      </Stack>
      {rights.import && importing !== undefined && (
        <Suspense fallback={null}>
          <ImportDialog open={importing} onClose={() => setImporting(false)} />
        </Suspense>
      )}
    </Stack>
  );
}

/**
 * "Session expirée" (warning) on a 401, "Erreur de chargement" otherwise: once per failure, not at every retry. A refused
 * search is no failure of the list: the search box says it (PecFilters).
 */
function useListErrorToasts() {
  const translate = useTranslate();
  const toast = useToast();
  const errorText = useErrorText();
  const list = useListContext();
  const error = searchRefusalOf(list.error) === undefined ? list.error : null;
  const { isFetching } = list;
  const announced = useRef<unknown>(null);
  // The toast and the texts are read when the error is announced; only the error and the fetching state retrigger.
  const announce = useEffectEvent((failure: unknown) => {
    if ((failure as { status?: number }).status === 401) toast.warning(translate('pecflow.pec.error.sessionTitle'), translate('pecflow.pec.error.sessionText'));
    else toast.error(translate('pecflow.pec.error.title'), errorText(failure));
  });
  useEffect(() => {
    if (!error) {
      if (!isFetching) announced.current = null;
      return;
    }
    if (isFetching || announced.current) return;
    announced.current = error;
    announce(error);
  }, [error, isFetching]);
}

/** The list's error state: the response's message (spec section 8) and Réessayer, or Se reconnecter for a session. */
export function PecListError({ error, retry }: { error: unknown; retry: () => void }) {
  const translate = useTranslate();
  const errorText = useErrorText();
  const logout = useLogout();
  if ((error as { status?: number }).status === 401) {
    return (
      <LoadError
        severity="warning"
        testId="pec-list-error"
        title={translate('pecflow.pec.error.sessionTitle')}
        text={translate('pecflow.pec.error.sessionText')}
        action={
          <Button color="inherit" size="small" onClick={() => logout()}>
            {translate('pecflow.pec.error.reconnect')}
          </Button>
        }
      />
    );
  }
  return <LoadError testId="pec-list-error" title={translate('pecflow.pec.error.title')} text={errorText(error)} onRetry={retry} />;
}

type Part = 'numeroDossier' | 'shop' | 'network' | 'numeroDevisAssure' | 'numeroDossierAssure' | 'mutual' | 'owner';

/** A reference or text of the file, with the spec's fallbacks ('Centre non défini', 'Non défini'...). */
function DossierText({ record, part }: { record: PecDossierRecord; part: Part }) {
  const text = useDossierText();
  if (part === 'shop') return <>{text.shop(record)}</>;
  if (part === 'network') return <>{text.network(record)}</>;
  if (part === 'numeroDossier') return <strong>{text.value(record.numeroDossier)}</strong>;
  if (part === 'numeroDossierAssure') return <>{text.value(record.numeroDossierAssure)}</>;
  if (part === 'mutual') return <>{text.mutual(record)}</>;
  if (part === 'owner') return <>{text.owner(record)}</>;
  return <>{text.value(record.numeroDevisAssure)}</>;
}

/** Numbers, dates and amounts stay on one line: on a narrow screen the table scrolls inside its container. */
const oneLine = ROW_CLASSES.nowrap;

type DateSource = 'createdAt' | 'datePeremption' | 'dateFacturationEffective' | 'followUpDate';

/** The columns; a sortable one sorts descending first (the newest, highest first; names A to Z), then toggles. */
export function pecColumns(label: (key: string) => string) {
  /** A reference or text of the file (DossierText), sorted from `first` when sortable; a number on one line. */
  const textColumn = (part: Part, first?: 'ASC' | 'DESC', number = false) => (
    <DataTable.Col
      key={part}
      source={part}
      label={label(part)}
      sortByOrder={first}
      disableSort={!first}
      cellClassName={number ? oneLine : undefined}
      render={(r: PecDossierRecord) => <DossierText record={r} part={part} />}
    />
  );
  /** A day, dd/mm/yyyy on one line ('Non définie' without one, as every empty date), sorted from `first` when sortable. */
  const dateColumn = (source: DateSource, first?: 'ASC' | 'DESC') => (
    <DataTable.Col
      key={source}
      source={source}
      label={label(source)}
      sortByOrder={first}
      disableSort={!first}
      cellClassName={oneLine}
      render={(r: PecDossierRecord) => formatDate(r[source])}
    />
  );
  return [
    <DataTable.Col
      key="status"
      source="status"
      label={label('status')}
      sortByOrder="DESC"
      render={(r: PecDossierRecord) => (
        <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
          <PecStatusBadge status={r.status} />
          <ArchivedChip record={r} />
          <RobotFailureChip record={r} />
        </Stack>
      )}
    />,
    <DataTable.Col
      key="numeroDossier"
      source="numeroDossier"
      label={label('numeroDossier')}
      sortByOrder="DESC"
      cellClassName={oneLine}
      render={(r: PecDossierRecord) => <DossierText record={r} part="numeroDossier" />}
    />,
    textColumn('shop', 'ASC'),
    textColumn('network'),
    dateColumn('createdAt', 'DESC'),
    <DataTable.Col
      key="totalTtc"
      source="totalTtc"
      label={label('totalTtc')}
      sortByOrder="DESC"
      align="right"
      cellClassName={oneLine}
      render={(r: PecDossierRecord) => formatEuros(r.totalTtc)}
    />,
    // « DEV-2026-2622 », not « DEV-2026- » over « 2622 ».
    textColumn('numeroDevisAssure', undefined, true),
    // Offered by the column chooser (issue 28), hidden until the user asks for them: PEC_OPTIONAL_COLUMNS.
    textColumn('numeroDossierAssure', undefined, true),
    textColumn('mutual', 'ASC'),
    <DataTable.Col
      key="amountDue"
      source="amountDue"
      label={label('amountDue')}
      disableSort
      align="right"
      cellClassName={oneLine}
      render={(r: PecDossierRecord) => formatEuros(amountDue(r))}
    />,
    dateColumn('datePeremption', 'ASC'),
    dateColumn('dateFacturationEffective'),
    dateColumn('followUpDate', 'ASC'),
    textColumn('owner'),
  ];
}

/** The columns beyond the spec's seven: offered by 'Colonnes', hidden by default. */
export const PEC_OPTIONAL_COLUMNS = ['numeroDossierAssure', 'mutual', 'amountDue', 'datePeremption', 'dateFacturationEffective', 'followUpDate', 'owner'];
/** Every column's source, in the declared order (the indexes of react-admin's column ranks). */
export const PEC_COLUMN_SOURCES = pecColumns(String).map((column) => String(column.key));
