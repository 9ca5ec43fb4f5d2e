import type { FieldMeta, FilterOp, ReportParamMeta } from '../../api/meta/types.ts';
import { TEXT_MAX_LENGTH } from '../../api/engine/payload-schema.ts';

/**
 * Bad values generated from the metadata: for a field of a write payload, for a list filter and
 * for a report parameter. Each is wrong for its field's type whatever the field says besides
 * (its length, pattern, interval), so every one of them must be refused.
 */

export const NUL = 'ab\u0000cd';
export const LONE_SURROGATE = 'ab\ud800cd';
export const HUGE = 1e20;
export const HUGE_TEXT = '99999999999999999999';

/** Text PostgreSQL cannot store, and JSON types no scalar field takes. */
const UNIVERSAL: unknown[] = [NUL, LONE_SURROGATE];
const WRONG_TYPES_FOR_SCALARS: unknown[] = [{ a: 1 }, [1], true];

const IDS: unknown[] = [0, -1, 1.5, 'abc', HUGE, HUGE_TEXT, Number.MAX_SAFE_INTEGER + 1];
const DATES: unknown[] = ['0000-01-01', '2024-02-30', '10000-01-01', 'abc', '15.01.2024', 20240115];
const DATETIMES: unknown[] = [
  '0000-01-01T00:00:00Z',
  '2024-02-30T10:00:00Z',
  '10000-01-01T00:00:00Z',
  '2024-01-15T25:00:00Z',
  '2024-01-15T10:00:00+23:00',
  'March 7, 2024',
  'abc',
  1705312800000,
];

/** The most a string or text field takes. */
export function maxLengthOf(f: FieldMeta): number {
  return f.maxLength ?? (f.type === 'string' ? 255 : TEXT_MAX_LENGTH);
}

/** Bad values of one field of a write payload (children: see childRows in the fuzz test). */
export function badFieldValues(f: FieldMeta): unknown[] {
  switch (f.type) {
    case 'string':
    case 'text': {
      const out = [...UNIVERSAL, ...WRONG_TYPES_FOR_SCALARS, 12345, 'x'.repeat(maxLengthOf(f) + 1)];
      // a formatted value of letters only: nothing of it is a typing mask
      if (f.format) out.push('x'.repeat(100_000));
      return out;
    }
    case 'integer':
      return [...UNIVERSAL, ...WRONG_TYPES_FOR_SCALARS, HUGE, HUGE_TEXT, 2147483648, -2147483649, 1.5, 'abc'];
    case 'decimal':
    case 'money':
      return [...UNIVERSAL, ...WRONG_TYPES_FOR_SCALARS, HUGE, HUGE_TEXT, '1'.repeat(10_000), 'abc', '1.2.3', '1e5', 1.23456789];
    case 'boolean':
      return [...UNIVERSAL, { a: 1 }, [true], 'abc', 1];
    case 'date':
      return [...UNIVERSAL, ...WRONG_TYPES_FOR_SCALARS, ...DATES];
    case 'datetime':
      return [...UNIVERSAL, ...WRONG_TYPES_FOR_SCALARS, ...DATETIMES];
    case 'enum':
      return [...UNIVERSAL, ...WRONG_TYPES_FOR_SCALARS, '__no_such_value__', 1];
    case 'ref':
    case 'file':
    case 'image':
      return [...UNIVERSAL, ...WRONG_TYPES_FOR_SCALARS, ...IDS];
    case 'refs':
    case 'files':
      return [...UNIVERSAL, { a: 1 }, true, ...IDS.map((x) => [x]), [NUL]];
    case 'text3': {
      const max = f.maxLength ?? 1000;
      return [
        ...UNIVERSAL,
        [1],
        true,
        42,
        { uz: NUL },
        { uz: 'Sinov', ru: NUL },
        { uz: 'Sinov', uk: LONE_SURROGATE },
        { uz: 'x'.repeat(max + 1) },
        { uz: 'Sinov', ru: 12 },
        { uz: 'Sinov', xx: 'a' },
      ];
    }
    case 'point':
      return [
        ...UNIVERSAL,
        [69, 41],
        true,
        42,
        { lat: 91, lng: 69 },
        { lat: 41, lng: 181 },
        { lat: 'a', lng: 69 },
        { lat: 41 },
        { lat: HUGE, lng: 69 },
        { lat: 41, lng: 69, z: 1 },
        { lat: NUL, lng: 69 },
      ];
    case 'polygon':
      return [
        ...UNIVERSAL,
        { a: 1 },
        true,
        42,
        [[69, 41]],
        [
          [69, 41],
          [69.1, 41],
          [200, 41],
        ],
        [
          ['a', 'b'],
          [69.1, 41],
          [69.1, 41.1],
        ],
        [
          [69, 41, 1],
          [69.1, 41],
          [69.1, 41.1],
        ],
        [69, 41, 69.1],
        [
          [69, 41],
          [69.1, HUGE],
          [69.1, 41.1],
        ],
      ];
    case 'password':
      return [...UNIVERSAL, { a: 1 }, [1], true, 123456, 'abc', 'x'.repeat(201)];
    case 'children':
      return [...UNIVERSAL, { a: 1 }, true, 42, ['abc'], [42]];
    // written by the engine only: a client's value is ignored, never stored
    case 'json':
      return [];
  }
}

/** What a filter's values are, from its op and its column's field (created_at and the like: date-times). */
export type FilterKind = 'search' | 'bool' | 'integer' | 'id' | 'decimal' | 'date' | 'datetime' | 'enum' | 'string';

export function filterKind(op: FilterOp, f: FieldMeta | undefined, column: string): FilterKind {
  if (op === 'search') return 'search';
  if (op === 'bool') return 'bool';
  const type = f?.type ?? (column.endsWith('_at') ? 'datetime' : 'integer');
  switch (type) {
    case 'integer':
      return 'integer';
    case 'ref':
    case 'refs':
    case 'file':
    case 'image':
    case 'files':
      return 'id';
    case 'decimal':
    case 'money':
      return 'decimal';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'enum':
      return 'enum';
    case 'boolean':
      return 'bool';
    default:
      return 'string';
  }
}

/** Bad values of a list filter as query text (NUL included; lone surrogates go through `filter` JSON, a URL cannot carry one). */
export function badFilterValues(kind: FilterKind): string[] {
  const common = ['a\u0000b', 'x'.repeat(1001)];
  switch (kind) {
    case 'search':
      return common;
    case 'string':
      return common;
    case 'bool':
      return [...common, 'maybe', '1'];
    case 'integer':
      return [...common, '2147483648', '-2147483649', '1e20', HUGE_TEXT, 'abc', '1.5'];
    case 'id':
      return [...common, '0', '-1', '1.5', 'abc', '1e20', HUGE_TEXT, String(Number.MAX_SAFE_INTEGER + 1)];
    case 'decimal':
      return [...common, '1'.repeat(200), '1e5', 'abc', '1.2.3', '0.' + '1'.repeat(100)];
    case 'date':
      return [...common, '0000-01-01', '2024-02-30', '10000-01-01', 'abc', '2024-01-01T25:00', '2024-01-01garbage'];
    case 'datetime':
      return [
        ...common,
        '0000-01-01T00:00:00Z',
        '2024-02-30',
        'March 7, 2024',
        '2024-01-15T10:00:00+23:00',
        '2024-01-01 25:00',
        '10000-01-01',
        'abc',
        '1705312800000',
      ];
    case 'enum':
      return [...common, '__no_such_value__'];
  }
}

/** Bad values of a report parameter as query text. */
export function badReportParamValues(p: ReportParamMeta): string[] {
  const common = ['a\u0000b'];
  switch (p.type) {
    case 'year':
      return [...common, 'abc', '1e20', HUGE_TEXT, '0', '1.5'];
    case 'ref':
    case 'integer':
      return [...common, '-1', 'abc', '1e20', HUGE_TEXT, '1.5'];
    case 'date':
      return [...common, '0000-01-01', '2024-02-30', '10000-01-01', 'abc'];
    case 'enum':
      return [...common, '__no_such_value__'];
    case 'string':
      return [...common, 'x'.repeat(201)];
  }
}
