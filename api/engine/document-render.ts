import { blocksToHtml, blocksToText, fillBlocks, parseTemplate } from './document-html.ts';
import { blocksToPdf, type VerifyMark } from './document-pdf.ts';

/**
 * The CPU-heavy half of printing a document (docs/template-documents.md): a template's body and the
 * values of its placeholders in, the filled page's HTML, its text and its PDF out. Pure over plain
 * data, so it runs in a worker thread (document-print.ts) and the server's event loop never waits
 * for it.
 */
export interface RenderInput {
  body: string;
  values: Record<string, string>;
  title: string;
  lang: string;
  /** the moment of issue, ms since the epoch (fixed in the PDF) */
  issuedAt: number;
  /** the most characters the filled document may hold */
  maxChars: number;
  /** the public check printed at the document's foot (QR code and short code) */
  verify?: VerifyMark;
}

export type RenderOutput =
  | { ok: true; html: string; text: string; pdf: Uint8Array }
  /** the filled document holds more characters than `maxChars`: nothing was drawn */
  | { ok: false; tooLong: number };

export async function renderDocument(input: RenderInput): Promise<RenderOutput> {
  const blocks = fillBlocks(parseTemplate(input.body), input.values);
  let chars = 0;
  for (const b of blocks) for (const r of b.runs) chars += r.text.length;
  if (chars > input.maxChars) return { ok: false, tooLong: chars };
  const html = blocksToHtml(blocks);
  const pdf = await blocksToPdf(blocks, { title: input.title, lang: input.lang, issuedAt: new Date(input.issuedAt), verify: input.verify });
  return { ok: true, html, text: blocksToText(blocks), pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength) };
}
