import type { EntityMeta, FieldMeta, Lang, MetaModel } from '../meta/types.ts';
import { LANGS } from '../meta/types.ts';
import { fieldCaption } from '../meta/load.ts';
import { translate } from '../meta/captions.ts';
import { ApiError, importRowsError, type FieldError } from '../kernel/errors.ts';
import { refTable, sortExpression } from './sql.ts';
import { cellDate, readXlsxRows, type XlsxCell } from './xlsx-read.ts';
import type { Repository } from './repository.ts';

/**
 * The generic import of an entity's rows from an .xlsx (docs/reference-books.md, "Importing a
 * book"): an entity whose metadata says `"import": true` takes a file laid out as its export writes
 * it — the first row the captions (in any of the three languages, or the fields' names), then a
 * row a record — so an exported file imports back. Each cell is read as the export wrote it
 * (references by their title or by id, enums by their caption or value, dates as dates or
 * dd.mm.yyyy, flags as ✓), then every row goes through `Repository.createMany` as the caller: their
 * right to create, their scope, the same validation as a single create, one audit row a row, one
 * transaction — all or nothing, errors by row number (the first hundred and their count).
 */

/** Rows an imported file holds at most — a bank statement's too (ECOFOND_IMPORT_MAX_ROWS, 200 000 by default). */
export const importMaxRows = (): number => Number(process.env.ECOFOND_IMPORT_MAX_ROWS || 200_000);
/** The largest imported file taken — a bank statement's too — in bytes (ECOFOND_IMPORT_MAX_MB, 50 MB by default): more is a 400. */
export const importMaxBytes = (): number => Number(process.env.ECOFOND_IMPORT_MAX_MB || 50) * 1024 * 1024;

/** Kinds of field a cell can hold; columns of other kinds (the row's id, files, geometry, children) are not read. */
const CELL_TYPES = new Set(['string', 'text', 'text3', 'integer', 'decimal', 'money', 'date', 'datetime', 'boolean', 'enum', 'ref']);

/** The fields an import may set: the entity's own, of a kind a cell holds, neither computed nor copied. */
export function importableFields(e: EntityMeta): [string, FieldMeta][] {
  return Object.entries(e.fields).filter(([, f]) => CELL_TYPES.has(f.type) && !f.computedBy && !f.from && !f.readOnly);
}

export interface ImportColumn {
  index: number;
  name: string;
  field: FieldMeta;
}

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLocaleLowerCase('ru');

/**
 * The header row mapped to fields: a caption in any language (as the export writes the list's
 * columns) or a field's name. Columns the export writes that an import does not set (the id, the
 * times and authors of the row, computed fields) are skipped; a caption that names nothing is a 400
 * naming it, as is a field named twice.
 */
export function mapHeader(model: MetaModel, e: EntityMeta, lang: Lang, header: XlsxCell[]): ImportColumn[] {
  const known = new Map<string, string | null>();
  const put = (caption: string, name: string | null) => {
    const k = norm(caption);
    if (k && !known.has(k)) known.set(k, name);
  };
  const importable = new Map(importableFields(e));
  for (const [name, f] of Object.entries(e.fields)) {
    put(name, importable.has(name) ? name : null);
    for (const l of LANGS) put(translate(model, l, fieldCaption(name, f)), importable.has(name) ? name : null);
  }
  // the list's other columns (id, created_at…): written by the export, not set by an import
  for (const name of ['id', ...e.list.columns]) {
    put(name, importable.has(name) ? name : null);
    if (!e.fields[name]) for (const l of LANGS) put(translate(model, l, `fields.${name}`), null);
  }
  const out: ImportColumn[] = [];
  const seen = new Set<string>();
  header.forEach((cell, index) => {
    const caption = cell == null ? '' : String(cell).trim();
    if (!caption) return;
    const name = known.get(norm(caption));
    if (name === undefined)
      throw new ApiError(
        'badRequest',
        'errors.import_column',
        { column: caption },
        { [`columns.${index + 1}`]: { key: 'errors.import_column', args: { column: caption } } },
      );
    if (name === null) return;
    if (seen.has(name))
      throw new ApiError(
        'badRequest',
        'errors.import_column_twice',
        { column: caption },
        { [`columns.${index + 1}`]: { key: 'errors.import_column_twice', args: { column: caption } } },
      );
    seen.add(name);
    out.push({ index, name, field: importable.get(name)! });
  });
  if (!out.length) throw new ApiError('badRequest', 'errors.import_file');
  return out;
}

/** Stops the reader after the header row (an ApiError: the reader passes those through as they are). */
const HEADER_READ = new ApiError('badRequest', 'errors.import_file');

/** The file's header row (the first row holding a cell); a file that is not an .xlsx is a 400. */
export async function readHeader(file: Uint8Array): Promise<XlsxCell[]> {
  let header: XlsxCell[] | undefined;
  try {
    await readXlsxRows(file, (cells) => {
      header = cells;
      throw HEADER_READ;
    });
  } catch (err) {
    if (err !== HEADER_READ) throw err;
  }
  if (!header) throw new ApiError('badRequest', 'errors.import_file');
  return header;
}

const text = (v: XlsxCell): string => (v == null ? '' : v instanceof Date ? v.toISOString() : String(v).trim());

/** A cell as an exact decimal with at most `scale` decimals, or the text as it is (which the validator refuses, naming the field). */
function decimalCell(v: XlsxCell, scale: number): string {
  if (typeof v === 'number') {
    const fixed = v.toFixed(scale);
    // a float of the sheet that is the decimal it shows: its exact figure; else its own text, refused by the validator
    return Math.abs(Number(fixed) - v) <= 1e-9 * Math.max(1, Math.abs(v)) ? fixed.replace(/\.?0+$/, '') || '0' : String(v);
  }
  return text(v)
    .replace(/[\s\u00a0]/g, '')
    .replace(',', '.');
}

const TRUE = new Set(['✓', '✔', 'true', '1', 'ha', 'да', 'ҳа', 'yes', 'x']);
const FALSE = new Set(['', 'false', '0', "yo'q", 'yoʻq', 'нет', 'йўқ', 'no']);
const TASHKENT_OFFSET_MS = 5 * 3600 * 1000;

export interface ImportOptions {
  signal?: AbortSignal;
  /** 0–100, monotonic: reading 0–30, references 30–40, writing 40–100 */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Imports a file into the repository's entity as its caller (see above). Answers how many rows
 * were written; refuses the file (400, nothing written) with every bad row named.
 */
export async function importRows(repo: Repository, file: Uint8Array, opts: ImportOptions = {}): Promise<{ imported: number }> {
  const { e } = repo;
  const { model, lang, knex } = repo.ctx;
  repo.assertCan('create');
  let last = -1;
  const progress = (p: number) => {
    const at = Math.min(100, Math.floor(p));
    if (at > last) {
      last = at;
      opts.onProgress?.(at, 100);
    }
  };
  progress(0);
  let columns: ImportColumn[] | undefined;
  const rows: { row: number; cells: XlsxCell[] }[] = [];
  await readXlsxRows(
    file,
    (cells, r) => {
      if (!columns) {
        columns = mapHeader(model, e, lang, cells);
        return;
      }
      if (columns.every((c) => text(cells[c.index] ?? null) === '')) return;
      rows.push({ row: r, cells });
    },
    { maxRows: importMaxRows() + 1, signal: opts.signal, onProgress: (d, t) => progress((30 * d) / t) },
  );
  if (!columns || !rows.length) throw new ApiError('badRequest', 'errors.import_file');
  opts.signal?.throwIfAborted();

  const errors: Record<string, FieldError> = {};
  const err = (row: number, field: string, key: string, args?: Record<string, unknown>) => {
    errors[`rows.${row}.${field}`] ??= { key, ...(args ? { args } : {}) };
  };

  // references by their title as the export writes it (the caller's language, else Uzbek), or by id: one query a field
  const refIds = new Map<string, Map<string, number | null>>();
  for (const c of columns) {
    if (c.field.type !== 'ref') continue;
    const target = model.entities.get(c.field.ref!);
    const titles = [
      ...new Set(
        rows
          .map((r) => r.cells[c.index])
          .filter((v) => v != null && typeof v !== 'number' && !/^\d+$/.test(text(v)))
          .map(text)
          .filter(Boolean),
      ),
    ];
    const found = new Map<string, number | null>();
    if (target && titles.length) {
      const expr = sortExpression(target, target.titleField, lang, 't');
      for (let i = 0; i < titles.length; i += 5000) {
        const chunk = titles.slice(i, i + 5000);
        const hits = await knex(`${refTable(model, c.field.ref!)} as t`)
          .select('t.id', knex.raw(`${expr} as title`))
          .whereRaw(`${expr} IN (${chunk.map(() => '?').join(', ')})`, chunk);
        // a title two rows share names neither: the row must give the id
        for (const h of hits as { id: number; title: string }[]) found.set(h.title, found.has(h.title) ? null : Number(h.id));
      }
    }
    refIds.set(c.name, found);
  }
  progress(40);
  opts.signal?.throwIfAborted();

  const payloads = rows.map(({ row, cells }) => {
    const p: Record<string, unknown> = {};
    for (const c of columns!) {
      const v = cells[c.index] ?? null;
      const s = text(v);
      const f = c.field;
      switch (f.type) {
        case 'text3':
          p[c.name] = s ? { [lang]: s, ...(lang !== 'uz' ? { uz: s } : {}) } : null;
          break;
        case 'string':
        case 'text':
          p[c.name] = s || null;
          break;
        case 'integer':
          p[c.name] =
            s === ''
              ? null
              : typeof v === 'number'
                ? v
                : /^-?\d+$/.test(s.replace(/[\s\u00a0]/g, ''))
                  ? Number(s.replace(/[\s\u00a0]/g, ''))
                  : s;
          break;
        case 'money':
          p[c.name] = s === '' ? null : decimalCell(v, 2);
          break;
        case 'decimal':
          p[c.name] = s === '' ? null : decimalCell(v, Math.max(2, f.scale ?? 2));
          break;
        case 'boolean': {
          const b = typeof v === 'boolean' ? v : TRUE.has(s.toLowerCase()) ? true : FALSE.has(s.toLowerCase()) ? false : undefined;
          if (b === undefined) err(row, c.name, 'validation.wrong_value');
          p[c.name] = b ?? null;
          break;
        }
        case 'date': {
          if (s === '') {
            p[c.name] = null;
            break;
          }
          const iso = cellDate(v);
          if (!iso) err(row, c.name, 'validation.wrong_format');
          p[c.name] = iso;
          break;
        }
        case 'datetime': {
          if (s === '') {
            p[c.name] = null;
            break;
          }
          // the export writes Tashkent's time as Excel's (zone-less) time
          p[c.name] = v instanceof Date ? new Date(v.getTime() - TASHKENT_OFFSET_MS).toISOString() : s;
          break;
        }
        case 'enum': {
          if (s === '') {
            p[c.name] = null;
            break;
          }
          const value = (f.values ?? []).find(
            (x) => x === s || LANGS.some((l) => norm(translate(model, l, `enums.${c.name}.${x}`)) === norm(s)),
          );
          if (value === undefined) err(row, c.name, 'validation.wrong_value');
          p[c.name] = value ?? null;
          break;
        }
        case 'ref': {
          if (s === '') {
            p[c.name] = null;
            break;
          }
          if (typeof v === 'number' || /^\d+$/.test(s)) {
            p[c.name] = Number(s);
            break;
          }
          const id = refIds.get(c.name)!.get(s);
          if (id == null) err(row, c.name, id === null ? 'validation.ref_ambiguous' : 'validation.ref_not_found');
          p[c.name] = id ?? null;
          break;
        }
      }
    }
    return p;
  });
  const numbers = rows.map((r) => r.row);
  rows.length = 0;
  const created = await repo
    .createMany(payloads, {
      action: 'import',
      rowNumbers: numbers,
      errors,
      signal: opts.signal,
      onProgress: (done, total) => progress(40 + (60 * done) / total),
    })
    .catch((x) => {
      // a file of one row refused by the engine is still the file's refusal, by row number
      if (x instanceof ApiError && x.fieldErrors && x.messageKey !== 'errors.import_rows') throw importRowsError(x.fieldErrors);
      throw x;
    });
  progress(100);
  return { imported: created.length };
}
