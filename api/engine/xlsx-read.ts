import { createInflateRaw } from 'node:zlib';
import { unzipSync } from 'fflate';
import { ApiError } from '../kernel/errors.ts';
import { isIsoDate } from '../meta/today.ts';

/**
 * A streaming .xlsx reader for imports: the first sheet's rows, one at a time, as cell values —
 * string, number, boolean, Date (a number under a date format, or a `t="d"` cell) or null. The
 * sheet's entry is found by the zip's central directory and inflated as a stream by Node's zlib
 * (native, on the libuv thread pool: beside the JavaScript that parses the XML chunk by chunk);
 * what is held at once is the file, the shared strings and one chunk of XML, never the sheet's
 * whole XML or a workbook model (exceljs's `load` built one of ~1 KB a cell). Between chunks the
 * reader gives the event loop back and looks at the caller's AbortSignal.
 *
 * What it reads: shared strings (rich text joined), inline strings, formula results (`t="str"`,
 * numbers), booleans, errors (their text, `#N/A`), dates by the cell's number format (built-in
 * date formats 14–22 and 45–47, and custom formats with d/m/y/h/s outside quotes and brackets),
 * the 1904 date system, and Excel's `_xHHHH_` escapes (`_x0000_` becomes a NUL, which the import
 * then refuses as a bad character of its row and column). Rows and cells are placed by their `r`
 * reference, or one after the other when the file leaves it out.
 */

export type XlsxCell = string | number | boolean | Date | null;

/** A cell as 'YYYY-MM-DD': an Excel date, or text written dd.mm.yyyy or yyyy-mm-dd; null when it is none of them (the statement's and the generic import's dates). */
export function cellDate(v: XlsxCell): string | null {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    const s = v.toISOString().slice(0, 10);
    return isIsoDate(s) ? s : null;
  }
  const s = v == null ? '' : String(v).trim();
  const dmy = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(s);
  const iso = dmy ? `${dmy[3]}-${dmy[2].padStart(2, '0')}-${dmy[1].padStart(2, '0')}` : s;
  return isIsoDate(iso) ? iso : null;
}

export interface XlsxReadOptions {
  /** rows with content at most (the header row included); more is a 400 naming the limit */
  maxRows?: number;
  signal?: AbortSignal;
  /** the sheet's XML bytes read so far, and all of them */
  onProgress?: (done: number, total: number) => void;
  /** compressed bytes handed to the inflater at a time (1 MiB) */
  chunk?: number;
}

const DAY_MS = 86_400_000;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML text content as a string: entities and Excel's _xHHHH_ escapes resolved. */
export function xmlDecode(s: string): string {
  if (s.includes('&')) {
    s = s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_m, e: string) => {
      if (e[0] !== '#') return ENTITIES[e];
      const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    });
  }
  if (s.includes('_x')) s = s.replace(/_x([0-9a-fA-F]{4})_/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return s;
}

/** The text of every <t> inside a piece of XML (a shared string's runs, an inline string), joined. */
function texts(xml: string): string {
  let out = '';
  if (xml.includes('<rPh')) xml = xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '');
  const re = /<t(?:\s[^>]*)?>([^<]*)<\/t>|<t(?:\s[^>]*)?\/>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) if (m[1]) out += m[1];
  return xmlDecode(out);
}

const BUILTIN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** Whether a number format shows a date or time (its d/m/y/h/s outside quoted text and [colours]). */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^[#0.,%\s]*$/.test(bare);
}

/** Cell style index → whether that style shows a date. */
function dateStyles(stylesXml: string | undefined): boolean[] {
  if (!stylesXml) return [];
  const custom = new Map<number, string>();
  for (const m of stylesXml.matchAll(/<numFmt\b[^>]*?numFmtId="(\d+)"[^>]*?formatCode="([^"]*)"/g))
    custom.set(Number(m[1]), xmlDecode(m[2]));
  for (const m of stylesXml.matchAll(/<numFmt\b[^>]*?formatCode="([^"]*)"[^>]*?numFmtId="(\d+)"/g))
    custom.set(Number(m[2]), xmlDecode(m[1]));
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(stylesXml)?.[1] ?? '';
  return [...xfs.matchAll(/<xf\b([^>]*)/g)].map((m) => {
    const id = Number(/numFmtId="(\d+)"/.exec(m[1])?.[1] ?? 0);
    return custom.has(id) ? isDateFormat(custom.get(id)!) : BUILTIN_DATES.has(id);
  });
}

/** "AB12" → 27 (0-based column). */
function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

const badFile = () => new ApiError('badRequest', 'errors.import_file');

/** The path inside the zip of the workbook's first sheet, its shared strings and styles. */
function parts(file: Uint8Array): { sheet: string; shared?: string; styles?: string; date1904: boolean } {
  const wanted = new Set(['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml', 'xl/styles.xml']);
  let small: Record<string, Uint8Array>;
  try {
    small = unzipSync(file, { filter: (f) => wanted.has(f.name) });
  } catch {
    throw badFile();
  }
  const dec = new TextDecoder();
  const workbook = small['xl/workbook.xml'] && dec.decode(small['xl/workbook.xml']);
  if (!workbook) throw badFile();
  const rels = small['xl/_rels/workbook.xml.rels'] ? dec.decode(small['xl/_rels/workbook.xml.rels']) : '';
  const first = /<sheet\b[^>]*?r:id="([^"]+)"/.exec(workbook)?.[1] ?? /<sheet\b[^>]*?\bid="([^"]+)"/.exec(workbook)?.[1];
  let target = 'worksheets/sheet1.xml';
  if (first) {
    for (const m of rels.matchAll(/<Relationship\b([^>]*)/g)) {
      if (new RegExp(`\\bId="${first.replace(/[^\w-]/g, '')}"`).test(m[1])) target = /Target="([^"]+)"/.exec(m[1])?.[1] ?? target;
    }
  }
  const sheet = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  return {
    sheet,
    shared: small['xl/sharedStrings.xml'] && dec.decode(small['xl/sharedStrings.xml']),
    styles: small['xl/styles.xml'] && dec.decode(small['xl/styles.xml']),
    date1904: /<workbookPr\b[^>]*date1904="(1|true)"/.test(workbook),
  };
}

function sharedStrings(xml: string | undefined): string[] {
  if (!xml) return [];
  const out: string[] = [];
  const re = /<si>([\s\S]*?)<\/si>|<si\/>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push(m[1] ? texts(m[1]) : '');
  return out;
}

/**
 * An entry of a zip held in memory, found by its central directory: its compression method, its
 * compressed bytes and its size inflated. Null when it is not there.
 */
function zipEntry(zip: Uint8Array, name: string): { method: number; data: Uint8Array; size: number } | null {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--)
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw badFile();
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const dec = new TextDecoder();
  for (let n = 0; n < count && at + 46 <= zip.length; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw badFile();
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    if (dec.decode(zip.subarray(at + 46, at + 46 + nameLen)) === name) {
      if (local + 30 > zip.length || view.getUint32(local, true) !== 0x04034b50) throw badFile();
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      if (start + compressed > zip.length) throw badFile();
      return { method, data: zip.subarray(start, start + compressed), size };
    }
    at += 46 + nameLen + extraLen + commentLen;
  }
  return null;
}

/**
 * Reads the first sheet of an .xlsx, calling `onRow(cells, rowNumber)` for each row holding a
 * cell (the row number as Excel shows it; `cells[0]` is column A). A file that is not an .xlsx
 * is a 400 `errors.import_file`; more rows than `maxRows` a 400 `errors.import_too_many`.
 */
export async function readXlsxRows(
  file: Uint8Array,
  onRow: (cells: XlsxCell[], row: number) => void,
  opts: XlsxReadOptions = {},
): Promise<number> {
  const { sheet, shared: sharedXml, styles, date1904 } = parts(file);
  const shared = sharedStrings(sharedXml);
  const isDate = dateStyles(styles);
  const epoch = date1904 ? 24_107 : 25_569;
  const maxRows = opts.maxRows ?? Infinity;
  let rows = 0;
  let lastRow = 0;
  let pending = '';
  const decoder = new TextDecoder();
  const rowRe = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;
  const cellRe = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;

  const cellValue = (attrs: string, body: string | undefined): XlsxCell => {
    if (!body) return null;
    const t = /\bt="(\w+)"/.exec(attrs)?.[1];
    if (t === 'inlineStr') return texts(body);
    const v = /<v(?:\s[^>]*)?>([^<]*)<\/v>/.exec(body)?.[1];
    if (v === undefined) return null;
    switch (t) {
      case 's': {
        const s = shared[Number(v)];
        return s === undefined ? null : s;
      }
      case 'str':
      case 'e':
        return xmlDecode(v);
      case 'b':
        return v === '1' || v === 'true';
      case 'd': {
        const d = new Date(v);
        return Number.isNaN(d.getTime()) ? xmlDecode(v) : d;
      }
      default: {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n)) return xmlDecode(v);
        const s = /\bs="(\d+)"/.exec(attrs)?.[1];
        return s !== undefined && isDate[Number(s)] ? new Date(Math.round((n - epoch) * DAY_MS)) : n;
      }
    }
  };

  const parse = (xml: string) => {
    rowRe.lastIndex = 0;
    for (let m = rowRe.exec(xml); m; m = rowRe.exec(xml)) {
      const r = Number(/\br="(\d+)"/.exec(m[1])?.[1] ?? lastRow + 1);
      lastRow = r;
      if (!m[2]) continue;
      const cells: XlsxCell[] = [];
      let col = -1;
      let any = false;
      cellRe.lastIndex = 0;
      for (let c = cellRe.exec(m[2]); c; c = cellRe.exec(m[2])) {
        const ref = /\br="([A-Z]+)/.exec(c[1])?.[1];
        col = ref ? columnIndex(ref) : col + 1;
        const value = cellValue(c[1], c[2]);
        if (value === null) continue;
        while (cells.length < col) cells.push(null);
        cells[col] = value;
        any = true;
      }
      if (!any) continue;
      if (++rows > maxRows) throw new ApiError('tooLarge', 'errors.import_too_many', { max: maxRows - 1 });
      onRow(cells, r);
    }
  };

  const feed = (chunk: Uint8Array, final: boolean) => {
    pending += decoder.decode(chunk, { stream: !final });
    const end = final ? pending.length : pending.lastIndexOf('</row>') + 6;
    if (end <= 5) return;
    const start = pending.indexOf('<row');
    if (start >= 0 && start < end) parse(pending.slice(start, end));
    pending = pending.slice(end);
  };

  const entry = zipEntry(file, sheet);
  if (!entry) throw badFile();
  if (entry.method === 0) feed(entry.data, true);
  else if (entry.method === 8) {
    const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
    const ended = new Promise<void>((resolve, reject) => {
      inflate.on('end', resolve);
      inflate.on('error', () => reject(badFile()));
    });
    // the loop below meets the error first; this is only for the end
    ended.catch(() => undefined);
    const step = opts.chunk ?? 1024 * 1024;
    (async () => {
      for (let at = 0; at < entry.data.length; at += step) {
        if (!inflate.write(entry.data.subarray(at, at + step))) await new Promise((r) => inflate.once('drain', r));
      }
      inflate.end();
    })().catch(() => undefined);
    let read = 0;
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        opts.signal?.throwIfAborted();
        feed(chunk, false);
        read += chunk.length;
        opts.onProgress?.(Math.min(read, entry.size), entry.size);
      }
      await ended;
    } catch (err) {
      // a broken deflate stream is a file that is not an .xlsx
      throw err instanceof ApiError || opts.signal?.aborted ? err : badFile();
    } finally {
      inflate.destroy();
    }
    feed(new Uint8Array(0), true);
  } else throw badFile();
  return rows;
}
