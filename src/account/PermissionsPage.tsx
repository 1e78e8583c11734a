// /permissions, "Mes permissions": the user's permissions grouped by module, with counts and level badges.
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, Alert, AlertTitle, Box, Chip, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { useIsAuthPending, useTranslate } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { OTHER_PERMISSIONS, PERMISSION_MODULE_LABELS, type PermissionLevel, type PermissionModule } from '#domain/permissions';
import { LoadingPage } from '../layout/LoadingPage';
import { LEVEL_COLORS } from './levels';
import { useProfile } from './useProfile';

/** What a newcomer can be given first: reading PEC files. */
const BASE_PERMISSIONS = OTHER_PERMISSIONS.filter((p) => ['pec.view', 'settings.pec.create', 'pec.create'].includes(p.key));

export default function PermissionsPage() {
  const translate = useTranslate();
  const { data: user, isPending } = useProfile();
  const authPending = useIsAuthPending({ action: 'list' });
  if (isPending || authPending) return <LoadingPage />;
  if (!user) {
    return (
      <Alert severity="warning" sx={{ m: 3 }}>
        {translate('pecflow.permissions.unauthenticated')}
      </Alert>
    );
  }

  const byModule = new Map<PermissionModule, typeof user.permissionsDetails>();
  for (const detail of user.permissionsDetails) {
    const module = detail.module as PermissionModule;
    byModule.set(module, [...(byModule.get(module) ?? []), detail]);
  }

  return (
    <Box sx={{ p: { xs: 1, sm: 3 }, maxWidth: 960 }}>
      <PageTitle title={translate('pecflow.permissions.title')} />
      <Typography variant="h5" component="h1" fontWeight={700}>
        {translate('pecflow.permissions.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('pecflow.permissions.subtitle')} {translate('pecflow.permissions.total', { smart_count: user.permissionsDetails.length })}
      </Typography>

      {user.permissionsDetails.length === 0 ? (
        <Alert severity="info">
          <AlertTitle>{translate('pecflow.permissions.restrictedTitle')}</AlertTitle>
          {translate('pecflow.permissions.restrictedText')}
          <List dense>
            {BASE_PERMISSIONS.map((p) => (
              <ListItem key={p.key}>
                <ListItemText primary={p.label} secondary={p.key} />
              </ListItem>
            ))}
          </List>
        </Alert>
      ) : (
        (Object.keys(PERMISSION_MODULE_LABELS) as PermissionModule[])
          .filter((module) => byModule.has(module))
          .map((module) => {
            const details = byModule.get(module)!;
            return (
              <Accordion key={module} defaultExpanded disableGutters data-testid={`module-${module}`}>
                <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                  <Stack direction="row" spacing={1.5} alignItems="center">
                    <Typography fontWeight={600}>{PERMISSION_MODULE_LABELS[module]}</Typography>
                    <Chip size="small" label={translate('pecflow.permissions.count', { smart_count: details.length })} />
                  </Stack>
                </AccordionSummary>
                <AccordionDetails>
                  <List dense disablePadding>
                    {details.map((detail) => (
                      <ListItem key={detail.key} divider sx={{ alignItems: 'flex-start', gap: 2 }}>
                        <ListItemText
                          primary={detail.label}
                          secondary={
                            <>
                              {detail.description}
                              <br />
                              <Box component="code" sx={{ overflowWrap: 'anywhere' }}>
                                {detail.key}
                              </Box>
                              {detail.groups.length > 0 && ` · ${translate('pecflow.permissions.grantedBy')} ${detail.groups.map((g) => g.name).join(', ')}`}
                            </>
                          }
                        />
                        <Chip
                          size="small"
                          color={LEVEL_COLORS[detail.level as PermissionLevel]}
                          label={translate(`pecflow.permissions.levels.${detail.level}`)}
                        />
                      </ListItem>
                    ))}
                  </List>
                </AccordionDetails>
              </Accordion>
            );
          })
      )}
    </Box>
  );
}
