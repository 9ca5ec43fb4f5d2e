import type { EntityMeta, FilterMeta } from '../meta/types.ts';
import { filterMeta } from '../meta/load.ts';
import { SYSTEM_COLUMNS } from '../meta/columns.ts';
import { badParam } from '../kernel/errors.ts';
import { badTextError, findBadText, tooDeep } from '../kernel/input-text.ts';

export const PAGE_SIZES = [7, 10, 20, 25, 50, 100] as const;
export const MAX_PAGE = 100;
/**
 * A list skips at most this many rows (range's first index, (page − 1) × perPage): beyond it the
 * database would read and throw away a billion rows, and PostgreSQL's OFFSET is a bigint anyway.
 */
export const MAX_OFFSET = 1_000_000_000;

export interface ListParams {
  sort: { field: string; desc: boolean }[];
  offset: number;
  limit: number;
  /** declared filters by name with their parsed values; `from_x`/`to_x` are kept under their own names */
  filters: { name: string; meta: FilterMeta; column: string[]; value: unknown; bound?: 'from' | 'to'; param?: string }[];
  /** ids asked for by getMany (`filter={"id":[…]}` or `id=1,2`) */
  ids?: number[];
}

/** The list's own query parameters: never a filter's name (nor a reference book's field's, api/engine/books.ts). */
export const LIST_PARAMS = ['options', 'sort', 'range', 'filter', 'sortBy', 'descending', 'page', 'perPage', 'lang'] as const;
const RESERVED = new Set<string>(LIST_PARAMS);

type Query = Record<string, string | string[] | undefined>;

/**
 * A JSON parameter; nested deeper than the body may be (MAX_JSON_DEPTH), it is a bad parameter; text
 * PostgreSQL cannot store inside it is named by the parameter (or, in `filter`, by the filter).
 */
function parseJson(name: string, raw: string): unknown {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw badParam(name);
  }
  if (tooDeep(v) !== null) throw badParam(name);
  const bad = findBadText(v);
  if (bad !== null) throw badTextError(name === 'filter' && bad ? bad.split('.')[0] : name);
  return v;
}

/** `sortBy=name;descending=true;page=2;perPage=25` → a map. */
function parseOptions(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw.split(';')) {
    if (!part.trim()) continue;
    const i = part.indexOf('=');
    if (i < 0) throw badParam('options');
    out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v);

/** A page number or size: at most ten digits (the offset bound below refuses what is left). */
function positiveInt(name: string, raw: string | undefined, dflt: number): number {
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d{1,10}$/.test(raw)) throw badParam(name);
  return Number(raw);
}

/**
 * Reads a list request in either protocol — react-admin's simple REST (`sort`, `range`, `filter`)
 * or the spec's (`options=sortBy=…;descending=…;page=…;perPage=…` or the same keys as parameters,
 * filters as plain parameters, ranges as `from_x`/`to_x`) — and checks every sort and filter name
 * against the metadata. Unknown names are a 400, never SQL.
 */
export function parseListParams(e: EntityMeta, query: Query): ListParams {
  const sortable = new Set([...e.list.columns, ...(e.list.sortable ?? []), e.list.sort[0], 'id']);
  const sort: ListParams['sort'] = [];
  let offset = 0;
  let limit: number = e.list.perPage ?? 25;
  const rawFilters: Record<string, unknown> = {};

  const sortRaw = one(query.sort);
  const rangeRaw = one(query.range);
  if (sortRaw !== undefined) {
    const s = parseJson('sort', sortRaw);
    if (!Array.isArray(s) || s.length !== 2 || typeof s[0] !== 'string' || !/^(asc|desc)$/i.test(String(s[1]))) throw badParam('sort');
    sort.push({ field: s[0], desc: String(s[1]).toLowerCase() === 'desc' });
  }
  if (rangeRaw !== undefined) {
    const r = parseJson('range', rangeRaw);
    if (!Array.isArray(r) || r.length !== 2 || !r.every((n) => Number.isSafeInteger(n) && n >= 0) || r[1] < r[0]) throw badParam('range');
    if (r[0] > MAX_OFFSET) throw badParam('range', 'errors.offset_limit', { max: MAX_OFFSET });
    if (r[1] - r[0] + 1 > MAX_PAGE) throw badParam('range', 'errors.page_size', { max: MAX_PAGE });
    offset = r[0];
    limit = r[1] - r[0] + 1;
  }
  const filterRaw = one(query.filter);
  if (filterRaw !== undefined) {
    const f = parseJson('filter', filterRaw);
    if (!f || typeof f !== 'object' || Array.isArray(f)) throw badParam('filter');
    Object.assign(rawFilters, f);
  }

  const opts: Record<string, string | undefined> = {
    sortBy: one(query.sortBy),
    descending: one(query.descending),
    page: one(query.page),
    perPage: one(query.perPage),
  };
  const optionsRaw = one(query.options);
  if (optionsRaw !== undefined) Object.assign(opts, parseOptions(optionsRaw));
  if (opts.sortBy) {
    const fields = opts.sortBy
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const desc = (opts.descending ?? 'false').split(',').map((s) => s.trim());
    fields.forEach((field, i) => {
      const d = desc[Math.min(i, desc.length - 1)];
      if (d !== 'true' && d !== 'false') throw badParam('descending');
      sort.push({ field, desc: d === 'true' });
    });
  }
  if (opts.page !== undefined || opts.perPage !== undefined) {
    const perPage = positiveInt('perPage', opts.perPage, limit);
    const page = positiveInt('page', opts.page, 1);
    if (page < 1) throw badParam('page');
    if (perPage < 1 || perPage > MAX_PAGE) throw badParam('perPage', 'errors.page_size', { max: MAX_PAGE });
    if ((page - 1) * perPage > MAX_OFFSET) throw badParam('page', 'errors.offset_limit', { max: MAX_OFFSET });
    limit = perPage;
    offset = (page - 1) * perPage;
  }
  for (const [k, v] of Object.entries(query)) {
    if (!RESERVED.has(k) && v !== undefined) rawFilters[k] = Array.isArray(v) ? v : v;
  }

  if (limit < 1 || limit > MAX_PAGE) throw badParam('perPage', 'errors.page_size', { max: MAX_PAGE });
  for (const s of sort)
    if (!sortable.has(s.field)) throw badParam(opts.sortBy ? 'sortBy' : 'sort', 'errors.unknown_sort', { name: s.field });
  if (!sort.length) sort.push({ field: e.list.sort[0], desc: e.list.sort[1] === 'desc' });

  const declared = e.list.filters ?? {};
  const params: ListParams = { sort, offset, limit, filters: [] };
  for (const [key, value] of Object.entries(rawFilters)) {
    if (value === '' || value === null || value === undefined) continue;
    if (key === 'id' || key === 'ids') {
      const list = (Array.isArray(value) ? value : String(value).split(',')).map((x) => Number(x));
      if (!list.every((n) => Number.isSafeInteger(n) && n > 0)) throw badParam(key, 'errors.bad_filter');
      params.ids = list;
      continue;
    }
    const m = /^(from|to)_(.+)$/.exec(key);
    if (m && declared[m[2]] && filterMeta(declared[m[2]]).op === 'range') {
      params.filters.push({
        name: m[2],
        meta: filterMeta(declared[m[2]]),
        column: [m[2]],
        value,
        bound: m[1] as 'from' | 'to',
        param: key,
      });
      continue;
    }
    const decl = declared[key];
    if (!decl) throw badParam(key, 'errors.unknown_filter');
    const meta = filterMeta(decl);
    if (meta.op === 'range') {
      // a range filter given as a two-element array
      const arr = Array.isArray(value) ? value : String(value).split(',');
      if (arr.length !== 2) throw badParam(key, 'errors.bad_filter');
      if (arr[0] !== '' && arr[0] !== null)
        params.filters.push({ name: key, meta, column: [key], value: arr[0], bound: 'from', param: key });
      if (arr[1] !== '' && arr[1] !== null) params.filters.push({ name: key, meta, column: [key], value: arr[1], bound: 'to', param: key });
      continue;
    }
    params.filters.push({ name: key, meta, column: meta.fields ?? [key], value });
  }
  return params;
}

export function isSystemColumn(name: string): boolean {
  return SYSTEM_COLUMNS.includes(name);
}
