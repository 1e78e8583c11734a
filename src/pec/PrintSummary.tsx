// "Imprimer le récapitulatif" (issue 29) in the drawer's header: the server makes the file's summary as a PDF
// (POST /api/pec_dossiers/{id}/summary), downloaded for the patient to sign. While it is made the button is inert but
// keeps the focus (aria-disabled, drawn disabled by the theme): disabled, it dropped the focus to the page.
import PrintIcon from '@mui/icons-material/Print';
import { Box, Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { usePecMutation } from './shared';

export function PrintSummaryAction({ id }: { id: number }) {
  const { translate, dataProvider, success, failure } = usePecMutation();
  const print = useMutation({
    mutationFn: () => dataProvider.pecSummary({ id }),
    onSuccess: (filename) => success(translate('pecflow.pec.summary.done'), translate('pecflow.pec.summary.doneText', { filename })),
    onError: (error) => failure(translate('pecflow.pec.summary.error'), error),
  });
  const label = translate('pecflow.pec.summary.print');
  // On a phone « Imprimer », on one line beside the status and « Archiver »; named in full either way.
  return (
    <Button
      startIcon={<PrintIcon />}
      onClick={print.isPending ? undefined : () => print.mutate()}
      aria-disabled={print.isPending || undefined}
      aria-label={label}
      data-testid="print-summary"
    >
      <Box component="span" sx={{ display: { sm: 'none' } }}>
        {translate('pecflow.pec.summary.printShort')}
      </Box>
      <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
        {label}
      </Box>
    </Button>
  );
}
