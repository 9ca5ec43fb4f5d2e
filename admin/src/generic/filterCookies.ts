/**
 * Filters of some lists outlive the page (spec §3): they are kept for an hour in cookies with the
 * names the old system used. The table is keyed by entity name, so a list gets the behaviour as
 * soon as its entity exists in the metadata; nothing here depends on the metadata.
 */
export const FILTER_COOKIES: Readonly<Record<string, string>> = {
  subjects: 'filter_subjects',
  penya: 'filter_penya',
  'stack-payments': 'filter_stack_payment',
  offences: 'filter_offence_list',
  'people-facts': 'filter_people_fact',
  'green-parks': 'filter_green_park',
};

/** Spec §9: a filter cookie lives one hour. */
export const FILTER_COOKIE_MAX_AGE = 3600;

/** What the functions need of `document`: its cookie property. */
export interface CookieJar {
  cookie: string;
}

const jar = (): CookieJar | undefined => (typeof document === 'undefined' ? undefined : document);

export function filterCookieName(entity: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(FILTER_COOKIES, entity) ? FILTER_COOKIES[entity] : undefined;
}

/** The filter kept for an entity's list, or undefined (no cookie, expired, unreadable, or not kept). */
export function readFilterCookie(entity: string, doc: CookieJar | undefined = jar()): Record<string, unknown> | undefined {
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
export function writeFilterCookie(entity: string, filter: Record<string, unknown>, doc: CookieJar | undefined = jar(), path = '/'): boolean {
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
