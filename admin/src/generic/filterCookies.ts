/**
 * Filters of some lists outlive the page (spec §3): they are kept for an hour in cookies with the
 * names the old system used (filter_subjects, filter_penya…). Which lists, under which name, the
 * metadata says: an entity's `list.cookie` (metadata/entities/**, passed on by /api/meta).
 */

/** Spec §9: a filter cookie lives one hour. */
export const FILTER_COOKIE_MAX_AGE = 3600;

/** What the functions need of `document`: its cookie property. */
export interface CookieJar {
  cookie: string;
}

const jar = (): CookieJar | undefined => (typeof document === 'undefined' ? undefined : document);

/** What the functions need of an entity: its list's cookie, if its filter is kept. */
export interface KeptList {
  list: { cookie?: string };
}

/** The server refuses other names; a name that could break the cookie header is not used here either. */
const NAME = /^filter_[a-z_]+$/;

/** The cookie that keeps an entity's list filter, or undefined when it is not kept. */
export function filterCookieName(entity: KeptList | undefined): string | undefined {
  const name = entity?.list.cookie;
  return name && NAME.test(name) ? name : undefined;
}

/** The filter kept for an entity's list, or undefined (no cookie, expired, unreadable, or not kept). */
export function readFilterCookie(entity: KeptList | undefined, doc: CookieJar | undefined = jar()): Record<string, unknown> | undefined {
  const name = filterCookieName(entity);
  if (!name || !doc) return undefined;
  for (const part of doc.cookie.split(';')) {
    const i = part.indexOf('=');
    if (i < 0 || part.slice(0, i).trim() !== name) continue;
    try {
      const v = JSON.parse(decodeURIComponent(part.slice(i + 1).trim())) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Keeps an entity's filter for an hour; an empty filter removes the cookie. Returns whether the entity's filters are kept. */
export function writeFilterCookie(
  entity: KeptList | undefined,
  filter: Record<string, unknown>,
  doc: CookieJar | undefined = jar(),
  path = '/',
): boolean {
  const name = filterCookieName(entity);
  if (!name || !doc) return false;
  const clean = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  if (!Object.keys(clean).length) {
    doc.cookie = `${name}=; Max-Age=0; Path=${path}; SameSite=Lax`;
    return true;
  }
  doc.cookie = `${name}=${encodeURIComponent(JSON.stringify(clean))}; Max-Age=${FILTER_COOKIE_MAX_AGE}; Path=${path}; SameSite=Lax`;
  return true;
}
