/**
 * A template's body, as the back-office editor writes it (HTML of paragraphs, headings, lists,
 * bold / italic / underline and placeholders `<span data-field="CODE">…</span>`), read into blocks
 * of runs; filled with values; and written back as HTML built only from those blocks — so a
 * template can carry no script, style or link into a printed document, whatever was stored.
 * The PDF (document-pdf.ts) is drawn from the same blocks, so the page and the PDF say the same.
 */
export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  /** a placeholder: the code of the field whose value replaces it */
  field?: string;
}

export interface Block {
  kind: 'p' | 'h1' | 'h2' | 'h3' | 'li' | 'hr' | 'quote';
  /** a list item's marker: "•" or "3." */
  marker?: string;
  runs: Run[];
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  laquo: '«',
  raquo: '»',
  ndash: '–',
  mdash: '—',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isInteger(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '';
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attrs);
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4] ?? '') : undefined;
}

const BLOCK_TAGS: Record<string, Block['kind']> = {
  p: 'p',
  div: 'p',
  h1: 'h1',
  h2: 'h2',
  h3: 'h3',
  h4: 'h3',
  h5: 'h3',
  h6: 'h3',
  li: 'li',
  blockquote: 'quote',
};
const FIELD_CODE = /^[A-Z][A-Z0-9_]{0,39}$/;

/** Reads a template body into blocks; tags it does not know are dropped, their text kept (scripts and styles dropped whole). */
export function parseTemplate(html: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  const marks = { bold: 0, italic: 0, underline: 0 };
  const lists: { ordered: boolean; n: number }[] = [];
  let inField: string | null = null;
  let fieldDepth = 0;
  let skip: string | null = null;
  const open = (kind: Block['kind']) => {
    const list = lists[lists.length - 1];
    current = { kind, runs: [] };
    if (kind === 'li') current.marker = list?.ordered ? `${++list.n}.` : '•';
    blocks.push(current);
  };
  const push = (run: Run) => {
    if (!current) open('p');
    const b = current!;
    const last = b.runs[b.runs.length - 1];
    if (
      last &&
      !last.field &&
      !run.field &&
      !!last.bold === !!run.bold &&
      !!last.italic === !!run.italic &&
      !!last.underline === !!run.underline
    )
      last.text += run.text;
    else b.runs.push(run);
  };
  const style = (): Omit<Run, 'text'> => ({
    ...(marks.bold ? { bold: true } : {}),
    ...(marks.italic ? { italic: true } : {}),
    ...(marks.underline ? { underline: true } : {}),
  });

  const re = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+)|</g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const [whole, close, rawTag, attrs, text] = m;
    if (whole.startsWith('<!--')) continue;
    if (skip) {
      if (close && rawTag?.toLowerCase() === skip) skip = null;
      continue;
    }
    if (text !== undefined || whole === '<') {
      if (inField) continue;
      const t = decodeEntities(text ?? '<').replace(/[\r\n\t]+/g, ' ');
      if (!t.trim() && !current) continue;
      push({ text: t, ...style() });
      continue;
    }
    const tag = rawTag.toLowerCase();
    if (['script', 'style', 'iframe', 'object', 'template', 'svg', 'math', 'noscript'].includes(tag)) {
      if (!close && !/\/\s*$/.test(attrs)) skip = tag;
      continue;
    }
    if (tag === 'span' || tag === 'mark') {
      if (inField) {
        if (close) {
          if (--fieldDepth === 0) inField = null;
        } else fieldDepth++;
        continue;
      }
      const code = close ? undefined : attr(attrs, 'data-field');
      if (code && FIELD_CODE.test(code)) {
        push({ text: '', field: code, ...style() });
        inField = code;
        fieldDepth = 1;
      }
      continue;
    }
    if (inField) continue;
    const mark = tag === 'strong' || tag === 'b' ? 'bold' : tag === 'em' || tag === 'i' ? 'italic' : tag === 'u' ? 'underline' : null;
    if (mark) {
      marks[mark] = Math.max(0, marks[mark] + (close ? -1 : 1));
      continue;
    }
    if (tag === 'br') {
      push({ text: '\n', ...style() });
      continue;
    }
    if (tag === 'hr') {
      blocks.push({ kind: 'hr', runs: [] });
      current = null;
      continue;
    }
    if (tag === 'ul' || tag === 'ol') {
      if (close) lists.pop();
      else lists.push({ ordered: tag === 'ol', n: Math.max(0, Number(attr(attrs, 'start') ?? 1) - 1) || 0 });
      current = null;
      continue;
    }
    const kind = BLOCK_TAGS[tag];
    if (kind) {
      if (close) current = null;
      // a paragraph inside a list item belongs to the item
      else if (!(kind === 'p' && current && (current as Block).kind === 'li' && !(current as Block).runs.length)) open(kind);
    }
  }
  // trailing whitespace-only blocks say nothing
  return blocks.filter((b) => b.kind === 'hr' || b.runs.some((r) => r.field || r.text.trim()) || b.runs.length === 0);
}

/** The placeholders a template uses, in order, each once. */
export function templateFields(blocks: Block[]): string[] {
  return [...new Set(blocks.flatMap((b) => b.runs.filter((r) => r.field).map((r) => r.field!)))];
}

/** The blocks with each placeholder replaced by its value (a missing one by a blank line to fill by hand). */
export function fillBlocks(blocks: Block[], values: Record<string, string>): Block[] {
  return blocks.map((b) => ({
    ...b,
    runs: b.runs.map((r) => (r.field ? { ...r, field: undefined, text: values[r.field] ?? '________' } : r)),
  }));
}

function runHtml(r: Run): string {
  let s = escapeHtml(r.text).replace(/\n/g, '<br>');
  if (r.field) s = `<span data-field="${escapeHtml(r.field)}">${escapeHtml(r.text)}</span>`;
  if (r.underline) s = `<u>${s}</u>`;
  if (r.italic) s = `<em>${s}</em>`;
  if (r.bold) s = `<strong>${s}</strong>`;
  return s;
}

/** HTML made only from the blocks: the printable page's body. */
export function blocksToHtml(blocks: Block[]): string {
  const out: string[] = [];
  let list: 'ul' | 'ol' | null = null;
  for (const b of blocks) {
    const want = b.kind === 'li' ? (b.marker === '•' ? 'ul' : 'ol') : null;
    if (list && list !== want) {
      out.push(`</${list}>`);
      list = null;
    }
    if (want && !list) {
      out.push(want === 'ol' ? `<ol start="${parseInt(b.marker!, 10) || 1}">` : '<ul>');
      list = want;
    }
    const inner = b.runs.map(runHtml).join('');
    if (b.kind === 'hr') out.push('<hr>');
    else if (b.kind === 'quote') out.push(`<blockquote><p>${inner}</p></blockquote>`);
    else out.push(`<${b.kind}>${inner}</${b.kind}>`);
  }
  if (list) out.push(`</${list}>`);
  return out.join('\n');
}

/** The plain text of blocks (one line a block): what tests and searches read. */
export function blocksToText(blocks: Block[]): string {
  return blocks.map((b) => (b.kind === 'hr' ? '---' : `${b.marker ? `${b.marker} ` : ''}${b.runs.map((r) => r.text).join('')}`)).join('\n');
}

/** The whole printable page: the body with the styles of an A4 sheet, no script. */
export function printablePage(title: string, body: string, lang: string): string {
  return `<!doctype html>
<html lang="${lang === 'uk' ? 'uz-Cyrl' : lang === 'ru' ? 'ru' : 'uz'}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
@page { size: A4; margin: 20mm 15mm 20mm 25mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 12pt; line-height: 1.45; color: #000; max-width: 170mm; margin: 0 auto; padding: 12px; }
h1 { font-size: 15pt; text-align: center; margin: 0 0 12pt; }
h2 { font-size: 13pt; text-align: center; margin: 10pt 0 8pt; }
h3 { font-size: 12pt; margin: 8pt 0 6pt; }
p { margin: 0 0 6pt; text-align: justify; }
blockquote { margin: 0 0 6pt 18pt; }
hr { border: 0; border-top: 1px solid #000; margin: 10pt 0; }
</style></head>
<body>
${body}
</body></html>`;
}
