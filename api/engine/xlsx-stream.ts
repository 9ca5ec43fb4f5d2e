import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { Zip, type AsyncFlateStreamHandler, type ZipInputFile } from 'fflate';

/**
 * A minimal SpreadsheetML (.xlsx) writer that streams: rows become XML text in small chunks, go
 * into fflate's streaming zip as entries deflated by Node's zlib (native, on the libuv thread
 * pool: the deflate, the costliest step, runs beside the JavaScript that writes the rows rather
 * than in it — twice fflate's own ZipDeflate on two cores), and out to a Node stream as they
 * come, waiting while the deflate or the reader is behind (`flush`). Nothing grows with the row count: strings are inline (no
 * shared-string table), styles are declared before the first row, and a sheet that reaches
 * Excel's 1 048 576 rows continues on a new sheet that repeats the header rows.
 *
 * What it writes: one or more sheets, column widths and styles, cells that are numbers, dates
 * (Excel serial numbers under a date format), booleans or inline strings (XML-escaped, characters
 * XML cannot hold dropped, at most 32 767 characters), row-merged cells, and a styles part with
 * the number formats, fonts, borders and alignments the styles name.
 *
 * Limits: fflate writes no Zip64, so the compressed file stays under 4 GiB (tens of millions of
 * rows), and a sheet's XML under 4 GiB (a sheet is closed early when it nears that).
 */

export interface XlsxStyle {
  numFmt?: string;
  font?: { bold?: boolean; italic?: boolean; size?: number };
  alignment?: { wrapText?: boolean; vertical?: 'top' | 'center' | 'bottom' };
  border?: { top?: 'thin'; bottom?: 'thin' };
}

export interface XlsxColumn {
  width?: number;
  /** a style id from `style()`: the column's default (empty cells of the column show it) */
  style?: number;
}

export type XlsxValue = string | number | boolean | Date | null | undefined;

export interface XlsxOptions {
  /** deflate level, 1 (fastest) to 9; 6 by default */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  /** rows a sheet holds at most before the next one begins (Excel's limit by default; tests lower it) */
  maxRowsPerSheet?: number;
}

/** Excel's rows a sheet. */
export const EXCEL_MAX_ROWS = 1_048_576;
/** Excel's characters a cell. */
export const EXCEL_CELL_MAX = 32_767;
const SHEET_BYTES_MAX = 3.5 * 1024 ** 3;
const CHUNK = 64 * 1024;
const DAY_MS = 86_400_000;
/** 1970-01-01 as an Excel serial day (the 1900 date system). */
const EPOCH_SERIAL = 25_569;

const BUILTIN_FORMATS: Record<string, number> = { General: 0, '0': 1, '0.00': 2, '#,##0': 3, '#,##0.00': 4 };

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RNS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A-Z, AA… for a 0-based column index. */
export function columnLetter(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

// characters XML 1.0 cannot hold: C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF
const BAD_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// Excel reads _xHHHH_ in a string as the character HHHH: a literal one is escaped as _x005F_xHHHH_
const EXCEL_ESCAPE = /_(x[0-9a-fA-F]{4}_)/g;
const NEEDS_WORK = /[&<>\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]|_x[0-9a-fA-F]{4}_/;

/** Text as a cell's XML content: escaped, characters XML cannot hold dropped (NUL included). */
export function xmlText(s: string): string {
  if (!NEEDS_WORK.test(s)) return s;
  return s
    .replace(BAD_CHARS, '')
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(EXCEL_ESCAPE, '_x005F_$1')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

const attr = (s: string) => xmlText(s).replace(/"/g, '&quot;');

/** A Date as an Excel serial day number (its UTC clock: callers shift to the time zone they show). */
export function excelSerial(d: Date): number {
  return serialDay(d.getTime());
}

/** Milliseconds since 1970 (UTC clock) as an Excel serial day number. */
export function serialDay(ms: number): number {
  return ms / DAY_MS + EPOCH_SERIAL;
}

/** A sheet's name as Excel allows it: at most 31 characters, none of \ / ? * [ ] :, not blank. */
export function sheetName(name: string, fallback = 'Sheet'): string {
  const s = name
    .replace(/[\\/?*[\]:]/g, ' ')
    .replace(BAD_CHARS, '')
    .slice(0, 31)
    .trim();
  return s || fallback;
}

export class XlsxStreamWriter {
  private readonly zip: Zip;
  private readonly styles: XlsxStyle[] = [{}];
  private readonly styleKeys = new Map<string, number>([['{}', 0]]);
  private readonly letters: string[] = [];
  private sheets: string[] = [];
  private sheet: NativeDeflate | null = null;
  private readonly files: NativeDeflate[] = [];
  private sheetRows = 0;
  private sheetBytes = 0;
  private buffer = '';
  private columns: XlsxColumn[] = [];
  private headerRows: { values: XlsxValue[]; styles?: number | readonly number[] }[] = [];
  private merges: string[] = [];
  private failed: Error | null = null;
  private ended = false;
  private readonly level: NonNullable<XlsxOptions['level']>;
  private readonly maxRows: number;

  constructor(
    private readonly out: Writable,
    private readonly name: string,
    opts: XlsxOptions = {},
  ) {
    this.level = opts.level ?? 6;
    this.maxRows = Math.min(EXCEL_MAX_ROWS, opts.maxRowsPerSheet ?? EXCEL_MAX_ROWS);
    this.zip = new Zip((err, chunk, final) => {
      if (err) {
        this.failed = err;
        return;
      }
      if (this.out.destroyed) return;
      this.out.write(chunk);
      if (final) this.out.end();
    });
  }

  /** A cell style's id (the same style gives the same id); declare every style before `begin`. */
  style(s: XlsxStyle): number {
    if (this.sheets.length) throw new Error('xlsx: styles are declared before begin()');
    const key = JSON.stringify(s);
    let id = this.styleKeys.get(key);
    if (id === undefined) {
      id = this.styles.length;
      this.styles.push(s);
      this.styleKeys.set(key, id);
    }
    return id;
  }

  /** Starts the first sheet with its columns; `header` rows are repeated on any sheet after it. */
  begin(columns: XlsxColumn[], header: { values: XlsxValue[]; styles?: number | readonly number[] }[] = []): void {
    this.columns = columns;
    this.headerRows = header;
    for (let i = this.letters.length; i < Math.max(columns.length, 1); i++) this.letters.push(columnLetter(i));
    // the styles are known now: their part goes first, so a streaming reader has them before the rows
    this.file('xl/styles.xml', this.stylesXml());
    this.openSheet();
  }

  /** Cells merged on the current sheet (`A1:D1`), written when the sheet closes. */
  merge(ref: string): void {
    this.merges.push(ref);
  }

  /** Rows written to the current sheet so far (its header rows included). */
  get rowNumber(): number {
    return this.sheetRows;
  }

  /**
   * Adds a row: one value a column (null leaves the cell empty), with a style id for the whole
   * row or one a cell. Synchronous; call `flush()` every so often to let the reader catch up.
   */
  row(values: readonly XlsxValue[], styles?: number | readonly number[]): void {
    if (!this.sheet) throw new Error('xlsx: begin() first');
    if (this.sheetRows >= this.maxRows || this.sheetBytes >= SHEET_BYTES_MAX) {
      this.closeSheet();
      this.openSheet();
    }
    this.writeRow(values, styles);
  }

  /** Leaves a row empty (no row element is written for it). */
  skip(): void {
    this.sheetRows++;
  }

  /** Sends what is buffered to the zip and waits while the reader is behind; throws when the reader went away. */
  async flush(): Promise<void> {
    this.check();
    this.pushBuffer(false);
    this.check();
    if (this.sheet?.needsDrain) await this.sheet.drained();
    this.check();
    if (!this.out.writableNeedDrain) return;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        this.out.off('drain', ok);
        this.out.off('close', closed);
        this.out.off('error', closed);
        if (err) reject(err);
        else resolve();
      };
      const ok = () => done();
      const closed = () => done(new Error('the reader went away'));
      this.out.once('drain', ok);
      this.out.once('close', closed);
      this.out.once('error', closed);
    });
  }

  /** Closes the sheet, writes the workbook's other parts and ends the stream. */
  async end(): Promise<void> {
    if (this.ended) return;
    if (!this.sheet) this.begin(this.columns);
    this.closeSheet();
    this.ended = true;
    const sheets = this.sheets.map((n, i) => `<sheet name="${attr(n)}" sheetId="${i + 1}" r:id="rId${i + 2}"/>`).join('');
    this.file(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${NS}" xmlns:r="${RNS}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`,
    );
    const rels = this.sheets
      .map((_, i) => `<Relationship Id="rId${i + 2}" Type="${RNS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join('');
    this.file(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RNS}/styles" Target="styles.xml"/>${rels}</Relationships>`,
    );
    this.file(
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RNS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    const overrides = this.sheets
      .map(
        (_, i) =>
          `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join('');
    this.file(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${overrides}</Types>`,
    );
    this.zip.end();
    this.check();
    if (this.out.writableFinished || this.out.destroyed) return;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        this.out.off('finish', ok);
        this.out.off('close', ok);
        this.out.off('error', done);
        if (err) reject(err);
        else resolve();
      };
      const ok = () => done();
      this.out.once('finish', ok);
      this.out.once('close', ok);
      this.out.once('error', done);
    });
  }

  /** Stops writing: the stream is destroyed with the error (the reader sees a broken download, not a short file). */
  abort(err: Error): void {
    this.ended = true;
    this.zip.terminate();
    for (const f of this.files) f.destroy();
    if (!this.out.destroyed) this.out.destroy(err);
  }

  // ------------------------------------------------------------------ parts

  private check(): void {
    if (this.failed) throw this.failed;
    if (this.out.destroyed) throw new Error('the reader went away');
  }

  private openSheet(): void {
    const n = this.sheets.length + 1;
    this.sheets.push(n === 1 ? sheetName(this.name) : sheetName(`${this.name.slice(0, 26)} (${n})`));
    this.sheet = this.entry(`xl/worksheets/sheet${n}.xml`);
    this.sheetRows = 0;
    this.sheetBytes = 0;
    this.merges = [];
    const cols = this.columns
      .map((c, i) => {
        const width = c.width !== undefined ? ` width="${round(c.width)}" customWidth="1"` : '';
        const style = c.style ? ` style="${c.style}"` : '';
        return width || style ? `<col min="${i + 1}" max="${i + 1}"${width}${style}/>` : '';
      })
      .join('');
    this.buffer += `${XML_HEAD}<worksheet xmlns="${NS}" xmlns:r="${RNS}"><sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`;
    for (const h of this.headerRows) this.writeRow(h.values, h.styles);
  }

  private closeSheet(): void {
    if (!this.sheet) return;
    const merges = this.merges.length
      ? `<mergeCells count="${this.merges.length}">${this.merges.map((m) => `<mergeCell ref="${m}"/>`).join('')}</mergeCells>`
      : '';
    this.buffer += `</sheetData>${merges}<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
    this.pushBuffer(true);
    this.sheet = null;
  }

  private writeRow(values: readonly XlsxValue[], styles?: number | readonly number[]): void {
    const r = ++this.sheetRows;
    let xml = `<row r="${r}">`;
    const letters = this.letters;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null || v === undefined || v === '') continue;
      if (i >= letters.length) letters.push(columnLetter(i));
      const s = typeof styles === 'number' ? styles : styles ? (styles[i] ?? 0) : 0;
      const sa = s ? ` s="${s}"` : '';
      if (typeof v === 'number') {
        if (Number.isFinite(v)) xml += `<c r="${letters[i]}${r}"${sa}><v>${v}</v></c>`;
      } else if (typeof v === 'string') {
        const t = v.length > EXCEL_CELL_MAX ? v.slice(0, EXCEL_CELL_MAX) : v;
        xml += `<c r="${letters[i]}${r}"${sa} t="inlineStr"><is><t xml:space="preserve">${xmlText(t)}</t></is></c>`;
      } else if (v instanceof Date) {
        const n = excelSerial(v);
        if (Number.isFinite(n)) xml += `<c r="${letters[i]}${r}"${sa}><v>${n}</v></c>`;
      } else if (typeof v === 'boolean') {
        xml += `<c r="${letters[i]}${r}"${sa} t="b"><v>${v ? 1 : 0}</v></c>`;
      }
    }
    this.buffer += `${xml}</row>`;
    if (this.buffer.length >= CHUNK) this.pushBuffer(false);
  }

  private pushBuffer(final: boolean): void {
    if (!this.sheet || (!this.buffer && !final)) return;
    const bytes = Buffer.from(this.buffer, 'utf8');
    this.buffer = '';
    this.sheetBytes += bytes.length;
    this.sheet.push(bytes, final);
  }

  private entry(name: string): NativeDeflate {
    const f = new NativeDeflate(name, this.level);
    this.files.push(f);
    this.zip.add(f);
    return f;
  }

  private file(name: string, text: string): void {
    this.entry(name).push(Buffer.from(text, 'utf8'), true);
  }

  private stylesXml(): string {
    const numFmts: string[] = [];
    const fmtIds = new Map<string, number>();
    const fmtId = (code: string | undefined): number => {
      if (!code) return 0;
      if (code in BUILTIN_FORMATS) return BUILTIN_FORMATS[code];
      let id = fmtIds.get(code);
      if (id === undefined) {
        id = 164 + fmtIds.size;
        fmtIds.set(code, id);
        numFmts.push(`<numFmt numFmtId="${id}" formatCode="${attr(code)}"/>`);
      }
      return id;
    };
    const fonts: string[] = [];
    const fontIds = new Map<string, number>();
    const fontId = (f: XlsxStyle['font'] = {}): number => {
      const xml = `<font>${f.bold ? '<b/>' : ''}${f.italic ? '<i/>' : ''}<sz val="${f.size ?? 11}"/><name val="Calibri"/><family val="2"/></font>`;
      let id = fontIds.get(xml);
      if (id === undefined) {
        id = fonts.length;
        fonts.push(xml);
        fontIds.set(xml, id);
      }
      return id;
    };
    const borders: string[] = [];
    const borderIds = new Map<string, number>();
    const borderId = (b: XlsxStyle['border'] = {}): number => {
      const side = (name: string, v?: string) => (v ? `<${name} style="${v}"><color indexed="64"/></${name}>` : `<${name}/>`);
      const xml = `<border>${side('left')}${side('right')}${side('top', b.top)}${side('bottom', b.bottom)}<diagonal/></border>`;
      let id = borderIds.get(xml);
      if (id === undefined) {
        id = borders.length;
        borders.push(xml);
        borderIds.set(xml, id);
      }
      return id;
    };
    fontId();
    borderId();
    const xfs = this.styles.map((s) => {
      const n = fmtId(s.numFmt);
      const f = fontId(s.font);
      const b = borderId(s.border);
      const a = s.alignment;
      const applies = `${n ? ' applyNumberFormat="1"' : ''}${f ? ' applyFont="1"' : ''}${b ? ' applyBorder="1"' : ''}${a ? ' applyAlignment="1"' : ''}`;
      const align = a ? `<alignment${a.vertical ? ` vertical="${a.vertical}"` : ''}${a.wrapText ? ' wrapText="1"' : ''}/>` : '';
      return `<xf numFmtId="${n}" fontId="${f}" fillId="0" borderId="${b}" xfId="0"${applies}${align ? `>${align}</xf>` : '/>'}`;
    });
    return (
      `${XML_HEAD}<styleSheet xmlns="${NS}">${numFmts.length ? `<numFmts count="${numFmts.length}">${numFmts.join('')}</numFmts>` : ''}` +
      `<fonts count="${fonts.length}">${fonts.join('')}</fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      `<borders count="${borders.length}">${borders.join('')}</borders>` +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
    );
  }
}

/**
 * A zip entry deflated by Node's zlib (fflate's Zip takes any entry that reports its data, size
 * and CRC-32): the compression runs on the thread pool, and `needsDrain` tells the writer when
 * the deflate is behind.
 */
class NativeDeflate implements ZipInputFile {
  size = 0;
  crc = 0;
  compression = 8;
  flag: 0 | 1 | 2 | 3;
  ondata!: AsyncFlateStreamHandler;
  private readonly z: DeflateRaw;

  constructor(
    readonly filename: string,
    level: number,
  ) {
    this.flag = level === 1 ? 3 : level < 6 ? 2 : level === 9 ? 1 : 0;
    this.z = createDeflateRaw({ level, memLevel: 9, chunkSize: 64 * 1024, strategy: constants.Z_DEFAULT_STRATEGY });
    this.z.on('data', (chunk: Buffer) => this.ondata(null, chunk as Uint8Array<ArrayBuffer>, false));
    this.z.on('end', () => this.ondata(null, new Uint8Array(0), true));
    this.z.on('error', (err) => this.ondata(Object.assign(err, { code: 0 }), null as unknown as Uint8Array<ArrayBuffer>, true));
  }

  get needsDrain(): boolean {
    return this.z.writableNeedDrain;
  }

  drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.z.off('drain', done);
        this.z.off('close', done);
        resolve();
      };
      this.z.once('drain', done);
      this.z.once('close', done);
    });
  }

  push(chunk: Uint8Array, final = false): void {
    this.crc = crc32(chunk, this.crc);
    this.size += chunk.length;
    this.z.write(chunk);
    if (final) this.z.end();
  }

  terminate(): void {
    this.destroy();
  }

  destroy(): void {
    if (!this.z.destroyed) this.z.destroy();
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
