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

export default defineConfig({
  plugins: [react(), startAfterFirstPaint()],
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // Fewer, larger chunks: everything the entry imports statically goes into the entry's own file (every page runs
    // it), zod apart (the login form's checks need it, not the rest), the code two or more signed-in pages share in
    // one file, each page's own code apart. Served over HTTP/1.1 as `npm start` serves them, a browser fetches 6 at a
    // time, and each of the ~50 small chunks rolldown made by default cost a round trip. zxcvbn's dictionaries are a
    // file of their own too, loaded by the pages that set a password only (never /login or the lists).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 1 },
            // The password policy's check with zxcvbn's dictionaries (~1 MB): only the pages that set a password load it.
            {
              name: 'password-policy',
              test: /[\\/]node_modules[\\/]@zxcvbn-ts[\\/]|[\\/]domain[\\/]passwordPolicy\.ts$/,
              priority: 1,
              // Its light rules (domain/passwordRules.ts) stay with the code that shows them, not with the dictionaries.
              includeDependenciesRecursively: false,
            },
            { name: 'signed-in', minShareCount: 2 },
          ],
        },
      },
    },
  },
});
