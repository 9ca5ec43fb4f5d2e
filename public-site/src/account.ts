import { call } from './api';
import type { Lang } from './i18n';

/**
 * The signed-in resident on the public site (docs/accounts.md): the same session the back-office
 * keeps (`ecofond.session` in localStorage, one origin), so signing in on either side signs in on
 * both. The site's own calls stay anonymous; the resident's (their gardens, their volunteering)
 * carry the token and read through the same API and scopes as the back-office.
 */
export interface SessionUser {
  id: number;
  username: string;
  fio: string | null;
  email: string | null;
  phone: string | null;
  lang_code: string | null;
}
export interface Session {
  token: string;
  user: SessionUser;
  actions: { id: number; state: number }[];
}

const KEY = 'ecofond.session';

export function getSession(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Session | null;
    return s && typeof s.token === 'string' ? s : null;
  } catch {
    return null;
  }
}

export function setSession(s: Session): void {
  localStorage.setItem(KEY, JSON.stringify({ token: s.token, user: s.user, actions: s.actions }));
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
}

/** A call as the signed-in resident; a 401 (the session ended) forgets the session. */
export async function authed<T>(path: string, o: { method?: string; body?: unknown; lang: Lang }): Promise<T> {
  const s = getSession();
  try {
    return await call<T>(path, { ...o, headers: s ? { Authorization: `Bearer ${s.token}` } : {} });
  } catch (e) {
    if ((e as { status?: number }).status === 401) clearSession();
    throw e;
  }
}
