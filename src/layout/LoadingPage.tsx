import { Box, CircularProgress, Typography } from '@mui/material';
import { Navigate } from 'react-router-dom';
import { useTranslate } from 'react-admin';

/** Full-page wait with a French sentence: "Chargement..." by default. */
export function LoadingPage({ messageKey = 'pecflow.app.loading' }: { messageKey?: string }) {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '60vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }} role="status">
      <CircularProgress />
      <Typography color="text.secondary">{translate(messageKey)}</Typography>
    </Box>
  );
}

/** "/" and every unknown path lead to the PEC list (spec section 2, Routing). */
export const RedirectToPec = () => <Navigate to="/pec" replace />;
