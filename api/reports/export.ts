import ExcelJS from 'exceljs';
import type { MetaModel, Lang, ReportMeta } from '../meta/types.ts';
import { translate } from '../meta/captions.ts';
import type { ReportResult } from './run.ts';
import { scaleOf } from './run.ts';
import { excelNumFmt, excelValue } from '../../shared/numbers.ts';

const DATE_FORMAT = 'dd.mm.yyyy';

/**
 * A report as an .xlsx: its title, the parameters it was run with (names and values in the
 * caller's language), the header, the rows with numbers as numbers (2 decimals where the column
 * has them) and dates as dates, and the totals row.
 */
export async function reportXlsx(model: MetaModel, r: ReportMeta, result: ReportResult, lang: Lang, paramTitles: Record<string, string>): Promise<{ buffer: Buffer; filename: string }> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(result.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || r.name);
  const width = result.columns.length;
  sheet.addRow([result.title]).font = { bold: true, size: 14 };
  const described = Object.entries(result.params)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${translate(model, lang, r.params[k]?.caption ?? `report.${k}`)}: ${paramTitles[k] ?? v}`);
  if (described.length) sheet.addRow([described.join('; ')]).font = { italic: true };
  sheet.addRow([]);
  const header = sheet.addRow(result.columns.map((c) => c.caption));
  header.font = { bold: true };
  header.eachCell((cell) => { cell.border = { bottom: { style: 'thin' } }; });

  const formats = r.columns.map((c) => {
    if (c.type === 'date') return DATE_FORMAT;
    const scale = scaleOf(c);
    return excelNumFmt(c.type === 'integer' ? 0 : scale);
  });
  // figures as the faces write them (shared/numbers.ts): numbers Excel can sum, or the exact
  // figure as text where Excel's 15 digits would lose some
  const cell = (c: (typeof r.columns)[number], v: unknown): unknown => {
    if (v === null || v === undefined) return null;
    if (c.type === 'date') return new Date(`${String(v)}T00:00:00Z`);
    if (c.type === 'string') return String(v);
    return excelValue(v, c.type === 'integer' ? 0 : scaleOf(c), lang);
  };
  for (const row of result.rows) {
    const added = sheet.addRow(r.columns.map((c) => cell(c, row[c.name])));
    r.columns.forEach((c, i) => { if (c.type !== 'string') added.getCell(i + 1).numFmt = formats[i]; });
  }
  if (Object.keys(result.totals).length) {
    const totals = sheet.addRow(r.columns.map((c, i) => (i === 0 && !(c.name in result.totals) ? translate(model, lang, 'report.total') : cell(c, result.totals[c.name]))));
    totals.font = { bold: true };
    r.columns.forEach((c, i) => { if (c.type !== 'string') totals.getCell(i + 1).numFmt = formats[i]; });
    totals.eachCell((x) => { x.border = { top: { style: 'thin' } }; });
  }
  result.columns.forEach((c, i) => {
    const longest = Math.max(c.caption.length, ...result.rows.slice(0, 200).map((row) => String(row[c.name] ?? '').length));
    sheet.getColumn(i + 1).width = Math.min(60, Math.max(10, longest + 2));
  });
  if (width > 1) sheet.mergeCells(1, 1, 1, width);
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return { buffer, filename: `${r.name}-${new Date().toISOString().slice(0, 10)}.xlsx` };
}
