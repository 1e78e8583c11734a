// npm run dev: the API (port 3000) and Vite with hot reload (port 5173), which proxies /api to it.
import { bin, ensureDependencies, serve } from './lib.mjs';

ensureDependencies();
serve(bin('tsx'), ['watch', 'server/main.ts'], { PORT: process.env.PORT ?? '3000' });
serve(bin('vite'), []);
