/**
 * The site's settings that a deployment changes, in one place.
 *
 * CONTACTS: the hotline and e-mail shown on /contacts and in the footer come from the settings:
 * the server writes the settings screen's `site.hotline` and `site.email` (else the environment's
 * ECOFOND_HOTLINE, ECOFOND_CONTACT_EMAIL) into the page as `window.__ECOFOND_CONFIG__`
 * (api/http/static.ts; the same object that can set the map's tiles, see map/olkit.ts). Unset,
 * they are not shown: the site has no made-up contacts.
 */
declare global {
  interface Window {
    __ECOFOND_CONFIG__?: { mapTiles?: string; hotline?: string; email?: string };
  }
}

/** A setting as the page was given it: trimmed text, or null when unset or blank (nothing made up is shown). */
const setting = (v: string | undefined): string | null => (v && v.trim() ? v.trim() : null);

/**
 * The hotline and e-mail, each null when the deployment has not set it: the footer and /contacts
 * then leave it out rather than show a made-up number (issue 29).
 */
export function contacts(): { hotline: string | null; tel: string | null; email: string | null } {
  const c = typeof window !== 'undefined' ? window.__ECOFOND_CONFIG__ : undefined;
  const hotline = setting(c?.hotline);
  const tel = hotline ? hotline.replace(/[^\d+]/g, '') : '';
  return { hotline, tel: tel.length >= 3 ? tel : null, email: setting(c?.email) };
}
