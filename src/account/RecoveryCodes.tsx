// The ten recovery codes, shown once after an enrolment.
import { Alert, Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

export function RecoveryCodes({ codes }: { codes: string[] }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography component="h2" variant="h6" fontWeight={700}>
        {translate('pecflow.account.steps.recovery.title')}
      </Typography>
      <Alert severity="warning">{translate('pecflow.account.steps.recovery.text')}</Alert>
      <Box
        component="ol"
        data-testid="recovery-codes"
        sx={{ m: 0, pl: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 3, fontFamily: 'monospace', fontSize: 15 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
    </Box>
  );
}
