import { describe, expect, it } from 'vitest';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { columnLetter, excelSerial, sheetName, xmlText, XlsxStreamWriter, type XlsxValue } from './xlsx-stream.ts';

/** Writes rows through the streaming writer and answers the file's bytes. */
async function build(fn: (w: XlsxStreamWriter) => Promise<void> | void, opts = {}): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const w = new XlsxStreamWriter(out, 'Платежи: 2024/05', opts);
  await fn(w);
  await w.end();
  return Buffer.concat(chunks);
}

async function open(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

describe('the streaming xlsx writer', () => {
  it('writes captions, money, integers, dates and text that exceljs reads back with their formats', async () => {
    const buf = await build(async (w) => {
      const bold = w.style({ font: { bold: true } });
      const money = w.style({ numFmt: '#,##0.00' });
      const int = w.style({ numFmt: '#,##0' });
      const date = w.style({ numFmt: 'dd.mm.yyyy' });
      const datetime = w.style({ numFmt: 'dd.mm.yyyy hh:mm' });
      w.begin(
        [
          { width: 12 },
          { width: 14, style: money },
          { width: 10, style: int },
          { width: 12, style: date },
          { width: 16, style: datetime },
          { width: 30 },
        ],
        [{ values: ['Id', 'Сумма', 'Деревья', 'Sana', 'Vaqt', 'Izoh'], styles: bold }],
      );
      const styles = [0, money, int, date, datetime, 0];
      for (let i = 1; i <= 2500; i++) {
        w.row([i, 1234567.5 + i, 5333000, new Date(Date.UTC(2024, 4, 1)), new Date(Date.UTC(2024, 4, 1, 14, 30)), `qator ${i}`], styles);
        if (i % 500 === 0) await w.flush();
      }
      w.row([2501, '90 071 992 547 409,99', null, null, null, 'past 15 digits as text'], styles);
    });
    const wb = await open(buf);
    expect(wb.worksheets).toHaveLength(1);
    const sheet = wb.worksheets[0];
    expect(sheet.name).toBe('Платежи  2024 05');
    expect(sheet.rowCount).toBe(2502);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['Id', 'Сумма', 'Деревья', 'Sana', 'Vaqt', 'Izoh']);
    expect(sheet.getRow(1).getCell(2).font?.bold).toBe(true);
    const money = sheet.getRow(2).getCell(2);
    expect(money.value).toBe(1234568.5);
    expect(money.numFmt).toBe('#,##0.00');
    expect(sheet.getRow(2).getCell(3).numFmt).toBe('#,##0');
    const date = sheet.getRow(2).getCell(4);
    expect(date.value).toEqual(new Date(Date.UTC(2024, 4, 1)));
    expect(date.numFmt).toBe('dd.mm.yyyy');
    expect(sheet.getRow(2).getCell(5).value).toEqual(new Date(Date.UTC(2024, 4, 1, 14, 30)));
    expect(sheet.getRow(2501).getCell(1).value).toBe(2500);
    expect(sheet.getRow(2502).getCell(2).value).toBe('90 071 992 547 409,99');
    expect(sheet.getRow(2502).getCell(3).value).toBeNull();
    expect(sheet.getColumn(2).width).toBe(14);
  });

  it('keeps odd unicode and XML-special characters, drops what XML cannot hold (NUL included)', async () => {
    const texts = [
      'a < b && c > d "q" \'s\'',
      'Oʻzbekiston — Ўзбекистон, Узбекистан',
      '🌳 emoji 𝔘 and CJK 树',
      '  spaces kept  ',
      'line\nbreak\ttab',
      '=SUM(A1:A2)',
      ']]> <![CDATA[ x',
    ];
    const buf = await build((w) => {
      w.begin([{}]);
      for (const t of texts) w.row([t]);
      w.row(['nul\u0000byte\u0001\u001f end\uffff']);
      w.row(['lone \ud800 surrogate']);
    });
    const sheet = (await open(buf)).worksheets[0];
    texts.forEach((t, i) => expect(sheet.getRow(i + 1).getCell(1).value).toBe(t));
    expect(sheet.getRow(texts.length + 1).getCell(1).value).toBe('nulbyte end');
    expect(sheet.getRow(texts.length + 2).getCell(1).value).toBe('lone \ufffd surrogate');
  });

  it("escapes XML and Excel's own _xHHHH_ escape (which Excel reads as a character; exceljs does not)", () => {
    expect(xmlText('a_x0041_b')).toBe('a_x005F_x0041_b');
    expect(xmlText('plain')).toBe('plain');
    expect(xmlText('<&>')).toBe('&lt;&amp;&gt;');
  });

  it("cuts a cell at Excel's 32 767 characters", async () => {
    const buf = await build((w) => {
      w.begin([{}]);
      w.row(['x'.repeat(40_000)]);
    });
    expect(String((await open(buf)).worksheets[0].getRow(1).getCell(1).value).length).toBe(32_767);
  });

  it('continues on a new sheet, header repeated, when a sheet is full', async () => {
    const buf = await build(
      (w) => {
        w.begin([{}, {}], [{ values: ['A', 'B'], styles: w.style({}) }]);
        for (let i = 1; i <= 25; i++) w.row([i, `r${i}`]);
      },
      { maxRowsPerSheet: 10 },
    );
    const wb = await open(buf);
    expect(wb.worksheets.map((s) => s.rowCount)).toEqual([10, 10, 8]);
    expect(wb.worksheets[1].getRow(1).getCell(1).value).toBe('A');
    expect(wb.worksheets[1].getRow(2).getCell(1).value).toBe(10);
    expect(wb.worksheets[2].name).toBe('Платежи  2024 05 (3)');
  });

  it('merges cells and writes borders, italics and sizes', async () => {
    const buf = await build((w) => {
      const title = w.style({ font: { bold: true, size: 14 } });
      const total = w.style({ font: { bold: true }, border: { top: 'thin' }, numFmt: '#,##0.00' });
      const params = w.style({ font: { italic: true } });
      w.begin([{ width: 20 }, { width: 20 }]);
      w.row(['Hisobot'], title);
      w.merge('A1:B1');
      w.row(['Yil: 2024'], params);
      w.row(['Jami', 12.5], total);
    });
    const sheet = (await open(buf)).worksheets[0];
    expect(sheet.getCell('A1').font?.size).toBe(14);
    expect(sheet.getCell('B1').isMerged).toBe(true);
    expect(sheet.getCell('A2').font?.italic).toBe(true);
    expect(sheet.getCell('B3').border?.top?.style).toBe('thin');
    expect(sheet.getCell('B3').numFmt).toBe('#,##0.00');
  });

  it('waits while the reader is behind and fails when it goes away', async () => {
    let written = 0;
    let release: (() => void) | null = null;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk, _enc, cb) {
        written += chunk.length;
        release = cb;
      },
    });
    const w = new XlsxStreamWriter(slow, 'x', { level: 0 });
    w.begin([{}]);
    const row: XlsxValue[] = ['y'.repeat(1000)];
    for (let i = 0; i < 200; i++) w.row(row);
    let flushed = false;
    const p = w.flush().then(() => {
      flushed = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(flushed).toBe(false);
    expect(written).toBeLessThan(200 * 1000);
    slow.destroy();
    (release as (() => void) | null)?.();
    await expect(p).rejects.toThrow('the reader went away');
  });

  it('names columns and sheets as Excel does, dates as serial days', () => {
    expect([0, 25, 26, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
    expect(sheetName('a/b?c*d[e]f:g\\h'.repeat(3))).toHaveLength(31);
    expect(sheetName('   ')).toBe('Sheet');
    expect(excelSerial(new Date(Date.UTC(2024, 4, 1)))).toBe(45413);
  });
});
