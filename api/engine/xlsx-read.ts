import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { open, type FileHandle } from 'node:fs/promises';
import { ApiError } from '../kernel/errors.ts';
import { isIsoDate } from '../meta/today.ts';

/**
 * A streaming .xlsx reader for imports: the first sheet's rows, one at a time, as cell values —
 * string, number, boolean, Date (a number under a date format, or a `t="d"` cell) or null. The
 * sheet's entry is found by the zip's central directory and inflated as a stream by Node's zlib
 * (native, on the libuv thread pool: beside the JavaScript that parses the XML chunk by chunk).
 * The file is bytes in memory or a path on disk; from a path only the zip's central directory,
 * its small parts and a piece of the sheet at a time are read, so what is held at once is the
 * shared strings and a few pieces of XML, never the file, the sheet's whole XML or a workbook
 * model (exceljs's `load` built one of ~1 KB a cell). Between pieces the reader gives the event
 * loop back, looks at the caller's AbortSignal and waits while its consumer is behind (`ready`).
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
  /**
   * asked after each inflated piece: a promise when the caller's consumer is behind (the reading
   * waits for it), else nothing
   */
  ready?: () => Promise<void> | undefined;
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

/** An entry of a zip by its central directory: how it is stored, where its header is, its sizes. */
interface ZipEntry {
  method: number;
  local: number;
  compressed: number;
  size: number;
}

/**
 * Where a zip's bytes come from: a file held in memory, or one on disk read by ranges (a
 * statement of a million rows is never held whole: its central directory, its small parts and one
 * piece of its sheet at a time).
 */
interface ZipSource {
  size: number;
  read(start: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

function memorySource(file: Uint8Array): ZipSource {
  return {
    size: file.length,
    read: async (start, length) => file.subarray(start, Math.min(file.length, start + length)),
    close: async () => undefined,
  };
}

async function diskSource(path: string): Promise<ZipSource> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch {
    throw badFile();
  }
  const size = (await fh.stat()).size;
  return {
    size,
    read: async (start, length) => {
      const n = Math.max(0, Math.min(length, size - start));
      // a buffer of its own each time: the inflater may hold it until it is inflated
      const buf = Buffer.allocUnsafe(n);
      let at = 0;
      while (at < n) {
        const { bytesRead } = await fh.read(buf, at, n - at, start + at);
        if (!bytesRead) break;
        at += bytesRead;
      }
      return buf.subarray(0, at);
    },
    close: () => fh.close(),
  };
}

/** The zip's entries by name, from its central directory (found by the end record in its last 64 KiB). */
async function centralDirectory(src: ZipSource): Promise<Map<string, ZipEntry>> {
  const tailLen = Math.min(src.size, 22 + 65_535);
  const tail = await src.read(src.size - tailLen, tailLen);
  const tv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--)
    if (tv.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw badFile();
  const count = tv.getUint16(eocd + 10, true);
  const cdSize = tv.getUint32(eocd + 12, true);
  const cdAt = tv.getUint32(eocd + 16, true);
  if (cdAt + cdSize > src.size) throw badFile();
  const cd = await src.read(cdAt, cdSize);
  const view = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const dec = new TextDecoder();
  const out = new Map<string, ZipEntry>();
  let at = 0;
  for (let n = 0; n < count && at + 46 <= cd.length; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw badFile();
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    out.set(dec.decode(cd.subarray(at + 46, at + 46 + nameLen)), {
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      local: view.getUint32(at + 42, true),
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Where an entry's stored bytes begin (after its local header, whose name and extra field have lengths of their own). */
async function entryStart(src: ZipSource, entry: ZipEntry): Promise<number> {
  const header = await src.read(entry.local, 30);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.length < 30 || view.getUint32(0, true) !== 0x04034b50) throw badFile();
  const start = entry.local + 30 + view.getUint16(26, true) + view.getUint16(28, true);
  if (start + entry.compressed > src.size) throw badFile();
  return start;
}

/** A small entry (the workbook, its relations, shared strings, styles) as text; undefined when the zip has none. */
async function entryText(src: ZipSource, entries: Map<string, ZipEntry>, name: string): Promise<string | undefined> {
  const entry = entries.get(name);
  if (!entry) return undefined;
  const data = await src.read(await entryStart(src, entry), entry.compressed);
  let bytes: Uint8Array;
  if (entry.method === 0) bytes = data;
  else if (entry.method === 8) {
    try {
      bytes = inflateRawSync(data);
    } catch {
      throw badFile();
    }
  } else throw badFile();
  return new TextDecoder().decode(bytes);
}

/** The path inside the zip of the workbook's first sheet, its shared strings and styles. */
async function parts(
  src: ZipSource,
  entries: Map<string, ZipEntry>,
): Promise<{ sheet: string; shared?: string; styles?: string; date1904: boolean }> {
  const workbook = await entryText(src, entries, 'xl/workbook.xml');
  if (!workbook) throw badFile();
  const rels = (await entryText(src, entries, 'xl/_rels/workbook.xml.rels')) ?? '';
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
    shared: await entryText(src, entries, 'xl/sharedStrings.xml'),
    styles: await entryText(src, entries, 'xl/styles.xml'),
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
 * Reads the first sheet of an .xlsx, calling `onRow(cells, rowNumber)` for each row holding a
 * cell (the row number as Excel shows it; `cells[0]` is column A). A file that is not an .xlsx
 * is a 400 `errors.import_file`; more rows than `maxRows` a 400 `errors.import_too_many`.
 */
export async function readXlsxRows(
  file: Uint8Array | string,
  onRow: (cells: XlsxCell[], row: number) => void,
  opts: XlsxReadOptions = {},
): Promise<number> {
  const src = typeof file === 'string' ? await diskSource(file) : memorySource(file);
  try {
    return await readSheet(src, onRow, opts);
  } finally {
    await src.close();
  }
}

async function readSheet(src: ZipSource, onRow: (cells: XlsxCell[], row: number) => void, opts: XlsxReadOptions): Promise<number> {
  const entries = await centralDirectory(src);
  const { sheet, shared: sharedXml, styles, date1904 } = await parts(src, entries);
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

  const entry = entries.get(sheet);
  if (!entry) throw badFile();
  const start = await entryStart(src, entry);
  if (entry.method === 0) feed(await src.read(start, entry.compressed), true);
  else if (entry.method === 8) {
    const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
    const ended = new Promise<void>((resolve, reject) => {
      inflate.on('end', resolve);
      inflate.on('error', () => reject(badFile()));
    });
    // the loop below meets the error first; this is only for the end
    ended.catch(() => undefined);
    const step = opts.chunk ?? 1024 * 1024;
    // the stored bytes a piece at a time (from the memory or the disk), as fast as they are inflated
    (async () => {
      for (let at = 0; at < entry.compressed; at += step) {
        if (inflate.destroyed) return;
        const piece = await src.read(start + at, Math.min(step, entry.compressed - at));
        if (!inflate.write(piece))
          await new Promise<void>((resolve) => {
            const go = () => {
              inflate.off('drain', go);
              inflate.off('close', go);
              resolve();
            };
            inflate.on('drain', go);
            inflate.on('close', go);
          });
      }
      inflate.end();
    })().catch((err: unknown) => inflate.destroy(err instanceof Error ? err : new Error(String(err))));
    let read = 0;
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        opts.signal?.throwIfAborted();
        feed(chunk, false);
        read += chunk.length;
        opts.onProgress?.(Math.min(read, entry.size), entry.size);
        // the consumer is behind: wait for it (what is held stays a few pieces, whatever the file's size)
        const waiting = opts.ready?.();
        if (waiting) await waiting;
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
