import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../shared/precompress.ts';

/**
 * The field app's bundle (docs/field-app.md): built into field/dist, which the API serves at /field/
 * (hash routing). No UI library: its JavaScript before the first form stays under 200 kB
 * compressed (bench/bundle-size). public/sw.js, the service worker keeping the shell for offline
 * starts, is copied as it is (docs/decisions/0071).
 *
 * `vite --config field/vite.config.ts` serves it for development with /api proxied to a running
 * `ecofond serve` (ECOFOND_API, default http://localhost:8080).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/field/',
  // .br and .gz beside each file, sent by Accept-Encoding (api/http/static.ts)
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: what index.html loads, read by the bundle budget (bench/bundle-size)
    manifest: true,
    reportCompressedSize: true,
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    proxy: { '/api': process.env.ECOFOND_API ?? 'http://localhost:8080' },
  },
});
