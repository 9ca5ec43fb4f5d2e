import { useCallback, useEffect, useState } from 'react';
import { useI18n, type Lang } from './i18n';

/** The public API (no sign-in). Every call names the language; errors are `{code, message, description, errors?}`. */
export type Names = { uz: string; uk: string; ru: string };
export interface Region { id: number; soato: string; name: Names; centre: { lat: number; lng: number } }
export interface Species { id: number; code: string; latin_name: string; name: Names; kind: string }
export interface Summary {
  year: number; goal: number; trees: number; progress: number; plantings: number;
  by_source: { registry?: number; public?: number };
  by_region: { region_id: number; name: Names; trees: number; plantings: number }[];
}
export interface SpeciesStat { species_id: number; name: Names; latin_name: string; kind: string; trees: number }
export type MapItem = number[];
export interface MapAnswer { layer: 'regions' | 'cells' | 'trees'; size?: number; truncated?: boolean; items: MapItem[] }
export interface Passport {
  id: number; count: number; planted_on: string; place: string | null; place_type: string | null;
  height_m: string | number | null; circumference_cm: string | number | null; responsible: string | null;
  irrigation: boolean | null; source: string; location: { lat: number; lng: number };
  latin_name: string; species: Names; kind: string; region: Names;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | string | undefined,
    message: string,
    readonly description = '',
    readonly errors: Record<string, string> = {},
  ) { super(message); }
}

/** Status 0: the server could not be reached (or did not answer in time). */
export const isConnectionError = (e: unknown) => e instanceof ApiError && e.status === 0;

interface CallOptions { method?: string; body?: unknown; blob?: Blob; lang: Lang; timeout?: number; signal?: AbortSignal }

export async function call<T>(path: string, o: CallOptions): Promise<T> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), o.timeout ?? 60_000);
  o.signal?.addEventListener('abort', () => ctl.abort());
  const headers: Record<string, string> = { Language: o.lang, Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (o.blob) { body = o.blob; headers['Content-Type'] = o.blob.type || 'application/octet-stream'; }
  else if (o.body !== undefined) { body = JSON.stringify(o.body); headers['Content-Type'] = 'application/json'; }
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { method: o.method ?? 'GET', headers, body, signal: ctl.signal });
  } catch (e) {
    if (o.signal?.aborted) throw e;
    throw new ApiError(0, undefined, '');
  } finally {
    clearTimeout(timer);
  }
  const text = await res.text();
  let data: unknown = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  if (!res.ok) {
    const d = (data ?? {}) as { code?: number; message?: string; description?: string; errors?: Record<string, string> };
    throw new ApiError(res.status, d.code, d.message ?? '', d.description ?? '', d.errors ?? {});
  }
  return data as T;
}

const cache = new Map<string, { at: number; data: unknown }>();
const inflight = new Map<string, Promise<unknown>>();
const TTL = 60_000;

/** GET with a short in-memory cache and one request at a time per path. */
export function get<T>(path: string, lang: Lang): Promise<T> {
  const hit = cache.get(path);
  if (hit && Date.now() - hit.at < TTL) return Promise.resolve(hit.data as T);
  let p = inflight.get(path) as Promise<T> | undefined;
  if (!p) {
    p = call<T>(path, { lang }).then((data) => { cache.set(path, { at: Date.now(), data }); return data; })
      .finally(() => inflight.delete(path));
    inflight.set(path, p);
  }
  return p;
}

export interface Loaded<T> { data: T | undefined; error: ApiError | undefined; loading: boolean; reload: () => void }

/** The answer of a GET for a component; null path: nothing to load yet. */
export function useApi<T>(path: string | null): Loaded<T> {
  const { lang } = useI18n();
  const [state, setState] = useState<{ path: string | null; data?: T; error?: ApiError }>({ path: null });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!path) return;
    let live = true;
    get<T>(path, lang).then(
      (data) => { if (live) setState({ path, data }); },
      (error: unknown) => { if (live) setState({ path, error: error instanceof ApiError ? error : new ApiError(0, undefined, String(error)) }); },
    );
    return () => { live = false; };
    // the language only changes error messages: no refetch for it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, nonce]);
  const reload = useCallback(() => { if (path) cache.delete(path); setState({ path: null }); setNonce((n) => n + 1); }, [path]);
  const current = state.path === path;
  return { data: current ? state.data : undefined, error: current ? state.error : undefined, loading: !!path && !current, reload };
}
