// npm start: install if needed, build the front end if needed, then serve app and API on one origin.
// Migrations and the first-start demo seed run inside the server (server/main.ts).
// The server runs compiled, as in production (npm run start:prod).
import { ensureDependencies, ensureFrontEndBuild, ensureServerBuild, serve } from './lib.mjs';

ensureDependencies();
ensureFrontEndBuild();
ensureServerBuild();
serve(process.execPath, ['--enable-source-maps', 'dist-server/main.js']);
