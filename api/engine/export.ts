import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta } from '../meta/types.ts';
import { fieldCaption } from '../meta/load.ts';
import { translate } from '../meta/captions.ts';
import { ApiError } from '../http/errors.ts';
import { q, refTable, selectColumns, sortExpression } from './sql.ts';
import type { ListParams } from './list-params.ts';
import { excelDecimalFmt, excelNumFmt, excelValue, formatCoordinate, isPlainInteger, MONEY_DECIMALS } from '../../shared/numbers.ts';
import type { Repository } from './repository.ts';
import { FeatureWriter, geometryFields, rowGeometry } from './geojson.ts';

/** Exports refuse more rows than this (narrow the filters); see docs/performance.md on memory. */
export const EXPORT_MAX_ROWS = Number(process.env.ECOFOND_EXPORT_MAX_ROWS || 100000);
const BATCH = 1000;

const DATE_FORMAT = 'dd.mm.yyyy';
const DATETIME_FORMAT = 'dd.mm.yyyy hh:mm';
const TASHKENT_OFFSET_MS = 5 * 3600 * 1000;

export interface ExportColumn { name: string; field?: FieldMeta; header: string }

export function exportColumns(repo: Repository): ExportColumn[] {
  const { e } = repo;
  const { model, lang } = repo.ctx;
  return e.list.columns.map((name) => {
    const field = e.fields[name];
    return { name, field, header: translate(model, lang, field ? fieldCaption(name, field) : `fields.${name}`) };
  });
}

/**
 * Streams the list (with its filters and sort, within the caller's scope) as an .xlsx: captions in
 * the caller's language, money and decimals as numbers with 2 decimals, dates as dates, references
 * and enums as their names. Rows are read in batches so the database is never asked for all at once.
 */
export async function exportXlsx(repo: Repository, params: ListParams): Promise<{ stream: PassThrough; filename: string }> {
  const { knex, model, lang } = repo.ctx;
  const e = repo.e;
  const count = await exportCount(repo, params);
  const columns = exportColumns(repo);
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(translate(model, lang, e.caption).slice(0, 31).replace(/[\\/?*[\]:]/g, ' '));
  sheet.columns = columns.map((c) => ({
    header: c.header, key: c.name, width: Math.min(60, Math.max(12, c.header.length + 2)),
    style: styleFor(c.field, c.name),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  const enumCaption = (name: string, v: unknown) => (v == null ? null : translate(model, lang, `enums.${name}.${v}`));
  (async () => {
    try {
      for (let offset = 0; offset < count.total; offset += BATCH) {
        const rows = await exportQuery(repo, params, knex).offset(offset).limit(BATCH);
        for (const row of rows) {
          const values: Record<string, unknown> = {};
          for (const c of columns) values[c.name] = cellValue(c, row, lang, enumCaption);
          sheet.addRow(values).commit();
        }
        if (rows.length < BATCH) break;
      }
      sheet.commit();
      await workbook.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return { stream: out, filename: `${e.name}-${new Date().toISOString().slice(0, 10)}.xlsx` };
}

/**
 * What an export may hold: the caller's right to export, and the list's rows (its filters, their
 * scope) counted exactly and no more than EXPORT_MAX_ROWS — else a 400 asking for narrower filters.
 */
async function exportCount(repo: Repository, params: ListParams): Promise<{ total: number }> {
  repo.assertCan('export');
  const count = await repo.count(params, 'export');
  if (!count.exact || count.total > EXPORT_MAX_ROWS) {
    throw new ApiError('tooLarge', 'errors.export_too_large', { max: EXPORT_MAX_ROWS, count: count.total });
  }
  return count;
}

/**
 * Streams the list (its filters and sort, within the caller's scope, under the same row limit as
 * the Excel export) as an RFC 7946 FeatureCollection: a feature a row, drawn by the entity's polygon
 * when the row has one, else its point (geojson.ts); its properties the list's columns by field
 * name — references as their id with the referenced row's title beside them (`<field>_name`), a
 * three-language text in the caller's language, decimals and money as exact strings, other values
 * as the list gives them. An entity without a point or polygon field has no such export (404).
 */
export async function exportGeoJson(repo: Repository, params: ListParams): Promise<{ stream: PassThrough; filename: string }> {
  const { knex, lang } = repo.ctx;
  const e = repo.e;
  const g = geometryFields(e);
  if (!g) throw new ApiError('notFound');
  const count = await exportCount(repo, params);
  const columns = e.list.columns.filter((name) => name !== g.point && name !== g.polygon && !['point', 'polygon'].includes(e.fields[name]?.type));
  const out = new PassThrough();
  const writer = new FeatureWriter(out);
  (async () => {
    try {
      await writer.begin();
      for (let offset = 0; offset < count.total; offset += BATCH) {
        const rows = await exportQuery(repo, params, knex).offset(offset).limit(BATCH);
        await writer.features(rows.map((row: Record<string, unknown>) => ({
          id: Number(row.id), geometry: rowGeometry(row, g), properties: featureProperties(e, columns, row, lang),
        })));
        if (rows.length < BATCH) break;
      }
      await writer.end();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return { stream: out, filename: `${e.name}-${new Date().toISOString().slice(0, 10)}.geojson` };
}

/** A row's list columns as a feature's properties (see exportGeoJson). */
function featureProperties(e: EntityMeta, columns: string[], row: Record<string, unknown>, lang: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of columns) {
    const f = e.fields[name];
    const v = row[name] ?? null;
    if (f?.type === 'text3') { const t = v as Record<string, string> | null; out[name] = t ? t[lang] || t.uz || null : null; continue; }
    out[name] = name === 'id' ? Number(v) : v;
    if (f?.type === 'ref' && `${name}__title` in row) out[`${name}_name`] = row[`${name}__title`] ?? null;
  }
  return out;
}

function exportQuery(repo: Repository, params: ListParams, knex: Knex): Knex.QueryBuilder {
  const e = repo.e;
  const { model, lang } = repo.ctx;
  const qb = repo.scoped('export');
  const selects = selectColumns(e);
  for (const name of e.list.columns) {
    const f = e.fields[name];
    if (f?.type !== 'ref') continue;
    const target = model.entities.get(f.ref!);
    if (!target) continue;
    const alias = `r_${name}`;
    qb.leftJoin(`${refTable(model, f.ref!)} as ${alias}`, `${alias}.id`, `t.${name}`);
    selects.push(`${sortExpression(target, target.titleField, lang, alias)} AS ${q(`${name}__title`)}`);
  }
  qb.select(knex.raw(selects.join(', ')));
  // the same filters and order as the list
  repo.applyFilters(qb, params);
  repo.applyOrder(qb, params);
  return qb;
}

function styleFor(f: FieldMeta | undefined, name: string): Partial<ExcelJS.Style> {
  if (!f) return name.endsWith('_at') ? { numFmt: DATETIME_FORMAT } : {};
  // the figures of the faces (shared/numbers.ts): money with 2 decimals, decimals with 2 and more
  // when they have them, quantities grouped by thousands, years and codes as they are
  if (f.type === 'money') return { numFmt: excelNumFmt(MONEY_DECIMALS) };
  if (f.type === 'decimal') return { numFmt: excelDecimalFmt(MONEY_DECIMALS, Math.max(MONEY_DECIMALS, f.scale ?? MONEY_DECIMALS)) };
  if (f.type === 'integer' && !isPlainInteger(name)) return { numFmt: excelNumFmt(0) };
  if (f.type === 'date') return { numFmt: DATE_FORMAT };
  if (f.type === 'datetime') return { numFmt: DATETIME_FORMAT };
  if (f.type === 'json') return { alignment: { wrapText: true, vertical: 'top' } };
  return {};
}

function cellValue(c: ExportColumn, row: Record<string, unknown>, lang: string, enumCaption: (n: string, v: unknown) => string | null): unknown {
  const v = row[c.name];
  if (v == null) return null;
  const f = c.field;
  if (!f) return v instanceof Date ? new Date(v.getTime() + TASHKENT_OFFSET_MS) : v;
  switch (f.type) {
    // a number Excel can sum, or (past Excel's 15 digits) the exact figure as text: shared/numbers.ts
    case 'money': return excelValue(v, MONEY_DECIMALS, lang);
    case 'decimal': return excelValue(v, Math.max(MONEY_DECIMALS, f.scale ?? MONEY_DECIMALS), lang);
    case 'date': return new Date(`${v as string}T00:00:00Z`);
    case 'datetime': return new Date(new Date(v as string).getTime() + TASHKENT_OFFSET_MS);
    case 'text3': { const t = v as Record<string, string>; return t[lang] || t.uz || null; }
    case 'enum': return enumCaption(c.name, v);
    case 'ref': return (row[`${c.name}__title`] as string | null) ?? v;
    case 'boolean': return v ? '✓' : '';
    case 'point': { const p = v as { lat: number; lng: number }; return `${formatCoordinate(p.lat)}, ${formatCoordinate(p.lng)}`; }
    case 'polygon': return polygonCell(v as [number, number][]);
    case 'refs': case 'files': return (v as number[]).join(', ');
    case 'json': return jsonCell(v, lang);
    default: return v;
  }
}

/** Excel keeps at most 32 767 characters in a cell. */
const CELL_MAX = 32767;

/**
 * A JSON value (an audit row's before or after) as readable text: a line "key: value" for each key
 * of an object, a three-language text in the caller's language, lists joined with commas; never
 * longer than a cell holds.
 */
export function jsonCell(v: unknown, lang: string): string {
  const text3 = (x: Record<string, unknown>) => {
    const keys = Object.keys(x);
    return keys.length > 0 && keys.every((k) => k === 'uz' || k === 'uk' || k === 'ru') ? String(x[lang] ?? x.uz ?? x.ru ?? x.uk ?? '') : null;
  };
  const value = (x: unknown): string => {
    if (x === null || x === undefined || x === '') return '—';
    if (Array.isArray(x)) return x.map(value).join(', ');
    if (typeof x === 'object') return text3(x as Record<string, unknown>) ?? JSON.stringify(x);
    return String(x);
  };
  const out = v && typeof v === 'object' && !Array.isArray(v) && text3(v as Record<string, unknown>) === null
    ? Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}: ${value(x)}`).join('\n')
    : value(v);
  return out.length > CELL_MAX ? `${out.slice(0, CELL_MAX - 1)}…` : out;
}

/** A polygon's cell text is at most this long; a longer ring is cut at a point and ends with "… (N)", N its point count. */
export const POLYGON_CELL_MAX = 1000;

/** A polygon in a cell: its ring as `lng lat; lng lat; …`, cut to POLYGON_CELL_MAX characters. */
export function polygonCell(ring: [number, number][]): string {
  const all = ring.map(([lng, lat]) => `${lng} ${lat}`);
  const text = all.join('; ');
  if (text.length <= POLYGON_CELL_MAX) return text;
  const tail = `; … (${ring.length})`;
  let out = '';
  for (const p of all) {
    const next = out ? `${out}; ${p}` : p;
    if (next.length + tail.length > POLYGON_CELL_MAX) break;
    out = next;
  }
  return out + tail;
}
