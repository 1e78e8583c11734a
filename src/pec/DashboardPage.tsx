// /dashboard: the page after login. Filled by the PEC list issue.
import { Box, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

export default function DashboardPage() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Title title={translate('pecflow.dashboard.title')} />
      <Typography variant="h5" component="h1" fontWeight={700}>
        {translate('pecflow.dashboard.title')}
      </Typography>
    </Box>
  );
}
