import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// `npm run dev`: the API server runs on 3001 (tsx watch) and this dev server on 3000 proxies to it.
const api = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;
const THEME_COLOR = '#2f9e44'; // Mantine green 8, the app's primary shade (src/app/theme.ts)

/** Writes .br and .gz next to each text asset, for a server that sends pre-compressed files. */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    enforce: 'post',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|webmanifest)$/.test(file)) continue;
        const bytes = await readFile(path.join(dir, file));
        if (bytes.length < 1024) continue;
        await writeFile(path.join(dir, `${file}.gz`), gzipSync(bytes, { level: 9 }));
        await writeFile(
          path.join(dir, `${file}.br`),
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * A build is always the production app, whatever NODE_ENV the server runs with (README: `development` by
 * default): Vite reads NODE_ENV after the config hooks, and a development bundle would not register the
 * service worker (src/app/main.tsx, import.meta.env.PROD), so the PWA would silently stop working offline.
 */
function productionBuild(): Plugin {
  return {
    name: 'production-build',
    apply: 'build',
    config() {
      process.env.NODE_ENV = 'production';
    },
  };
}

/**
 * What index.html loads (the /login screen, and the start of every screen) goes in one chunk: rolldown would
 * otherwise split it by which lazy screens share each module, into 16 files for /login alone. socket.io gets
 * a chunk of its own.
 */
function firstPaintChunk(): Plugin {
  return {
    name: 'first-paint-chunk',
    apply: 'build',
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'start', tags: ['$initial'] },
                // socket.io, loaded by the first connection (src/app/lib/socket.ts): named for `npm run size`.
                { name: 'socket-io', test: /node_modules[\\/](socket\.io-|engine\.io-|@socket\.io[\\/])/ },
              ],
            },
          },
        },
        // That chunk is about 515 kB minified (react-dom, Mantine's core, the router, the query client, the
        // text catalogue), 158 KiB gzipped: `npm run size` keeps its budget, not Vite's generic 500 kB notice.
        chunkSizeWarningLimit: 600,
      },
    }),
  };
}

export default defineConfig({
  plugins: [
    productionBuild(),
    react(),
    precompress(),
    firstPaintChunk(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // The app registers the worker itself (src/app/pwa.ts), in production only.
      injectRegister: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,png,svg,ico,webmanifest}'],
      },
      manifest: {
        name: 'Painel de Atendimento',
        short_name: 'Atendimento',
        description: 'Atendimento aos clientes pelo WhatsApp: conversas, contatos, equipe e automações.',
        lang: 'pt-BR',
        dir: 'ltr',
        start_url: '/atendimento',
        scope: '/',
        id: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: THEME_COLOR,
        background_color: '#ffffff',
        categories: ['business', 'productivity'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
  // `@/` is src/: imports that leave their folder say where they go instead of climbing '../../..'.
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  server: {
    port: 3000,
    proxy: {
      '/api': api,
      '/media': api,
      '/sock/': { target: api, ws: true },
    },
  },
  // The manifest lets `npm run size` find what each screen loads.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
});
