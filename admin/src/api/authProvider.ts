import type { AuthProvider } from 'react-admin';
import { CODES, request, wireLang } from './http';
import { clearSession, getSession, setSession, takeLogoutReason, type Session } from './session';
import { getMetaModel, loadMeta } from '../meta/store';
import type { Can } from '../meta/types';

/** react-admin's access actions → the entity operations of /api/meta's `can`. */
const OPERATION: Record<string, keyof Can> = {
  list: 'read',
  show: 'read',
  read: 'read',
  create: 'create',
  clone: 'create',
  edit: 'update',
  delete: 'delete',
  export: 'export',
};

/**
 * Ends the session in this browser. The metadata stays until the next sign-in replaces it
 * (login waits for it): screens still mounted while react-admin leaves for the sign-in page
 * keep rendering instead of failing.
 */
function forget(): void {
  clearSession();
}

export const authProvider: AuthProvider = {
  /** With a password (`login`), or with a code sent by `send-confirm` (sign-in by code: `check-code`, docs/accounts.md). */
  async login({ username, password, code }: { username: string; password?: string; code?: string }) {
    const res =
      code !== undefined
        ? await request('/api/admin/auth/check-code', { method: 'POST', body: { username, code, purpose: 'confirm' }, anonymous: true })
        : await request('/api/admin/auth/login', { method: 'POST', body: { username, password }, anonymous: true });
    const data = (await res.json()) as Session;
    const lang = wireLang();
    // the language chosen on the sign-in page becomes the user's: here at once (a reload starts in
    // the session's language when this browser remembers none), and on the server
    setSession(data.user.lang_code === lang ? data : { ...data, user: { ...data.user, lang_code: lang } });
    await loadMeta(lang);
    if (data.user.lang_code !== lang) {
      request('/api/admin/app/setlang', { method: 'POST', body: { lang } }).catch(() => undefined);
    }
  },

  async logout() {
    if (getSession()) await request('/api/admin/auth/logout', { method: 'POST', timeout: 5000 }).catch(() => undefined);
    forget();
  },

  async checkAuth() {
    if (!getSession()) throw { message: takeLogoutReason() ?? 'ra.auth.auth_check_error' };
    if (!getMetaModel()) await loadMeta(wireLang());
  },

  /**
   * A 401 ends the session: react-admin notifies the message and then calls logout, which forgets
   * the session (it must still be there when react-admin checks whether to notify).
   */
  async checkError(error: { status?: number; body?: { code?: number } }) {
    if (error?.status === 401) {
      const expired = error.body?.code === CODES.sessionExpired;
      throw { message: expired ? 'admin.errors.session_expired' : 'ra.notification.logged_out', logoutUser: true };
    }
  },

  async getIdentity() {
    const s = getSession();
    if (!s) throw new Error('ra.auth.auth_check_error');
    return { id: s.user.id, fullName: s.user.fio || s.user.username };
  },

  /**
   * The user's actions. Answered after a short delay on purpose: an immediate answer lets
   * react-admin's logout reset its store before it has navigated to the sign-in page, which
   * remounts its LogoutOnMount and loops for seconds (marmelab/react-admin#10764).
   */
  async getPermissions() {
    await new Promise((r) => setTimeout(r, 50));
    return getSession()?.actions ?? [];
  },

  /**
   * What /api/meta says the user may do with an entity; resources outside the metadata are not
   * theirs, and a list whose menu route their actions do not open is not either.
   */
  async canAccess({ action, resource }: { action: string; resource: string }) {
    const model = getMetaModel();
    const name = resource.split('.')[0];
    const e = model?.entity(name);
    if (!model || !e) return false;
    // a list opens on its menu route's action; its rows open on the entity's own rights
    if (action === 'list' && !model.listAllowed(name)) return false;
    const op = OPERATION[action];
    return op ? e.can[op] : e.can.read;
  },
};
