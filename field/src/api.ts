import type { Lang } from './i18n';

/** The signed-in user as the back-office keeps it (POST /api/admin/auth/login). */
export interface Session {
  token: string;
  user: { id: number; username: string; fio: string | null; lang_code: string | null };
}

const KEY = 'ecofond.field.session';

export function getSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}
export function setSession(s: Session | null): void {
  if (s) localStorage.setItem(KEY, JSON.stringify(s));
  else localStorage.removeItem(KEY);
}

/** An answer that is not 2xx: its status and JSON body (`message`, `errors` by field). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message?: string; errors?: Record<string, unknown>; [k: string]: unknown },
  ) {
    super(body.message ?? `HTTP ${status}`);
  }
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  lang: Lang;
  anonymous?: boolean;
  signal?: AbortSignal;
}

/** A call of the API with the session's token and the language shown; a non-2xx answer (but 304) throws HttpError. */
export async function call(path: string, o: RequestOptions): Promise<Response> {
  const headers = new Headers(o.headers);
  headers.set('Language', o.lang);
  const token = getSession()?.token;
  if (token && !o.anonymous) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (o.body instanceof Blob) body = o.body;
  else if (o.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(o.body);
  }
  const res = await fetch(path, { method: o.method ?? 'GET', headers, body, signal: o.signal });
  if (!res.ok && res.status !== 304) {
    const data = await res.json().catch(() => ({}));
    throw new HttpError(res.status, data as HttpError['body']);
  }
  return res;
}

export async function login(username: string, password: string, lang: Lang): Promise<Session> {
  const res = await call('/api/admin/auth/login', { method: 'POST', body: { username, password }, lang, anonymous: true });
  const s = (await res.json()) as Session;
  setSession({ token: s.token, user: s.user });
  return s;
}

export async function logout(lang: Lang): Promise<void> {
  await call('/api/admin/auth/logout', { method: 'POST', lang }).catch(() => undefined);
  setSession(null);
}
