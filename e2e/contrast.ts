import type { Locator } from 'playwright-core';

/**
 * The contrast ratio (WCAG 2) of an element's text against what is behind it, from the computed
 * colours in the browser: the text colour over the first opaque background of the element or its
 * ancestors (semi-transparent backgrounds on the way are blended in).
 */
export async function contrastOf(el: Locator): Promise<{ ratio: number; fg: string; bg: string }> {
  return el.evaluate((node) => {
    type RGBA = [number, number, number, number];
    const parse = (c: string): RGBA => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return [0, 0, 0, 0];
      const p = m[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top: RGBA, below: RGBA): RGBA => {
      const a = top[3] + below[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i] * top[3] + below[i] * below[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const layers: RGBA[] = [];
    for (let n: Element | null = node as Element; n; n = n.parentElement) {
      const bg = parse(getComputedStyle(n).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let bg: RGBA = [255, 255, 255, 1];
    for (const l of layers.reverse()) bg = over(l, bg);
    const fg = over(parse(getComputedStyle(node as Element).color), bg);
    const lum = (c: RGBA) => {
      const ch = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2]);
    };
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const css = (c: RGBA) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`;
    return { ratio: Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100, fg: css(fg), bg: css(bg) };
  });
}
