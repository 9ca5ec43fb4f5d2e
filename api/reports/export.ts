import { datedFileName } from '../meta/today.ts';
import { PassThrough, type Writable } from 'node:stream';
import type { Knex } from 'knex';
import type { MetaModel, Lang, ReportMeta } from '../meta/types.ts';
import { translate } from '../meta/captions.ts';
import { REPORT_SETTINGS, reportBindings, reportHead, ReportTotals, scaleOf, typedRow } from './run.ts';
import type { ReportParams } from './params.ts';
import { excelNumFmt, excelValue } from '../../shared/numbers.ts';
import { columnLetter, XlsxStreamWriter, type XlsxValue } from '../engine/xlsx-stream.ts';
import { startWalk } from '../engine/row-walk.ts';
import { checkSignal, type WalkOptions } from '../engine/export.ts';

const DATE_FORMAT = 'dd.mm.yyyy';
/** Column widths are measured on this many first rows. */
const WIDTH_ROWS = 200;

/**
 * A report as an .xlsx, streamed: its title, the parameters it was run with (names and values in
 * the caller's language), the header, the rows with numbers as numbers (2 decimals where the column
 * has them) and dates as dates, and the totals row (summed exactly as the rows pass). The rows come
 * from one cursor over the report's query, however many (the JSON answer keeps its row limit).
 */
export async function exportReport(
  knex: Knex,
  model: MetaModel,
  r: ReportMeta,
  params: ReportParams,
  lang: Lang,
  paramTitles: Record<string, string>,
): Promise<{ stream: PassThrough; filename: string }> {
  const stream = new PassThrough();
  const { filename, done } = await startReport(knex, model, r, params, lang, paramTitles, stream);
  done.catch(() => undefined); // the stream is destroyed with the error; the response ends broken
  return { stream, filename };
}

/** The same into any stream (a job's file): settles with the rows written once the stream has them all. */
export async function writeReport(
  knex: Knex,
  model: MetaModel,
  r: ReportMeta,
  params: ReportParams,
  lang: Lang,
  paramTitles: Record<string, string>,
  out: Writable,
  opts: WalkOptions = {},
): Promise<{ filename: string; rows: number }> {
  const { filename, done } = await startReport(knex, model, r, params, lang, paramTitles, out, opts);
  return { filename, rows: await done };
}

async function startReport(
  knex: Knex,
  model: MetaModel,
  r: ReportMeta,
  params: ReportParams,
  lang: Lang,
  paramTitles: Record<string, string>,
  out: Writable,
  opts: WalkOptions = {},
): Promise<{ filename: string; done: Promise<number> }> {
  const head = reportHead(model, r, params, lang);
  const walk = await startWalk(
    knex,
    { rows: knex.raw(`SELECT * FROM (${r.query}) AS report`, reportBindings(params, lang) as Knex.ValueDict) },
    { settings: REPORT_SETTINGS },
  );
  const writer = new XlsxStreamWriter(out, head.title || r.name);
  const width = head.columns.length;
  const title = writer.style({ font: { bold: true, size: 14 } });
  const italic = writer.style({ font: { italic: true } });
  const header = writer.style({ font: { bold: true }, border: { bottom: 'thin' } });
  const formats = r.columns.map((c) => (c.type === 'date' ? DATE_FORMAT : excelNumFmt(c.type === 'integer' ? 0 : scaleOf(c))));
  const cellStyles = r.columns.map((c, i) => (c.type === 'string' ? 0 : writer.style({ numFmt: formats[i] })));
  // the totals row: bold with a line above, on its cells that hold something
  const totalStyles = r.columns.map((c, i) =>
    writer.style({ ...(c.type === 'string' ? {} : { numFmt: formats[i] }), font: { bold: true }, border: { top: 'thin' } }),
  );
  // figures as the faces write them (shared/numbers.ts): numbers Excel can sum, or the exact
  // figure as text where Excel's 15 digits would lose some
  const cell = (c: (typeof r.columns)[number], v: unknown): XlsxValue => {
    if (v === null || v === undefined) return null;
    if (c.type === 'date') return new Date(`${String(v)}T00:00:00Z`);
    if (c.type === 'string') return String(v);
    return excelValue(v, c.type === 'integer' ? 0 : scaleOf(c), lang);
  };
  const totals = new ReportTotals(r.columns);
  const done = (async () => {
    let n = 0;
    try {
      const iterator = walk[Symbol.asyncIterator]();
      // the widths are measured on the first rows, which are held until the columns are written
      const first: Record<string, unknown>[] = [];
      let next = await iterator.next();
      while (!next.done && first.length < WIDTH_ROWS) {
        first.push(...next.value.map((row) => typedRow(model, r, lang, row)));
        if (first.length < WIDTH_ROWS) next = await iterator.next();
        else break;
      }
      const more = first.length >= WIDTH_ROWS && !next.done;
      const widths = head.columns.map((c) => {
        const longest = Math.max(c.caption.length, ...first.slice(0, WIDTH_ROWS).map((row) => String(row[c.name] ?? '').length));
        return { width: Math.min(60, Math.max(10, longest + 2)) };
      });
      writer.begin(widths);
      writer.row([head.title], title);
      if (width > 1) writer.merge(`A1:${columnLetter(width - 1)}1`);
      const described = Object.entries(params)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => `${translate(model, lang, r.params[k]?.caption ?? `report.${k}`)}: ${paramTitles[k] ?? v}`);
      if (described.length) writer.row([described.join('; ')], italic);
      writer.skip();
      writer.row(
        head.columns.map((c) => c.caption),
        header,
      );
      const values: XlsxValue[] = new Array(r.columns.length);
      const put = (rows: Record<string, unknown>[]) => {
        for (const row of rows) {
          totals.add(row);
          for (let i = 0; i < r.columns.length; i++) values[i] = cell(r.columns[i], row[r.columns[i].name]);
          writer.row(values, cellStyles);
        }
        n += rows.length;
        opts.onBatch?.(n);
      };
      put(first);
      await writer.flush();
      checkSignal(opts.signal);
      if (more) {
        for (next = await iterator.next(); !next.done; next = await iterator.next()) {
          put(next.value.map((row) => typedRow(model, r, lang, row)));
          await writer.flush();
          checkSignal(opts.signal);
        }
      }
      if (totals.any) {
        const sums = totals.result();
        const line = r.columns.map((c, i) =>
          i === 0 && !(c.name in sums) ? translate(model, lang, 'report.total') : cell(c, sums[c.name]),
        );
        writer.row(
          line,
          totalStyles.map((s, i) => (line[i] === null || line[i] === undefined ? 0 : s)),
        );
      }
      await writer.end();
      return n;
    } catch (err) {
      await walk.close();
      writer.abort(err as Error);
      throw err;
    }
  })();
  return { filename: datedFileName(r.name, 'xlsx'), done };
}
