import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { UK_CATALOGUES, UK_STATE, fillUzbekCyrillic } from './fill-uk.ts';

const repo = fileURLToPath(new URL('../', import.meta.url));

describe('i18n:fill-uk', () => {
  it('the Uzbek Cyrillic catalogues of the project are derived from the current Uzbek Latin ones', () => {
    const r = fillUzbekCyrillic(repo, { check: true });
    expect(r.stale, 'hand-written uk whose uz changed: review, then `npx ecofond i18n:fill-uk --keep/--derive <key>`').toEqual([]);
    expect(r.changed, 'run `npx ecofond i18n:fill-uk`').toEqual([]);
  });

  it('--check exits 1 on an out-of-date catalogue and 0 on an up-to-date one', () => {
    const root = project({ a: 'Subyekt' }, {});
    const check = () => {
      try {
        execFileSync(process.execPath, [join(repo, 'cli/bin.mjs'), 'i18n:fill-uk', '--check', '--root', root], { stdio: 'pipe' });
        return 0;
      } catch (e) {
        return (e as { status: number }).status;
      }
    };
    expect(check()).toBe(1);
    fillUzbekCyrillic(root);
    expect(check()).toBe(0);
  });

  /** A project folder with the uz and uk catalogues (the first one given, the others empty). */
  function project(uz: Record<string, unknown>, uk: Record<string, unknown> | undefined): string {
    const root = mkdtempSync(join(tmpdir(), 'ecofond-fill-uk-'));
    UK_CATALOGUES.forEach(([uzPath, ukPath], i) => {
      mkdirSync(dirname(join(root, uzPath)), { recursive: true });
      writeFileSync(join(root, uzPath), JSON.stringify(i === 0 ? uz : {}));
      if (uk !== undefined) writeFileSync(join(root, ukPath), JSON.stringify(i === 0 ? uk : {}));
    });
    return root;
  }
  const ukOf = (root: string) => JSON.parse(readFileSync(join(root, UK_CATALOGUES[0][1]), 'utf8'));
  const setUz = (root: string, uz: unknown) => writeFileSync(join(root, UK_CATALOGUES[0][0]), JSON.stringify(uz));
  const setUk = (root: string, uk: unknown) => writeFileSync(join(root, UK_CATALOGUES[0][1]), `${JSON.stringify(uk, null, 2)}\n`);

  it("adds missing captions in the uz order and keeps the uk file's own order", () => {
    const root = project(
      { menu: { b: 'Subyektlar', a: 'Excelga yuklash', c: 'IP manzil' }, z: 'I toifa' },
      { z: 'I тоифа', menu: { a: 'Excelга юклаш' } },
    );
    const r = fillUzbekCyrillic(root);
    expect(r.added.sort()).toEqual([`${UK_CATALOGUES[0][1]}: menu.b`, `${UK_CATALOGUES[0][1]}: menu.c`]);
    expect(JSON.stringify(ukOf(root))).toBe(
      JSON.stringify({ z: 'I тоифа', menu: { b: 'Субъектлар', a: 'Excelга юклаш', c: 'IP манзил' } }),
    );
  });

  it('is idempotent: a second run changes nothing, byte for byte', () => {
    const root = project({ a: 'Subyekt', b: { c: 'Aksiyadorlik jamiyati' } }, undefined);
    fillUzbekCyrillic(root);
    const files = [...UK_CATALOGUES.map(([, uk]) => uk), UK_STATE].map((p) => readFileSync(join(root, p), 'utf8'));
    const again = fillUzbekCyrillic(root);
    expect(again.changed).toEqual([]);
    expect([...UK_CATALOGUES.map(([, uk]) => uk), UK_STATE].map((p) => readFileSync(join(root, p), 'utf8'))).toEqual(files);
    expect(fillUzbekCyrillic(root, { check: true })).toMatchObject({ changed: [], stale: [], added: [], rederived: [] });
  });

  it('re-derives what it wrote (and what the old letter-by-letter transliteration wrote) when uz or the rules change', () => {
    // "Субект" is what the letter-by-letter rules wrote: it counts as derived and is corrected
    const root = project({ a: 'Subyekt', b: 'Yangi' }, { a: 'Субект', b: 'Янги' });
    expect(fillUzbekCyrillic(root).rederived).toEqual([`${UK_CATALOGUES[0][1]}: a`]);
    expect(ukOf(root)).toEqual({ a: 'Субъект', b: 'Янги' });
    setUz(root, { a: 'Subyektlar', b: 'Yangi' });
    expect(fillUzbekCyrillic(root, { check: true }).changed).toEqual([UK_CATALOGUES[0][1]]);
    fillUzbekCyrillic(root);
    expect(ukOf(root)).toEqual({ a: 'Субъектлар', b: 'Янги' });
  });

  it('never overwrites a value written by hand; reports it when its uz changes; --keep and --derive settle it', () => {
    const root = project({ a: 'Tasdiqlash', b: 'oʻzbekcha' }, { a: 'Маъқуллаш', b: 'ўзбекча' });
    fillUzbekCyrillic(root);
    // a derived value edited by hand is kept from then on
    setUk(root, { a: 'Маъқуллаш', b: 'лотинча' });
    expect(fillUzbekCyrillic(root)).toMatchObject({ changed: [], hand: 2, stale: [] });
    expect(ukOf(root)).toEqual({ a: 'Маъқуллаш', b: 'лотинча' });
    // the uz of a hand-written value changes: kept, and reported until reviewed
    setUz(root, { a: 'Tasdiqlash (yakuniy)', b: 'oʻzbekcha' });
    const r = fillUzbekCyrillic(root);
    expect(r.stale).toEqual([{ key: `${UK_CATALOGUES[0][1]}: a`, uz: 'Tasdiqlash (yakuniy)', was: 'Tasdiqlash', uk: 'Маъқуллаш' }]);
    expect(ukOf(root).a).toBe('Маъқуллаш');
    expect(fillUzbekCyrillic(root, { check: true }).stale).toHaveLength(1);
    fillUzbekCyrillic(root, { keep: ['a'] });
    expect(fillUzbekCyrillic(root, { check: true }).stale).toEqual([]);
    // --derive turns a hand-written value back into a derived one
    fillUzbekCyrillic(root, { derive: ['a'] });
    expect(ukOf(root).a).toBe('Тасдиқлаш (якуний)');
    // a uz edited together with its uk by hand is a new hand-written value, not a stale one
    setUz(root, { a: 'Tasdiqlash (yakuniy)', b: 'lotincha' });
    setUk(root, { a: 'Тасдиқлаш (якуний)', b: 'лотин ёзуви' });
    expect(fillUzbekCyrillic(root)).toMatchObject({ stale: [], hand: 1 });
    expect(ukOf(root).b).toBe('лотин ёзуви');
  });

  it('drops captions gone from uz and transliterates plural forms one by one', () => {
    const root = project({ n: '1 ta yozuv |||| %{smart_count} ta yozuv' }, { n: 'x', old: 'эски' });
    const r = fillUzbekCyrillic(root, { derive: ['n'] });
    expect(r.removed).toEqual([`${UK_CATALOGUES[0][1]}: old`]);
    expect(ukOf(root)).toEqual({ n: '1 та ёзув |||| %{smart_count} та ёзув' });
  });
});
