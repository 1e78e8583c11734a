// /pec, "Gestion des PEC". Filled by the PEC list issue.
import { Box, Typography } from '@mui/material';
import { Title } from 'react-admin';

export default function PecPage() {
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Title title="Gestion des PEC" />
      <Typography variant="h5" component="h1" fontWeight={700}>
        Gestion des PEC
      </Typography>
    </Box>
  );
}
