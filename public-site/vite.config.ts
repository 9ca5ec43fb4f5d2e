import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../shared/precompress.ts';

/**
 * The public site's bundle: built into public-site/dist, which the API serves at / (hash routing,
 * so index.html answers every path). The landing page's JavaScript is kept small: the map
 * (OpenLayers) and the charts (Chart.js) are separate chunks loaded on demand.
 *
 * `vite --config public-site/vite.config.ts` serves it for development with /api proxied to a
 * running `ecofond serve` (ECOFOND_API, default http://localhost:8080).
 * VITE_MAP_TILES sets the base map's XYZ tile URL at build time ("" for none); a page can
 * override it with `window.__ECOFOND_CONFIG__ = { mapTiles: '…' }` before the bundle runs.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // .br and .gz beside each file, sent by Accept-Encoding (api/http/static.ts)
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: what index.html loads, read by the bundle budget (bench/bundle-size)
    manifest: true,
    reportCompressedSize: true,
    // the precompression's time is the build's own, not a slow plugin to warn of
    rolldownOptions: { checks: { bundlerTimings: false } },
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/api': process.env.ECOFOND_API ?? 'http://localhost:8080' },
  },
});
