import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The back-office bundle: built into admin/dist, which the API serves at /admin/ (hash routing, so
 * index.html answers every path). `vite --config admin/vite.config.ts` serves it for development
 * with /api proxied to a running `ecofond serve` on port 8080.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    reportCompressedSize: true,
  },
  server: {
    proxy: { '/api': process.env.ECOFOND_API ?? 'http://localhost:8080' },
  },
});
