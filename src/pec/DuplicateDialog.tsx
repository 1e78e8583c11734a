// A DPEC refused because a twin's request is already at the insurer (issue 25, domain/duplicates.ts): the server's
// reason, a link to each twin, and the explicit confirmation that sends it anyway (audited by the server).
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Link, List, ListItem } from '@mui/material';
import { useTranslate } from 'react-admin';
import { SendMark } from '../admin/ConfirmDialog';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import type { DuplicateRefusal } from '#domain/pecAnswers';
import { filePageUrl } from '#domain/duplicates';
import { pecStatusLabel } from '#domain/pec';

interface Props {
  refusal: { text: string; twins: NonNullable<DuplicateRefusal['twins']> } | undefined;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function DuplicateDialog({ refusal, busy, onCancel, onConfirm }: Props) {
  const translate = useTranslate();
  const { search } = useLocation();
  return (
    <Dialog open={!!refusal} onClose={busy ? undefined : onCancel} maxWidth="sm" fullWidth aria-labelledby="pec-duplicate-title">
      <DialogTitle id="pec-duplicate-title">{translate('pecflow.pec.duplicate.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{refusal?.text}</DialogContentText>
        <List dense>
          {refusal?.twins.map((twin) => (
            <ListItem key={twin.id} disableGutters>
              <Link component={RouterLink} to={{ pathname: filePageUrl(twin.id), search }} onClick={onCancel}>
                {translate('pecflow.pec.warnings.open', { numero: twin.numeroDossier })}
              </Link>
              &nbsp;({pecStatusLabel(twin.status)})
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {translate('pecflow.pec.duplicate.cancel')}
        </Button>
        <Button variant="contained" color="warning" startIcon={<SendMark />} onClick={onConfirm} disabled={busy} data-testid="duplicate-confirm">
          {translate('pecflow.pec.duplicate.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
