import { describe, expect, it } from 'vitest';
import { safeHref, sanitizeHtml, sanitizeRich } from './rich-html.ts';

describe('rich text allow-list', () => {
  it('keeps what the editor writes', () => {
    const html =
      '<h2>Title</h2><p>One <strong>bold</strong>, <em>italic</em>, <u>u</u> and <s>s</s><br>next</p><ul><li><p>a</p></li></ul><ol><li>b</li></ol><blockquote><p>q</p></blockquote><hr>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('drops scripts with their content, handlers, styles and unknown tags', () => {
    expect(sanitizeHtml('<p>a<script>alert(1)</script>b</p>')).toBe('<p>ab</p>');
    expect(sanitizeHtml('<p onclick="x()" style="color:red" class="c">a</p>')).toBe('<p>a</p>');
    expect(sanitizeHtml('<img src=x onerror=alert(1)>text')).toBe('text');
    expect(sanitizeHtml('<svg><script>alert(1)</script></svg><p>ok</p>')).toBe('<p>ok</p>');
    expect(sanitizeHtml('<iframe src="//evil"></iframe><span>t</span>')).toBe('t');
    expect(sanitizeHtml('<SCRIPT>x</SCRIPT>y')).toBe('y');
    expect(sanitizeHtml('<p title="a>b" onmouseover="x">z</p>')).toBe('<p>z</p>');
    expect(sanitizeHtml('a<!-- <script>x</script> -->b')).toBe('ab');
    expect(sanitizeHtml('<style>p{}</style>')).toBe('');
  });

  it('keeps safe links only', () => {
    expect(sanitizeHtml('<a href="https://lex.uz" target="_blank" onclick="x">l</a>')).toBe(
      '<a href="https://lex.uz" rel="noopener noreferrer">l</a>',
    );
    expect(sanitizeHtml('<a href="javascript:alert(1)">l</a>')).toBe('<a>l</a>');
    expect(sanitizeHtml('<a href="java&#x09;script:alert(1)">l</a>')).toBe('<a>l</a>');
    expect(sanitizeHtml('<a href=" JAVASCRIPT:x">l</a>')).toBe('<a>l</a>');
    expect(sanitizeHtml('<a href="data:text/html,x">l</a>')).toBe('<a>l</a>');
    expect(safeHref('//evil.example')).toBeNull();
    expect(safeHref('/#/map')).toBe('/#/map');
    expect(safeHref('mailto:a@b.uz')).toBe('mailto:a@b.uz');
  });

  it('refuses a path a browser reads as another site: a backslash, or controls and spaces hiding one', () => {
    // browsers read "\" as "/": each of these is //evil.example/x
    for (const href of [
      '/\\evil.example/x',
      '\\\\evil.example/x',
      '\\/evil.example/x',
      '/&#92;evil.example/x',
      '/\t\\evil.example/x',
      ' /\\evil.example',
      '/\n/evil.example/x',
      '/ /evil.example',
      '\u0000//evil.example',
      'https:\\\\evil.example',
      'https:/\\evil.example',
    ]) {
      expect([href, safeHref(href)]).toEqual([href, null]);
      expect(sanitizeHtml(`<a href="${href}">l</a>`)).toBe('<a>l</a>');
    }
    // a scheme with a tab or a line break in it, or a leading space, is still that scheme
    for (const href of ['java\tscript:alert(1)', 'java\nscript:alert(1)', '  javascript:alert(1)', 'jav&#x0A;ascript:alert(1)'])
      expect(safeHref(href)).toBeNull();
    // an entity the reader does not know stays text: the stored href says "&bsol;", not "\\"
    expect(sanitizeHtml('<a href="/&bsol;evil.example/x">l</a>')).toBe(
      '<a href="/&amp;bsol;evil.example/x" rel="noopener noreferrer">l</a>',
    );
    // a percent-escape is not decoded by the browser: a path of the site, kept as written
    expect(safeHref('/%2F%5Cevil.example')).toBe('/%2F%5Cevil.example');
    expect(safeHref('%2F%5Cevil.example')).toBeNull();
    // leading spaces are dropped (as browsers do) and the site's paths kept
    expect(safeHref('  /news/1')).toBe('/news/1');
    expect(safeHref('https://lex.uz/docs/1')).toBe('https://lex.uz/docs/1');
  });

  it('escapes text and balances tags', () => {
    expect(sanitizeHtml('1 < 2 & 3 > 2')).toBe('1 &lt; 2 &amp; 3 &gt; 2');
    expect(sanitizeHtml('&lt;script&gt;')).toBe('&lt;script&gt;');
    expect(sanitizeHtml('<p><strong>open')).toBe('<p><strong>open</strong></p>');
    expect(sanitizeHtml('</em>x</p>')).toBe('x');
    expect(sanitizeHtml('<b>b</b><i>i</i>')).toBe('<strong>b</strong><em>i</em>');
  });

  it('sanitises each language of a text3', () => {
    expect(sanitizeRich({ uz: '<p>a<script>x</script></p>', uk: null, ru: '<img onerror=x>' })).toEqual({
      uz: '<p>a</p>',
      uk: null,
      ru: '',
    });
    expect(sanitizeRich(null)).toBeNull();
  });
});
