import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { zipSync, strToU8 } from 'fflate';
import { isDateFormat, readXlsxRows, xmlDecode, type XlsxCell } from './xlsx-read.ts';
import { XlsxStreamWriter } from './xlsx-stream.ts';
import { ApiError } from '../kernel/errors.ts';

async function rows(file: Uint8Array | string, opts = {}): Promise<[number, XlsxCell[]][]> {
  const out: [number, XlsxCell[]][] = [];
  await readXlsxRows(file, (cells, r) => out.push([r, cells]), opts);
  return out;
}

/** A workbook of parts written by hand (what other spreadsheet programs write). */
function handMade(sheet: string, extra: Record<string, string> = {}, date1904 = false, level: 0 | 6 = 6): Uint8Array {
  return zipSync(
    {
      'xl/workbook.xml': strToU8(
        `<workbook xmlns:r="r"><workbookPr${date1904 ? ' date1904="1"' : ''}/><sheets><sheet name="A" sheetId="1" r:id="rId7"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId7" Target="/xl/worksheets/data.xml"/></Relationships>'),
      'xl/worksheets/data.xml': strToU8(`<worksheet><sheetData>${sheet}</sheetData></worksheet>`),
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, strToU8(v)])),
    },
    { level },
  );
}

describe('the streaming xlsx reader', () => {
  it('reads what exceljs writes: shared and rich text, numbers, booleans, dates, formulas, gaps, escapes', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Koʻchirma');
    ws.addRow(['Sana', 'Raqam', 'Summa']);
    ws.addRow([
      new Date(Date.UTC(2025, 2, 1)),
      'P-1',
      1000.01,
      true,
      { richText: [{ text: 'a' }, { text: 'b&<' }] },
      '_x0000_',
      { formula: '1+1', result: 2 },
    ]);
    ws.addRow([]);
    ws.addRow(['02.03.2025', 'P-2', '2 500,00', null, 'ўзбек 😀']);
    ws.getCell('AB10').value = 5;
    const got = await rows(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(got).toEqual([
      [1, ['Sana', 'Raqam', 'Summa']],
      [2, [new Date(Date.UTC(2025, 2, 1)), 'P-1', 1000.01, true, 'ab&<', '\u0000', 2]],
      [4, ['02.03.2025', 'P-2', '2 500,00', null, 'ўзбек 😀']],
      [10, [...Array(27).fill(null), 5]],
    ]);
  });

  it("reads what the engine's streaming writer writes (inline strings, dates by style), many rows", async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const w = new XlsxStreamWriter(out, 'S');
    const date = w.style({ numFmt: 'dd.mm.yyyy' });
    w.begin([{}]);
    for (let i = 0; i < 20_000; i++) w.row([new Date(Date.UTC(2024, 0, 1 + (i % 365))), `r${i} <&>`, i / 4], [date, 0, 0]);
    await w.end();
    const progress: number[] = [];
    const got = await rows(Buffer.concat(chunks), { onProgress: (d: number, t: number) => progress.push(d / t), chunk: 16 * 1024 });
    expect(got).toHaveLength(20_000);
    expect(got[19_999]).toEqual([20_000, [new Date(Date.UTC(2024, 0, 1 + (19_999 % 365))), 'r19999 <&>', 19_999 / 4]]);
    expect(progress.at(-1)).toBe(1);
  });

  it('reads a file from its path a piece at a time, as from its bytes, and waits for a consumer that is behind', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const w = new XlsxStreamWriter(out, 'S');
    w.begin([{}]);
    for (let i = 0; i < 30_000; i++) w.row([`r${i}`, i]);
    await w.end();
    const bytes = Buffer.concat(chunks);
    const dir = mkdtempSync(join(tmpdir(), 'xlsx-read-'));
    try {
      const path = join(dir, 'a.xlsx');
      writeFileSync(path, bytes);
      const stored = join(dir, 'stored.xlsx');
      // its parts stored, not deflated
      writeFileSync(stored, handMade('<row r="1"><c t="inlineStr"><is><t>a</t></is></c></row>', {}, false, 0));
      let waits = 0;
      const fromPath = await rows(path, {
        chunk: 16 * 1024,
        // a consumer behind on every other piece: the reading waits, and goes on when it catches up
        ready: () => (waits++ % 2 ? new Promise<void>((r) => setTimeout(r, 1)) : undefined),
      });
      expect(fromPath).toEqual(await rows(bytes));
      expect(fromPath).toHaveLength(30_000);
      expect(waits).toBeGreaterThan(2);
      expect(await rows(stored)).toEqual([[1, ['a']]]);
      // no file, or not a zip, at the path: the file's 400
      const code = (p: Promise<unknown>) =>
        p.then(
          () => 'ok',
          (e) => (e instanceof ApiError ? e.messageKey : String(e)),
        );
      expect(await code(rows(join(dir, 'none.xlsx')))).toBe('errors.import_file');
      writeFileSync(join(dir, 'text.xlsx'), 'not a spreadsheet');
      expect(await code(rows(join(dir, 'text.xlsx')))).toBe('errors.import_file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads hand-made parts: inline strings, t="str" and t="d", cells and rows without references, the 1904 system, custom date formats', async () => {
    const styles =
      '<styleSheet><numFmts><numFmt numFmtId="170" formatCode="yyyy&quot;-&quot;mm"/><numFmt numFmtId="171" formatCode="#,##0.00&quot;d&quot;"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="170"/><xf numFmtId="171"/><xf numFmtId="14"/></cellXfs></styleSheet>';
    const shared = '<sst><si><t>x</t><rPh><t>ignored</t></rPh></si><si><r><t xml:space="preserve">a </t></r><r><t>b</t></r></si></sst>';
    const file = handMade(
      '<row r="1"><c r="A1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>in&amp;line</t></is></c></row>' +
        '<row><c t="str"><f>A1</f><v>&#1179;</v></c><c s="1"><v>0</v></c><c s="2"><v>1.5</v></c><c s="3"><v>1</v></c><c t="d"><v>2024-02-29T00:00:00Z</v></c><c t="e"><v>#N/A</v></c><c t="s"><v>0</v></c></row>' +
        '<row r="5"/><row r="6"><c r="A6"/></row>',
      { 'xl/styles.xml': styles, 'xl/sharedStrings.xml': shared },
      true,
    );
    expect(await rows(file)).toEqual([
      [1, ['a b', null, 'in&line']],
      [2, ['қ', new Date(Date.UTC(1904, 0, 1)), 1.5, new Date(Date.UTC(1904, 0, 2)), new Date(Date.UTC(2024, 1, 29)), '#N/A', 'x']],
    ]);
  });

  it('refuses what is not an .xlsx, and more rows than allowed', async () => {
    const code = async (p: Promise<unknown>) => {
      try {
        await p;
        return 'ok';
      } catch (e) {
        return e instanceof ApiError ? e.messageKey : String(e);
      }
    };
    expect(await code(rows(Buffer.from('not a spreadsheet')))).toBe('errors.import_file');
    expect(await code(rows(zipSync({ 'a.txt': strToU8('x') })))).toBe('errors.import_file');
    const broken = handMade('<row r="1"><c><v>1</v></c></row>'.repeat(1000));
    const at = Buffer.from(broken).indexOf('xl/worksheets/data.xml');
    // the sheet's deflated bytes spoilt
    const spoilt = Buffer.from(broken);
    for (let i = at + 30; i < at + 60; i++) spoilt[i] = 0xff;
    expect(await code(rows(spoilt))).toBe('errors.import_file');
    expect(
      await code(
        rows(handMade('<row r="1"><c><v>1</v></c></row><row r="2"><c><v>1</v></c></row><row r="3"><c><v>1</v></c></row>'), { maxRows: 2 }),
      ),
    ).toBe('errors.import_too_many');
  });

  it('decodes entities and Excel escapes; knows date formats from number formats', () => {
    expect(xmlDecode('a&amp;b&lt;&#x41;&#66;_x000D__x005F_')).toBe('a&b<AB\r_');
    expect(['dd.mm.yyyy', 'yyyy-mm-dd hh:mm', '[$-409]d-mmm', 'h:mm'].every(isDateFormat)).toBe(true);
    expect(['0.00', '#,##0', '"dd"0', '[Red]0.00', '0%'].some(isDateFormat)).toBe(false);
  });
});
