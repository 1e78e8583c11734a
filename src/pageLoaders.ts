// The signed-in pages' code, loaded when first needed: the login page downloads none of it.
// The PEC and settings screens read through the Hydra provider: its code and the API description load alongside the
// page's own, and so do the docs' annotations (the access checks of react-admin's <List> wait for them). The API
// description is public (GET /api, /api/docs.jsonld), so it can be read before signing in.
import { dataProvider } from './dataProvider';
import { chunk, lazyChunk } from './lazyChunk';

/** A page that reads through the Hydra provider: its chunk, with the provider's code and the API description. */
function withHydra<M>(load: () => Promise<M>) {
  const page = chunk(load);
  return () => {
    dataProvider.adminSchema().catch(() => undefined);
    dataProvider.introspect().catch(() => undefined);
    return page();
  };
}
const shell = chunk(() => import('./layout/Layout'));
const loadPec = withHydra(() => import('./pec/PecPage'));
const loadDashboard = withHydra(() => import('./pec/DashboardPage'));
const loadSettings = withHydra(() => import('./settings/SettingsPage'));
const loadStatements = withHydra(() => import('./pec/PaymentStatementsPage'));

export const ShellLayout = lazyChunk(shell);
export const PecPage = lazyChunk(loadPec);
export const DashboardPage = lazyChunk(loadDashboard);
export const SettingsPage = lazyChunk(loadSettings);
export const PaymentStatementsPage = lazyChunk(loadStatements);

/** The pages preloadPage loads, by the start of their path. */
const PAGES: [string, () => PromiseLike<unknown>][] = [
  ['/pec', loadPec],
  ['/settings', loadSettings],
  ['/dashboard', loadDashboard],
  ['/payment_statements', loadStatements],
];

/**
 * The shell and the page at `path` (with the API description its data needs), loaded at once instead of the page after
 * the shell has rendered: at a signed-in visitor's start-up, as soon as a visitor starts typing their credentials on
 * the login page, and at the first page after signing in; and the statements' page from the import page, which opens it.
 */
export function preloadPage(path: string) {
  const page = PAGES.find(([start]) => path.startsWith(start))?.[1];
  for (const load of [shell, page]) load?.().then(undefined, () => undefined);
}
