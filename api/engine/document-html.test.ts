import { describe, expect, it } from 'vitest';
import { blocksToHtml, blocksToText, fillBlocks, parseTemplate, templateFields } from './document-html.ts';

describe('a template body read into blocks', () => {
  it('keeps paragraphs, headings, lists, marks and placeholders', () => {
    const blocks = parseTemplate(
      '<h1>Bayonnoma</h1><p>Huquqbuzar: <strong><span data-field="OFFENDER" data-label="F.I.Sh.">{F.I.Sh.}</span></strong>&nbsp;va <em>boshqalar</em></p><ul><li><p>bir</p></li><li>ikki</li></ul><ol start="3"><li>uch</li></ol><hr><p></p>',
    );
    expect(blocks.map((b) => b.kind)).toEqual(['h1', 'p', 'li', 'li', 'li', 'hr', 'p']);
    expect(blocks[1].runs).toEqual([
      { text: 'Huquqbuzar: ' },
      { text: '', field: 'OFFENDER', bold: true },
      { text: '\u00a0va ' },
      { text: 'boshqalar', italic: true },
    ]);
    expect(blocks.slice(2, 5).map((b) => b.marker)).toEqual(['•', '•', '3.']);
    expect(templateFields(blocks)).toEqual(['OFFENDER']);
  });

  it('fills placeholders, a missing one as a blank line, and writes only its own markup', () => {
    const blocks = fillBlocks(parseTemplate('<p><span data-field="A">A</span> / <span data-field="B">B</span></p>'), {
      A: 'Қўчқоров <b>&',
    });
    expect(blocksToText(blocks)).toBe('Қўчқоров <b>& / ________');
    expect(blocksToHtml(blocks)).toBe('<p>Қўчқоров &lt;b&gt;&amp; / ________</p>');
  });

  it('drops scripts, styles, event attributes, images and links, keeping their text where it is text', () => {
    const html = blocksToHtml(
      parseTemplate(
        '<p onclick="x()">Salom<script>alert(1)</script><style>p{}</style><img src=x onerror=alert(2)> <a href="javascript:alert(3)">havola</a></p><iframe src="//evil"></iframe><svg><script>alert(4)</script></svg>',
      ),
    );
    expect(html).toBe('<p>Salom havola</p>');
  });

  it('ignores a placeholder code that is not a code, and text inside a placeholder', () => {
    const blocks = parseTemplate('<p><span data-field="a b">x</span><span data-field="OK"><span>inner</span> text</span>!</p>');
    expect(blocks[0].runs).toEqual([{ text: 'x' }, { text: '', field: 'OK' }, { text: '!' }]);
  });
});
