import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev`: the API server runs on 3001 (tsx watch) and this dev server on 3000 proxies to it.
const api = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [react()],
  server: {
    port: 3000,
    proxy: {
      '/api': api,
      '/media': api,
      '/sock/': { target: api, ws: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
