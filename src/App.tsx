// The application: react-admin in French, our auth and data providers, the shell and every route.
import { CssBaseline } from '@mui/material';
import { lazy, Suspense, useDeferredValue, useEffect, useLayoutEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { Route, useLocation } from 'react-router-dom';
import { AdminContext, CoreAdminUI, CustomRoutes, Resource } from 'react-admin';
import { authProvider } from './authProvider';
import { getAccessToken } from './session';
import { dataProvider } from './dataProvider';
import { DashboardPage, PaymentStatementsPage, PecPage, preloadPage, SettingsPage, ShellLayout } from './pageLoaders';
import { i18nProvider } from './i18n';
import { LoadingPage, RedirectToPec } from './layout/LoadingPage';
import { dropKeptFrame } from './keptFrame';
import { LoginPage } from './layout/LoginPage';
import { Toasts } from './layout/Toasts';
import { createAppStore, readTheme } from './layout/store';
import { darkTheme, lightTheme } from './layout/theme';
import { queryClient } from './queryClient';

// Pages are loaded when first shown (src/pageLoaders.ts): the login page needs none of them.
const PaymentImportPage = lazy(() => import('./pec/PaymentImportPage'));
const ProfilePage = lazy(() => import('./account/ProfilePage'));
const PermissionsPage = lazy(() => import('./account/PermissionsPage'));
const DebugPermissionsPage = lazy(() => import('./account/DebugPermissionsPage'));
// The public account pages (a forgotten password, the links sent by email): their own chunk, no sign-in needed.
const accountPage = (name: 'ForgotPasswordPage' | 'ResetPasswordPage' | 'InvitationPage') =>
  lazy(() => import('./account/AccountPages').then((m) => ({ default: m[name] })));
const ForgotPasswordPage = accountPage('ForgotPasswordPage');
const ResetPasswordPage = accountPage('ResetPasswordPage');
const InvitationPage = accountPage('InvitationPage');
const publicPage = (Page: ComponentType) => (
  <Suspense fallback={<LoadingPage />}>
    <Page />
  </Suspense>
);

if (getAccessToken()) preloadPage(window.location.pathname);

// The shell (menu, app bar, notifications) is for signed-in pages only: the login page does not download it.
function AppLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  useEffect(() => preloadPage(pathname), [pathname]);
  // The frame kept of the first page (src/keptFrame.ts) is not the one of a page the user has moved to.
  const firstPath = useRef(pathname);
  useLayoutEffect(() => {
    if (pathname !== firstPath.current) dropKeptFrame();
  }, [pathname]);
  // The shell mounts in a background render, which React does in slices: the update that reveals it (the session
  // check, a react-query answer) would render it at once, in one long task. The layout stays mounted across pages.
  const shown = useDeferredValue(true, false);
  if (!shown) return <LoadingPage />;
  return (
    <Suspense fallback={<LoadingPage />}>
      <ShellLayout>{children}</ShellLayout>
    </Suspense>
  );
}

/** One of react-admin's pages for the rare states (src/layout/rarePages.tsx), loaded when it first shows. */
function rarePage(name: 'AccessDenied' | 'AuthCallback' | 'AuthenticationError' | 'Error') {
  const Page = lazy(() => import('./layout/rarePages').then((m) => ({ default: m[name] as ComponentType<object> })));
  return function RarePage(props: object) {
    // No frame of a page (src/keptFrame.ts) stays over an error or a refusal.
    useLayoutEffect(() => dropKeptFrame(), []);
    return (
      <Suspense fallback={<LoadingPage />}>
        <Page {...props} />
      </Suspense>
    );
  };
}
const AccessDenied = rarePage('AccessDenied');
const AuthCallback = rarePage('AuthCallback');
const AuthenticationError = rarePage('AuthenticationError');
const ErrorPage = rarePage('Error');

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

/**
 * react-admin's <Admin> is <AdminContext> around <AdminUI>, and <AdminUI> is <CoreAdminUI> in a CssBaseline with the
 * notification beside it. They are composed here directly because <AdminUI> imports every default page it could show
 * (react-admin's layout, login form, error pages...): the application replaces most of them and loads the others when
 * needed, so the login page downloads none.
 */
export function App() {
  return (
    <AdminContext
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
      store={store}
      lightTheme={lightTheme}
      darkTheme={darkTheme}
      defaultTheme={readTheme()}
    >
      <CssBaseline enableColorScheme>
        <CoreAdminUI
          title="Pecflow"
          layout={AppLayout}
          loginPage={LoginPage}
          dashboard={RedirectToPec}
          catchAll={RedirectToPec}
          loading={AppLoading}
          error={ErrorPage}
          accessDenied={AccessDenied}
          authenticationError={AuthenticationError}
          authCallbackPage={AuthCallback}
          requireAuth
          disableTelemetry
        >
          <Resource name="pec_dossiers" />
          {/* The insurers' payment statements (issue 15): /payment_statements (list, a statement's drawer at /{id}) and
              /payment_statements/create (import with its preview). */}
          <Resource name="payment_statements" list={PaymentStatementsPage} create={PaymentImportPage} />
          {/* The back-office entities are <Resource>s of their own too, routed under /settings/{collection} by the settings
              page from the API docs (src/settings/SettingsPage.tsx): no list of them is kept here. */}
          <CustomRoutes noLayout>
            <Route path="/forgot-password" element={publicPage(ForgotPasswordPage)} />
            <Route path="/reset-password/:token" element={publicPage(ResetPasswordPage)} />
            <Route path="/invitation/:token" element={publicPage(InvitationPage)} />
          </CustomRoutes>
          <CustomRoutes>
            <Route path="/pec/*" element={<PecPage />} />
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/settings/*" element={<SettingsPage />} />
            <Route path="/profile" element={<ProfilePage />} />
            <Route path="/permissions" element={<PermissionsPage />} />
            <Route path="/debug-permissions" element={<DebugPermissionsPage />} />
          </CustomRoutes>
        </CoreAdminUI>
        <LoginToasts />
      </CssBaseline>
    </AdminContext>
  );
}
