import type { DbBook, MetaProblem } from './load.ts';
import { bookFile } from './load.ts';
import type { Lang, MetaModel } from './types.ts';
import { LANGS } from './types.ts';
import { latinToCyrillic } from '../i18n/transliterate.ts';

/**
 * Reference books made on the back-office's screen (docs/reference-books.md). What the screen sends
 * is a short spec — the name, the menu section, the caption in three languages and the fields beyond
 * the code and the name every book has; it becomes the entity metadata a file would hold (DbBook),
 * which the loader checks with the same JSON Schema and second pass as the files.
 */

/** A problem of a book: the loader's (file, JSON pointer, text) with, when it is ours, the caption key and arguments it is said by in the caller's language. */
export interface BookProblem extends MetaProblem {
  key?: string;
  args?: Record<string, unknown>;
}

/** The fields every book has: a spec's own fields are named otherwise. */
export const BUILT_IN_FIELDS = ['code', 'name'] as const;

const BOOK_NAME = /^[a-z][a-z0-9-]*$/;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,40}$/;

export const BOOK_FIELD_TYPES = ['string', 'integer', 'decimal', 'money', 'date', 'boolean', 'enum', 'ref'] as const;
export type BookFieldType = (typeof BOOK_FIELD_TYPES)[number];

export interface Caption3 {
  uz: string;
  ru: string;
  uk?: string;
}

export interface BookFieldSpec {
  name: string;
  type: BookFieldType;
  caption: Caption3;
  required?: boolean;
  unique?: boolean;
  maxLength?: number;
  /** a ref's entity */
  ref?: string;
  /** an enum's values and their captions */
  values?: { value: string; caption: Caption3 }[];
}

export interface BookSpec {
  name: string;
  /** the menu section (and module) the book is shown in, e.g. ecofund-sprav */
  section: string;
  caption: Caption3;
  fields: BookFieldSpec[];
}

/** Where database-held books take their action ids: blocks of ten, read create update delete export. */
export const BOOK_ACTIONS_FROM = 8000;
export const BOOK_ACTIONS_TO = 9990;

/** The entity keys a book may hold: a book is a plain reference book; behaviour takes code and a file. */
const BOOK_KEYS = new Set([
  '$schema',
  'name',
  'module',
  'kind',
  'caption',
  'access',
  'fields',
  'list',
  'titleField',
  'icon',
  'path',
  'table',
  'import',
]);
const STORED_TYPES = new Set<string>([...BOOK_FIELD_TYPES, 'text3', 'text']);

const key3 = (c: Caption3): Record<Lang, string> => ({
  uz: c.uz?.trim() ?? '',
  ru: c.ru?.trim() ?? '',
  uk: c.uk?.trim() || latinToCyrillic(c.uz?.trim() ?? ''),
});

/** The caption key of a book's own field (field captions of a book are its own, never the shared `fields.*`). */
export const bookFieldCaption = (book: string, field: string) => `book.${book}.${field}`;

/**
 * The entity metadata and captions of a spec. `access` is the book's block of action ids (kept
 * across edits); the list shows every field, filters each reference, enum and flag.
 */
export function specToBook(spec: BookSpec, access: Record<'read' | 'create' | 'update' | 'delete' | 'export', number>): DbBook {
  const captions: Record<Lang, Record<string, string>> = { uz: {}, uk: {}, ru: {} };
  const put = (key: string, c: Caption3 | undefined) => {
    const t = key3(c ?? { uz: '', ru: '' });
    for (const l of LANGS) captions[l][key] = t[l];
  };
  put(`entity.${spec.name}`, spec.caption);
  const fields: Record<string, Record<string, unknown>> = {
    code: { type: 'string', required: true, maxLength: 20, unique: true },
    name: { type: 'text3', required: true, maxLength: 500 },
  };
  const filters: Record<string, unknown> = { q: { op: 'search', fields: ['code', 'name'], alwaysOn: true } };
  for (const f of spec.fields ?? []) {
    const label = bookFieldCaption(spec.name, f.name);
    put(label, f.caption);
    const def: Record<string, unknown> = { type: f.type, label };
    if (f.required) def.required = true;
    if (f.unique) def.unique = true;
    if (f.type === 'string') def.maxLength = f.maxLength ?? 255;
    else if (f.maxLength !== undefined) def.maxLength = f.maxLength;
    if (f.type === 'ref') def.ref = f.ref;
    if (f.type === 'enum') {
      def.values = (f.values ?? []).map((v) => v.value);
      for (const v of f.values ?? []) put(`enums.${f.name}.${v.value}`, v.caption);
    }
    fields[f.name] = def;
    if (f.type === 'ref' || f.type === 'enum') filters[f.name] = 'eq';
    else if (f.type === 'boolean') filters[f.name] = 'bool';
    else if (f.type === 'date') filters[f.name] = 'range';
  }
  const definition = {
    name: spec.name,
    module: spec.section,
    kind: 'reference',
    caption: `entity.${spec.name}`,
    // a book made at run time may be filled from an .xlsx laid out as its export (docs/reference-books.md)
    import: true,
    access,
    fields,
    list: { columns: ['id', ...Object.keys(fields)], sort: ['code', 'asc'], perPage: 25, filters },
  };
  return { name: spec.name, definition, captions, menu: { section: spec.section } };
}

/** The spec back from a stored book: what the screen edits. */
export function bookToSpec(book: DbBook): BookSpec {
  const d = book.definition as {
    module: string;
    fields: Record<
      string,
      { type: string; label?: string; required?: boolean; unique?: boolean; maxLength?: number; ref?: string; values?: string[] }
    >;
  };
  const c = (key: string): Caption3 => ({
    uz: book.captions.uz?.[key] ?? '',
    ru: book.captions.ru?.[key] ?? '',
    uk: book.captions.uk?.[key] ?? '',
  });
  return {
    name: book.name,
    section: book.menu?.section ?? d.module,
    caption: c(`entity.${book.name}`),
    fields: Object.entries(d.fields)
      .filter(([n]) => n !== 'code' && n !== 'name')
      .map(([n, f]) => ({
        name: n,
        type: f.type as BookFieldType,
        caption: c(f.label ?? `fields.${n}`),
        ...(f.required ? { required: true } : {}),
        ...(f.unique ? { unique: true } : {}),
        ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}),
        ...(f.ref ? { ref: f.ref } : {}),
        ...(f.values ? { values: f.values.map((v) => ({ value: v, caption: c(`enums.${n}.${v}`) })) } : {}),
      })),
  };
}

/**
 * What a book may not be, beyond the schema and the second pass: behaviour (hooks, workflow, public
 * exposure, views, documents) takes code and a metadata file; its fields are of the kinds a table can
 * be altered to; a reference names a file-held entity or another book.
 */
export function bookProblems(book: DbBook, model: MetaModel): BookProblem[] {
  const file = bookFile(book.name);
  const out: BookProblem[] = [];
  if (!BOOK_NAME.test(book.name))
    out.push({
      file,
      pointer: '/name',
      message: 'use lower-case letters, digits and dashes (e.g. tree-species)',
      key: 'errors.book_name_pattern',
      args: { example: 'tree-species' },
    });
  const d = book.definition as Record<string, unknown>;
  for (const k of Object.keys(d ?? {}))
    if (!BOOK_KEYS.has(k))
      out.push({ file, pointer: `/${k}`, message: `a reference book made on the screen has no "${k}": it takes a metadata file and code` });
  const fields = (d?.fields ?? {}) as Record<string, { type?: string }>;
  for (const [n, f] of Object.entries(fields)) {
    if (!STORED_TYPES.has(String(f?.type)))
      out.push({ file, pointer: `/fields/${n}/type`, message: `a reference book's field is one of ${BOOK_FIELD_TYPES.join(', ')}` });
    if (!FIELD_NAME.test(n))
      out.push({
        file,
        pointer: `/fields/${n}`,
        message: 'a field name is lower-case letters, digits and underscores',
        key: 'errors.book_field_name',
        args: { field: n, example: 'tree_height' },
      });
  }
  if (book.menu && !model.menu.some((s) => s.route === `/${book.menu!.section}`))
    out.push({ file, pointer: '/menu/section', message: `no menu section "${book.menu.section}"` });
  return out;
}

/**
 * The loader's problems a screen's input meets most, said by the forms' own captions in the
 * caller's language (the problem's text stays in the answer's `problems`): an input left empty (a
 * property the schema requires, a caption empty in a language), a reference to no entity, a number
 * under the schema's least. Undefined for the rest, which are said as the loader says them.
 */
export function loaderText(message: string): { key: string; args?: Record<string, unknown> } | undefined {
  if (/^must have required property /.test(message) || /^caption "[^"]*" is empty in /.test(message)) return { key: 'validation.required' };
  if (/^no entity "[^"]*"/.test(message)) return { key: 'validation.ref_not_found' };
  if (/^must be >= /.test(message)) return { key: 'validation.wrong_value' };
  return undefined;
}

/**
 * What the spec itself gets wrong, each under its input on the screen (`name`, `fields.2.name`):
 * a name not of the pattern, a field's name empty or not of the pattern, given twice, or one of the
 * built-in `code` and `name` (which a field of that name would silently replace). Checked before
 * the spec becomes a definition, which keys the fields by name and would lose the last two.
 */
export function specProblems(spec: BookSpec): (BookProblem & { field: string })[] {
  const file = bookFile(spec.name);
  const out: (BookProblem & { field: string })[] = [];
  if (!BOOK_NAME.test(spec.name))
    out.push({
      field: 'name',
      file,
      pointer: '/name',
      message: 'use lower-case letters, digits and dashes (e.g. tree-species)',
      key: 'errors.book_name_pattern',
      args: { example: 'tree-species' },
    });
  const seen = new Set<string>();
  (spec.fields ?? []).forEach((f, i) => {
    const at = { field: `fields.${i}.name`, file, pointer: `/fields/${f.name}` };
    if (!FIELD_NAME.test(f.name))
      out.push({
        ...at,
        message: 'a field name is lower-case letters, digits and underscores',
        key: 'errors.book_field_name',
        args: { field: f.name, example: 'tree_height' },
      });
    else if ((BUILT_IN_FIELDS as readonly string[]).includes(f.name))
      out.push({ ...at, message: `every book has "${f.name}" of its own`, key: 'errors.book_field_reserved', args: { field: f.name } });
    else if (seen.has(f.name))
      out.push({ ...at, message: `"${f.name}" is given twice`, key: 'errors.book_field_twice', args: { field: f.name } });
    seen.add(f.name);
  });
  return out;
}

/**
 * The screen's field of a problem's JSON pointer: `/fields/<name>/…` is that field's row, the
 * captions their inputs, anything else the book's own inputs.
 */
export function specFieldOf(pointer: string, spec: BookSpec): string {
  const parts = pointer.split('/').slice(1);
  if (parts[0] === 'fields' && parts[1]) {
    const i = (spec.fields ?? []).findIndex((f) => f.name === parts[1]);
    if (i < 0) return 'fields';
    const prop = parts[2] === 'label' ? 'caption' : parts[2] === 'values' ? 'values' : (parts[2] ?? 'name');
    return `fields.${i}.${prop}`;
  }
  if (parts[0] === 'captions') {
    const key = parts.slice(2).join('/');
    if (key === `entity.${spec.name}`) return `caption.${parts[1]}`;
    const m = /^book\.[^.]+\.(.+)$/.exec(key);
    const i = m ? (spec.fields ?? []).findIndex((f) => f.name === m[1]) : -1;
    if (i >= 0) return `fields.${i}.caption.${parts[1]}`;
    return 'caption';
  }
  if (parts[0] === 'menu' || parts[0] === 'module') return 'section';
  if (parts[0] === 'caption') return 'caption';
  if (parts[0] === 'list' || parts[0] === 'access' || parts[0] === 'table' || parts[0] === 'path' || !parts[0]) return 'name';
  return parts[0];
}
