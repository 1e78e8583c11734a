// /settings, "Paramètres": a tab per entity whose declaration makes it a settings tab (label, position and permission
// from the API docs), those the user's permissions allow; /settings leads to the first of them, the spec's former
// paths (/settings/mutuelles…) to their entity, and the access-denied texts show when there is none. Each tab is the
// entity's react-admin <Resource> (list, edit and create: the generated screens), routed under /settings/{collection}.
import { Alert, AlertTitle, Box, Tab, Tabs, Typography } from '@mui/material';
import { hydraSchemaAnalyzer, SchemaAnalyzerContext } from '@api-platform/admin';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Resource, RestoreScrollPosition, usePermissions, useTranslate } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { hasPermission } from '#domain/permissions';
import { LoadingPage } from '../layout/LoadingPage';
import { LoadError } from '../admin/LoadError';
import { useAdminSchema } from '../admin/docs';
import { particularOf } from '../resources';
import { GeneratedScreen } from './GeneratedScreen';

const schemaAnalyzer = hydraSchemaAnalyzer();

export default function SettingsPage() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions<string[]>();
  const { data: docs, error, refetch } = useAdminSchema();
  const location = useLocation();
  if (error) {
    return (
      <Box sx={{ p: 3 }}>
        <LoadError title={translate('pecflow.settings.list.errorTitle')} text={translate('pecflow.settings.list.errorText')} onRetry={() => refetch()} />
      </Box>
    );
  }
  if (isPending || !docs) return <LoadingPage />;
  const tabs = docs.entities.filter((e) => e.settingsTab).sort((a, b) => a.settingsTab!.position - b.settingsTab!.position);
  const allowed = tabs.filter((e) => hasPermission(permissions ?? [], e.settingsTab!.permission));
  // Reached by its address without the permission, a screen of its own says why (Système, spec section 6).
  const ownScreens = tabs.filter((e) => !allowed.includes(e) && particularOf(e.name).page);
  const current = location.pathname.split('/')[2];
  const first = allowed[0];
  const shown = [...allowed, ...ownScreens].find((e) => e.name === current);

  return (
    <SchemaAnalyzerContext.Provider value={schemaAnalyzer}>
      {/* inline-size containment: wide tables scroll inside the page instead of widening react-admin's layout. */}
      <Box sx={{ p: { xs: 1, sm: 3 }, contain: 'inline-size' }}>
        <PageTitle
          title={translate('pecflow.settings.title')}
          tabTitle={shown ? translate('pecflow.settings.tabTitle', { tab: shown.settingsTab!.label }) : undefined}
        />
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ mb: 1 }}>
          {translate('pecflow.settings.title')}
        </Typography>
        {!first ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="settings-denied">
            <AlertTitle>{translate('pecflow.settings.accessDenied.title')}</AlertTitle>
            <Typography fontWeight={600}>{translate('pecflow.settings.accessDenied.heading')}</Typography>
            <Typography>{translate('pecflow.settings.accessDenied.text')}</Typography>
            <Typography variant="body2" sx={{ mt: 1 }}>
              {translate('pecflow.settings.accessDenied.noTab')}
            </Typography>
          </Alert>
        ) : (
          <>
            <Tabs
              value={allowed.some((e) => e.name === current) ? current : false}
              variant="scrollable"
              scrollButtons={false}
              aria-label={translate('pecflow.settings.tabs')}
              sx={{
                mb: 3,
                borderBottom: 1,
                borderColor: 'divider',
                // On a laptop every tab shows, on two lines if need be (no scroll arrow); a phone scrolls them.
                '& .MuiTabs-flexContainer': { flexWrap: { md: 'wrap' } },
                '& .MuiTabs-indicator': { display: { md: 'none' } },
                '& .MuiTab-root': { minWidth: 0, px: 1.5 },
                '& .MuiTab-root.Mui-selected': { boxShadow: (theme) => ({ md: `inset 0 -2px 0 ${theme.palette.primary.main}` }) },
              }}
            >
              {allowed.map((e) => (
                <Tab key={e.name} value={e.name} label={e.settingsTab!.label} component={Link} to={`/settings/${e.name}`} />
              ))}
            </Tabs>
            <Routes>
              {[...allowed, ...ownScreens].map((e) => (
                <Route key={e.name} path={`${e.name}/*`} element={<EntityResource collection={e.name} />} />
              ))}
              {tabs.flatMap((e) =>
                e.settingsTab!.aliases.map((alias) => <Route key={alias} path={`${alias}/*`} element={<Navigate to={`/settings/${e.name}`} replace />} />),
              )}
              <Route path="*" element={<Navigate to={`/settings/${first.name}`} replace />} />
            </Routes>
          </>
        )}
      </Box>
    </SchemaAnalyzerContext.Provider>
  );
}

/**
 * The entity's react-admin resource: list, edit (/settings/{collection}/{id}) and create. Edit and create show the
 * same screen as the list, with the drawer open: one element type in every route, so the list stays mounted.
 */
function EntityResource({ collection }: { collection: string }) {
  const page = (mode: 'edit' | 'create') => (
    <RestoreScrollPosition storeKey={`${collection}.list.scrollPosition`}>
      <GeneratedScreen collection={collection} mode={mode} />
    </RestoreScrollPosition>
  );
  return <Resource name={collection} list={<GeneratedScreen collection={collection} mode="list" />} edit={page('edit')} create={page('create')} />;
}
