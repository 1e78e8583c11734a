// /settings, "Paramètres". Filled by the back-office screens issue.
import { Box, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

export default function SettingsPage() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Title title={translate('pecflow.settings.title')} />
      <Typography variant="h5" component="h1" fontWeight={700}>
        {translate('pecflow.settings.title')}
      </Typography>
    </Box>
  );
}
