// npm start: install if needed, build the front end if needed, then serve app and API on one origin.
// Migrations and the first-start demo seed run inside the server (server/main.ts).
import { bin, ensureDependencies, ensureFrontEndBuild, serve } from './lib.mjs';

ensureDependencies();
ensureFrontEndBuild();
serve(bin('tsx'), ['server/main.ts']);
