import { decodeEntities, escapeHtml } from './document-html.ts';

/**
 * Rich text as the back-office's editor (TipTap's StarterKit) writes it, kept to a strict
 * allow-list before it is stored and again before it is served: paragraphs, headings, lists,
 * quotes, rules, line breaks, bold / italic / underline / strike / code, and links to http(s),
 * mailto:, tel: or the site's own paths. Every other tag is dropped (its text kept, escaped);
 * script, style and the like are dropped with their content; no attribute but a link's `href`
 * survives (so no `on…` handler, `style`, `src` or `class`); text is re-escaped; tags left open
 * are closed and stray closing tags dropped, so the result is well formed. No sanitising library
 * is installed (DOMPurify needs a DOM the server has not), hence this tokenizer — the same
 * approach as the template documents' reader (document-html.ts).
 */
const ALLOWED = new Set([
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'strong',
  'em',
  'u',
  's',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'a',
]);
const ALIASES: Record<string, string> = { b: 'strong', i: 'em', strike: 's', del: 's', div: 'p', h5: 'h4', h6: 'h4' };
const VOID = new Set(['br', 'hr']);
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'svg',
  'math',
  'noscript',
  'textarea',
  'select',
  'title',
  'head',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
]);

/**
 * A link's target when it is safe: http(s), mailto:, tel:, a path of the site or an anchor. A
 * backslash anywhere refuses it: browsers read `\` as `/` in a URL, so `/\evil.example` is
 * `//evil.example`, another site; no link the editor writes has one.
 * A percent-escape (`/%5Cevil.example`) is not decoded by the browser and stays a path of the site.
 */
export function safeHref(raw: string): string | null {
  // browsers ignore control characters and whitespace inside a scheme ("java\tscript:") and around the URL
  const v = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (!v || v.includes('\\')) return null;
  if (/^(https?:\/\/|mailto:|tel:)/i.test(v)) return v;
  if (/^(\/(?!\/)|#)/.test(v)) return v;
  return null;
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attrs);
  return m ? (m[2] ?? m[3] ?? m[4] ?? '') : undefined;
}

export function sanitizeHtml(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let skip: string | null = null;
  const re =
    /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[!?][^>]*>?|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+)|</g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const [whole, close, rawTag, attrs = '', text] = m;
    if (skip) {
      if (close && rawTag?.toLowerCase() === skip) skip = null;
      continue;
    }
    if (text !== undefined || whole === '<') {
      out.push(escapeHtml(decodeEntities(text ?? '<')));
      continue;
    }
    if (!rawTag) continue; // comments, CDATA, doctype, processing instructions
    let tag = rawTag.toLowerCase();
    if (DROP_WITH_CONTENT.has(tag)) {
      if (!close && !/\/\s*$/.test(attrs)) skip = tag;
      continue;
    }
    tag = ALIASES[tag] ?? tag;
    if (!ALLOWED.has(tag)) continue;
    if (VOID.has(tag)) {
      if (!close) out.push(`<${tag}>`);
      continue;
    }
    if (close) {
      const at = open.lastIndexOf(tag);
      if (at < 0) continue;
      while (open.length > at) out.push(`</${open.pop()}>`);
      continue;
    }
    if (tag === 'a') {
      const href = safeHref(attr(attrs, 'href') ?? '');
      out.push(href ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer">` : '<a>');
    } else out.push(`<${tag}>`);
    open.push(tag);
  }
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join('');
}

/** A stored value of a rich-text field (a string, or a `text3`'s three) sanitised; anything else as it is. */
export function sanitizeRich(v: unknown): unknown {
  if (typeof v === 'string') return sanitizeHtml(v);
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, typeof x === 'string' ? sanitizeHtml(x) : x]),
    );
  }
  return v;
}
