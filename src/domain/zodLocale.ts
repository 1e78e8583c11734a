// Zod's own messages (a wrong type, an array for an object…) in French, for the API and the forms alike; the
// schemas' messages of the spec stay as they are. Imported once by each entry point (server/app.ts, src/main.tsx).
import { z } from 'zod';
import fr from 'zod/v4/locales/fr.js';

z.config(fr());
