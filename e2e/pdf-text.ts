import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF that Chromium printed (`page.pdf()`), page by page, for the browser tests:
 * no PDF library is installed, and Chromium's PDFs are simple — Flate-compressed content streams,
 * fonts with ToUnicode maps, text shown with `Tj`/`TJ` over hex glyph strings. Enough to check that
 * a printed figure is on its page; not a general PDF reader.
 */
export interface PdfText {
  pages: string[] /** each page's media box [width, height] in points */;
  sizes: [number, number][];
}

interface Obj {
  dict: string;
  stream?: Buffer;
}

function objects(pdf: Buffer): Map<number, Obj> {
  const out = new Map<number, Obj>();
  const s = pdf.toString('latin1');
  const re = /(\d+) 0 obj\b/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    const start = m.index + m[0].length;
    const end = s.indexOf('endobj', start);
    if (end < 0) break;
    const body = s.slice(start, end);
    const at = body.indexOf('stream');
    let obj: Obj = { dict: body };
    if (at >= 0 && /^stream\r?\n/.test(body.slice(at))) {
      const dataStart = start + at + (body.slice(at).startsWith('stream\r\n') ? 8 : 7);
      const len = /\/Length (\d+)(?! \d+ R)/.exec(body.slice(0, at));
      const dataEnd = len ? dataStart + Number(len[1]) : start + body.lastIndexOf('endstream');
      let data = pdf.subarray(dataStart, dataEnd);
      if (/\/FlateDecode/.test(body.slice(0, at))) {
        try {
          data = inflateSync(data);
        } catch {
          /* left as it is */
        }
      }
      obj = { dict: body.slice(0, at), stream: data };
    }
    out.set(Number(m[1]), obj);
    re.lastIndex = end;
  }
  return out;
}

/** A ToUnicode CMap: glyph code (hex) → text. */
function cmap(text: string): Map<string, string> {
  const map = new Map<string, string>();
  const hexText = (h: string) => {
    let r = '';
    for (let i = 0; i + 4 <= h.length; i += 4) r += String.fromCharCode(parseInt(h.slice(i, i + 4), 16));
    return r;
  };
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, uni] of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) map.set(code.toUpperCase(), hexText(uni));
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, rest] of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])/g)) {
      const a = parseInt(lo, 16);
      const b = parseInt(hi, 16);
      const list = rest.startsWith('[') ? [...rest.matchAll(/<([0-9A-Fa-f]+)>/g)].map((x) => x[1]) : null;
      for (let c = a; c <= b; c++) {
        const code = c.toString(16).toUpperCase().padStart(lo.length, '0');
        if (list) {
          if (list[c - a]) map.set(code, hexText(list[c - a]));
        } else {
          const base = parseInt(rest.slice(1, -1), 16) + (c - a);
          map.set(code, hexText(base.toString(16).padStart(rest.length - 2, '0')));
        }
      }
    }
  }
  return map;
}

const ref = (dict: string, key: string) => {
  const m = new RegExp(`/${key}\\s+(\\d+) 0 R`).exec(dict);
  return m ? Number(m[1]) : undefined;
};

/** The resources of a page (inline or referenced), searched up its parents. */
function resourcesOf(objs: Map<number, Obj>, page: Obj): string {
  let node: Obj | undefined = page;
  while (node) {
    const r = ref(node.dict, 'Resources');
    if (r !== undefined) return objs.get(r)?.dict ?? '';
    const inline = /\/Resources\s*<<([\s\S]*)>>/.exec(node.dict);
    if (inline) return inline[1];
    const parent = ref(node.dict, 'Parent');
    node = parent === undefined ? undefined : objs.get(parent);
  }
  return '';
}

function fontsOf(objs: Map<number, Obj>, resources: string): Map<string, { map: Map<string, string>; width: number }> {
  const fonts = new Map<string, { map: Map<string, string>; width: number }>();
  let dict = /\/Font\s*<<([^>]*)>>/.exec(resources)?.[1];
  if (dict === undefined) {
    const r = ref(resources, 'Font');
    dict = r === undefined ? '' : (objs.get(r)?.dict ?? '');
  }
  for (const [, name, id] of dict.matchAll(/\/([^\s/<>]+)\s+(\d+) 0 R/g)) {
    const font = objs.get(Number(id));
    const tu = font ? ref(font.dict, 'ToUnicode') : undefined;
    const stream = tu === undefined ? undefined : objs.get(tu)?.stream;
    const map = stream ? cmap(stream.toString('latin1')) : new Map<string, string>();
    const width = map.size ? [...map.keys()][0].length : 2;
    fonts.set(name, { map, width });
  }
  return fonts;
}

/** The text a content stream shows, each text run on its own line. */
function showText(content: string, fonts: Map<string, { map: Map<string, string>; width: number }>): string {
  let font = { map: new Map<string, string>(), width: 2 };
  const out: string[] = [];
  const decode = (hex: string) => {
    let r = '';
    const h = hex.replace(/\s+/g, '').toUpperCase();
    for (let i = 0; i < h.length; i += font.width) {
      const code = h.slice(i, i + font.width);
      r += font.map.get(code) ?? '';
    }
    return r;
  };
  const literal = (s: string) =>
    s.replace(/\\([nrtbf()\\]|\d{1,3})/g, (_m, c: string) => (/\d/.test(c) ? String.fromCharCode(parseInt(c, 8)) : c === 'n' ? '\n' : c));
  const tokens =
    /\/([^\s/<>[\]()]+)\s+[-\d.]+\s+Tf|<([0-9A-Fa-f\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj|\[((?:<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)|[-\d.\s])*)\]\s*TJ|\b(ET|T\*|Td|TD|Tm)\b/g;
  let line = '';
  for (const m of content.matchAll(tokens)) {
    if (m[1]) font = fonts.get(m[1]) ?? font;
    else if (m[2] !== undefined) line += decode(m[2]);
    else if (m[3] !== undefined) line += literal(m[3]);
    else if (m[4] !== undefined) {
      for (const part of m[4].matchAll(/<([0-9A-Fa-f\s]*)>|\(((?:\\.|[^\\)])*)\)|(-?[\d.]+)/g)) {
        if (part[1] !== undefined) line += decode(part[1]);
        else if (part[2] !== undefined) line += literal(part[2]);
        else if (Number(part[3]) < -200) line += ' ';
      }
    } else if (m[5]) {
      if (line) out.push(line);
      line = '';
    }
  }
  if (line) out.push(line);
  return out.join('\n');
}

export function pdfText(pdf: Buffer): PdfText {
  const objs = objects(pdf);
  const pages: string[] = [];
  const sizes: [number, number][] = [];
  for (const [, o] of [...objs].sort((a, b) => a[0] - b[0])) {
    if (!/\/Type\s*\/Page(?!s)\b/.test(o.dict)) continue;
    const fonts = fontsOf(objs, resourcesOf(objs, o));
    const box = /\/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]/.exec(o.dict);
    sizes.push(box ? [Number(box[3]) - Number(box[1]), Number(box[4]) - Number(box[2])] : [0, 0]);
    const ids = [
      ...(/\/Contents\s*\[([^\]]*)\]/.exec(o.dict)?.[1] ?? /\/Contents\s+(\d+ 0 R)/.exec(o.dict)?.[1] ?? '').matchAll(/(\d+) 0 R/g),
    ].map((x) => Number(x[1]));
    pages.push(ids.map((id) => showText(objs.get(id)?.stream?.toString('latin1') ?? '', fonts)).join('\n'));
  }
  return { pages, sizes };
}
