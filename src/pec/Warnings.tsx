// A file's warnings in the drawer (issue 15): one MUI Alert per warning, its title, its message with the reason and
// its legal source, or the link to the file it is about (a twin, issue 25). They inform and never block: the DPEC
// button stays usable (a twin's request at the insurer asks to confirm, ./ActionsTab).
import { Alert, AlertTitle, Link, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { DPEC_START_STATUSES, type PecStatus } from '#domain/pec';
import { WARNING_LABELS, type PecWarning } from '#domain/warnings';

/** `status`: the file's; the advice to check them before the DPEC shows only while a DPEC can still be started. */
export function PecWarnings({ warnings, status }: { warnings: PecWarning[] | undefined; status: string }) {
  const translate = useTranslate();
  // Another file (a twin) opens in the drawer, over the list as it is filtered.
  const { search } = useLocation();
  if (!warnings?.length) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="pec-warnings" aria-label={translate('pecflow.pec.warnings.title')} role="region">
      {DPEC_START_STATUSES.includes(status as PecStatus) && (
        <Typography variant="body2" color="text.secondary" data-testid="pec-warnings-intro">
          {translate('pecflow.pec.warnings.intro')}
        </Typography>
      )}
      {warnings.map((warning, index) => (
        <Alert key={`${warning.code}-${warning.side ?? ''}-${index}`} severity="warning" data-testid="pec-warning" data-code={warning.code}>
          <AlertTitle>{WARNING_LABELS[warning.code] ?? warning.code}</AlertTitle>
          {warning.message}
          {warning.link && (
            <Link component={RouterLink} to={{ pathname: warning.link.url, search }} sx={{ display: 'block', mt: 0.5 }} data-testid="pec-warning-link">
              {translate('pecflow.pec.warnings.open', { numero: warning.link.label })}
            </Link>
          )}
          {warning.source && (
            <Typography variant="caption" component="div" sx={{ mt: 0.5 }}>
              {translate('pecflow.pec.warnings.source', { source: warning.source })}
            </Typography>
          )}
        </Alert>
      ))}
    </Stack>
  );
}
