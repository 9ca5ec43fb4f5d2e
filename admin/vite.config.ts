import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../shared/precompress.ts';

/**
 * The back-office bundle: built into admin/dist, which the API serves at /admin/ (hash routing, so
 * index.html answers every path). `vite --config admin/vite.config.ts` serves it for development
 * with /api proxied to a running `ecofond serve` on port 8080.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  // .br and .gz beside each file, sent by Accept-Encoding (api/http/static.ts)
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: what index.html loads, read by the bundle budget (bench/bundle-size)
    manifest: true,
    chunkSizeWarningLimit: 1500,
    reportCompressedSize: true,
    // the precompression's time is the build's own, not a slow plugin to warn of
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    proxy: { '/api': process.env.ECOFOND_API ?? 'http://localhost:8080' },
  },
});
