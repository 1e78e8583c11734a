import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * In the built page, the application's entry script becomes a <meta> that public/boot.js starts after the first paint:
 * the wait is on screen before any script runs. The modules it imports are still preloaded with the page (Vite's
 * modulepreload links); the entry itself is fetched after that paint: preloaded too, Lighthouse's model counts it as
 * holding the paint (measured on /login, mobile: first paint 2.3-2.6 s instead of 1.8-2.0 s).
 */
function startAfterFirstPaint(): Plugin {
  return {
    name: 'pecflow-start-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
        if (!entry.test(html)) throw new Error("startAfterFirstPaint : le script d'entrée est introuvable dans index.html");
        return html.replace(entry, '<meta name="pecflow-app" content="$1" />');
      },
    },
  };
}

/**
 * What a signed-in visitor's first page needs besides the entry: the shell, the Hydra provider and the page itself
 * (the pages of src/pageLoaders.ts, by the path they serve; `/` leads to /pec).
 */
const SIGNED_IN_MODULES = ['src/layout/Layout.tsx', 'src/dataProvider/hydra.ts'];
const PAGE_MODULES: Record<string, string> = {
  '/': 'src/pec/PecPage.tsx',
  '/pec': 'src/pec/PecPage.tsx',
  '/dashboard': 'src/pec/DashboardPage.tsx',
  '/settings': 'src/settings/SettingsPage.tsx',
  '/payment_statements': 'src/pec/PaymentStatementsPage.tsx',
};

/**
 * The chunks of each page, with everything they import, named in the built page for public/boot.js: a signed-in
 * visitor's browser starts them with the entry (modulepreload) instead of once the entry has run and asked for them.
 * Read from the build's chunk graph, the one Vite's manifest is written from.
 */
function pageChunks(): Plugin {
  return {
    name: 'pecflow-page-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((output) => output.type === 'chunk');
        const byModule = (module: string) => {
          const found = chunks.find((chunk) => Object.keys(chunk.modules).some((id) => id.endsWith(`/${module}`)));
          if (!found) throw new Error(`pageChunks : aucun fichier pour ${module} (src/pageLoaders.ts a-t-il changé ?)`);
          return found;
        };
        const files = (roots: string[]) => {
          const seen = new Set<string>();
          const visit = (fileName: string) => {
            const chunk = chunks.find((c) => c.fileName === fileName)!;
            if (chunk.isEntry || seen.has(fileName)) return;
            seen.add(fileName);
            chunk.imports.forEach(visit);
          };
          roots.forEach((module) => visit(byModule(module).fileName));
          return [...seen].map((file) => `/${file}`);
        };
        const routes = Object.fromEntries(Object.entries(PAGE_MODULES).map(([route, page]) => [route, files([...SIGNED_IN_MODULES, page])]));
        // Read by boot.js, which runs before the body is parsed: it comes first in the head. Data, not a script.
        return html.replace(
          '<script src="/boot.js">',
          `<script type="application/json" id="pecflow-pages">${JSON.stringify(routes)}</script>\n    <script src="/boot.js">`,
        );
      },
    },
  };
}

/**
 * Code that forms and pickers run, never a list: react-hook-form and zod's resolver, the inputs of react-admin and
 * MUI's autocomplete, date-fns's locales, the application's form system and rules (with the form inputs and dialogs
 * two forms share), and the payment pages. Its own file (`forms`), loaded with the form or page that needs it (a
 * drawer, a dialog), which a list's first rows do not wait for.
 */
const FORM_CODE =
  /[\\/]node_modules[\\/](react-hook-form|@hookform|date-fns[\\/]locale)[\\/]|[\\/]ra-core[\\/]dist[\\/](form|controller[\\/]input)[\\/]|[\\/]ra-ui-materialui[\\/]dist[\\/](input(?![\\/]ResettableTextField)|form)[\\/]|[\\/]@mui[\\/]material[\\/]esm[\\/](Autocomplete|useAutocomplete)[\\/]|[\\/]src[\\/]admin[\\/]AdminForm\.tsx$|[\\/]src[\\/]pec[\\/](ReasonDialog|DateInput)\.tsx$|[\\/]domain[\\/](validation|schemas|pecSchemas|constraints)\.ts$|[\\/]src[\\/]pec[\\/]Payment/;

/**
 * What the drawers and the settings share and no PEC list shows before its first row: MUI's tabs, accordions and
 * progress bars (the settings' tabs, the file's tabs and documents, the roles' permissions).
 */
const PANEL_CODE = /[\\/]@mui[\\/]material[\\/]esm[\\/](Tabs?|TabScrollButton|Accordion\w*|LinearProgress)[\\/]/;

/** The account's steps (sign-in, new password, recovery codes) that the login page, the profile and the users' drawer share. */
const ACCOUNT_CODE = /[\\/]src[\\/]account[\\/](?!useProfile|levels)|[\\/]domain[\\/](passwordRules|accounts)\.ts$/;

/** The PEC pages' own code (the list, the dashboard, the payment pages share it): the settings pages never load it. */
const PEC_CODE = /[\\/]src[\\/]pec[\\/]|[\\/]domain[\\/](payments|archive|documents|followUps|optical|pec|fileKinds|bulk|savedViews)\.ts$/;

/**
 * ra-core's react-router adapter reads react-router-dom through src/routerInBrowserRouter.ts, which leaves out the data
 * router that only its hash-router fallback uses (the app is always inside <BrowserRouter>). An alias would apply to
 * every importer, the shim's own import included: only this one importer is redirected.
 */
function reactAdminRouterWithoutDataRouter(): Plugin {
  const adapter = /[\\/]ra-core[\\/]dist[\\/]routing[\\/]adapters[\\/]reactRouterProvider\.js$/;
  const shim = fileURLToPath(new URL('./src/routerInBrowserRouter.ts', import.meta.url));
  let redirected = false;
  return {
    name: 'pecflow-react-admin-router',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'react-router-dom' || !importer || !adapter.test(importer)) return null;
      redirected = true;
      return shim;
    },
    // A react-admin whose adapter moved would bring the data router back without a word.
    buildEnd(error) {
      if (!error && !redirected)
        throw new Error("reactAdminRouterWithoutDataRouter : l'adaptateur de routeur de ra-core est introuvable (ra-core a-t-il changé ?)");
    },
  };
}

export default defineConfig({
  plugins: [react(), reactAdminRouterWithoutDataRouter(), startAfterFirstPaint(), pageChunks()],
  resolve: {
    // @api-platform's packages import jsonld to expand an error's body: it loads when first used, not with the pages.
    alias: [
      { find: /^jsonld$/, replacement: fileURLToPath(new URL('./src/dataProvider/jsonldOnDemand.ts', import.meta.url)) },
      // react-admin's default CSV exporter's library, loaded when first used (src/admin/jsonexportOnDemand.ts).
      { find: /^jsonexport\/dist\/index\.js$/, replacement: fileURLToPath(new URL('./src/admin/jsonexportOnDemand.ts', import.meta.url)) },
      // node-polyglot's polyfill of Object.entries, which every browser served has (src/i18n/objectEntries.cjs).
      { find: /^object\.entries$/, replacement: fileURLToPath(new URL('./src/i18n/objectEntries.cjs', import.meta.url)) },
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // Fewer, larger chunks: everything the entry imports statically goes into the entry's own file (every page runs
    // it), zod apart (the forms' checks need it; the login form checks inline without it), the code two or more
    // signed-in pages share in a few files by what it is for (forms, panels, account, pec, and `signed-in` for the
    // rest: the shell and the list frame), each page's own code apart. Served over HTTP/1.1 as `npm start` serves
    // them, a browser fetches 6 at a time, and each of the ~50 small chunks rolldown made by default cost a round trip;
    // rolldown's `entriesAware` split (a file per set of pages) made ~20 files for /pec, each compressed alone: as many
    // bytes sent as one file. zxcvbn's dictionaries are a file of their own too, loaded by the pages that set a password
    // only (never /login or the lists). The groups do not take their modules' dependencies along
    // (includeDependenciesRecursively: false): a module goes where its own test sends it, else to `signed-in`.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]domain[\\/]zodLocale\.ts$/, priority: 1 },
            // The password policy's check with zxcvbn's dictionaries (~1 MB): only the pages that set a password load it.
            {
              name: 'password-policy',
              test: /[\\/]node_modules[\\/]@zxcvbn-ts[\\/]|[\\/]domain[\\/]passwordPolicy\.ts$/,
              priority: 1,
              // Its light rules (domain/passwordRules.ts) stay with the code that shows them, not with the dictionaries.
              includeDependenciesRecursively: false,
            },
            // react-admin's default exporter's library, its own file, loaded when first used (src/admin/jsonexportOnDemand.ts).
            { name: 'jsonexport', test: /[\\/]node_modules[\\/]jsonexport[\\/]/, priority: 1 },
            // A file that a first row's code imports is loaded before that row: tests/e2e/foundation.spec.ts says
            // which ones /pec and /settings/shops must not ask for.
            { name: 'forms', test: FORM_CODE, minShareCount: 2, priority: 1, includeDependenciesRecursively: false },
            { name: 'panels', test: PANEL_CODE, minShareCount: 2, priority: 1, includeDependenciesRecursively: false },
            { name: 'account', test: ACCOUNT_CODE, minShareCount: 2, priority: 1, includeDependenciesRecursively: false },
            { name: 'pec', test: PEC_CODE, minShareCount: 2, priority: 1, includeDependenciesRecursively: false },
            { name: 'signed-in', minShareCount: 2, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
