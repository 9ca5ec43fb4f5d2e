import type { ParamValues } from '../reports/types';

/**
 * The client state the spec lists (§3) beyond what the session keeps (api/session.ts: user,
 * actions) and the filter cookies (generic/filterCookies.ts): the **report template** — for each
 * report, the parameters the user last chose, which it opens with next time — and the **last
 * category id** — the menu's module category (section) the user last opened, open again on the
 * next visit. Kept in localStorage; a sign-out removes it with the user and the actions.
 */
export interface ClientState {
  reportTemplates: Record<string, ParamValues>;
  lastCategoryId: string | null;
}

const KEY = 'ecofond.clientState';

/** Where the state is kept (localStorage in the browser; a test gives its own). */
export interface StateStore {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
  removeItem(k: string): void;
}
const store = (): StateStore | null => (typeof localStorage === 'undefined' ? null : localStorage);

export function readClientState(s: StateStore | null = store()): ClientState {
  try {
    const raw = s?.getItem(KEY);
    const v = raw ? (JSON.parse(raw) as Partial<ClientState>) : {};
    return {
      reportTemplates: v.reportTemplates && typeof v.reportTemplates === 'object' ? v.reportTemplates : {},
      lastCategoryId: typeof v.lastCategoryId === 'string' ? v.lastCategoryId : null,
    };
  } catch {
    return { reportTemplates: {}, lastCategoryId: null };
  }
}

function write(next: ClientState, s: StateStore | null = store()): void {
  try {
    s?.setItem(KEY, JSON.stringify(next));
  } catch {
    /* private mode, full storage: the state is a convenience */
  }
}

/** The parameters a report opens with when its URL names none: the user's last choice, or none. */
export function reportTemplate(name: string, s: StateStore | null = store()): ParamValues | null {
  const t = readClientState(s).reportTemplates[name];
  return t && Object.keys(t).length ? t : null;
}

/** Keeps the parameters the user chose for a report (only those they chose, not the defaults). */
export function rememberReportTemplate(name: string, chosen: ParamValues, s: StateStore | null = store()): void {
  const state = readClientState(s);
  const same = JSON.stringify(state.reportTemplates[name] ?? {}) === JSON.stringify(chosen);
  if (same) return;
  write({ ...state, reportTemplates: { ...state.reportTemplates, [name]: chosen } }, s);
}

export function lastCategoryId(s: StateStore | null = store()): string | null {
  return readClientState(s).lastCategoryId;
}

export function setLastCategoryId(id: string, s: StateStore | null = store()): void {
  const state = readClientState(s);
  if (state.lastCategoryId !== id) write({ ...state, lastCategoryId: id }, s);
}

export function clearClientState(s: StateStore | null = store()): void {
  try {
    s?.removeItem(KEY);
  } catch {
    /* nothing kept */
  }
}
