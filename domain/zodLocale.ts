// Zod's own messages (a wrong type, an array for an object…) in French, for the API and the forms alike; the
// schemas' messages of the spec stay as they are. Imported once by each entry point (server/app.ts, src/main.tsx).
// zod's core `config` is the one classic zod re-exports: importing it alone keeps zod out of the login page's bundle.
import { config } from 'zod/v4/core';
import fr from 'zod/v4/locales/fr.js';

config(fr());
