import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Block } from './document-html.ts';

/**
 * A printed document as a PDF, drawn on the server with pdfkit from the same blocks as its page,
 * in the DejaVu Sans fonts (package dejavu-fonts-ttf), which hold Uzbek Latin (ʻ ʼ), Uzbek
 * Cyrillic (ў қ ғ ҳ) and Russian. A4, the margins of an official letter.
 */
const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/README.md')), 'ttf');
const FONTS = {
  regular: join(FONT_DIR, 'DejaVuSans.ttf'),
  bold: join(FONT_DIR, 'DejaVuSans-Bold.ttf'),
  italic: join(FONT_DIR, 'DejaVuSans-Oblique.ttf'),
  boldItalic: join(FONT_DIR, 'DejaVuSans-BoldOblique.ttf'),
};

/**
 * A run's text with a zero-width space after every 20 characters of an unbroken stretch (no space,
 * tab or line end between them). pdfkit breaks a word wider than the line by measuring its whole
 * remainder again after every line and caching each remainder's layout — quadratic in time and
 * memory: one 20,000-letter word took 28 s and 840 MB. Twenty characters of the widest glyph fit
 * any line, so pdfkit never splits a word itself; the break falls at a stretch's 20th character,
 * invisibly. NBSP and other non-breaking characters count as letters.
 */
export function breakable(text: string): string {
  return text.replace(/[^ \t\n\r\u200b]{20}(?=[^ \t\n\r\u200b])/gu, '$&\u200b');
}

const SIZE: Record<Block['kind'], number> = { h1: 15, h2: 13, h3: 12, p: 11, li: 11, quote: 11, hr: 11 };
const MM = 72 / 25.4;

export interface PdfInfo {
  title: string;
  lang: string;
  /** when the document was issued: fixed in the file, so the same document gives the same bytes */
  issuedAt: Date;
  /** the public check of the document: its QR code and short code, at the foot of its last page */
  verify?: VerifyMark;
}

/** What a document prints for whoever holds it to check it (decision 0075). */
export interface VerifyMark {
  /** the public page the QR code opens */
  url: string;
  /** the short code, as printed ("K7MQ2-X9RTD") */
  code: string;
  /** the line above the code, in the document's language ("Check this document: …") */
  caption: string;
}

/** The dark modules of a QR code of `text` (error correction M), as [row, column] pairs, and its size. */
async function qrModules(text: string): Promise<{ size: number; dark: [number, number][] }> {
  const { default: QR } = await import('qrcode');
  const m = QR.create(text, { errorCorrectionLevel: 'M' }).modules;
  const dark: [number, number][] = [];
  for (let r = 0; r < m.size; r++) for (let c = 0; c < m.size; c++) if (m.get(r, c)) dark.push([r, c]);
  return { size: m.size, dark };
}

export async function blocksToPdf(blocks: Block[], info: PdfInfo): Promise<Buffer> {
  // pdfkit (and its font machinery) is loaded on the first PDF, not by every process that imports the
  // engine: through tsx's loader it takes about 25 MB of memory
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 20 * MM, bottom: 20 * MM, left: 25 * MM, right: 15 * MM },
    info: { Title: info.title, Creator: 'ecofond', Producer: 'ecofond', CreationDate: info.issuedAt, ModDate: info.issuedAt },
    lang: info.lang === 'uk' ? 'uz-Cyrl' : info.lang,
    font: FONTS.regular,
    bufferPages: false,
  } as PDFKit.PDFDocumentOptions);
  // the regular face is the document's default font, cached by its path; registering the same file
  // again under a name makes pdfkit (0.20) re-read and re-parse the font on every switch to that name
  // (its cache finds the face already open under the font's own name and does not keep the alias):
  // 1.5 ms a run, which made a print of the largest template take 29 s
  const FACE = { regular: FONTS.regular, bold: 'bold', italic: 'italic', boldItalic: 'boldItalic' } as const;
  for (const name of ['bold', 'italic', 'boldItalic'] as const) doc.registerFont(name, FONTS[name]);
  let face: keyof typeof FACE = 'regular';
  const use = (f: keyof typeof FACE) => {
    if (f !== face) {
      doc.font(FACE[f]);
      face = f;
    }
  };
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  for (const b of blocks) {
    if (b.kind === 'hr') {
      doc.moveDown(0.3);
      const y = doc.y;
      doc
        .moveTo(doc.page.margins.left, y)
        .lineTo(doc.page.margins.left + width, y)
        .lineWidth(0.7)
        .stroke();
      doc.moveDown(0.6);
      continue;
    }
    const heading = b.kind === 'h1' || b.kind === 'h2' || b.kind === 'h3';
    const align = b.kind === 'h1' || b.kind === 'h2' ? 'center' : b.kind === 'p' || b.kind === 'quote' ? 'justify' : 'left';
    const indent = b.kind === 'li' || b.kind === 'quote' ? 8 * MM : 0;
    const x = doc.page.margins.left + indent;
    const runs = b.runs.length ? b.runs : [{ text: ' ' }];
    doc.fontSize(SIZE[b.kind]);
    if (b.marker) {
      use('regular');
      doc.text(`${b.marker} `, x - 5 * MM, doc.y, { continued: false, lineBreak: false, width: 5 * MM });
      doc.moveUp();
    }
    runs.forEach((r, i) => {
      const bold = heading || r.bold;
      use(bold && r.italic ? 'boldItalic' : bold ? 'bold' : r.italic ? 'italic' : 'regular');
      const opts = {
        continued: i < runs.length - 1,
        underline: !!r.underline,
        align,
        width: width - indent,
        lineGap: 2,
      } as PDFKit.Mixins.TextOptions;
      const text = breakable(r.text) || (i < runs.length - 1 ? '' : ' ');
      if (i === 0) doc.text(text, x, doc.y, opts);
      else doc.text(text, opts);
    });
    doc.moveDown(heading ? 0.6 : 0.35);
  }
  if (info.verify) {
    // the QR code (26 mm) and the code beside it, below the text; on a new page when they do not fit
    const side = 26 * MM;
    const bottom = doc.page.height - doc.page.margins.bottom;
    if (doc.y + 6 * MM + side > bottom) doc.addPage();
    const top = Math.max(doc.y + 6 * MM, bottom - side);
    const left = doc.page.margins.left;
    const { size, dark } = await qrModules(info.verify.url);
    const cell = side / size;
    for (const [r, c] of dark) doc.rect(left + c * cell, top + r * cell, cell + 0.05, cell + 0.05);
    doc.fillColor('#000').fill();
    use('regular');
    const tx = left + side + 5 * MM;
    const tw = width - side - 5 * MM;
    doc.fontSize(9).text(info.verify.caption, tx, top + 2 * MM, { width: tw, lineGap: 1 });
    use('bold');
    doc.fontSize(14).text(info.verify.code, tx, doc.y + 1.5 * MM, { width: tw, characterSpacing: 1 });
    use('regular');
    doc.fontSize(8).text(breakable(info.verify.url), tx, doc.y + 1.5 * MM, { width: tw });
  }
  doc.end();
  return done;
}
