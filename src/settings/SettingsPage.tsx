// /settings, "Paramètres": the tabs the user's permissions allow (spec section 2 plus Rôles and Journal d'audit),
// /settings leading to the first of them, and the access-denied texts when there is none.
import { Alert, AlertTitle, Box, Tab, Tabs, Typography } from '@mui/material';
import { hydraSchemaAnalyzer, SchemaAnalyzerContext } from '@api-platform/admin';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Title, usePermissions, useTranslate } from 'react-admin';
import { hasPermission, SETTINGS_SECTIONS } from '../domain/permissions';
import { LoadingPage } from '../layout/LoadingPage';
import { configForSection } from '../resources';
import { ResourceScreen } from './ResourceList';
import { SystemSettings } from './SystemSettings';

const schemaAnalyzer = hydraSchemaAnalyzer();

export default function SettingsPage() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions<string[]>();
  const location = useLocation();
  if (isPending) return <LoadingPage />;
  const allowed = SETTINGS_SECTIONS.filter((s) => hasPermission(permissions ?? [], s.permission));
  const current = location.pathname.split('/')[2];
  const first = allowed[0];

  return (
    <SchemaAnalyzerContext.Provider value={schemaAnalyzer}>
      {/* inline-size containment: wide tables scroll inside the page instead of widening react-admin's layout. */}
      <Box sx={{ p: { xs: 1, sm: 3 }, contain: 'inline-size' }}>
        <Title title={translate('pecflow.settings.title')} />
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
              value={allowed.some((s) => s.section === current) ? current : false}
              variant="scrollable"
              scrollButtons="auto"
              allowScrollButtonsMobile
              aria-label={translate('pecflow.settings.tabs')}
              sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
            >
              {allowed.map((s) => (
                <Tab key={s.section} value={s.section} label={s.label} component={Link} to={`/settings/${s.section}`} />
              ))}
            </Tabs>
            <Routes>
              {allowed.map((s) => (
                <Route key={s.section} path={s.section} element={<Section section={s.section} />} />
              ))}
              {/* Reached by its address without the permission, Système says why (spec section 6). */}
              {!allowed.some((s) => s.section === 'system') && <Route path="system" element={<SystemSettings />} />}
              <Route path="*" element={<Navigate to={`/settings/${first.section}`} replace />} />
            </Routes>
          </>
        )}
      </Box>
    </SchemaAnalyzerContext.Provider>
  );
}

function Section({ section }: { section: string }) {
  if (section === 'system') return <SystemSettings />;
  const config = configForSection(section);
  return config ? <ResourceScreen key={config.name} config={config} /> : null;
}
