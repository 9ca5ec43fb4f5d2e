import { PassThrough } from 'node:stream';
import { XlsxStreamWriter, type XlsxValue } from '../../api/engine/xlsx-stream.ts';

export const STATEMENT_HEADER = ['Sana', 'Raqam', 'Summa', 'Toʻlovchi', 'STIR', 'Hisob', 'Maqsad', 'Tushum kodi', 'Turi'];

export interface StatementRows {
  rows: number;
  /** income codes used in turn */
  codes: string[];
  /** INNs of subjects some payers have (one row in `every` uses one) */
  known?: { inns: string[]; every: number };
  /** a row (its number as Excel shows it, the header being row 1) → the cells it has instead */
  spoil?: (row: number) => XlsxValue[] | undefined;
}

/** A payment of a generated statement: row `row` of the sheet. */
export function statementRow(i: number, o: StatementRows): XlsxValue[] {
  const known = o.known && i % o.known.every === 0;
  return [
    new Date(Date.UTC(2025, 0, 1 + (i % 300))),
    `P-${i + 1}`,
    1000 + (i % 9000) + (i % 100) / 100,
    `Toʻlovchi MChJ ${i % 5000}`,
    known ? o.known!.inns[i % o.known!.inns.length] : String(700000000 + i),
    String(20208000000000000000n + BigInt(i)),
    'Kompensatsiya toʻlovi, daraxt kesish uchun',
    o.codes[i % o.codes.length],
    i % 3 ? 'karta' : 'naqd',
  ];
}

/** A bank statement of many rows as an .xlsx, written by the engine's streaming writer (dates as Excel dates). */
export async function statementFile(o: StatementRows): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => out.on('end', r));
  const w = new XlsxStreamWriter(out, 'Koʻchirma', { level: 1 });
  const date = w.style({ numFmt: 'dd.mm.yyyy' });
  w.begin([{ width: 12 }]);
  const styles = [date, 0, 0, 0, 0, 0, 0, 0, 0];
  w.row(STATEMENT_HEADER);
  for (let i = 0; i < o.rows; i++) {
    w.row(o.spoil?.(i + 2) ?? statementRow(i, o), styles);
    if (i % 1000 === 999) await w.flush();
  }
  await w.end();
  await done;
  return Buffer.concat(chunks);
}
