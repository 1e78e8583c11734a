// "Imprimer le récapitulatif" (issue 29) in the drawer's header: the server makes the file's summary as a PDF
// (POST /api/pec_dossiers/{id}/summary), downloaded for the patient to sign.
import PrintIcon from '@mui/icons-material/Print';
import { Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { usePecMutation } from './shared';

export function PrintSummaryAction({ id }: { id: number }) {
  const { translate, dataProvider, success, failure } = usePecMutation();
  const print = useMutation({
    mutationFn: () => dataProvider.pecSummary({ id }),
    onSuccess: (filename) => success(translate('pecflow.pec.summary.done'), translate('pecflow.pec.summary.doneText', { filename })),
    onError: (error) => failure(translate('pecflow.pec.summary.error'), error),
  });
  return (
    <Button startIcon={<PrintIcon />} onClick={() => print.mutate()} disabled={print.isPending} data-testid="print-summary">
      {translate('pecflow.pec.summary.print')}
    </Button>
  );
}
