import { describe, expect, it } from 'vitest';
import { canonicalContent, canonicalJson, decimalString } from './canonical.ts';

describe('canonicalContent', () => {
  it('sorts keys at every level and leaves out whitespace', () => {
    const a = { year: 2024, subject: { name: 'Zavod', inn: '123456789' }, items: [{ b: 1, a: 2 }] };
    const b = { items: [{ a: 2, b: 1 }], subject: { inn: '123456789', name: 'Zavod' }, year: 2024 };
    expect(canonicalJson(a)).toBe('{"items":[{"a":"2","b":"1"}],"subject":{"inn":"123456789","name":"Zavod"},"year":"2024"}');
    expect(canonicalContent(a)).toEqual(canonicalContent(b));
  });

  it('writes numbers as plain decimal strings and keeps money strings verbatim', () => {
    expect(canonicalJson({ n: 12.5, m: '1234.50', z: -0, big: 1e21, small: 1.5e-7, neg: -2.25e-9, i: 10n ** 20n })).toBe(
      '{"big":"1000000000000000000000","i":"100000000000000000000","m":"1234.50","n":"12.5","neg":"-0.00000000225","small":"0.00000015","z":"0"}',
    );
    expect(decimalString(123e25)).toBe('1230000000000000000000000000');
    expect(decimalString(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(decimalString(-1.2345e21)).toBe('-1234500000000000000000');
    for (const n of [1e21, 1.5e-7, 123e25, -2.25e-9, 5e-324, Number.MAX_VALUE]) expect(Number(decimalString(n))).toBe(n);
  });

  it('sorts keys by UTF-16 code units and writes UTF-8 in NFC', () => {
    const text = canonicalJson({ b: 1, B: 2, a: 3, é: 4, _: 5 });
    expect(text).toBe('{"B":"2","_":"5","a":"3","b":"1","é":"4"}');
    const decomposed = 'Toshkent shahri, Oʻzbekiston — cafe\u0301';
    const bytes = canonicalContent({ address: decomposed });
    expect(new TextDecoder().decode(bytes)).toBe('{"address":"Toshkent shahri, Oʻzbekiston — café"}');
    expect(bytes).toEqual(new TextEncoder().encode('{"address":"Toshkent shahri, Oʻzbekiston — café"}'));
  });

  it('handles null, booleans, dates, escapes and undefined members', () => {
    expect(canonicalJson({ a: null, b: true, c: false, d: new Date('2024-03-01T10:00:00+05:00'), e: undefined, f: 'q"\\\n\u0001' })).toBe(
      '{"a":null,"b":true,"c":false,"d":"2024-03-01T05:00:00.000Z","f":"q\\"\\\\\\n\\u0001"}',
    );
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });

  it('refuses values without a canonical form', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [
      { n: NaN },
      { n: Infinity },
      { f: () => 1 },
      { m: new Map() },
      [undefined],
      { d: new Date('x') },
      cyclic,
      { s: Symbol('x') },
      { b: Buffer.from('x') },
    ]) {
      expect(() => canonicalContent(bad), JSON.stringify(Object.keys(bad))).toThrow(TypeError);
    }
    expect(() => canonicalContent({ 'e\u0301': 1, é: 2 })).toThrow(/NFC/);
  });

  it('is deterministic for a realistic report', () => {
    const report = {
      id: 77,
      subject: { inn: '305123456', name: '"Toshkent kimyo" AJ' },
      year: 2024,
      period: 'Q2',
      ingredients: [
        { code: 'NO2', mass: 1.25, norm: '12.0000', coefficient: 1.5 },
        { code: 'SO2', mass: 0.5, norm: '3.5000', coefficient: 1 },
      ],
      amount: '15234.75',
    };
    const once = canonicalJson(report);
    expect(canonicalJson(JSON.parse(JSON.stringify(report)))).toBe(once);
    expect(once).toBe(
      '{"amount":"15234.75","id":"77","ingredients":[{"code":"NO2","coefficient":"1.5","mass":"1.25","norm":"12.0000"},{"code":"SO2","coefficient":"1","mass":"0.5","norm":"3.5000"}],"period":"Q2","subject":{"inn":"305123456","name":"\\"Toshkent kimyo\\" AJ"},"year":"2024"}',
    );
  });
});
