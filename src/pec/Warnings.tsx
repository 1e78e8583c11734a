// A file's warnings in the drawer (issue 15): one MUI Alert per warning, its title, its message with the reason and
// its legal source. They inform and never block: the DPEC button stays usable.
import { Alert, AlertTitle, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { WARNING_LABELS, type PecWarning } from '#domain/warnings';

export function PecWarnings({ warnings }: { warnings: PecWarning[] | undefined }) {
  const translate = useTranslate();
  if (!warnings?.length) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="pec-warnings" aria-label={translate('pecflow.pec.warnings.title')} role="region">
      <Typography variant="body2" color="text.secondary">
        {translate('pecflow.pec.warnings.intro')}
      </Typography>
      {warnings.map((warning, index) => (
        <Alert key={`${warning.code}-${warning.side ?? ''}-${index}`} severity="warning" data-testid="pec-warning" data-code={warning.code}>
          <AlertTitle>{WARNING_LABELS[warning.code] ?? warning.code}</AlertTitle>
          {warning.message}
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
