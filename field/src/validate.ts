/**
 * Checks a draft against the server's own create schema (GET /api/field/reference `schemas`, built
 * by api/engine/payload-schema.ts) on the device, before it is queued. Not ajv: ajv compiles a
 * schema into a function at run time, which the page's policy (no 'unsafe-eval') forbids, and it
 * would take a fifth of the budget; the payload schemas use a small set of keywords, which this
 * interprets, with the engine's own (xDecimal, xDecimalRange, xMaxToday, xIsoDate, xMinDate)
 * (docs/decisions/0072). A keyword it does not know is left to the server, which checks again.
 */
export type Schema = Record<string, unknown>;
/** A caption by key with its arguments (i18n.ts translator). */
export type T = (key: string, args?: Record<string, string | number>) => string;
export type Errors = Record<string, string>;

/** Today in Tashkent (UTC+5), as YYYY-MM-DD. */
export function todayTashkent(now = Date.now()): string {
  return new Date(now + 5 * 3600_000).toISOString().slice(0, 10);
}

const typeOk = (t: string, v: unknown): boolean =>
  t === 'null'
    ? v === null
    : t === 'integer'
      ? Number.isInteger(v)
      : t === 'number'
        ? typeof v === 'number' && Number.isFinite(v)
        : t === 'array'
          ? Array.isArray(v)
          : t === 'object'
            ? v !== null && typeof v === 'object' && !Array.isArray(v)
            : typeof v === t;

/** The first error of `value` against `s`, as a message; null when it passes. */
function check(s: Schema, value: unknown, t: T, path: string, out: Errors): void {
  const put = (msg: string) => {
    if (!(path in out)) out[path] = msg;
  };
  if (Array.isArray(s.anyOf)) {
    const branches = s.anyOf as Schema[];
    if (value === null && branches.some((b) => b.type === 'null')) return;
    const trial: Errors = {};
    check(branches.find((b) => b.type !== 'null') ?? {}, value, t, path, trial);
    Object.assign(out, Object.fromEntries(Object.entries(trial).filter(([k]) => !(k in out))));
    // as ajv: a value matching no branch is an error of the field itself too
    const first = Object.values(trial)[0];
    if (first !== undefined && path) put(first);
    return;
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((ty) => typeOk(ty, value))) return put(value === null || value === undefined ? t('err.required') : t('err.type'));
  }
  if (Array.isArray(s.enum) && !s.enum.includes(value)) return put(t('err.enum'));
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) return put(value.length ? t('err.minLength') : t('err.required'));
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) return put(t('err.maxLength', { n: s.maxLength }));
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) return put(t('err.pattern'));
    if ((s.format === 'date' || s.xIsoDate) && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return put(t('err.date'));
    if (s.xMaxToday && value.slice(0, 10) > todayTashkent()) return put(t('err.today'));
    if (typeof s.xMinDate === 'string' && value.slice(0, 10) < s.xMinDate) return put(t('err.date'));
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return put(t('err.minimum', { n: s.minimum }));
    if (typeof s.maximum === 'number' && value > s.maximum) return put(t('err.maximum', { n: s.maximum }));
  }
  const dec = s.xDecimal as { scale: number; precision: number } | undefined;
  if (dec && value !== null) {
    const m = /^-?(\d+)(?:\.(\d+))?$/.exec(String(value));
    if (!m || (m[2]?.length ?? 0) > dec.scale || m[1].replace(/^0+(?=\d)/, '').length > dec.precision - dec.scale)
      return put(t('err.decimal', { n: dec.scale }));
  }
  const range = s.xDecimalRange as { min?: number; max?: number } | undefined;
  if (range && value !== null) {
    const n = Number(value);
    if (range.min !== undefined && n < range.min) return put(t('err.minimum', { n: range.min }));
    if (range.max !== undefined && n > range.max) return put(t('err.maximum', { n: range.max }));
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) return put(t('err.required'));
    if (s.items && !Array.isArray(s.items)) value.forEach((v, i) => check(s.items as Schema, v, t, `${path}.${i}`, out));
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const r of (s.required ?? []) as string[]) {
      const v = obj[r];
      if (v === undefined || v === null || v === '') out[path ? `${path}.${r}` : r] ??= t('err.required');
    }
    for (const [k, ps] of Object.entries(props)) {
      const v = obj[k];
      if (v === undefined) continue;
      check(ps, v, t, path ? `${path}.${k}` : k, out);
    }
  }
}

/** The fields of `data` that break `schema`, each with its message in the language shown. */
export function validate(schema: Schema, data: Record<string, unknown>, t: T): Errors {
  const out: Errors = {};
  check(schema, data, t, '', out);
  return out;
}
