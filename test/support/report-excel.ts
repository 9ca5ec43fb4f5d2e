import ExcelJS from 'exceljs';
import { expect } from 'vitest';

/** A report's answer as the JSON API gives it: what its Excel export must repeat. */
export interface ReportAnswer {
  title: string;
  columns: { name: string; caption: string }[];
  rows: unknown[];
  totals: Record<string, unknown>;
}

/**
 * Reads a report's Excel export and holds it to the JSON answer: the title first, a row for each
 * row after the header, and a totals row with the same totals.
 */
export async function expectExcelLikeAnswer(raw: ArrayBuffer, json: ReportAnswer): Promise<void> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(raw);
  const values = book.worksheets[0]
    .getSheetValues()
    .filter(Boolean)
    .map((row) => (row as unknown[]).slice(1));
  expect(values[0][0]).toBe(json.title);
  const header = values.findIndex((row) => row[0] === json.columns[0].caption);
  expect(values.slice(header + 1).length).toBe(json.rows.length + (Object.keys(json.totals).length ? 1 : 0));
  if (!Object.keys(json.totals).length) return;
  const last = values[values.length - 1];
  json.columns.forEach((c, i) => {
    if (json.totals[c.name] !== undefined) expect(Number(last[i] ?? 0)).toBe(Number(json.totals[c.name]));
  });
}
