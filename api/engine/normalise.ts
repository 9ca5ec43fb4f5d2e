import type { EntityMeta, FieldMeta } from '../meta/types.ts';
import { normaliseFormatted } from '../meta/formats.ts';
import { isIsoDate } from '../meta/today.ts';
import { badRequest } from '../kernel/errors.ts';
import { sanitizeRich } from './rich-html.ts';

/** Trims strings, turns '' into null for optional fields, strips typing masks (never letters) from formatted values and opens closed polygon rings. */
export function normalisePayload(e: EntityMeta, payload: Record<string, unknown>): Record<string, unknown> {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw badRequest('errors.bad_body');
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(e.fields)) {
    if (!(name in payload)) continue;
    const v = f.html ? sanitizeRich(normaliseValue(f, payload[name])) : normaliseValue(f, payload[name]);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function normaliseValue(f: FieldMeta, v: unknown): unknown {
  if (f.type === 'children' && Array.isArray(v)) {
    return v.map((row) => {
      if (!row || typeof row !== 'object') return row;
      const out: Record<string, unknown> = {};
      for (const [cn, cf] of Object.entries(f.fields ?? {}))
        if (cn in (row as object)) out[cn] = normaliseValue(cf, (row as Record<string, unknown>)[cn]);
      return out;
    });
  }
  // an empty password leaves the stored one as it is; anything but a string stays for the schema to refuse
  if (f.type === 'password') return v === '' || v === null ? undefined : v;
  if (f.type === 'polygon' && Array.isArray(v)) return openRing(v);
  if (typeof v === 'string') {
    let s = normaliseFormatted(f.format, f.type === 'text' ? v : v.trim());
    if (s === '' && f.type !== 'string' && f.type !== 'text') return null;
    if (s === '' && !f.required) return null;
    if ((f.type === 'ref' || f.type === 'file' || f.type === 'image' || f.type === 'integer') && /^-?\d+$/.test(s as string)) s = Number(s);
    if (f.type === 'datetime' && typeof s === 'string' && isIsoDate(s)) s = `${s}T00:00:00+05:00`;
    return s;
  }
  if (f.type === 'text3' && v && typeof v === 'object') {
    const t = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const l of ['uz', 'uk', 'ru']) if (l in t) out[l] = typeof t[l] === 'string' ? (t[l] as string).trim() || null : t[l];
    for (const k of Object.keys(t)) if (!(k in out)) out[k] = t[k];
    return out;
  }
  return v;
}

/** A ring whose last point repeats its first, as a closed ring is often written, without the repeat. */
function openRing(ring: unknown[]): unknown[] {
  if (ring.length < 2) return ring;
  const first = ring[0];
  const last = ring[ring.length - 1];
  const same =
    Array.isArray(first) &&
    Array.isArray(last) &&
    first.length === last.length &&
    first.every((x, i) => typeof x === 'number' && x === last[i]);
  return same ? ring.slice(0, -1) : ring;
}
