import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support';

/**
 * The captions, without a browser: the three files have the same keys and no empty caption, every
 * key the code names exists, Uzbek Cyrillic is Cyrillic and Uzbek Latin uses the modifier letters.
 */
const DIR = join(ROOT, 'public-site/src/i18n');
const load = (l: string) => JSON.parse(readFileSync(join(DIR, `${l}.json`), 'utf8')) as Record<string, string>;
const dicts = { uz: load('uz'), uk: load('uk'), ru: load('ru') };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

describe('the public site captions', () => {
  it('have identical keys in uz, uk and ru, none empty', () => {
    const keys = Object.keys(dicts.uz).sort();
    expect(Object.keys(dicts.uk).sort()).toEqual(keys);
    expect(Object.keys(dicts.ru).sort()).toEqual(keys);
    for (const [lang, d] of Object.entries(dicts)) {
      for (const [k, v] of Object.entries(d)) expect(v.trim(), `${lang}: ${k}`).not.toBe('');
    }
  });

  it('keep the same placeholders in every language', () => {
    const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const k of Object.keys(dicts.uz)) {
      expect(ph(dicts.uk[k]), `uk: ${k}`).toEqual(ph(dicts.uz[k]));
      expect(ph(dicts.ru[k]), `ru: ${k}`).toEqual(ph(dicts.uz[k]));
    }
  });

  it('exist for every key the code names', () => {
    const used = new Set<string>();
    for (const file of sources(join(ROOT, 'public-site/src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([a-z_]+(?:\.[a-z0-9_]+)+)'/g)) used.add(m[1]);
      for (const m of text.matchAll(/title: '([a-z_]+(?:\.[a-z0-9_]+)+)'/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter((k) => !(k in dicts.uz));
    expect(missing).toEqual([]);
  });

  it('write Uzbek Cyrillic in Cyrillic and Uzbek Latin with oʻ and gʻ', () => {
    const latinWord = /[A-Za-z]{2,}/g;
    // proper names kept in Latin letters: file formats (MP4 reads as MP, PDF), Excel, QR, SMS, CO₂, SHA-256, the i-Tree model and its maker
    const allowed = new Set([
      'API',
      'JPG',
      'PNG',
      'WebP',
      'MP',
      'WebM',
      'MOV',
      'Excel',
      'QR',
      'PDF',
      'SHA',
      'SMS',
      'CO',
      'Tree',
      'Streets',
      'Interior',
      'West',
      'USDA',
      'Forest',
      'Service',
    ]);
    for (const [k, v] of Object.entries(dicts.uk)) {
      const words = (v.replace(/\{\w+\}/g, '').match(latinWord) ?? []).filter((w) => !allowed.has(w));
      expect(words, `uk: ${k}`).toEqual([]);
    }
    for (const [k, v] of Object.entries(dicts.uz)) {
      expect(/[а-яёўқғҳ]/i.test(v), `uz has Cyrillic: ${k}`).toBe(false);
      expect(/[oOgG]['’‘`]/.test(v), `uz: ${k} uses an apostrophe for oʻ/gʻ`).toBe(false);
    }
  });
});
