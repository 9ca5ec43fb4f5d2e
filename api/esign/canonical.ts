/**
 * The canonical content of a report: the exact bytes the browser signs and the server verifies.
 * Both sides build the same plain object and run it through `canonicalContent`; the signature is
 * over these bytes, never over whatever JSON the HTTP layer happened to send.
 *
 * The form (docs/e-signature.md, "Canonical content"):
 * - JSON text, UTF-8, no whitespace outside strings, no BOM;
 * - object members sorted by key, comparing UTF-16 code units (JavaScript's default sort, as in
 *   RFC 8785 JCS); members whose value is `undefined` are left out, like JSON.stringify does;
 * - strings in Unicode NFC, escaped as JSON.stringify escapes them (", \, control characters);
 * - every number (and bigint) is written as a JSON *string* holding its plain decimal form:
 *   `12.5` → `"12.5"`, `1e21` → `"1000000000000000000000"`, `-0` → `"0"`. Money should already be a
 *   decimal string with its scale (`"1234.50"`, as PostgreSQL `numeric` arrives), and strings are
 *   kept verbatim, so `"1234.50"` and `1234.5` are different content: build the object the same
 *   way on both sides;
 * - `true`, `false`, `null` as in JSON; a Date as its `toISOString()` string;
 * - anything else (NaN, Infinity, functions, symbols, Map, Buffer, class instances, `undefined`
 *   inside an array, cycles) is a TypeError: the caller must decide how to represent it.
 */

const MAX_DEPTH = 64;

export type CanonicalValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | Date
  | readonly CanonicalValue[]
  | { readonly [key: string]: CanonicalValue };

/** The canonical JSON text of a value (see the module comment). */
export function canonicalJson(value: unknown): string {
  return write(value, [], '$');
}

/** The canonical content as UTF-8 bytes: what is signed and verified. */
export function canonicalContent(report: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(report));
}

/** A finite number in plain decimal notation (no exponent), the shortest that reads back the same. */
export function decimalString(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`not a finite number: ${n}`);
  if (n === 0) return '0'; // also -0
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, intPart, fracPart = '', expText] = m;
  const exp = Number(expText);
  const digits = intPart + fracPart;
  const point = intPart.length + exp; // position of the decimal point within `digits`
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + out;
}

function write(value: unknown, ancestors: object[], path: string): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.normalize('NFC'));
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalContent: ${path} is ${value}, not a finite number`);
      return JSON.stringify(decimalString(value));
    case 'bigint':
      return JSON.stringify(value.toString());
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw new TypeError(`canonicalContent: ${path} is a ${typeof value}, which has no canonical form`);
  }
  if (value === null) return 'null';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`canonicalContent: ${path} is an invalid Date`);
    return JSON.stringify(value.toISOString());
  }
  if (ancestors.includes(value)) throw new TypeError(`canonicalContent: ${path} refers back to itself`);
  if (ancestors.length >= MAX_DEPTH) throw new TypeError(`canonicalContent: ${path} is nested deeper than ${MAX_DEPTH}`);
  const inner = [...ancestors, value];

  if (Array.isArray(value)) {
    const items = value.map((item: unknown, i) => {
      if (item === undefined) throw new TypeError(`canonicalContent: ${path}[${i}] is undefined`);
      return write(item, inner, `${path}[${i}]`);
    });
    return `[${items.join(',')}]`;
  }

  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    throw new TypeError(`canonicalContent: ${path} is a ${kind}; only plain objects, arrays and Dates are allowed`);
  }
  const members = new Map<string, unknown>();
  for (const [rawKey, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const key = rawKey.normalize('NFC');
    if (members.has(key)) throw new TypeError(`canonicalContent: ${path} has two keys that read "${key}" after NFC normalisation`);
    members.set(key, v);
  }
  const keys = [...members.keys()].sort(); // UTF-16 code-unit order
  const parts = keys.map((k) => `${JSON.stringify(k)}:${write(members.get(k), inner, `${path}.${k}`)}`);
  return `{${parts.join(',')}}`;
}
