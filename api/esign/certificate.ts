/**
 * Reading X.509 certificates: loading trusted CAs, names, the tax identifiers E-IMZO puts in the
 * subject, and the extensions the chain check needs.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** Subject attributes that carry the tax identifiers (docs/e-signature.md, "Tax identifiers"). */
export const TAX_ID_OIDS = {
  /** E-IMZO: INN (STIR) of the organisation, 9 digits */
  inn: '1.2.860.3.16.1.1',
  /** E-IMZO: PINFL (JShShIR) of the person, 14 digits */
  pinfl: '1.2.860.3.16.1.2',
  /** LDAP userId; E-IMZO puts the holder's own 9-digit INN there. Used for the INN only when 1.2.860.3.16.1.1 is absent */
  uid: '0.9.2342.19200300.100.1.1',
} as const;

export const INN_PATTERN = /^\d{9}$/;
export const PINFL_PATTERN = /^\d{14}$/;

const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.42': 'G',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'T',
  '2.5.4.15': 'BUSINESSCATEGORY',
  '0.9.2342.19200300.100.1.1': 'UID',
  '1.2.840.113549.1.9.1': 'E',
};

const EXT = {
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
} as const;

/**
 * Extensions we either check or may safely ignore. An unknown extension marked critical makes the
 * certificate unusable (RFC 5280, 4.2). Name constraints and policy constraints are NOT processed,
 * so a CA that marks them critical is refused rather than half-checked.
 */
const RECOGNISED_EXTENSIONS = new Set<string>([
  EXT.subjectKeyIdentifier,
  EXT.keyUsage,
  EXT.basicConstraints,
  EXT.authorityKeyIdentifier,
  '2.5.29.17', // subjectAltName
  '2.5.29.18', // issuerAltName
  '2.5.29.32', // certificatePolicies (not enforced)
  '2.5.29.37', // extKeyUsage (not enforced: E-IMZO's purposes are not published)
  '2.5.29.31', // CRL distribution points
  '2.5.29.46', // freshest CRL
  '2.5.29.16', // private key usage period (informational)
  '1.3.6.1.5.5.7.1.1', // authority information access
  '1.3.6.1.5.5.7.1.3', // qcStatements
]);

export type TrustedCAs = string | Uint8Array | ReadonlyArray<string | Uint8Array>;

/** Parses one DER certificate; throws when the bytes are not a certificate. */
export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  const asn = asn1js.fromBER(der);
  if (asn.offset === -1) throw new Error(`not ASN.1: ${asn.result.error}`);
  if (asn.offset !== der.byteLength) throw new Error('trailing bytes after the certificate');
  return new pkijs.Certificate({ schema: asn.result });
}

/**
 * The trusted CA certificates: PEM text (one or several `BEGIN CERTIFICATE` blocks), DER bytes, or a
 * list of either. A certificate that cannot be read is a configuration error (TypeError), not a
 * problem of the signature being checked.
 */
export function loadTrustedCAs(input: TrustedCAs): pkijs.Certificate[] {
  const items: ReadonlyArray<string | Uint8Array> = typeof input === 'string' || input instanceof Uint8Array ? [input] : input;
  const out: pkijs.Certificate[] = [];
  for (const item of items) {
    const ders: Uint8Array[] = [];
    if (typeof item === 'string') {
      const blocks = [
        ...item.matchAll(/-----BEGIN (?:X509 |TRUSTED )?CERTIFICATE-----([\s\S]*?)-----END (?:X509 |TRUSTED )?CERTIFICATE-----/g),
      ];
      if (blocks.length === 0) throw new TypeError('trustedCAs: a string must hold PEM "BEGIN CERTIFICATE" blocks');
      for (const b of blocks) ders.push(new Uint8Array(Buffer.from(b[1].replace(/\s+/g, ''), 'base64')));
    } else if (item instanceof Uint8Array) ders.push(item);
    else throw new TypeError('trustedCAs: each item must be PEM text or DER bytes');
    for (const der of ders) {
      try {
        out.push(parseCertificate(der));
      } catch (e) {
        throw new TypeError(`trustedCAs: a certificate cannot be read (${(e as Error).message})`, { cause: e });
      }
    }
  }
  if (out.length === 0) throw new TypeError('trustedCAs: no certificate given');
  return out;
}

/** The text of a directory string value (any of the ASN.1 string types), or null. */
export function attributeText(value: unknown): string | null {
  const v = (value as { valueBlock?: { value?: unknown } } | null)?.valueBlock?.value;
  return typeof v === 'string' ? v : null;
}

/** All values of one attribute type in a name, in order. */
export function nameValues(name: pkijs.RelativeDistinguishedNames, oid: string): string[] {
  return name.typesAndValues
    .filter((tv) => tv.type === oid)
    .map((tv) => attributeText(tv.value))
    .filter((v): v is string => v !== null);
}

export function firstValue(name: pkijs.RelativeDistinguishedNames, oid: string): string | null {
  return nameValues(name, oid)[0] ?? null;
}

/** A name for display and logs, in the order it is encoded: `CN=…, O=…, 1.2.860.3.16.1.1=…`. */
export function formatName(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((tv) => {
      const text = attributeText(tv.value) ?? '#' + Buffer.from(tv.value.toBER(false)).toString('hex');
      return `${SHORT_NAMES[tv.type] ?? tv.type}=${text.replace(/([,+"\\<>;])/g, '\\$1')}`;
    })
    .join(', ');
}

/** Serial number as lower-case hex without leading zeros, the way E-IMZO shows it (`218711a50`). */
export function serialHex(cert: pkijs.Certificate): string {
  const hex = Buffer.from(cert.serialNumber.valueBlock.valueHexView).toString('hex').replace(/^0+/, '');
  return hex || '0';
}

export interface TaxIds {
  inn: string | null;
  pinfl: string | null;
  /** where the INN came from: the E-IMZO organisation INN attribute or UID */
  innSource: 'inn-oid' | 'uid' | null;
  /** why an identifier that is present was not taken (malformed, ambiguous) */
  notes: string[];
}

/**
 * The INN and PINFL of a certificate's subject:
 * - INN: attribute 1.2.860.3.16.1.1; when that is absent, UID (0.9.2342.19200300.100.1.1) if it is
 *   exactly 9 digits;
 * - PINFL: attribute 1.2.860.3.16.1.2.
 * Values are trimmed; a value of the wrong shape, or two different values, counts as absent.
 */
export function taxIds(subject: pkijs.RelativeDistinguishedNames): TaxIds {
  const notes: string[] = [];
  const pick = (oid: string, label: string, pattern: RegExp): string | null => {
    const values = [...new Set(nameValues(subject, oid).map((v) => v.trim()))];
    if (values.length === 0) return null;
    const good = values.filter((v) => pattern.test(v));
    if (good.length !== values.length) notes.push(`${label} (${oid}) has a malformed value "${values.find((v) => !pattern.test(v))}"`);
    if (good.length > 1) {
      notes.push(`${label} (${oid}) has several values`);
      return null;
    }
    return good[0] ?? null;
  };
  const orgInnPresent = nameValues(subject, TAX_ID_OIDS.inn).length > 0;
  let inn = pick(TAX_ID_OIDS.inn, 'INN', INN_PATTERN);
  let innSource: TaxIds['innSource'] = inn ? 'inn-oid' : null;
  if (!orgInnPresent) {
    inn = pick(TAX_ID_OIDS.uid, 'UID', INN_PATTERN);
    innSource = inn ? 'uid' : null;
  }
  const pinfl = pick(TAX_ID_OIDS.pinfl, 'PINFL', PINFL_PATTERN);
  return { inn, pinfl, innSource, notes };
}

function extension(cert: pkijs.Certificate, oid: string): pkijs.Extension | undefined {
  return cert.extensions?.find((e) => e.extnID === oid);
}

function extensionAsn(ext: pkijs.Extension): asn1js.AsnType | null {
  const bytes = ext.extnValue.valueBlock.valueHexView;
  const asn = asn1js.fromBER(bytes);
  return asn.offset === bytes.byteLength ? asn.result : null;
}

/** basicConstraints: `{ca, pathLen}`; ca false when the extension is absent or unreadable. */
export function basicConstraints(cert: pkijs.Certificate): { ca: boolean; pathLen: number | null } {
  const ext = extension(cert, EXT.basicConstraints);
  if (!ext) return { ca: false, pathLen: null };
  const asn = extensionAsn(ext);
  if (!asn) return { ca: false, pathLen: null };
  try {
    const bc = new pkijs.BasicConstraints({ schema: asn });
    const pl = bc.pathLenConstraint;
    const pathLen = pl === undefined ? null : typeof pl === 'number' ? pl : pl.valueBlock.valueDec;
    return { ca: bc.cA === true, pathLen };
  } catch {
    return { ca: false, pathLen: null };
  }
}

export const KEY_USAGE = {
  digitalSignature: 0,
  nonRepudiation: 1,
  keyCertSign: 5,
} as const;

/** keyUsage bits, or null when the extension is absent (no restriction). An unreadable one allows nothing. */
export function keyUsage(cert: pkijs.Certificate): Set<number> | null {
  const ext = extension(cert, EXT.keyUsage);
  if (!ext) return null;
  const asn = extensionAsn(ext);
  const bits = new Set<number>();
  if (!(asn instanceof asn1js.BitString)) return bits;
  const bytes = asn.valueBlock.valueHexView;
  for (let i = 0; i < bytes.length * 8; i++) if (bytes[i >> 3] & (0x80 >> (i & 7))) bits.add(i);
  return bits;
}

export function subjectKeyId(cert: pkijs.Certificate): Uint8Array | null {
  const ext = extension(cert, EXT.subjectKeyIdentifier);
  const asn = ext && extensionAsn(ext);
  return asn instanceof asn1js.OctetString ? asn.valueBlock.valueHexView : null;
}

export function authorityKeyId(cert: pkijs.Certificate): Uint8Array | null {
  const ext = extension(cert, EXT.authorityKeyIdentifier);
  const asn = ext && extensionAsn(ext);
  if (!asn) return null;
  try {
    return new pkijs.AuthorityKeyIdentifier({ schema: asn }).keyIdentifier?.valueBlock.valueHexView ?? null;
  } catch {
    return null;
  }
}

/** Critical extensions we do not understand (RFC 5280: such a certificate must be refused). */
export function unknownCriticalExtensions(cert: pkijs.Certificate): string[] {
  return (cert.extensions ?? []).filter((e) => e.critical && !RECOGNISED_EXTENSIONS.has(e.extnID)).map((e) => e.extnID);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
}

export function certificateDer(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.toSchema().toBER(false)); // keeps the TBS bytes as they arrived
}

export function sameCertificate(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return a === b || sameBytes(certificateDer(a), certificateDer(b));
}

export function validAt(cert: pkijs.Certificate, at: Date): 'valid' | 'expired' | 'not_yet_valid' {
  if (at.getTime() < cert.notBefore.value.getTime()) return 'not_yet_valid';
  if (at.getTime() > cert.notAfter.value.getTime()) return 'expired';
  return 'valid';
}
