import { clearClientState } from './clientState';

/** The signed-in user, kept in localStorage: token, user and actions from `admin/auth/login`. */
export interface SessionUser {
  id: number;
  username: string;
  fio: string | null;
  email: string | null;
  phone: string | null;
  lang_code: string | null;
  img_resource_id: number | null;
}

export interface Session {
  token: string;
  user: SessionUser;
  actions: { id: number; state: number }[];
}

const KEY = 'ecofond.session';

export function getSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return getSession()?.token ?? null;
}

export function setSession(s: Session): void {
  localStorage.setItem(KEY, JSON.stringify(s));
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
  // the rest of the client state goes with the user (spec §4: "Session ends on logout")
  clearClientState();
}

/** Why the last session ended, shown once on the sign-in page (a caption key). */
const REASON = 'ecofond.logoutReason';

export function setLogoutReason(key: string): void {
  try {
    sessionStorage.setItem(REASON, key);
  } catch {
    /* private mode */
  }
}

export function takeLogoutReason(): string | null {
  try {
    const v = sessionStorage.getItem(REASON);
    sessionStorage.removeItem(REASON);
    return v;
  } catch {
    return null;
  }
}
