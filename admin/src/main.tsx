import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { App } from './App';

/**
 * The server's Content-Security-Policy allows the page's `<style>` elements by this answer's nonce
 * (api/http/csp.ts), which it writes into `<meta property="csp-nonce">`; emotion, which writes the
 * styles of MUI and react-admin, puts it on every `<style>` it creates. Without one (the Vite dev
 * server) there is no policy and none is needed.
 */
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
const emotionCache = createCache({ key: 'css', nonce });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CacheProvider value={emotionCache}>
      <App />
    </CacheProvider>
  </StrictMode>,
);
