// "Importer": a CSV file of new requests (created as drafts, all or nothing). Shows how many were created and the lines
// already there, not created again (issue 25), or the lines in error with their messages. Sent with useMutation; the
// list and the dashboard follow at once.
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Stack,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { focusOnShow } from '../admin/focusOnShow';
import { RefusedLines } from '../admin/RefusedLines';
import type { ImportErrors, ImportResult } from '#domain/pecAnswers';
import { PEC_IMPORT_TEMPLATE_NAME, pecImportColumnLabels, pecImportTemplate } from '#domain/pecImport';
import { download } from '../dataProvider/pec';
import { usePecMutation } from './shared';

type Outcome = { created: number; skipped: NonNullable<ImportResult['skipped']> } | { error: string; lines: NonNullable<ImportErrors['errors']> };

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
}

export function ImportDialog({ open, onClose }: ImportDialogProps) {
  const { translate, dataProvider, refresh, success, failure, errorText } = usePecMutation();
  const input = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const send = useMutation({
    mutationFn: async (file: File) => dataProvider.pecImport({ csv: await file.text() }),
    onMutate: () => setOutcome(undefined),
    onSuccess: (result) => {
      const skipped = result.skipped ?? [];
      setOutcome({ created: result.created, skipped });
      const created = translate('pecflow.pec.import.created', { smart_count: result.created });
      success(
        translate('pecflow.pec.import.done'),
        skipped.length ? `${created}, ${translate('pecflow.pec.import.skipped', { smart_count: skipped.length })}.` : created,
      );
      void refresh.now();
    },
    onError: (error) => {
      const lines = ((error as { body?: ImportErrors }).body?.errors ?? []).slice(0, 200);
      // The lines are listed below: the toast keeps the first sentence.
      const message = errorText(error).split('\n')[0] ?? '';
      setOutcome({ error: message, lines });
      failure(translate('pecflow.pec.import.error'), error, message);
    },
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });
  const busy = send.isPending;
  const upload = (file: File | undefined) => file && send.mutate(file);

  const close = () => {
    setOutcome(undefined);
    onClose();
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : close} maxWidth="sm" fullWidth aria-labelledby="pec-import-title">
      <DialogTitle id="pec-import-title">{translate('pecflow.pec.import.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {translate('pecflow.pec.import.help', { required: pecImportColumnLabels(true), optional: pecImportColumnLabels(false) })}
        </DialogContentText>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          hidden
          // Out of the dialog's focus trap, which counts any input but type="hidden" as a Tab stop: Tab from 'Fermer'
          // went to it, invisible, instead of back to the first button. The button opens it.
          tabIndex={-1}
          onChange={(event) => upload(event.target.files?.[0])}
          data-testid="pec-import-file"
          aria-label={translate('pecflow.pec.import.choose')}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ xs: 'flex-start', sm: 'center' }} sx={{ mt: 2 }}>
          <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => input.current?.click()} disabled={busy}>
            {translate(busy ? 'pecflow.pec.import.sending' : 'pecflow.pec.import.choose')}
          </Button>
          {/* A file to start from, with every column as the import reads them: after the chooser, the dialog's first stop. */}
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            onClick={() => download(new Blob([pecImportTemplate()], { type: 'text/csv;charset=utf-8' }), PEC_IMPORT_TEMPLATE_NAME)}
          >
            {translate('pecflow.pec.import.template')}
          </Button>
        </Stack>
        {outcome && (
          <Box ref={focusOnShow} tabIndex={-1} sx={{ mt: 2 }} data-testid="pec-import-outcome">
            {'created' in outcome ? (
              <Alert severity={outcome.created ? 'success' : 'info'} data-testid="pec-import-result">
                {outcome.created ? translate('pecflow.pec.import.created', { smart_count: outcome.created }) : translate('pecflow.pec.import.nothingCreated')}
                {outcome.skipped.length > 0 && (
                  <>
                    <AlertTitle sx={{ mt: 1 }}>{translate('pecflow.pec.import.skipped', { smart_count: outcome.skipped.length })}</AlertTitle>
                    <Box sx={{ maxHeight: 260, overflowY: 'auto' }}>
                      <List dense disablePadding data-testid="pec-import-skipped">
                        {outcome.skipped.slice(0, 200).map((line) => (
                          <ListItem key={line.line} disableGutters>
                            <ListItemText primary={translate('pecflow.csvLine', { line: line.line })} secondary={line.message} />
                          </ListItem>
                        ))}
                      </List>
                    </Box>
                  </>
                )}
              </Alert>
            ) : (
              <RefusedLines message={outcome.error} lines={outcome.lines} testId="pec-import-result" />
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {translate('pecflow.pec.import.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
