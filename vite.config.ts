import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The front end. `npm run dev` serves it with the API proxied to the server (API_URL, default http://localhost:3000).
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
});
