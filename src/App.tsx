// The application: react-admin in French, our auth and data providers, the shell and every route.
import { lazy } from 'react';
import { Route, useLocation } from 'react-router-dom';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { i18nProvider } from './i18n';
import { Layout } from './layout/Layout';
import { LoadingPage, RedirectToPec } from './layout/LoadingPage';
import { LoginPage } from './layout/LoginPage';
import { Toasts } from './layout/Toasts';
import { createAppStore, readTheme } from './layout/store';
import { darkTheme, lightTheme } from './layout/theme';
import { queryClient } from './queryClient';

// Pages are loaded when first shown: the login page needs none of them.
// The PEC and settings screens read through the Hydra provider: its code and the API description load alongside the page's own.
const warmHydra = () => void dataProvider.introspect().catch(() => undefined);
const PecPage = lazy(() => (warmHydra(), import('./pec/PecPage')));
const DashboardPage = lazy(() => (warmHydra(), import('./pec/DashboardPage')));
const SettingsPage = lazy(() => (warmHydra(), import('./settings/SettingsPage')));
const PaymentStatementsPage = lazy(() => (warmHydra(), import('./pec/PaymentStatementsPage')));
const PaymentImportPage = lazy(() => import('./pec/PaymentImportPage'));
const ProfilePage = lazy(() => import('./account/ProfilePage'));
const PermissionsPage = lazy(() => import('./account/PermissionsPage'));
const DebugPermissionsPage = lazy(() => import('./account/DebugPermissionsPage'));

const store = createAppStore();

/**
 * The toasts are the layout's (src/layout/Toasts.tsx); react-admin's own snackbar would take half of them. Outside the
 * layout (the login page) this slot shows them, so "Session expirée" is read where the user lands.
 */
function LoginToasts() {
  const { pathname } = useLocation();
  return pathname === '/login' ? <Toasts /> : null;
}
/** react-admin's loading slot passes props of its own: the page shows its own French sentence. */
const AppLoading = () => <LoadingPage />;

export function App() {
  return (
    <Admin
      title="Pecflow"
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
      store={store}
      layout={Layout}
      loginPage={LoginPage}
      dashboard={RedirectToPec}
      catchAll={RedirectToPec}
      loading={AppLoading}
      notification={LoginToasts}
      lightTheme={lightTheme}
      darkTheme={darkTheme}
      defaultTheme={readTheme()}
      requireAuth
      disableTelemetry
    >
      <Resource name="pec_dossiers" />
      {/* The insurers' payment statements (issue 15): /payment_statements (list, a statement's drawer at /{id}) and
          /payment_statements/create (import with its preview). */}
      <Resource name="payment_statements" list={PaymentStatementsPage} create={PaymentImportPage} />
      {/* The back-office entities are <Resource>s of their own too, routed under /settings/{collection} by the settings
          page from the API docs (src/settings/SettingsPage.tsx): no list of them is kept here. */}
      <CustomRoutes>
        <Route path="/pec/*" element={<PecPage />} />
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="/settings/*" element={<SettingsPage />} />
        <Route path="/profile" element={<ProfilePage />} />
        <Route path="/permissions" element={<PermissionsPage />} />
        <Route path="/debug-permissions" element={<DebugPermissionsPage />} />
      </CustomRoutes>
    </Admin>
  );
}
