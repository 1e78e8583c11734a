// The PEC table (spec section 2): État, ID Pecflow, Centre, Réseau, Date Création, Montant du devis (right aligned),
// Numéro devis; five skeleton rows while loading; the empty state with its create button; the error state with
// Réessayer, or Se reconnecter after a session error; the pagination.
import AddIcon from '@mui/icons-material/Add';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
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
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useListContext, useLogout, useTranslate } from 'react-admin';
import { pecNumericId, type PecDossierRecord } from '../dataProvider/pec';
import { formatDate, formatEuros } from '../domain/format';
import { SKELETON_ROWS } from '../domain/limits';
import { StatusBadge, useDossierText, useErrorText } from './shared';

interface Column {
  key: string;
  /** The order key when the column sorts. */
  sortBy?: string;
  align?: 'right';
  /** Kept on one line (numbers, dates, amounts): on a narrow screen the table scrolls inside its container. */
  nowrap?: boolean;
  render: (record: PecDossierRecord, text: ReturnType<typeof useDossierText>) => ReactNode;
}

const COLUMNS: Column[] = [
  { key: 'status', sortBy: 'status', render: (r) => <StatusBadge status={r.status} /> },
  { key: 'numeroDossier', sortBy: 'numeroDossier', nowrap: true, render: (r, t) => <strong>{t.value(r.numeroDossier)}</strong> },
  { key: 'shop', render: (r, t) => t.shop(r) },
  { key: 'network', render: (r, t) => t.network(r) },
  { key: 'createdAt', sortBy: 'createdAt', nowrap: true, render: (r) => formatDate(r.createdAt) },
  { key: 'totalTtc', sortBy: 'totalTtc', align: 'right', nowrap: true, render: (r) => formatEuros(r.totalTtc) },
  { key: 'numeroDevisAssure', render: (r, t) => t.value(r.numeroDevisAssure) },
];

export function PecTable({ onOpen, onCreate }: { onOpen: (id: number) => void; onCreate?: () => void }) {
  const translate = useTranslate();
  const list = useListContext<PecDossierRecord>();
  const text = useDossierText();
  const errorText = useErrorText();
  const logout = useLogout();
  const { sort, setSort } = list;

  if (list.error && !list.data?.length) {
    const session = (list.error as { status?: number }).status === 401;
    return (
      <Alert
        severity={session ? 'warning' : 'error'}
        data-testid="pec-list-error"
        action={
          session ? (
            <Button color="inherit" size="small" onClick={() => logout()}>
              {translate('pecflow.pec.error.reconnect')}
            </Button>
          ) : (
            <Button color="inherit" size="small" onClick={() => list.refetch()}>
              {translate('pecflow.pec.error.retry')}
            </Button>
          )
        }
      >
        <AlertTitle>{translate(session ? 'pecflow.pec.error.sessionTitle' : 'pecflow.pec.error.title')}</AlertTitle>
        {session ? translate('pecflow.pec.error.sessionText') : errorText(list.error)}
      </Alert>
    );
  }

  if (!list.isPending && !list.data?.length) {
    return (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }} data-testid="pec-empty">
        <Typography color="text.secondary" sx={{ mb: onCreate ? 2 : 0 }}>
          {translate('pecflow.pec.empty')}
        </Typography>
        {onCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate}>
            {translate('pecflow.pec.actions.create')}
          </Button>
        )}
      </Paper>
    );
  }

  return (
    <>
      <TableContainer component={Paper} variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-busy={list.isPending} aria-label={translate('pecflow.pec.title')} data-testid="pec-table">
          <TableHead>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableCell
                  key={column.key}
                  align={column.align}
                  sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}
                  sortDirection={sort.field === column.sortBy ? (sort.order === 'ASC' ? 'asc' : 'desc') : false}
                >
                  {column.sortBy ? (
                    <TableSortLabel
                      active={sort.field === column.sortBy}
                      direction={sort.field === column.sortBy && sort.order === 'ASC' ? 'asc' : 'desc'}
                      onClick={() => setSort({ field: column.sortBy!, order: sort.field === column.sortBy && sort.order === 'DESC' ? 'ASC' : 'DESC' })}
                    >
                      {translate(`pecflow.pec.columns.${column.key}`)}
                    </TableSortLabel>
                  ) : (
                    translate(`pecflow.pec.columns.${column.key}`)
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {list.isPending
              ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <TableRow key={i} data-testid="skeleton-row">
                    {COLUMNS.map((column) => (
                      <TableCell key={column.key}>
                        <Skeleton variant="text" />
                      </TableCell>
                    ))}
                  </TableRow>
                ))
              : list.data!.map((record) => {
                  const id = pecNumericId(record);
                  return (
                    <TableRow
                      key={record.id}
                      hover
                      tabIndex={0}
                      sx={{ cursor: 'pointer' }}
                      onClick={() => id && onOpen(id)}
                      onKeyDown={(event) => {
                        if ((event.key === 'Enter' || event.key === ' ') && id) {
                          event.preventDefault();
                          onOpen(id);
                        }
                      }}
                      data-testid="pec-row"
                      data-id={id}
                    >
                      {COLUMNS.map((column) => (
                        <TableCell key={column.key} align={column.align} sx={{ whiteSpace: column.nowrap ? 'nowrap' : undefined }}>
                          {column.render(record, text)}
                        </TableCell>
                      ))}
                    </TableRow>
                  );
                })}
          </TableBody>
        </Table>
      </TableContainer>
      {!list.isPending && <Pagination />}
    </>
  );
}

function Pagination() {
  const translate = useTranslate();
  const { page, perPage, total = 0, setPage, isFetching } = useListContext();
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mt: 1.5, flexWrap: 'wrap', gap: 1 }} data-testid="pec-pagination">
      <Typography variant="body2" color="text.secondary">
        {translate('pecflow.pec.pagination.results', { smart_count: total })}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Button size="small" disabled={page <= 1 || isFetching} onClick={() => setPage(page - 1)}>
          {translate('pecflow.pec.pagination.previous')}
        </Button>
        <Typography variant="body2" data-testid="pec-page-number">
          {translate('pecflow.pec.pagination.page', { page, pages })}
        </Typography>
        <Button size="small" disabled={page >= pages || isFetching} onClick={() => setPage(page + 1)}>
          {translate('pecflow.pec.pagination.next')}
        </Button>
      </Box>
    </Stack>
  );
}
