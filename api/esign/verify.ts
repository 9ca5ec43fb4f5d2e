/**
 * Server-side verification of a report's e-signature: a detached CMS / PKCS#7 SignedData over the
 * report's canonical content (canonical.ts). The checks and their order are in docs/e-signature.md.
 * Every refusal is an ESignError with a stable code and the spec's message key.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describeScheme, digest, digestHash, importPublicKey, signatureScheme, verifySignature } from './algorithms.ts';
import {
  INN_PATTERN,
  KEY_USAGE,
  PINFL_PATTERN,
  type TrustedCAs,
  firstValue,
  formatName,
  keyUsage,
  loadTrustedCAs,
  sameBytes,
  serialHex,
  taxIds,
  unknownCriticalExtensions,
  validAt,
} from './certificate.ts';
import { buildPath } from './chain.ts';
import { type CrlFetcher, checkRevocation } from './revocation.ts';
import { ESignError, type ESignErrorCertificate } from './errors.ts';

export type { TrustedCAs } from './certificate.ts';

/** Largest signature accepted (a CMS with a few certificates and a timestamp is ~10 KB). */
export const MAX_SIGNATURE_BYTES = 1024 * 1024;
/** Most certificates a CMS may carry (a signer, its chain, maybe a timestamping chain). */
export const MAX_CMS_CERTIFICATES = 32;

const OIDS = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  commonName: '2.5.4.3',
  organisation: '2.5.4.10',
} as const;

export interface ExpectedSigner {
  /** the subject's 9-digit INN (STIR) */
  inn?: string;
  /** the subject's 14-digit PINFL (JShShIR) */
  pinfl?: string;
}

export interface VerifyOptions {
  /** the canonical content that was signed (canonicalContent(report)) */
  content: Uint8Array;
  /** DER CMS SignedData, as bytes or base64 (standard or URL-safe; PEM armour and line breaks allowed) */
  signature: Uint8Array | string;
  /** the trusted CA certificates (PEM text, DER bytes, or a list of either) */
  trustedCAs: TrustedCAs;
  /** who must have signed: every identifier given must be in the certificate and equal */
  expected: ExpectedSigner;
  /** the moment the certificates must be valid at; default now */
  at?: Date;
  /**
   * how CRLs named by the certificates' distribution points are fetched (default: HTTP GET);
   * `false` skips the revocation check (re-verifying an archived signature offline)
   */
  crl?: CrlFetcher | false;
}

export interface SignerIdentity {
  commonName: string | null;
  organisation: string | null;
  inn: string | null;
  pinfl: string | null;
  /** which subject attribute the INN was read from */
  innSource: 'inn-oid' | 'uid' | null;
  /** lower-case hex, no leading zeros */
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  /** issuer's name, `CN=…, O=…` in encoded order */
  issuer: string;
  /** subject's name, same form */
  subject: string;
}

export interface VerifyResult {
  ok: true;
  signer: SignerIdentity;
  /** the signing-time signed attribute, as the signer's machine claimed it (not trusted) */
  signingTime: Date | null;
  /** e.g. `ECDSA P-256 SHA-256` */
  algorithm: string;
  /** true when the CMS carried the content itself (attached) and it equalled `content` */
  attached: boolean;
  /** subject names from the signer up to the trusted CA */
  chain: string[];
  /** the SignerInfo's signature value (what a time-stamp is asked over, RFC 3161 appendix A) */
  signatureValue: Uint8Array;
}

/**
 * Verifies a detached CMS signature over `content`. Resolves with the signer on success; rejects
 * with an ESignError (stable `code`, `messageKey` for the caption) when the signature must be
 * refused, and with a TypeError when the call itself is wrong (bad options, unreadable trusted CAs).
 */
export async function verifyDetachedSignature(options: VerifyOptions): Promise<VerifyResult> {
  const { content, expected } = options;
  if (!(content instanceof Uint8Array)) throw new TypeError('verifyDetachedSignature: content must be a Uint8Array');
  checkExpected(expected);
  const at = options.at ?? new Date();
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new TypeError('verifyDetachedSignature: at must be a valid Date');
  const anchors = loadTrustedCAs(options.trustedCAs);

  // 1. the CMS structure
  const signedData = parseSignedData(decodeSignature(options.signature));
  if (signedData.signerInfos.length !== 1) {
    throw new ESignError(
      'data_failed',
      signedData.signerInfos.length === 0
        ? 'the CMS has no SignerInfo'
        : `the CMS has ${signedData.signerInfos.length} signers; exactly one is supported`,
    );
  }
  const signerInfo = signedData.signerInfos[0];
  const encap = signedData.encapContentInfo;
  if (encap.eContentType !== OIDS.data)
    throw new ESignError('data_failed', `encapsulated content type ${encap.eContentType} is not id-data`);

  // 2. the signer's certificate
  const certificates = (signedData.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  if (certificates.length > MAX_CMS_CERTIFICATES)
    throw new ESignError('data_failed', `the CMS carries ${certificates.length} certificates, more than ${MAX_CMS_CERTIFICATES}`);
  const signerCert = findSignerCertificate(signerInfo, certificates);
  if (!signerCert)
    throw new ESignError(
      'certificate_not_found',
      certificates.length ? 'no certificate in the CMS matches the SignerInfo' : 'the CMS carries no certificates',
    );
  const certInfo = errorCertificate(signerCert);
  const withCert = (e: unknown): never => {
    if (e instanceof ESignError && !e.certificate) throw new ESignError(e.code, e.detail, certInfo, { cause: e.cause });
    throw e;
  };

  try {
    // 3. algorithms
    const hash = digestHash(signerInfo.digestAlgorithm);
    const scheme = signatureScheme(signerInfo.signatureAlgorithm, hash);
    const key = await importPublicKey(signerCert.subjectPublicKeyInfo, scheme);

    // 4. the signature binds this content
    let attached = false;
    if (encap.eContent) {
      const inside = new Uint8Array(encap.eContent.getValue());
      if (!sameBytes(inside, content))
        throw new ESignError('signature_invalid', 'the content inside the CMS differs from the content given');
      attached = true;
    }
    let signedBytes: Uint8Array = content;
    let signingTime: Date | null = null;
    if (signerInfo.signedAttrs) {
      const attrs = signerInfo.signedAttrs.attributes;
      const single = (oid: string, label: string): unknown => {
        const found = attrs.filter((a) => a.type === oid);
        if (found.length !== 1 || found[0].values.length !== 1) {
          throw new ESignError('signature_invalid', `signed attributes must hold exactly one ${label}, found ${found.length}`);
        }
        return found[0].values[0];
      };
      const contentType = single(OIDS.contentType, 'content-type');
      if (!(contentType instanceof asn1js.ObjectIdentifier) || contentType.getValue() !== encap.eContentType) {
        throw new ESignError('signature_invalid', 'the content-type signed attribute does not match the content');
      }
      const messageDigest = single(OIDS.messageDigest, 'message-digest');
      if (!(messageDigest instanceof asn1js.OctetString))
        throw new ESignError('signature_invalid', 'the message-digest signed attribute is not an OCTET STRING');
      if (!sameBytes(messageDigest.valueBlock.valueHexView, await digest(hash, content))) {
        throw new ESignError(
          'signature_invalid',
          'the message-digest signed attribute does not match the content: the content changed after signing',
        );
      }
      signingTime = readSigningTime(attrs);
      signedBytes = new Uint8Array(signerInfo.signedAttrs.encodedValue); // DER with the SET tag, as signed
    }
    if (!(await verifySignature(key, scheme, signerInfo.signature.valueBlock.valueHexView, signedBytes))) {
      throw new ESignError(
        'signature_invalid',
        signerInfo.signedAttrs
          ? "the signature over the signed attributes does not verify with the certificate's key"
          : 'the signature does not match the content',
      );
    }

    // 5. issued by a trusted CA
    const intermediates = certificates.filter((c) => c !== signerCert);
    const path = await buildPath(signerCert, intermediates, anchors, at);

    // 6. the certificate may sign documents
    const ku = keyUsage(signerCert);
    if (ku && !ku.has(KEY_USAGE.digitalSignature) && !ku.has(KEY_USAGE.nonRepudiation)) {
      throw new ESignError('certificate_not_for_signing', 'keyUsage has neither digitalSignature nor nonRepudiation');
    }
    const unknown = unknownCriticalExtensions(signerCert);
    if (unknown.length) throw new ESignError('certificate_not_for_signing', `unknown critical extensions ${unknown.join(', ')}`);

    // 7. every certificate of the path is valid at `at`
    for (const [i, cert] of path.entries()) {
      const state = validAt(cert, at);
      if (state === 'valid') continue;
      const whose = i === 0 ? "the signer's certificate" : `CA certificate "${formatName(cert.subject)}"`;
      throw state === 'expired'
        ? new ESignError('certificate_expired', `${whose} expired on ${cert.notAfter.value.toISOString()} (checked at ${at.toISOString()})`)
        : new ESignError(
            'certificate_not_yet_valid',
            `${whose} is valid from ${cert.notBefore.value.toISOString()} (checked at ${at.toISOString()})`,
          );
    }

    // 7b. no certificate of the path is revoked (when its CA publishes a CRL)
    if (options.crl !== false) await checkRevocation(path, at, options.crl);

    // 8. the certificate belongs to the expected subject
    const ids = taxIds(signerCert.subject);
    const notes = ids.notes.length ? ` (${ids.notes.join('; ')})` : '';
    for (const [field, label] of [
      ['inn', 'INN'],
      ['pinfl', 'PINFL'],
    ] as const) {
      const want = expected[field];
      if (want === undefined) continue;
      const have = ids[field];
      if (have === null) throw new ESignError('tax_id_not_found', `the certificate has no ${label}${notes}`);
      if (have !== want) throw new ESignError('tax_id_mismatch', `the certificate's ${label} ${have} is not the expected ${want}`);
    }

    return {
      ok: true,
      signer: {
        commonName: firstValue(signerCert.subject, OIDS.commonName),
        organisation: firstValue(signerCert.subject, OIDS.organisation),
        inn: ids.inn,
        pinfl: ids.pinfl,
        innSource: ids.innSource,
        serialNumber: certInfo.serialNumber,
        validFrom: certInfo.validFrom,
        validTo: certInfo.validTo,
        issuer: certInfo.issuer,
        subject: formatName(signerCert.subject),
      },
      signingTime,
      algorithm: describeScheme(scheme, key),
      attached,
      chain: path.map((c) => formatName(c.subject)),
      signatureValue: new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
    };
  } catch (e) {
    return withCert(e);
  }
}

function checkExpected(expected: ExpectedSigner): void {
  if (!expected || (expected.inn === undefined && expected.pinfl === undefined)) {
    throw new TypeError("verifyDetachedSignature: expected must name the subject's inn and/or pinfl");
  }
  if (expected.inn !== undefined && !INN_PATTERN.test(expected.inn))
    throw new TypeError('verifyDetachedSignature: expected.inn must be 9 digits');
  if (expected.pinfl !== undefined && !PINFL_PATTERN.test(expected.pinfl))
    throw new TypeError('verifyDetachedSignature: expected.pinfl must be 14 digits');
}

/** Signature bytes from DER or base64 text (standard or URL-safe, PEM armour and whitespace allowed). */
export function decodeSignature(signature: Uint8Array | string): Uint8Array {
  let bytes: Uint8Array;
  if (signature instanceof Uint8Array) bytes = signature;
  else if (typeof signature === 'string') {
    const text = signature.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(text) || text.length % 4 === 1)
      throw new ESignError('data_failed', 'the signature is not base64');
    bytes = new Uint8Array(Buffer.from(text, 'base64'));
  } else throw new ESignError('data_failed', 'the signature must be bytes or base64 text');
  if (bytes.byteLength === 0) throw new ESignError('data_failed', 'the signature is empty');
  if (bytes.byteLength > MAX_SIGNATURE_BYTES)
    throw new ESignError('data_failed', `the signature is larger than ${MAX_SIGNATURE_BYTES} bytes`);
  return bytes;
}

function parseSignedData(bytes: Uint8Array): pkijs.SignedData {
  try {
    const asn = asn1js.fromBER(bytes);
    if (asn.offset === -1) throw new Error(`not ASN.1: ${asn.result.error}`);
    if (asn.offset !== bytes.byteLength) throw new Error(`${bytes.byteLength - asn.offset} bytes after the CMS structure`);
    const info = new pkijs.ContentInfo({ schema: asn.result });
    if (info.contentType !== pkijs.ContentInfo.SIGNED_DATA) throw new Error(`content type ${info.contentType} is not SignedData`);
    return new pkijs.SignedData({ schema: info.content });
  } catch (e) {
    throw new ESignError('data_failed', `the signature is not a CMS SignedData: ${(e as Error).message}`, undefined, { cause: e });
  }
}

function findSignerCertificate(signerInfo: pkijs.SignerInfo, certificates: pkijs.Certificate[]): pkijs.Certificate | undefined {
  const sid: unknown = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    const serial = sid.serialNumber.valueBlock.valueHexView;
    return certificates.find((c) => sameBytes(c.serialNumber.valueBlock.valueHexView, serial) && c.issuer.isEqual(sid.issuer));
  }
  // subjectKeyIdentifier [0] IMPLICIT OCTET STRING (some encoders wrap it in a constructed [0])
  let keyId: Uint8Array | null = null;
  if (sid instanceof asn1js.Primitive) keyId = sid.valueBlock.valueHexView;
  else if (sid instanceof asn1js.Constructed) {
    const inner = sid.valueBlock.value[0];
    if (inner instanceof asn1js.OctetString || inner instanceof asn1js.Primitive) keyId = inner.valueBlock.valueHexView;
  }
  if (!keyId) return undefined;
  const id = keyId;
  return certificates.find((c) => {
    const ext = c.extensions?.find((e) => e.extnID === '2.5.29.14');
    if (!ext) return false;
    const asn = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView);
    return asn.result instanceof asn1js.OctetString && sameBytes(asn.result.valueBlock.valueHexView, id);
  });
}

function readSigningTime(attrs: pkijs.Attribute[]): Date | null {
  const value: unknown = attrs.find((a) => a.type === OIDS.signingTime)?.values[0];
  if (value instanceof asn1js.UTCTime || value instanceof asn1js.GeneralizedTime) {
    const d = value.toDate();
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

function errorCertificate(cert: pkijs.Certificate): ESignErrorCertificate {
  return {
    commonName: firstValue(cert.subject, OIDS.commonName),
    serialNumber: serialHex(cert),
    issuer: formatName(cert.issuer),
    validFrom: cert.notBefore.value,
    validTo: cert.notAfter.value,
  };
}
