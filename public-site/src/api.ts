import { useCallback, useEffect, useState } from 'react';
import { useI18n, type Lang } from './i18n';

/** The public API (no sign-in). Every call names the language; errors are `{code, message, description, errors?}`. */
export type Names = { uz: string; uk: string; ru: string };
export interface Region {
  id: number;
  soato: string;
  name: Names;
  centre: { lat: number; lng: number };
}
export interface Species {
  id: number;
  code: string;
  latin_name: string;
  name: Names;
  kind: string;
}
export interface Summary {
  year: number;
  goal: number;
  trees: number;
  progress: number;
  plantings: number;
  by_source: { registry?: number; public?: number };
  by_region: { region_id: number; name: Names; trees: number; plantings: number }[];
}
export interface SpeciesStat {
  species_id: number;
  name: Names;
  latin_name: string;
  kind: string;
  trees: number;
}
export type MapItem = number[];
export interface MapAnswer {
  layer: 'regions' | 'cells' | 'trees';
  size?: number;
  truncated?: boolean;
  items: MapItem[];
}
export interface Passport {
  id: number;
  count: number;
  planted_on: string;
  place: string | null;
  place_type: string | null;
  height_m: string | number | null;
  circumference_cm: string | number | null;
  irrigation: boolean | null;
  source: string;
  location: { lat: number; lng: number };
  latin_name: string;
  species: Names;
  kind: string;
  region: Names;
  organisation?: Names | string | null;
  dbh_cm?: number | null;
  images?: number[] | null;
  /** ecosystem benefits of the planting (i-Tree based), when the API gives them */
  benefits?: Benefits | null;
}
export interface Benefits {
  co2_stored_kg: number | string | null;
  co2_sequestered_kg_year: number | string | null;
  rain_intercepted_m3_year: number | string | null;
  /** a line, or {label, title, authors, year, url} */
  source?: string | { label?: string; title?: string; authors?: string; year?: number; url?: string } | null;
}

/** A public report (`/public/reports/:name`): captions come translated from the API. */
export type ColumnType = 'string' | 'integer' | 'decimal' | 'money' | 'percent' | 'date';
export interface ReportColumn {
  name: string;
  type: ColumnType;
  caption: string;
  total?: boolean;
}
export interface ReportChartSpec {
  type: 'bar' | 'line' | 'pie' | 'doughnut';
  label: string;
  series: string[];
  stacked?: boolean;
  horizontal?: boolean;
}
export type Row = Record<string, unknown>;
export interface Report {
  name: string;
  title: string;
  params: Record<string, unknown>;
  columns: ReportColumn[];
  rows: Row[];
  totals: Record<string, number | string | null> | null;
  chart: ReportChartSpec | null;
  /** eco-info-by-regions: where the coefficients come from (if the API names it) */
  source?: Benefits['source'];
  benefits_source?: Benefits['source'];
}

/** A page of a public entity list (`/public/entities/:entity`). */
export interface EntityPage<T = Row> {
  rows: T[];
  total: number;
}
export interface LatLngValue {
  lat: number;
  lng: number;
}
export type Ring = [number, number][];

/** One viewport of an entity layer (`/public/map/layers/:entity?bbox=`). */
export interface LayerItem {
  id: number;
  lng: number;
  lat: number;
  title: string;
  kind?: string | null;
  shape?: Ring | null;
}
export interface LayerAnswer {
  layer: string;
  truncated: boolean;
  items: LayerItem[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | string | undefined,
    message: string,
    readonly description = '',
    readonly errors: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Status 0: the server could not be reached (or did not answer in time). */
export const isConnectionError = (e: unknown) => e instanceof ApiError && e.status === 0;

interface CallOptions {
  method?: string;
  body?: unknown;
  blob?: Blob;
  lang: Lang;
  timeout?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export async function call<T>(path: string, o: CallOptions): Promise<T> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), o.timeout ?? 60_000);
  o.signal?.addEventListener('abort', () => ctl.abort());
  const headers: Record<string, string> = { Language: o.lang, Accept: 'application/json', ...o.headers };
  let body: BodyInit | undefined;
  if (o.blob) {
    body = o.blob;
    headers['Content-Type'] = o.blob.type || 'application/octet-stream';
  } else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['Content-Type'] = 'application/json';
  }
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
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
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
    p = call<T>(path, { lang })
      .then((data) => {
        cache.set(path, { at: Date.now(), data });
        return data;
      })
      .finally(() => inflight.delete(path));
    inflight.set(path, p);
  }
  return p;
}

/** A public file (an image of a public row). */
export const fileUrl = (id: number | string) => `/api/public/files/${id}`;

/** A query string from parameters, leaving out empty ones. */
export function qs(params: Record<string, string | number | null | undefined | boolean>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '' && v !== false) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** The answer of a GET for a component; null path: nothing to load yet. */
export function useApi<T>(path: string | null): Loaded<T> {
  const { lang } = useI18n();
  const [state, setState] = useState<{ path: string | null; data?: T; error?: ApiError }>({ path: null });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!path) return;
    let live = true;
    get<T>(path, lang).then(
      (data) => {
        if (live) setState({ path, data });
      },
      (error: unknown) => {
        if (live) setState({ path, error: error instanceof ApiError ? error : new ApiError(0, undefined, String(error)) });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the language only changes error messages: no refetch for it
  }, [path, nonce]);
  const reload = useCallback(() => {
    if (path) cache.delete(path);
    setState({ path: null });
    setNonce((n) => n + 1);
  }, [path]);
  const current = state.path === path;
  return { data: current ? state.data : undefined, error: current ? state.error : undefined, loading: !!path && !current, reload };
}

/**
 * A GET whose answer depends on the language (translated names, report captions): the language
 * is part of the address (`lang=`), so each language is cached on its own and a switch refetches.
 */
export function useLangApi<T>(path: string | null): Loaded<T> {
  const { lang } = useI18n();
  return useApi<T>(path === null ? null : `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
}

/** Keeps the last answer while the next loads (a filter changed): no flashing of the page. */
export function useSticky<T>(loaded: Loaded<T>): T | undefined {
  const [last, setLast] = useState<T | undefined>(undefined);
  useEffect(() => {
    if (loaded.data !== undefined) setLast(loaded.data);
  }, [loaded.data]);
  return loaded.data ?? (loaded.loading ? last : undefined);
}

/** An item of the site's menu (`/public/entities/menu`), edited in the back-office. */
export interface SiteMenuItem {
  id: number;
  menu_group: string;
  caption: string;
  path: string;
  ordering: number | null;
}
/** A text of the site (`/public/entities/site-content`): its body is HTML the server keeps to an allow-list. */
export interface SiteContent {
  id: number;
  section_code: string;
  code: string;
  title: string | null;
  body: string | null;
  ordering: number | null;
}
