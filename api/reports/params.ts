import type { Principal } from '../auth/ability.ts';
import type { ReportMeta, ReportParamMeta } from '../meta/types.ts';
import { currentYearTashkent, isIsoDate, todayTashkent } from '../meta/today.ts';
import type { FieldError } from '../kernel/errors.ts';

export type ReportParams = Record<string, string | number | null>;

/** A page of a report's rows: `page` counts from 1. */
export interface ReportPaging {
  page: number;
  perPage: number;
}

/** The URL parameters of a report's paging: no report declares a parameter of these names (the loader refuses it). */
export const REPORT_PAGING_PARAMS: readonly string[] = ['page', 'perPage'];
/** Rows a page holds when `page` is asked without `perPage`. */
export const REPORT_PER_PAGE = 100;

/**
 * A report's paging from a query string: none when neither `page` nor `perPage` is given (the whole
 * answer, up to the report's row limit); else `page` ≥ 1 (default 1) and 1 ≤ `perPage` ≤ `maxPerPage`
 * (default REPORT_PER_PAGE), each refused by name when it is not such a whole number.
 */
export function resolveReportPaging(
  raw: Record<string, unknown>,
  maxPerPage: number,
): { paging: ReportPaging | null; errors: Record<string, FieldError> | null } {
  const page = first(raw.page);
  const perPage = first(raw.perPage);
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (!given(page) && !given(perPage)) return { paging: null, errors: null };
  const errors: Record<string, FieldError> = {};
  const whole = (v: unknown, min: number, max: number, fallback: number, name: string): number => {
    if (!given(v)) return fallback;
    const s = String(v);
    const n = /^\d{1,9}$/.test(s) ? Number(s) : NaN;
    if (!(n >= min && n <= max)) {
      errors[name] = { key: 'validation.interval', args: { min, max } };
      return fallback;
    }
    return n;
  };
  const paging = {
    page: whole(page, 1, 1_000_000_000, 1, 'page'),
    perPage: whole(perPage, 1, maxPerPage, Math.min(REPORT_PER_PAGE, maxPerPage), 'perPage'),
  };
  return { paging, errors: Object.keys(errors).length ? errors : null };
}

/**
 * A report's parameters from a query string (or a `:params` route segment already split): each
 * checked against its declaration, defaults filled ("current": this year or today in Tashkent),
 * and a scoped user's own region, branch or subject forced over whatever was asked.
 */
export function resolveReportParams(
  r: ReportMeta,
  raw: Record<string, unknown>,
  principal: Principal | null,
  now: Date = new Date(),
): { params: ReportParams; errors: Record<string, FieldError> | null } {
  const params: ReportParams = {};
  const errors: Record<string, FieldError> = {};
  for (const [name, p] of Object.entries(r.params)) {
    const given = first(raw[name]);
    const value = given === undefined || given === '' ? defaultOf(p, now) : given;
    if (value === null || value === undefined) {
      if (p.required) errors[name] = { key: 'validation.required' };
      params[name] = null;
      continue;
    }
    const parsed = parseParam(p, String(value), now);
    if (parsed.error) errors[name] = parsed.error;
    params[name] = parsed.value;
  }
  if (principal) {
    for (const [param, own] of Object.entries(forcedParams(r, principal))) {
      params[param] = own;
      delete errors[param];
    }
  }
  return { params, errors: Object.keys(errors).length ? errors : null };
}

/** Staff open a report with its action id; a report without one is open to everyone signed in only if it is public. */
export function canOpenReport(r: Pick<ReportMeta, 'access' | 'public'>, p: Pick<Principal, 'actions'>): boolean {
  return r.access !== undefined ? p.actions.has(r.access) : !!r.public;
}

/** The parameters a scoped user's own region, branch or subject fills, whatever they ask for. */
export function forcedParams(r: Pick<ReportMeta, 'scope'>, p: Principal): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, param] of Object.entries(r.scope ?? {}) as [keyof NonNullable<ReportMeta['scope']>, string][]) {
    const own = kind === 'region' ? p.region_id : kind === 'branch' ? p.branch_id : p.subject_id;
    if (own !== null && own !== undefined) out[param] = own;
  }
  return out;
}

function first(v: unknown): unknown {
  return Array.isArray(v) ? v[0] : v;
}

function defaultOf(p: ReportParamMeta, now: Date): unknown {
  if (p.default !== 'current') return p.default ?? null;
  if (p.type === 'year') return currentYearTashkent(now);
  if (p.type === 'date') return todayTashkent(now);
  return null;
}

function parseParam(p: ReportParamMeta, s: string, now: Date): { value: string | number | null; error?: FieldError } {
  switch (p.type) {
    case 'year': {
      const n = Number(s);
      if (!Number.isInteger(n) || n < 2000 || n > currentYearTashkent(now) + 10)
        return { value: null, error: { key: 'validation.interval', args: { min: 2000, max: currentYearTashkent(now) + 10 } } };
      return { value: n };
    }
    case 'ref':
    case 'integer': {
      if (!/^\d{1,15}$/.test(s)) return { value: null, error: { key: 'validation.wrong_format' } };
      return { value: Number(s) };
    }
    case 'enum':
      if (!p.values!.includes(s)) return { value: null, error: { key: 'validation.wrong_value' } };
      return { value: s };
    case 'date':
      if (!isIsoDate(s)) return { value: null, error: { key: 'validation.wrong_format' } };
      if (s > todayTashkent(now)) return { value: null, error: { key: 'validation.future_date' } };
      return { value: s };
    case 'string':
      if (s.length > 200) return { value: null, error: { key: 'validation.max_length', args: { limit: 200 } } };
      return { value: s };
  }
}

/** A `:params` route segment (`k=v;k=v`, URL-encoded as a whole) as a plain object. */
export function parseParamsSegment(segment: string): Record<string, string> {
  const out: Record<string, string> = {};
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    /* keep it as it came */
  }
  for (const part of decoded.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}
