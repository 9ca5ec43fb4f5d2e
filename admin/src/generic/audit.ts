/**
 * Reading the audit trail (`GET path/:id/history`, the audit-log entity): which field each changed
 * key is, by the metadata of the entity the change was made to; what a change did, in words; and a
 * value as plain text where a cell has room for text only. How the values look on a page is
 * AuditValue's.
 */
import type { MetaModel } from '../meta/model';
import type { EntityMeta, FieldMeta } from '../meta/types';
import {
  formatCoordinate,
  formatDate,
  formatDateTime,
  formatDecimal,
  formatNumber,
  formatPassport,
  formatPhone,
  text3,
  type Lang,
} from './format';
import { isPlainInteger } from '../../../shared/numbers';

/** One change of a row, as `GET path/:id/history` answers it. */
export interface AuditEntry {
  id: number;
  entity: string;
  op: 'create' | 'update' | 'delete' | 'action';
  action: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
  user_id: number | null;
  user_fio: string | null;
  username: string | null;
}

/** What a password looks like in the trail (api/engine/audit.ts): that it was set, never its hash. */
export const HIDDEN_VALUE = '••••••';

/** The changes a route names that are not workflow actions; each has its caption `admin.history.change.<name>`. */
export const NAMED_CHANGES = [
  'set-password',
  'reset-password',
  'change-password',
  'edit-user-info',
  'setlang',
  'import',
  'set-action',
  'not-allow',
  'unlock',
  'approve-public',
  'read',
  'payments',
  'people-fact',
  'take-from-statement',
  'sign-up',
  'reply-delivered',
  'anonymise',
] as const;

/** A list of reference ids longer than this shows what was added and taken away rather than the whole list. */
export const REFS_DELTA_OVER = 8;

type Translate = (key: string, options?: Record<string, unknown>) => string;
type Exists = (key: string) => boolean;

/**
 * The field a changed key stands for: a field of the entity (or a column every row has); a key the
 * metadata does not declare is shown as it is stored, captioned `fields.<key>` where that exists.
 */
export function fieldOfKey(model: MetaModel, e: EntityMeta | undefined, key: string): FieldMeta {
  const f = e ? model.field(e, key) : undefined;
  return f ?? { name: key, type: 'json', label: `fields.${key}`, readOnly: true };
}

/** A field's caption in the language shown, or its key when no caption has it. */
export function captionOf(f: FieldMeta, translate: Translate, exists: Exists): string {
  return exists(f.label) ? translate(f.label) : f.name;
}

export interface Change {
  key: string;
  field: FieldMeta;
  before: unknown;
  after: unknown;
}

/**
 * The changed fields of an audit row: the keys of its before and after (either may be missing, on
 * create and delete), in the order of the entity's fields, undeclared keys last by name.
 */
export function changesOf(
  model: MetaModel,
  e: EntityMeta | undefined,
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): Change[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const order = new Map((e?.fields ?? []).map((f, i) => [f.name, i]));
  const rank = (k: string) => order.get(k) ?? Number.MAX_SAFE_INTEGER;
  keys.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return keys.map((key) => ({ key, field: fieldOfKey(model, e, key), before: before?.[key], after: after?.[key] }));
}

/** The entity a row of the trail was written for, when the user may read it. */
export function entityOfEntry(model: MetaModel, name: unknown, fallback?: EntityMeta): EntityMeta | undefined {
  return (typeof name === 'string' ? model.byName.get(name) : undefined) ?? fallback;
}

/**
 * The caption key of what a change did: the workflow action's caption, a named change's, or the
 * operation's (created, edited, deleted, action).
 */
export function whatKey(e: EntityMeta | undefined, op: string, action: string | null | undefined, exists: Exists): string {
  if (action) {
    const a = e?.workflow?.actions.find((x) => x.name === action);
    if (a && exists(a.label)) return a.label;
    if ((NAMED_CHANGES as readonly string[]).includes(action)) return `admin.history.change.${action}`;
    if (exists(`actions.${action}`)) return `actions.${action}`;
  }
  return `enums.op.${op}`;
}

/** The caption key of an action name alone (the audit-log's `action` column), in any entity's workflow or the named changes. */
export function actionKey(model: MetaModel, action: string, exists: Exists): string | undefined {
  if ((NAMED_CHANGES as readonly string[]).includes(action)) return `admin.history.change.${action}`;
  for (const e of model.meta.entities) {
    const a = e.workflow?.actions.find((x) => x.name === action);
    if (a && exists(a.label)) return a.label;
  }
  return exists(`actions.${action}`) ? `actions.${action}` : undefined;
}

export const isEmptyValue = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length);

/** Reference ids in `value` and not in `other`. */
export function idsNotIn(value: unknown, other: unknown): unknown[] {
  const taken = new Set((Array.isArray(other) ? other : []).map(String));
  return (Array.isArray(value) ? value : []).filter((x) => !taken.has(String(x)));
}

/** Whether two lists of references are long enough to show only what differs between them. */
export function showsDelta(f: FieldMeta, before: unknown, after: unknown): boolean {
  if (f.type !== 'refs' || !Array.isArray(before) || !Array.isArray(after)) return false;
  return new Set([...before, ...after].map(String)).size > REFS_DELTA_OVER;
}

/**
 * A value as plain text, as the list shows it where it can without asking the server (a
 * reference is its id here: its title needs its row): money with two decimals and spaced
 * thousands, dates in Tashkent's calendar, enums and flags by their captions.
 */
export function plainValue(
  f: FieldMeta,
  v: unknown,
  lang: Lang,
  translate: Translate,
  exists: Exists,
  fieldOf?: (key: string) => FieldMeta | undefined,
): string {
  if (isEmptyValue(v)) return '—';
  if (v === HIDDEN_VALUE || f.type === 'password') return HIDDEN_VALUE;
  switch (f.type) {
    case 'text3':
      return f.html ? htmlText(text3(v, lang)) : text3(v, lang);
    case 'enum': {
      const k = `enums.${f.name}.${String(v)}`;
      return exists(k) ? translate(k) : String(v);
    }
    case 'money':
      return formatNumber(v, 2);
    case 'decimal':
      return formatDecimal(v);
    case 'integer':
      return isPlainInteger(f.name) ? String(v) : formatNumber(v, 0);
    case 'date':
      return formatDate(v);
    case 'datetime':
      return formatDateTime(v);
    case 'boolean':
      return translate(v ? 'ra.boolean.true' : 'ra.boolean.false');
    case 'string':
      if (f.format === 'phone') return formatPhone(v);
      if (f.format === 'passport') return formatPassport(v);
      return looksHtml(v) ? htmlText(String(v)) : String(v);
    case 'ref':
    case 'file':
    case 'image':
      return `#${String(v)}`;
    case 'refs':
    case 'files':
      return (v as unknown[]).map((x) => `#${String(x)}`).join(', ');
    case 'point': {
      const p = v as { lat?: number; lng?: number };
      return typeof p.lat === 'number' && typeof p.lng === 'number' ? `${formatCoordinate(p.lat)}, ${formatCoordinate(p.lng)}` : '';
    }
    case 'polygon':
    case 'children':
      return String(Array.isArray(v) ? v.length : '');
    default:
      if (typeof v === 'object') {
        // a three-language text stored where no field says so
        const t = v as Record<string, unknown>;
        if (!Array.isArray(v) && Object.keys(t).length && Object.keys(t).every((k) => k === 'uz' || k === 'uk' || k === 'ru'))
          return text3(v, lang);
        return objectLines(v, lang, translate, exists, fieldOf).join('; ');
      }
      return looksHtml(v) ? htmlText(String(v)) : String(v);
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

/** Whether a text is markup (rich text kept as HTML): a tag in it. */
export const looksHtml = (v: unknown): boolean => typeof v === 'string' && /<\/?[a-z][a-z0-9]*(\s[^<>]*)?\/?>/i.test(v);

/** The words of rich text without its tags: blocks and line breaks apart, entities read. */
export function htmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h[1-6]|li|blockquote|div|tr)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, n: string) => {
      if (n[0] === '#') {
        const code = n[1] === 'x' || n[1] === 'X' ? Number.parseInt(n.slice(2), 16) : Number(n.slice(1));
        return ENTITIES[n] ?? (Number.isFinite(code) ? String.fromCodePoint(code) : m);
      }
      return ENTITIES[n.toLowerCase()] ?? m;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/**
 * A JSON object no field describes (a notification's payload, a setting's value) as "caption:
 * value" lines: a key captioned `fields.<key>` where a caption has it, its value as text (nested
 * objects in braces of the same), a list's items by commas. An array of objects is a line each.
 */
export function objectLines(
  v: unknown,
  lang: Lang,
  translate: Translate,
  exists: Exists,
  fieldOf: (key: string) => FieldMeta | undefined = () => undefined,
): string[] {
  const one = (x: unknown, key?: string): string => {
    if (isEmptyValue(x)) return '—';
    const f = key === undefined ? undefined : fieldOf(key);
    if (f && typeof x !== 'object') return plainValue(f, x, lang, translate, exists);
    if (typeof x === 'boolean') return translate(x ? 'ra.boolean.true' : 'ra.boolean.false');
    if (Array.isArray(x)) return x.map((y) => one(y)).join(', ');
    if (typeof x === 'object') {
      const t = x as Record<string, unknown>;
      if (Object.keys(t).length && Object.keys(t).every((k) => k === 'uz' || k === 'uk' || k === 'ru')) return text3(t, lang);
      return `{ ${objectLines(x, lang, translate, exists, fieldOf).join('; ')} }`;
    }
    if (typeof x === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(x)) return formatDate(x);
    if (typeof x === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(x)) return formatDateTime(x);
    return looksHtml(x) ? htmlText(String(x)) : String(x);
  };
  if (Array.isArray(v)) return v.map((x) => one(x));
  if (!v || typeof v !== 'object') return [one(v)];
  return Object.entries(v as Record<string, unknown>).map(([k, x]) => {
    const label = `fields.${k}`;
    return `${exists(label) ? translate(label) : k}: ${one(x, k)}`;
  });
}

/** Kinds whose value a key alone may be formatted by (a reference's id is no name without its row). */
const SCALAR_KINDS = new Set(['money', 'decimal', 'date', 'datetime', 'boolean', 'enum']);
const scalarFields = new WeakMap<MetaModel, Map<string, FieldMeta>>();

/**
 * The field a key of a free JSON object is formatted as: the entity's own field of that name, else
 * the first field of that name in the metadata when it is of one kind everywhere it is declared
 * (money, a date, a flag, an enum), so that a payload's `amount` reads as money.
 */
export function keyFieldOf(model: MetaModel, e: EntityMeta | undefined): (key: string) => FieldMeta | undefined {
  let byName = scalarFields.get(model);
  if (!byName) {
    const kinds = new Map<string, FieldMeta | null>();
    for (const x of model.meta.entities)
      for (const f of x.fields) {
        const had = kinds.get(f.name);
        if (had === undefined) kinds.set(f.name, f);
        else if (had && had.type !== f.type) kinds.set(f.name, null);
      }
    byName = new Map([...kinds].filter((kv): kv is [string, FieldMeta] => !!kv[1] && SCALAR_KINDS.has(kv[1].type)));
    scalarFields.set(model, byName);
  }
  const own = byName;
  return (key) => {
    const f = e?.fields.find((x) => x.name === key);
    return f && SCALAR_KINDS.has(f.type) ? f : own.get(key);
  };
}

/** A JSON value of changed fields as one line of text: "Caption: value; Caption: value". */
export function jsonSummary(
  model: MetaModel,
  e: EntityMeta | undefined,
  value: unknown,
  lang: Lang,
  translate: Translate,
  exists: Exists,
): string {
  if (isEmptyValue(value)) return '';
  if (typeof value !== 'object' || Array.isArray(value))
    return plainValue({ name: '', type: 'json', label: '' }, value, lang, translate, exists);
  return changesOf(model, e, value as Record<string, unknown>, null)
    .map(
      (c) =>
        `${captionOf(c.field, translate, exists)}: ${plainValue(c.field, c.before, lang, translate, exists, keyFieldOf(model, undefined))}`,
    )
    .join('; ');
}

/**
 * The languages of a three-language text whose words differ between the change's two sides, when
 * the language shown did not change (the trail would show the same words twice): none otherwise.
 */
export function changedElsewhere(value: unknown, other: unknown, lang: string): string[] {
  if (!isText3Value(value) || !isText3Value(other)) return [];
  const a = value as Record<string, unknown>;
  const b = other as Record<string, unknown>;
  if ((a[lang] ?? '') !== (b[lang] ?? '')) return [];
  return ['uz', 'uk', 'ru'].filter((l) => (a[l] ?? '') !== (b[l] ?? ''));
}

const isText3Value = (v: unknown) =>
  !!v &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.keys(v).length > 0 &&
  Object.keys(v).every((k) => k === 'uz' || k === 'uk' || k === 'ru');
