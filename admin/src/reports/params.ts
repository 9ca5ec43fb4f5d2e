import type { ParamValue, ParamValues, ReportDrill, ReportParamDef, ReportRow } from './types';

/**
 * Report parameters in URLs: a report's route keeps them in its query (`?year=2026&region_id=3`),
 * a `:params` route in its last segment, `k=v;k=v` URL-encoded (`org_id%3D5%3Byear%3D2026`), the
 * form drill links and the reports' `drill` use. Values are typed by the report's declarations;
 * what does not fit a declaration is dropped, so a hand-edited URL never reaches the API malformed.
 */

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** `{org_id: 5, year: 2026}` → `org_id%3D5%3Byear%3D2026` (empty values left out). */
export function encodeParamsSegment(values: Record<string, unknown>): string {
  const pairs = Object.entries(values)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return encodeURIComponent(pairs.join(';'));
}

/**
 * The pairs of a `:params` segment, as encoded by encodeParamsSegment, whether or not the router
 * has decoded it once already.
 */
export function decodeParamsSegment(segment: string | undefined): Record<string, string> {
  if (!segment) return {};
  let s = segment;
  if (!s.includes('=') && /%3d/i.test(s)) s = safeDecode(s);
  const out: Record<string, string> = {};
  for (const part of s.split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const key = safeDecode(part.slice(0, i)).trim();
    if (key) out[key] = safeDecode(part.slice(i + 1));
  }
  return out;
}

/**
 * A `:params` segment as a list filter: whole numbers become numbers (ids, years), the rest stays
 * text, as the list's own filter inputs would send them.
 */
export function filterFromSegment(segment: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(decodeParamsSegment(segment))) out[k] = /^-?\d{1,15}$/.test(v) ? Number(v) : v;
  return out;
}

const isYmd = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

/** One raw value (URL text or a form's value) typed by its declaration, or undefined when it does not fit. */
export function coerceParam(def: ReportParamDef, raw: unknown, today: string): ParamValue | undefined {
  if (raw === null || raw === undefined) return undefined;
  const s = String(raw).trim();
  if (s === '') return undefined;
  switch (def.type) {
    case 'year': {
      if (!/^\d{4}$/.test(s)) return undefined;
      const y = Number(s);
      return y >= 1900 && y <= Number(today.slice(0, 4)) + 1 ? y : undefined;
    }
    case 'ref':
    case 'integer':
      return /^-?\d{1,15}$/.test(s) && (def.type === 'integer' || Number(s) > 0) ? Number(s) : undefined;
    case 'enum':
      return def.values.includes(s) ? s : undefined;
    case 'date':
      // no future dates: the reports count what has happened
      return isYmd(s) && s <= today ? s : undefined;
    case 'string':
    default:
      return s.slice(0, 200);
  }
}

/** The value a parameter takes when the URL has none: its declared default (`current` year, `today`). */
export function defaultParam(def: ReportParamDef, today: string): ParamValue | undefined {
  const d = def.default;
  if (d === undefined || d === null) return undefined;
  if (def.type === 'year' && d === 'current') return Number(today.slice(0, 4));
  if (def.type === 'date' && (d === 'today' || d === 'current')) return today;
  return coerceParam(def, d, today);
}

/**
 * The parameters a report runs with: each declared one from `raw` when it fits, else its default.
 * Without declarations (a server that does not describe the report) the raw values go as they are.
 */
export function effectiveParams(
  defs: Record<string, ReportParamDef> | undefined,
  raw: Record<string, unknown>,
  today: string,
): ParamValues {
  const out: ParamValues = {};
  if (!defs) {
    for (const [k, v] of Object.entries(raw)) if (v !== null && v !== undefined && v !== '') out[k] = typeof v === 'number' ? v : String(v);
    return out;
  }
  for (const [name, def] of Object.entries(defs)) {
    const v = coerceParam(def, raw[name], today) ?? defaultParam(def, today);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** Parameters as a query string for the API and the report's URL (`year=2026&region_id=3`), in a stable order. */
export function toQuery(values: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  return q.toString();
}

export function searchToRecord(search: string | URLSearchParams): Record<string, string> {
  const q = typeof search === 'string' ? new URLSearchParams(search.replace(/^\?/, '')) : search;
  const out: Record<string, string> = {};
  q.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/**
 * Where a drill cell leads: the drill's route with `:params` replaced by the encoded pairs of its
 * `params`, each the row's value of the key it names or, as `$name`, the report's parameter.
 * Pairs with no value are left out; a row with none of them links nowhere (null).
 */
export function drillHref(drill: ReportDrill, row: ReportRow, params: Record<string, unknown>): string | null {
  const values: Record<string, unknown> = {};
  for (const [k, src] of Object.entries(drill.params ?? {})) {
    const v = src.startsWith('$') ? params[src.slice(1)] : row[src];
    if (v !== null && v !== undefined && v !== '') values[k] = v;
  }
  if (!Object.keys(values).length) return null;
  const route = drill.route.startsWith('/') ? drill.route : `/${drill.route}`;
  return route.includes(':params') ? route.replace(':params', encodeParamsSegment(values)) : `${route}?${toQuery(values)}`;
}

/** The years a year parameter offers: next year (plans are made ahead), this year and the nine before it, and any other one asked for. */
export function yearChoices(today: string, current?: unknown, count = 10): number[] {
  const y = Number(today.slice(0, 4));
  const years = [y + 1, ...Array.from({ length: count }, (_, i) => y - i)];
  const c = Number(current);
  if (Number.isInteger(c) && c > 1900 && !years.includes(c)) years.push(c);
  return years.sort((a, b) => b - a);
}

/** Whether two parameter sets say the same thing (what the URL and the form compare). */
export function sameParams(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return toQuery(sortKeys(a)) === toQuery(sortKeys(b));
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .sort(([x], [y]) => x.localeCompare(y)),
  );
}
