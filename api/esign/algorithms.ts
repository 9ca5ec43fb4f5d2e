/**
 * The signature algorithms the verifier accepts, mapped onto Node's WebCrypto (`globalThis.crypto`).
 * Anything not listed here — GOST R 34.10/34.11, O'zDSt 1092/1106 (what real E-IMZO keys use),
 * SHA-1, MD5, DSA, EdDSA, RSA under 2048 bits — is refused with `unsupported_algorithm`.
 */
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { ESignError } from './errors.ts';

export type HashName = 'SHA-256' | 'SHA-384' | 'SHA-512';
export type CurveName = 'P-256' | 'P-384' | 'P-521';

export type SignatureScheme =
  | { kind: 'RSASSA-PKCS1-v1_5'; hash: HashName }
  | { kind: 'RSA-PSS'; hash: HashName; saltLength: number }
  | { kind: 'ECDSA'; hash: HashName };

export const OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  sha384WithRSA: '1.2.840.113549.1.1.12',
  sha512WithRSA: '1.2.840.113549.1.1.13',
  rsaPss: '1.2.840.113549.1.1.10',
  mgf1: '1.2.840.113549.1.1.8',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  ecdsaSha384: '1.2.840.10045.4.3.3',
  ecdsaSha512: '1.2.840.10045.4.3.4',
  p256: '1.2.840.10045.3.1.7',
  p384: '1.3.132.0.34',
  p521: '1.3.132.0.35',
} as const;

const HASHES: Record<string, HashName> = { [OID.sha256]: 'SHA-256', [OID.sha384]: 'SHA-384', [OID.sha512]: 'SHA-512' };
const RSA_PKCS1: Record<string, HashName> = {
  [OID.sha256WithRSA]: 'SHA-256',
  [OID.sha384WithRSA]: 'SHA-384',
  [OID.sha512WithRSA]: 'SHA-512',
};
const ECDSA: Record<string, HashName> = { [OID.ecdsaSha256]: 'SHA-256', [OID.ecdsaSha384]: 'SHA-384', [OID.ecdsaSha512]: 'SHA-512' };
const CURVES: Record<string, { name: CurveName; size: number }> = {
  [OID.p256]: { name: 'P-256', size: 32 },
  [OID.p384]: { name: 'P-384', size: 48 },
  [OID.p521]: { name: 'P-521', size: 66 },
};
export const MIN_RSA_BITS = 2048;

/** Names for the algorithm families we refuse, so the log says what arrived. */
const KNOWN_UNSUPPORTED: [prefix: string, name: string][] = [
  ['1.2.860.3.15.', "O'zDSt 1092/1106 (Uzbek national standard, E-IMZO)"],
  ['1.2.643.', 'GOST R 34.10/34.11'],
  ['1.3.14.3.2.26', 'SHA-1'],
  ['1.2.840.113549.1.1.5', 'sha1WithRSAEncryption'],
  ['1.2.840.10045.4.1', 'ecdsa-with-SHA1'],
  ['1.2.840.113549.2.5', 'MD5'],
  ['1.2.840.113549.1.1.4', 'md5WithRSAEncryption'],
  ['1.2.840.10040.4.', 'DSA'],
  ['1.3.101.11', 'EdDSA'],
  ['2.16.840.1.101.3.4.2.', 'a SHA-2/SHA-3 digest not accepted here'],
];

export function algorithmName(oid: string): string {
  const hit = KNOWN_UNSUPPORTED.find(([prefix]) => oid === prefix || oid.startsWith(prefix));
  return hit ? `${hit[1]} (${oid})` : oid;
}

function unsupported(what: string, oid: string): ESignError {
  return new ESignError('unsupported_algorithm', `${what} ${algorithmName(oid)} is not supported`);
}

/** The digest of a CMS SignerInfo's digestAlgorithm. */
export function digestHash(alg: pkijs.AlgorithmIdentifier): HashName {
  const hash = HASHES[alg.algorithmId];
  if (!hash) throw unsupported('digest algorithm', alg.algorithmId);
  return hash;
}

/**
 * The scheme of a signature algorithm identifier. `digest` is the CMS SignerInfo's digest algorithm:
 * with the bare `rsaEncryption` or `id-ecPublicKey` OIDs (common in CMS) it gives the hash; with a
 * combined OID (sha256WithRSAEncryption…) it must agree with it.
 */
export function signatureScheme(alg: pkijs.AlgorithmIdentifier, digest?: HashName): SignatureScheme {
  const oid = alg.algorithmId;
  const agree = (hash: HashName): HashName => {
    if (digest && digest !== hash) {
      throw new ESignError('unsupported_algorithm', `signature algorithm ${oid} uses ${hash} but the digest algorithm is ${digest}`);
    }
    return hash;
  };
  if (oid === OID.rsaEncryption || oid === OID.ecPublicKey) {
    if (!digest) throw unsupported('signature algorithm', oid);
    return { kind: oid === OID.rsaEncryption ? 'RSASSA-PKCS1-v1_5' : 'ECDSA', hash: digest };
  }
  if (RSA_PKCS1[oid]) return { kind: 'RSASSA-PKCS1-v1_5', hash: agree(RSA_PKCS1[oid]) };
  if (ECDSA[oid]) return { kind: 'ECDSA', hash: agree(ECDSA[oid]) };
  if (oid === OID.rsaPss) {
    let params: pkijs.RSASSAPSSParams;
    try {
      params = new pkijs.RSASSAPSSParams({ schema: alg.algorithmParams });
    } catch (e) {
      throw new ESignError('data_failed', 'RSASSA-PSS parameters cannot be read', undefined, { cause: e });
    }
    const hash = HASHES[params.hashAlgorithm.algorithmId];
    if (!hash) throw unsupported('RSASSA-PSS hash', params.hashAlgorithm.algorithmId);
    if (params.maskGenAlgorithm.algorithmId !== OID.mgf1)
      throw unsupported('RSASSA-PSS mask generation', params.maskGenAlgorithm.algorithmId);
    let mgfHash: string | undefined;
    try {
      mgfHash = new pkijs.AlgorithmIdentifier({ schema: params.maskGenAlgorithm.algorithmParams }).algorithmId;
    } catch {
      mgfHash = undefined;
    }
    if (mgfHash !== params.hashAlgorithm.algorithmId) {
      throw new ESignError(
        'unsupported_algorithm',
        `RSASSA-PSS with MGF1 over ${mgfHash ?? 'an unreadable hash'} and ${hash} is not supported`,
      );
    }
    if (params.trailerField !== 1)
      throw new ESignError('unsupported_algorithm', `RSASSA-PSS trailer field ${params.trailerField} is not supported`);
    return { kind: 'RSA-PSS', hash: agree(hash), saltLength: params.saltLength };
  }
  throw unsupported('signature algorithm', oid);
}

export function describeScheme(s: SignatureScheme, key: webcrypto.CryptoKey): string {
  const a = key.algorithm as { namedCurve?: string; modulusLength?: number };
  const size = s.kind === 'ECDSA' ? a.namedCurve : `${a.modulusLength}`;
  return `${s.kind} ${size} ${s.hash}`;
}

/** Imports a certificate's public key for the scheme; refuses key types and sizes we don't accept. */
export async function importPublicKey(spki: pkijs.PublicKeyInfo, scheme: SignatureScheme): Promise<webcrypto.CryptoKey> {
  const keyOid = spki.algorithm.algorithmId;
  const subtle = globalThis.crypto.subtle;
  if (scheme.kind === 'ECDSA') {
    if (keyOid !== OID.ecPublicKey) throw unsupported('an ECDSA signature with public key', keyOid);
    const curveOid =
      spki.algorithm.algorithmParams instanceof asn1js.ObjectIdentifier ? spki.algorithm.algorithmParams.getValue() : '(no named curve)';
    const curve = CURVES[curveOid];
    if (!curve) throw unsupported('elliptic curve', curveOid);
    try {
      return await subtle.importKey('spki', spkiBytes(spki), { name: 'ECDSA', namedCurve: curve.name }, false, ['verify']);
    } catch (e) {
      throw new ESignError('data_failed', `the ECDSA public key cannot be read: ${(e as Error).message}`, undefined, { cause: e });
    }
  }
  let der: Uint8Array;
  if (keyOid === OID.rsaEncryption) der = spkiBytes(spki);
  else if (keyOid === OID.rsaPss && scheme.kind === 'RSA-PSS') {
    // an id-RSASSA-PSS key is the same RSAPublicKey; WebCrypto imports it under rsaEncryption
    der = spkiBytes(
      new pkijs.PublicKeyInfo({
        algorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.rsaEncryption, algorithmParams: new asn1js.Null() }),
        subjectPublicKey: spki.subjectPublicKey,
      }),
    );
  } else throw unsupported(`an ${scheme.kind} signature with public key`, keyOid);
  let key: webcrypto.CryptoKey;
  try {
    key = await subtle.importKey('spki', der, { name: scheme.kind, hash: scheme.hash }, false, ['verify']);
  } catch (e) {
    throw new ESignError('data_failed', `the RSA public key cannot be read: ${(e as Error).message}`, undefined, { cause: e });
  }
  const bits = (key.algorithm as { modulusLength?: number }).modulusLength ?? 0;
  if (bits < MIN_RSA_BITS)
    throw new ESignError('unsupported_algorithm', `RSA keys of ${bits} bits are not supported (at least ${MIN_RSA_BITS})`);
  return key;
}

/**
 * Checks `signature` over `data`. False when it does not match (including a malformed ECDSA
 * signature value); throws only for keys and algorithms we cannot use.
 */
export async function verifySignature(
  key: webcrypto.CryptoKey,
  scheme: SignatureScheme,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  const subtle = globalThis.crypto.subtle;
  if (scheme.kind === 'ECDSA') {
    const curve = Object.values(CURVES).find((c) => c.name === (key.algorithm as { namedCurve?: string }).namedCurve);
    if (!curve) return false;
    const raw = ecdsaDerToRaw(signature, curve.size);
    if (!raw) return false;
    return subtle.verify({ name: 'ECDSA', hash: scheme.hash }, key, raw, data);
  }
  if (scheme.kind === 'RSA-PSS') return subtle.verify({ name: 'RSA-PSS', saltLength: scheme.saltLength }, key, signature, data);
  return subtle.verify({ name: 'RSASSA-PKCS1-v1_5' }, key, signature, data);
}

export async function digest(hash: HashName, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest(hash, data));
}

function spkiBytes(spki: pkijs.PublicKeyInfo): Uint8Array {
  return new Uint8Array(spki.toSchema().toBER(false));
}

/** ECDSA-Sig-Value (DER SEQUENCE of two INTEGERs) → r‖s as WebCrypto wants it; null when malformed. */
export function ecdsaDerToRaw(der: Uint8Array, size: number): Uint8Array | null {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset !== der.byteLength || !(parsed.result instanceof asn1js.Sequence)) return null;
  const items = parsed.result.valueBlock.value;
  if (items.length !== 2 || !items.every((i) => i instanceof asn1js.Integer)) return null;
  const out = new Uint8Array(size * 2);
  for (const [n, item] of items.entries()) {
    let bytes = (item as asn1js.Integer).valueBlock.valueHexView;
    if (bytes.length > 0 && (bytes[0] & 0x80) !== 0) return null; // negative
    while (bytes.length > 0 && bytes[0] === 0) bytes = bytes.subarray(1);
    if (bytes.length > size) return null;
    out.set(bytes, n * size + (size - bytes.length));
  }
  return out;
}
