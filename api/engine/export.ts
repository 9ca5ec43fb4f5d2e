import { datedFileName } from '../meta/today.ts';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta } from '../meta/types.ts';
import { fieldCaption } from '../meta/load.ts';
import { translate } from '../meta/captions.ts';
import { ApiError } from '../kernel/errors.ts';
import { columnSelect, q, refTable, sortExpression } from './sql.ts';
import { parseListParams, type ListParams } from './list-params.ts';
import { excelDecimalFmt, excelNumFmt, excelValue, formatCoordinate, isPlainInteger, MONEY_DECIMALS } from '../../shared/numbers.ts';
import { Repository, type EngineContext } from './repository.ts';
import { FeatureWriter, geometryFields, rowGeometry } from './geojson.ts';
import { serialDay, XlsxStreamWriter, type XlsxStyle, type XlsxValue } from './xlsx-stream.ts';
import { startWalk, type WalkSource } from './row-walk.ts';
import { hasMaskedFields, maskRow, MAX_IDS, recordClearRead, shownPersonal } from './personal.ts';

const DATE_FORMAT = 'dd.mm.yyyy';
const DATETIME_FORMAT = 'dd.mm.yyyy hh:mm';
const TASHKENT_OFFSET_MS = 5 * 3600 * 1000;
/** Deflate level of the xlsx exports (ECOFOND_EXPORT_LEVEL, 1 fastest … 9 smallest). */
const XLSX_LEVEL = Math.min(9, Math.max(1, Number(process.env.ECOFOND_EXPORT_LEVEL) || 1)) as 1;

export interface ExportColumn {
  name: string;
  field?: FieldMeta;
  header: string;
}

export function exportColumns(repo: Repository): ExportColumn[] {
  const { e } = repo;
  const { model, lang } = repo.ctx;
  return e.list.columns.map((name) => {
    const field = e.fields[name];
    return { name, field, header: translate(model, lang, field ? fieldCaption(name, field) : `fields.${name}`) };
  });
}

/** A background job's hold on a walk: told the rows written after each batch, stopped at the next batch when the signal is aborted. */
export interface WalkOptions {
  onBatch?: (rowsSoFar: number) => void;
  signal?: AbortSignal;
}

/** Between two batches: a job that was cancelled stops here. */
export function checkSignal(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

/** The formats an export writes: the spreadsheet (.xlsx) and, for entities on a map, GeoJSON. */
export type ExportFormat = 'xlsx' | 'geojson';

/**
 * Writes an entity's export to a stream: the seam a background job runs (api/http/entity-routes.ts
 * runs it into the response). The caller's right to export is checked first (403), then the list's
 * rows — its filters and sort, within the caller's scope — are walked by one cursor (row-walk.ts)
 * and written as they come, however many; the promise settles when the stream has taken the last
 * byte, and rejects (with the stream destroyed) when the database or the reader fails.
 */
export async function writeExport(
  ctx: EngineContext,
  entity: string,
  format: ExportFormat,
  query: Record<string, unknown>,
  out: Writable,
  opts: WalkOptions = {},
): Promise<{ filename: string; rows: number }> {
  const e = ctx.model.entities.get(entity);
  if (!e) throw new ApiError('notFound');
  const repo = new Repository(ctx, e);
  const params = parseListParams(e, query as Record<string, string | string[] | undefined>);
  const job = format === 'geojson' ? await startGeoJson(repo, params, out, opts) : await startXlsx(repo, params, out, opts);
  return { filename: job.filename, rows: await job.done };
}

/**
 * Streams the list (with its filters and sort, within the caller's scope) as an .xlsx: captions in
 * the caller's language, money and decimals as numbers with 2 decimals, dates as dates, references
 * and enums as their names. Rows come from one cursor and go out through a streaming zip
 * (xlsx-stream.ts), so neither the database nor the server holds the export at once.
 */
export async function exportXlsx(repo: Repository, params: ListParams): Promise<{ stream: PassThrough; filename: string }> {
  const stream = new PassThrough();
  const { filename, done } = await startXlsx(repo, params, stream);
  done.catch(() => undefined); // the stream is destroyed with the error; the response ends broken
  return { stream, filename };
}

/**
 * Checks the caller's right, runs the query (its first batch read, so a failing query is an error
 * answer, not a broken file) and starts writing; `done` is the rows written once the stream has them all.
 */
async function startXlsx(
  repo: Repository,
  params: ListParams,
  out: Writable,
  opts: WalkOptions = {},
): Promise<{ filename: string; done: Promise<number> }> {
  const { model, lang } = repo.ctx;
  const e = repo.e;
  repo.assertCan('export');
  const walk = await startWalk(repo.ctx.knex, exportQuery(repo, params), { trx: repo.ctx.trx });
  const columns = exportColumns(repo);
  const writer = new XlsxStreamWriter(out, translate(model, lang, e.caption), { level: XLSX_LEVEL });
  // a column's cells take its style (the same formats exceljs wrote), the header the same in bold
  const styles = columns.map((c) => writer.style(styleFor(c.field, c.name)));
  const headerStyles = columns.map((c) => writer.style({ ...styleFor(c.field, c.name), font: { bold: true } }));
  const enumCaption = (name: string, v: unknown) => (v == null ? null : translate(model, lang, `enums.${name}.${v}`));
  const cells = columns.map((c) => cellReader(c, lang, enumCaption));
  const personal = exportPersonal(repo);
  const done = (async () => {
    let n = 0;
    try {
      writer.begin(
        columns.map((c, i) => ({ width: Math.min(60, Math.max(12, c.header.length + 2)), style: styles[i] })),
        [{ values: columns.map((c) => c.header), styles: headerStyles }],
      );
      const values: XlsxValue[] = new Array(columns.length);
      for await (const rows of walk) {
        personal.see(rows);
        for (const row of rows) {
          for (let i = 0; i < cells.length; i++) values[i] = cells[i](row);
          writer.row(values, styles);
        }
        n += rows.length;
        await writer.flush();
        opts.onBatch?.(n);
        checkSignal(opts.signal);
      }
      await writer.end();
      await personal.record(n);
      return n;
    } catch (err) {
      await walk.close();
      writer.abort(err as Error);
      throw err;
    }
  })();
  return { filename: datedFileName(e.name, 'xlsx'), done };
}

/**
 * Streams the list (its filters and sort, within the caller's scope) as an RFC 7946
 * FeatureCollection: a feature a row, drawn by the entity's polygon
 * when the row has one, else its point (geojson.ts); its properties the list's columns by field
 * name — references as their id with the referenced row's title beside them (`<field>_name`), a
 * three-language text in the caller's language, decimals and money as exact strings, other values
 * as the list gives them. An entity without a point or polygon field has no such export (404).
 */
export async function exportGeoJson(repo: Repository, params: ListParams): Promise<{ stream: PassThrough; filename: string }> {
  const stream = new PassThrough();
  const { filename, done } = await startGeoJson(repo, params, stream);
  done.catch(() => undefined);
  return { stream, filename };
}

async function startGeoJson(
  repo: Repository,
  params: ListParams,
  out: Writable,
  opts: WalkOptions = {},
): Promise<{ filename: string; done: Promise<number> }> {
  const { lang } = repo.ctx;
  const e = repo.e;
  const g = geometryFields(e);
  if (!g) throw new ApiError('notFound');
  repo.assertCan('export');
  const walk = await startWalk(
    repo.ctx.knex,
    exportQuery(
      repo,
      params,
      [g.point, g.polygon].filter((n): n is string => !!n),
    ),
    { trx: repo.ctx.trx },
  );
  const columns = e.list.columns.filter(
    (name) => name !== g.point && name !== g.polygon && !['point', 'polygon'].includes(e.fields[name]?.type),
  );
  const writer = new FeatureWriter(out);
  const personal = exportPersonal(repo);
  const done = (async () => {
    let n = 0;
    try {
      await writer.begin();
      for await (const rows of walk) {
        personal.see(rows);
        await writer.features(
          rows.map((row: Record<string, unknown>) => ({
            id: Number(row.id),
            geometry: rowGeometry(row, g),
            properties: featureProperties(e, columns, row, lang),
          })),
        );
        n += rows.length;
        opts.onBatch?.(n);
        checkSignal(opts.signal);
      }
      await writer.end();
      await finished(out, { readable: false });
      await personal.record(n);
      return n;
    } catch (err) {
      await walk.close();
      if (!out.destroyed) out.destroy(err as Error);
      throw err;
    }
  })();
  return { filename: datedFileName(e.name, 'geojson'), done };
}

/**
 * An export's personal data (docs/personal-data.md): each batch's rows masked for a caller without
 * the entity's `access.personal`; for one who reads them in clear, the personal fields the file
 * shows are gathered as it is written and, once it is whole, one access record names them, the
 * first MAX_IDS rows and the count. A background export is its owner's (api/jobs/export-kinds.ts).
 */
function exportPersonal(repo: Repository): { see(rows: Record<string, unknown>[]): void; record(n: number): Promise<void> } {
  const e = repo.e;
  const none = { see() {}, async record() {} };
  if (repo.ctx.trusted || !hasMaskedFields(e)) return none;
  if (!repo.readsInClear)
    return {
      see(rows) {
        for (const r of rows) maskRow(e, r);
      },
      async record() {},
    };
  const fields = new Set<string>();
  const ids: number[] = [];
  return {
    see(rows) {
      for (const f of shownPersonal(e, rows)) fields.add(f);
      for (let i = 0; i < rows.length && ids.length < MAX_IDS; i++) ids.push(Number(rows[i].id));
    },
    async record(n) {
      await recordClearRead(repo.ctx.trx ?? repo.ctx.knex, repo.ctx.principal, e, 'export', ids, [...fields], n);
    },
  };
}

/** A row's list columns as a feature's properties (see exportGeoJson). */
function featureProperties(e: EntityMeta, columns: string[], row: Record<string, unknown>, lang: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of columns) {
    const f = e.fields[name];
    const v = row[name] ?? null;
    if (f?.type === 'text3') {
      const t = v as Record<string, string> | null;
      out[name] = t ? t[lang] || t.uz || null : null;
      continue;
    }
    out[name] = name === 'id' ? Number(v) : v;
    if (f?.type === 'ref' && `${name}__title` in row) out[`${name}_name`] = row[`${name}__title`] ?? null;
  }
  return out;
}

/**
 * The export's query: the list's columns with each reference's title beside it, within the
 * caller's scope for `export`, with the list's filters and order (ties broken by id); and, for the
 * embedded database's id walk, the same query's ids and its rows for a batch of ids.
 */
function exportQuery(repo: Repository, params: ListParams, also: string[] = []): WalkSource {
  const e = repo.e;
  const { model, lang, knex } = repo.ctx;
  const base = () => {
    const qb = repo.scoped('export');
    repo.applyFilters(qb, params);
    return qb;
  };
  // the columns the export writes (not every column: each one more is parsed a million times)
  const selects = ['t.id', ...new Set([...e.list.columns, ...also])].flatMap((name) => {
    if (name === 'id' || name === 't.id') return name === 't.id' ? [`${q('t')}.${q('id')}`] : [];
    const f = e.fields[name];
    if (!f) return [`${q('t')}.${q(name)}`];
    return f.type === 'children' || f.type === 'password' ? [] : [columnSelect(name, f, 't')];
  });
  const withColumns = (qb: Knex.QueryBuilder) => {
    const columns = [...selects];
    for (const name of e.list.columns) {
      const f = e.fields[name];
      if (f?.type !== 'ref') continue;
      const target = model.entities.get(f.ref!);
      if (!target) continue;
      const alias = `r_${name}`;
      qb.leftJoin(`${refTable(model, f.ref!)} as ${alias}`, `${alias}.id`, `t.${name}`);
      columns.push(`${sortExpression(target, target.titleField, lang, alias)} AS ${q(`${name}__title`)}`);
    }
    return repo.applyOrder(qb.select(knex.raw(columns.join(', '))), params);
  };
  return {
    rows: withColumns(base()),
    ids: () => repo.applyOrder(base().select('t.id'), params),
    byIds: (ids) => withColumns(repo.scoped('export').whereIn('t.id', ids)),
  };
}

function styleFor(f: FieldMeta | undefined, name: string): XlsxStyle {
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

type CellReader = (row: Record<string, unknown>) => XlsxValue;

/**
 * The common case of excelValue, quickly: a decimal string with at most `scale` decimals whose
 * whole part and `scale` decimals make at most 15 digits is the number Excel keeps exactly
 * (excelValue gives the same number); anything else (null) goes through excelValue.
 */
function exactNumber(v: unknown, scale: number): number | null {
  if (typeof v !== 'string' || v.length > 17) return null;
  const m = /^-?(\d+)(?:\.(\d+))?$/.exec(v);
  if (!m || (m[2]?.length ?? 0) > scale || m[1].replace(/^0+/, '').length + scale > 15) return null;
  return Number(v) || 0;
}

/** 'YYYY-MM-DD' as Excel's serial day. */
function dateSerial(s: string): number {
  return serialDay(Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10))));
}

/** How a column's cell is read from a row, decided once a column rather than once a cell. */
function cellReader(c: ExportColumn, lang: string, enumCaption: (n: string, v: unknown) => string | null): CellReader {
  const name = c.name;
  const f = c.field;
  const value =
    (read: (v: NonNullable<unknown>, row: Record<string, unknown>) => XlsxValue): CellReader =>
    (row) => {
      const v = row[name];
      return v == null ? null : read(v, row);
    };
  if (!f) return value((v) => (v instanceof Date ? new Date(v.getTime() + TASHKENT_OFFSET_MS) : (v as XlsxValue)));
  switch (f.type) {
    // a number Excel can sum, or (past Excel's 15 digits) the exact figure as text: shared/numbers.ts
    case 'money':
      return value((v) => exactNumber(v, MONEY_DECIMALS) ?? excelValue(v, MONEY_DECIMALS, lang));
    case 'decimal': {
      const scale = Math.max(MONEY_DECIMALS, f.scale ?? MONEY_DECIMALS);
      return value((v) => exactNumber(v, scale) ?? excelValue(v, scale, lang));
    }
    // dates as Excel's serial days (the column's date format shows them), without a Date each
    case 'date':
      return value((v) => (v instanceof Date ? serialDay(Date.UTC(v.getFullYear(), v.getMonth(), v.getDate())) : dateSerial(String(v))));
    case 'datetime':
      return value((v) => serialDay((v instanceof Date ? v.getTime() : new Date(v as string).getTime()) + TASHKENT_OFFSET_MS));
    case 'text3':
      return value((v) => {
        const t = v as Record<string, string>;
        return t[lang] || t.uz || null;
      });
    case 'enum':
      return value((v) => enumCaption(name, v));
    case 'ref': {
      const title = `${name}__title`;
      return value((v, row) => (row[title] as string | null) ?? (v as number));
    }
    case 'boolean':
      return value((v) => (v ? '✓' : ''));
    case 'point':
      return value((v) => {
        const p = v as { lat: number; lng: number };
        return `${formatCoordinate(p.lat)}, ${formatCoordinate(p.lng)}`;
      });
    case 'polygon':
      return value((v) => polygonCell(v as [number, number][]));
    case 'refs':
    case 'files':
      return value((v) => (v as number[]).join(', '));
    case 'json':
      return value((v) => jsonCell(v, lang));
    default:
      return value((v) => (typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : (v as XlsxValue)));
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
    return keys.length > 0 && keys.every((k) => k === 'uz' || k === 'uk' || k === 'ru')
      ? String(x[lang] ?? x.uz ?? x.ru ?? x.uk ?? '')
      : null;
  };
  const value = (x: unknown): string => {
    if (x === null || x === undefined || x === '') return '—';
    if (Array.isArray(x)) return x.map(value).join(', ');
    if (typeof x === 'object') return text3(x as Record<string, unknown>) ?? JSON.stringify(x);
    return String(x);
  };
  const out =
    v && typeof v === 'object' && !Array.isArray(v) && text3(v as Record<string, unknown>) === null
      ? Object.entries(v as Record<string, unknown>)
          .map(([k, x]) => `${k}: ${value(x)}`)
          .join('\n')
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
