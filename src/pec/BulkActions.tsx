// The PEC list's bulk actions on its selected rows (issue 28): 'Créer DPEC', 'Facturer', 'Exporter la sélection',
// 'Archiver', 'Assigner à…'. The server applies each file's own rules (server/robot/bulk.ts) and answers one outcome per file, shown in
// the summary dialog. A bulk DPEC sends only the files the single start's rule lets go (domain/bulkDpec.ts): its
// confirmation says the others and why, and holds « Envoyer au robot » when none may go. The billing and archive forms are loaded with their dialog (form code stays out of the list).
import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Fragment, lazy, Suspense, useState } from 'react';
import { useListContext, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { ArchiveMark, AssignMark, BillMark, ConfirmDialog, SendMark } from '../admin/ConfirmDialog';
import { isDpecGranted } from '#domain/pec';
import { dpecSelection, type DpecSelectedFile, type DpecSelection } from '#domain/bulkDpec';
import type { BulkAction, BulkFileResult, BulkSummary } from '#domain/bulk';
import { usePecMutation, usePecRights, useRefreshPec } from './shared';
import { useSingleFlight } from '../admin/mutations';
import { ROW_CLASSES } from '../layout/rowStyles';

const BulkForms = lazy(() => import('./BulkForms'));

export type BulkFormName = 'billing' | 'archive' | 'assign';

type SelectedFile = RaRecord & DpecSelectedFile & { numPec?: string | null; shop?: { id: number; specialite?: string | null } | null };

export interface PecBulkActionsProps {
  ids: Identifier[];
}

export function PecBulkActions({ ids }: PecBulkActionsProps) {
  const { translate, dataProvider, failure, success } = usePecMutation();
  const rights = usePecRights();
  const refresh = useRefreshPec();
  const { onUnselectItems, data = [] } = useListContext();
  const [form, setForm] = useState<BulkFormName>();
  const [confirmingDpec, setConfirmingDpec] = useState(false);
  const [summary, setSummary] = useState<BulkSummary>();
  // A bulk DPEC's files left out before sending, said again with its summary.
  const [held, setHeld] = useState<DpecSelection<Identifier>['held']>([]);
  const run = useMutation({
    mutationFn: (data: { action: BulkAction } & Record<string, unknown>) => dataProvider.pecBulk({ ids, ...data }),
    onSuccess: (answer) => {
      setForm(undefined);
      // The selection stays until the summary closes: the bar (and this dialog) leave with it.
      setSummary(answer);
      void refresh.now();
    },
    onError: (error) => failure(translate('pecflow.pec.bulk.error'), error),
  });
  const exportCsv = useMutation({
    mutationFn: () => dataProvider.pecExport({ filter: { id: ids, archived: 'all' } }),
    onSuccess: (filename) => success(translate('pecflow.pec.export.done'), translate('pecflow.pec.export.doneText', { filename })),
    onError: (error) => failure(translate('pecflow.pec.export.error'), error),
  });
  // The selected files as this page read them (undefined for a file selected on another page).
  const selected = ids.map((id) => data.find((record: RaRecord) => record.id === id) as SelectedFile | undefined);
  const busy = run.isPending;
  const once = useSingleFlight();
  const send = (data: { action: BulkAction } & Record<string, unknown>) => once(() => run.mutateAsync(data));
  // Only the files the DPEC's rule lets go are sent; the dialog says the others and why before anything leaves.
  const dpec = dpecSelection(ids.map((id, index) => ({ id, file: selected[index] })));

  return (
    <>
      <Typography variant="body2" sx={{ mr: 1 }} data-testid="bulk-count">
        {translate('pecflow.pec.bulk.selected', { smart_count: ids.length })}
      </Typography>
      {rights.run && (
        <Button size="small" startIcon={<SendMark />} disabled={busy} onClick={() => setConfirmingDpec(true)}>
          {translate('pecflow.pec.bulk.dpec')}
        </Button>
      )}
      <ConfirmDialog
        isOpen={confirmingDpec}
        loading={busy}
        title="pecflow.pec.bulk.dpecConfirmTitle"
        translateOptions={{ smart_count: ids.length }}
        content={<DpecPreview selection={dpec} />}
        blocked={dpec.sent.length === 0 ? translate('pecflow.pec.bulk.dpecNone') : undefined}
        confirm="pecflow.pec.bulk.dpecConfirm"
        cancel="pecflow.pec.bulk.cancel"
        ConfirmIcon={SendMark}
        onConfirm={() => {
          setConfirmingDpec(false);
          setHeld(dpec.held);
          send({ action: 'dpec', ids: dpec.sent }).catch(() => undefined);
        }}
        onClose={() => setConfirmingDpec(false)}
      />
      {rights.run && (
        <Button size="small" startIcon={<BillMark />} disabled={busy} onClick={() => setForm('billing')}>
          {translate('pecflow.pec.bulk.billing')}
        </Button>
      )}
      {rights.export && (
        <Button size="small" startIcon={<DownloadIcon />} disabled={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
          {translate('pecflow.pec.bulk.export')}
        </Button>
      )}
      {rights.run && (
        <Button size="small" color="warning" startIcon={<ArchiveMark />} disabled={busy} onClick={() => setForm('archive')}>
          {translate('pecflow.pec.bulk.archive')}
        </Button>
      )}
      {rights.edit && (
        <Button size="small" startIcon={<AssignMark />} disabled={busy} onClick={() => setForm('assign')}>
          {translate('pecflow.pec.bulk.assign')}
        </Button>
      )}
      {form && (
        <Suspense fallback={null}>
          <BulkForms
            form={form}
            count={ids.length}
            // A file of another page (not read here) is given a number; the server says if it may not be billed.
            billable={selected.map((record) => !record || isDpecGranted(record))}
            shopIds={selected.map((record) => record?.shop?.id)}
            busy={busy}
            onClose={() => setForm(undefined)}
            onSubmit={(data) => {
              setHeld([]);
              return send(data);
            }}
          />
        </Suspense>
      )}
      <BulkSummaryDialog
        summary={summary}
        held={held}
        onClose={() => {
          setSummary(undefined);
          onUnselectItems();
          // The button that opened it goes with the selection's toolbar: the keyboard goes on from the list's first row.
          setTimeout(() => document.querySelector<HTMLElement>(`.${ROW_CLASSES.focusable}`)?.focus());
        }}
      />
    </>
  );
}

/**
 * Before a bulk DPEC: how many selected files will be sent and how many will not, grouped by the DPEC rule's reason
 * (domain/pec.ts, dpecRefusal, the server's); the server still checks what only it knows (a twin at the insurer).
 */
function DpecPreview({ selection }: { selection: DpecSelection<Identifier> }) {
  const translate = useTranslate();
  return (
    <Stack spacing={1} data-testid="bulk-dpec-preview">
      <Typography data-testid="bulk-dpec-sent">
        {selection.sent.length ? translate('pecflow.pec.bulk.dpecSent', { smart_count: selection.sent.length }) : translate('pecflow.pec.bulk.dpecSentNone')}
      </Typography>
      <HeldFiles held={selection.held} />
      {selection.sent.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          {translate('pecflow.pec.bulk.dpecChecked')}
        </Typography>
      )}
    </Stack>
  );
}

/** The files a bulk DPEC leaves out, unchanged: how many, then each reason with the files it holds back. */
function HeldFiles({ held }: { held: DpecSelection<Identifier>['held'] }) {
  const translate = useTranslate();
  const count = held.reduce((sum, group) => sum + group.files.length, 0);
  if (!count) return null;
  return (
    <Box data-testid="bulk-dpec-held">
      <Typography>{translate('pecflow.pec.bulk.dpecHeld', { smart_count: count })}</Typography>
      <Box component="ul" sx={{ mt: 0.5, mb: 0, pl: 2.5 }}>
        {held.map(({ reason, files }) => (
          <Typography component="li" variant="body2" key={reason} data-testid="bulk-dpec-held-reason">
            {translate('pecflow.pec.bulk.refusalGroup', { smart_count: files.length, reason: withoutFinalStop(reason) })}{' '}
            {files.map((number, index) => (
              <Fragment key={number}>
                {index > 0 && ', '}
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  {number}
                </Box>
              </Fragment>
            ))}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

/** A file's number on one line (PEC-2026-000184 is never broken at its hyphens). */
function FileNumber({ result }: { result: BulkFileResult }) {
  const translate = useTranslate();
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }} data-testid="bulk-file-number">
      {result.numeroDossier ?? translate('pecflow.pec.bulk.unknownFile')}
    </Box>
  );
}

/** A reason without its final full stop, for a sentence that goes on after it. */
const withoutFinalStop = (reason: string) => reason.replace(/(?<!\.)\.\s*$/, '');

/**
 * The counts, the refusals grouped by reason (which files share one), then one line per file, the refused first: its
 * number (or 'Dossier inconnu'), done / queued / refused, the refusal's French reason, and for a billing the invoice number.
 */
function BulkSummaryDialog({ summary, held, onClose }: { summary?: BulkSummary; held: DpecSelection<Identifier>['held']; onClose: () => void }) {
  const { translate } = usePecMutation();
  const count = (outcome: string) => summary?.results.filter((r) => r.outcome === outcome).length ?? 0;
  const refusals = new Map<string, BulkFileResult[]>();
  for (const result of summary?.results ?? []) {
    if (result.outcome === 'refused') refusals.set(result.reason ?? '', [...(refusals.get(result.reason ?? '') ?? []), result]);
  }
  const lines = [...(summary?.results ?? [])].sort((a, b) => Number(b.outcome === 'refused') - Number(a.outcome === 'refused'));
  // A bulk billing says the invoice number each file was given.
  const billing = summary?.action === 'billing';
  return (
    <Dialog open={!!summary} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="bulk-summary-title" data-testid="bulk-summary">
      {summary && (
        <>
          <DialogTitle id="bulk-summary-title">
            {translate('pecflow.pec.bulk.summaryTitle', { action: translate(`pecflow.pec.bulk.summaryActions.${summary.action}`) })}
          </DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 1 }}>
              {(summary.action === 'dpec' || summary.action === 'billing' ? (['done', 'queued', 'refused'] as const) : (['done', 'refused'] as const))
                .map((outcome) => translate(`pecflow.pec.bulk.counts.${outcome}`, { smart_count: count(outcome) }))
                .join(', ')}
            </DialogContentText>
            {summary.action === 'dpec' && held.length > 0 && (
              <Box sx={{ mb: 2 }}>
                <HeldFiles held={held} />
              </Box>
            )}
            {refusals.size > 0 && (
              <Box component="ul" sx={{ mt: 0, mb: 2, pl: 2.5 }} data-testid="bulk-refusals">
                {[...refusals].map(([reason, files]) => (
                  <Typography component="li" variant="body2" key={reason} sx={{ whiteSpace: 'pre-line' }}>
                    {translate('pecflow.pec.bulk.refusalGroup', {
                      smart_count: files.length,
                      // « …refusé (2 dossiers) », not « …refusé. (2 dossiers) »: the count goes inside the sentence.
                      reason: withoutFinalStop(reason) || translate('pecflow.pec.bulk.outcomes.refused'),
                    })}{' '}
                    {files.map((file, index) => (
                      <Fragment key={file['@id']}>
                        {index > 0 && ', '}
                        <FileNumber result={file} />
                      </Fragment>
                    ))}
                  </Typography>
                ))}
              </Box>
            )}
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('pecflow.pec.bulk.file')}</TableCell>
                  <TableCell>{translate('pecflow.pec.bulk.outcome')}</TableCell>
                  {billing && <TableCell>{translate('pecflow.pec.bulk.invoiceNumber')}</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {lines.map((result) => (
                  <TableRow key={result['@id']} data-testid="bulk-result" data-outcome={result.outcome}>
                    <TableCell>
                      <FileNumber result={result} />
                    </TableCell>
                    <TableCell>
                      {translate(`pecflow.pec.bulk.outcomes.${result.outcome}`)}
                      {result.reason && (
                        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
                          {result.reason}
                        </Typography>
                      )}
                    </TableCell>
                    {billing && (
                      <TableCell data-testid="bulk-invoice-number" sx={{ whiteSpace: 'nowrap' }}>
                        {result.numBilling ?? '—'}
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} variant="contained" autoFocus>
              {translate('pecflow.pec.bulk.close')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
