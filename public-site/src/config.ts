/**
 * The site's settings that a deployment changes, in one place.
 *
 * CONTACTS: the hotline and e-mail shown on /contacts and in the footer. The values below are
 * PLACEHOLDERS until the fund gives its real ones: change them here, or without a rebuild set
 * `window.__ECOFOND_CONFIG__ = { hotline: '+998 …', email: '…' }` in dist/index.html before the bundle
 * (the same object that can set the map's tiles, see map/olkit.ts).
 */
declare global {
  interface Window {
    __ECOFOND_CONFIG__?: { mapTiles?: string; hotline?: string; email?: string };
  }
}

export const HOTLINE_PLACEHOLDER = '+998 71 000-00-00';
export const EMAIL_PLACEHOLDER = 'info@ecofond.example';

export function contacts(): { hotline: string; tel: string; email: string } {
  const c = typeof window !== 'undefined' ? window.__ECOFOND_CONFIG__ : undefined;
  const hotline = (c?.hotline ?? HOTLINE_PLACEHOLDER).trim();
  return { hotline, tel: hotline.replace(/[^\d+]/g, ''), email: (c?.email ?? EMAIL_PLACEHOLDER).trim() };
}
