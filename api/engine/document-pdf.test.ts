import { describe, expect, it } from 'vitest';
import { blocksToPdf, breakable } from './document-pdf.ts';
import { fillBlocks, parseTemplate } from './document-html.ts';
import { loadMetadata } from '../meta/load.ts';
import { largestTemplate, RESERVED_VALUES } from '../../test/support/large-template.ts';

/**
 * Drawing a document's PDF in bounded time (docs/template-documents.md, "Limits"): pdfkit re-read
 * the regular font on every run drawn in it (a template at its size limit took 29 s) and broke a
 * word wider than a line in quadratic time and memory (20,000 letters: 28 s, 840 MB).
 */
const info = { title: 't', lang: 'uz', issuedAt: new Date(0) };
const seconds = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
};

describe('a document drawn as a PDF', () => {
  it('gives an unbroken stretch an invisible break every 20 characters, and leaves words alone', () => {
    expect(breakable('Toʻqimachilik Gʻalla MChJ')).toBe('Toʻqimachilik Gʻalla MChJ');
    expect(breakable('a'.repeat(45))).toBe(`${'a'.repeat(20)}\u200b${'a'.repeat(20)}\u200b${'a'.repeat(5)}`);
    expect(breakable(`${'ў'.repeat(20)} ${'b'.repeat(20)}`)).toBe(`${'ў'.repeat(20)} ${'b'.repeat(20)}`);
    // a no-break space does not end a stretch; a code point outside the BMP is one character
    expect(breakable(`${'x\u00a0'.repeat(10)}y`)).toBe(`${'x\u00a0'.repeat(10)}\u200by`);
    expect(breakable('😀'.repeat(21))).toBe(`${'😀'.repeat(20)}\u200b😀`);
  });

  it('draws a 20,000-letter word in well under the time it took pdfkit alone (28 s)', async () => {
    let pdf: Buffer = Buffer.alloc(0);
    const took = await seconds(async () => {
      pdf = await blocksToPdf([{ kind: 'p', runs: [{ text: 'ў'.repeat(20_000) }] }], info);
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(took).toBeLessThan(5);
  });

  it('draws the heaviest template its size limit allows in seconds (29 s before the font was kept open)', async () => {
    const limit = loadMetadata().entities.get('template-documents')!.fields.body.maxLength!;
    const { body, placeholders } = largestTemplate(limit);
    expect(body).toHaveLength(limit);
    expect(placeholders).toBeGreaterThan(2340);
    const blocks = fillBlocks(parseTemplate(body), RESERVED_VALUES);
    let pdf: Buffer = Buffer.alloc(0);
    await blocksToPdf([{ kind: 'p', runs: [{ text: 'warm-up' }] }], info);
    const took = await seconds(async () => {
      pdf = await blocksToPdf(blocks, info);
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(took).toBeLessThan(10);
  });
});
