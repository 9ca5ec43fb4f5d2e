import { createHash, randomBytes } from 'node:crypto';

/**
 * Content-Security-Policy of every answer.
 *
 * The API's JSON and the sites' plain files (scripts, styles, icons) load nothing and may be framed
 * by no one: `default-src 'none'; frame-ancestors 'none'`.
 *
 * A site's page (index.html) gets a strict policy: everything from the site's own origin, plus
 * - inline `<script>` and `<style>` elements of the served HTML by their SHA-256 (the server's
 *   `window.__ECOFOND_CONFIG__` script, the back-office's boot styles, or what a deployment added to
 *   dist/index.html): content-addressed, nothing secret in the page, the same answer for the same
 *   settings;
 * - for the back-office, a per-answer nonce for the `<style>` elements emotion (MUI, react-admin)
 *   creates while the app runs; the app reads it from `<meta property="csp-nonce">` (the name
 *   Vite's own loader also reads) and gives it to its emotion cache;
 * - images from `data:` and `blob:` URLs (file previews, QR codes, OpenLayers) and the map tile
 *   server's origin(s);
 * - `connect-src` extras a site names (the back-office's E-IMZO program on 127.0.0.1).
 */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** OpenStreetMap's tiles: the default base map of both sites (and OpenLayers' OSM source). */
export const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** The E-IMZO signing program the back-office calls (admin/src/esign/eimzo.ts EIMZO_URL). */
export const EIMZO_ORIGIN = 'wss://127.0.0.1:64443';

export interface PagePolicy {
  /** 'sha256-…' sources of the page's inline scripts */
  scriptHashes?: readonly string[];
  /** 'sha256-…' sources of the page's inline styles */
  styleHashes?: readonly string[];
  /** this answer's nonce for the `<style>` elements the page's scripts create */
  styleNonce?: string;
  /** more image origins (the map tiles) */
  img?: readonly string[];
  /** more connect-src sources */
  connect?: readonly string[];
  /** worker-src sources beyond the site's own (the API reference's search index runs in a `blob:` worker) */
  worker?: readonly string[];
}

export function pagePolicy(p: PagePolicy = {}): string {
  const q = (s: string) => `'${s}'`;
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...(p.scriptHashes ?? []).map(q)]],
    ['style-src', ["'self'", ...(p.styleNonce ? [q(`nonce-${p.styleNonce}`)] : []), ...(p.styleHashes ?? []).map(q)]],
    ['img-src', ["'self'", 'data:', 'blob:', ...(p.img ?? [])]],
    ['connect-src', ["'self'", ...(p.connect ?? [])]],
    ...(p.worker?.length ? [['worker-src', ["'self'", ...p.worker]] as [string, string[]]] : []),
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`).join('; ');
}

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The 'sha256-…' sources of the inline `<script>` (without src) and `<style>` elements of a page,
 * as the browser hashes them: the element's text, line breaks normalised as the HTML parser does.
 */
export function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  for (const m of html.matchAll(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi)) {
    const [, tag, attrs, text] = m;
    const isScript = tag.toLowerCase() === 'script';
    if (isScript && /(^|\s)src\s*=/i.test(attrs)) continue;
    const hash = `sha256-${createHash('sha256').update(text.replace(/\r\n?/g, '\n'), 'utf8').digest('base64')}`;
    (isScript ? scripts : styles).push(hash);
  }
  return { scripts: [...new Set(scripts)], styles: [...new Set(styles)] };
}

/**
 * The origins an XYZ tile URL template loads from. OpenLayers' `{a-c}` and `{1-4}` ranges and
 * Leaflet's `{s}` (subdomains a, b and c) are expanded; another placeholder in the host stands for
 * any subdomain there (`https://{q}.tiles.example.uz` → `https://*.tiles.example.uz`), unless too
 * little of the host would be left. A relative template is the site's own origin; an empty one
 * (no base map) or one that is not a URL has none.
 */
export function tileOrigins(template: string | undefined): string[] {
  const t = (template ?? '').trim();
  if (!t || !/^(https?:)?\/\//i.test(t)) return [];
  const absolute = t.startsWith('//') ? `https:${t}` : t;
  const m = /^(https?):\/\/([^/?#]*)/i.exec(absolute);
  if (!m) return [];
  const scheme = m[1].toLowerCase();
  const out = new Set<string>();
  for (const host of expandHost(m[2].replace(/\{s\}/g, '{a-c}'))) {
    let h = host.toLowerCase();
    if (/[{}]/.test(h)) {
      const labels = h.split('.');
      const last = labels.reduce((at, l, i) => (/[{}]/.test(l) ? i : at), -1);
      const rest = labels.slice(last + 1);
      if (rest.length < 2 || rest.some((l) => !l)) continue;
      h = `*.${rest.join('.')}`;
    }
    if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$/.test(h) && !/^\[[0-9a-f:.]+\](:\d+)?$/.test(h)) continue;
    out.add(`${scheme}://${h}`);
  }
  return [...out];
}

/** Every host a template's ranges name (each range expanded, as OpenLayers does for one). */
function expandHost(host: string): string[] {
  const letters = /\{([a-z])-([a-z])\}/.exec(host);
  if (letters) {
    const out: string[] = [];
    for (let c = letters[1].charCodeAt(0); c <= letters[2].charCodeAt(0); c++)
      out.push(...expandHost(host.replace(letters[0], String.fromCharCode(c))));
    return out;
  }
  const digits = /\{(\d+)-(\d+)\}/.exec(host);
  if (digits && Number(digits[2]) - Number(digits[1]) < 64) {
    const out: string[] = [];
    for (let i = Number(digits[1]); i <= Number(digits[2]); i++) out.push(...expandHost(host.replace(digits[0], String(i))));
    return out;
  }
  return [host];
}
