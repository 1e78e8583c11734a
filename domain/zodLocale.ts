// Zod's own messages (a wrong type, an array for an object…) in French, for the API and the forms alike; the
// schemas' messages of the spec stay as they are. The server imports it at start (server/app.ts); in the browser the
// shared rules import it (domain/validation.ts) and the build puts it in zod's own file (vite.config.ts), so that
// whichever code loads zod (a form, the login checks) has its French messages, and no page loads zod for it alone.
import { config } from 'zod/v4/core';
import fr from 'zod/v4/locales/fr.js';

config(fr());
