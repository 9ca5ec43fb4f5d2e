/**
 * A throw-away PKI for tests: CA, intermediate and signer certificates made at test time with pkijs
 * over Node's WebCrypto, and detached CMS signatures made with them the way a browser signing
 * provider would (SignedData, signed attributes content-type, signing-time and message-digest).
 * Test support only: nothing in the product imports it.
 */
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { TAX_ID_OIDS } from './certificate.ts';

type CryptoKeyPair = webcrypto.CryptoKeyPair;

export const engine = new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto as never });

export type KeyKind = 'ECDSA-P256' | 'ECDSA-P384' | 'RSA' | 'RSA-PSS';

export async function generateKeys(kind: KeyKind = 'ECDSA-P256'): Promise<CryptoKeyPair> {
  const subtle = globalThis.crypto.subtle;
  const rsa = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  switch (kind) {
    case 'ECDSA-P256':
      return subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    case 'ECDSA-P384':
      return subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
    case 'RSA':
      return subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', ...rsa }, true, ['sign', 'verify']);
    case 'RSA-PSS':
      return subtle.generateKey({ name: 'RSA-PSS', ...rsa }, true, ['sign', 'verify']);
  }
}

export interface TestSubject {
  cn: string;
  o?: string;
  /** goes to 1.2.860.3.16.1.1 */
  inn?: string;
  /** goes to 1.2.860.3.16.1.2 */
  pinfl?: string;
  /** goes to UID (0.9.2342.19200300.100.1.1) */
  uid?: string;
}

export interface TestCert {
  cert: pkijs.Certificate;
  der: Uint8Array;
  pem: string;
  keys: CryptoKeyPair;
}

export interface IssueOptions {
  subject: TestSubject;
  /** the issuing CA; omitted: self-signed */
  issuer?: TestCert;
  keys?: CryptoKeyPair;
  notBefore?: Date;
  notAfter?: Date;
  /** a CA certificate (basicConstraints cA, keyCertSign); a number is its pathLenConstraint */
  ca?: boolean | number;
  /** keyUsage bits; default digitalSignature+nonRepudiation for signers, keyCertSign+cRLSign for CAs; [] leaves the extension out */
  keyUsage?: number[];
  /** replaces the public key's algorithm OID (to make a certificate with a key we cannot use) */
  spkiAlgorithmOid?: string;
  hash?: 'SHA-256' | 'SHA-384';
  /** a CRL distribution point (http URI) to name in the certificate */
  crlUrl?: string;
}

const NAME_OIDS = { cn: '2.5.4.3', o: '2.5.4.10', c: '2.5.4.6' } as const;

export function testName(s: TestSubject): pkijs.RelativeDistinguishedNames {
  const tv = (type: string, value: asn1js.Utf8String | asn1js.PrintableString | asn1js.NumericString) =>
    new pkijs.AttributeTypeAndValue({ type, value });
  const values = [tv(NAME_OIDS.c, new asn1js.PrintableString({ value: 'UZ' }))];
  if (s.o) values.push(tv(NAME_OIDS.o, new asn1js.Utf8String({ value: s.o })));
  values.push(tv(NAME_OIDS.cn, new asn1js.Utf8String({ value: s.cn })));
  if (s.inn) values.push(tv(TAX_ID_OIDS.inn, new asn1js.PrintableString({ value: s.inn })));
  if (s.pinfl) values.push(tv(TAX_ID_OIDS.pinfl, new asn1js.NumericString({ value: s.pinfl })));
  if (s.uid) values.push(tv(TAX_ID_OIDS.uid, new asn1js.Utf8String({ value: s.uid })));
  return new pkijs.RelativeDistinguishedNames({ typesAndValues: values });
}

function bitString(bits: number[]): asn1js.BitString {
  const max = Math.max(...bits);
  const bytes = new Uint8Array((max >> 3) + 1);
  for (const b of bits) bytes[b >> 3] |= 0x80 >> (b & 7);
  return new asn1js.BitString({ valueHex: bytes, unusedBits: 7 - (max & 7) });
}

async function keyId(cert: pkijs.Certificate): Promise<Uint8Array> {
  const key = cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-1', key)).subarray(0, 20);
}

let serial = 0x1a2b00;

export async function issueCertificate(o: IssueOptions): Promise<TestCert> {
  const keys = o.keys ?? (await generateKeys());
  const cert = new pkijs.Certificate();
  cert.version = 2;
  serial += 1;
  cert.serialNumber = new asn1js.Integer({ value: serial });
  cert.subject = testName(o.subject);
  cert.issuer = o.issuer ? o.issuer.cert.subject : cert.subject;
  cert.notBefore.value = o.notBefore ?? new Date('2024-01-01T00:00:00Z');
  cert.notAfter.value = o.notAfter ?? new Date('2049-12-31T00:00:00Z');
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey as never, engine);
  if (o.spkiAlgorithmOid) cert.subjectPublicKeyInfo.algorithm.algorithmId = o.spkiAlgorithmOid;

  const isCa = o.ca !== undefined && o.ca !== false;
  const extensions: pkijs.Extension[] = [];
  const bc = isCa
    ? new pkijs.BasicConstraints({ cA: true, ...(typeof o.ca === 'number' ? { pathLenConstraint: o.ca } : {}) })
    : new pkijs.BasicConstraints({});
  extensions.push(new pkijs.Extension({ extnID: '2.5.29.19', critical: true, extnValue: bc.toSchema().toBER(false), parsedValue: bc }));
  const usage = o.keyUsage ?? (isCa ? [5, 6] : [0, 1]);
  if (usage.length) extensions.push(new pkijs.Extension({ extnID: '2.5.29.15', critical: true, extnValue: bitString(usage).toBER(false) }));
  const ski = await keyId(cert);
  extensions.push(new pkijs.Extension({ extnID: '2.5.29.14', extnValue: new asn1js.OctetString({ valueHex: ski }).toBER(false) }));
  const issuerKeyId = o.issuer ? await keyId(o.issuer.cert) : ski;
  const aki = new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: issuerKeyId }) });
  extensions.push(new pkijs.Extension({ extnID: '2.5.29.35', extnValue: aki.toSchema().toBER(false) }));
  if (o.crlUrl) {
    const cdp = new pkijs.CRLDistributionPoints({
      distributionPoints: [new pkijs.DistributionPoint({ distributionPoint: [new pkijs.GeneralName({ type: 6, value: o.crlUrl })] })],
    });
    extensions.push(new pkijs.Extension({ extnID: '2.5.29.31', extnValue: cdp.toSchema().toBER(false) }));
  }
  cert.extensions = extensions;

  await cert.sign((o.issuer?.keys ?? keys).privateKey as never, o.hash ?? 'SHA-256', engine);
  const der = new Uint8Array(cert.toSchema(true).toBER(false));
  const parsed = new pkijs.Certificate({ schema: asn1js.fromBER(der).result }); // as a verifier would see it
  return { cert: parsed, der, pem: toPem('CERTIFICATE', der), keys };
}

export function toPem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

export async function privateKeyPem(keys: CryptoKeyPair): Promise<string> {
  return toPem('PRIVATE KEY', new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', keys.privateKey)));
}

export interface SignOptions {
  content: Uint8Array;
  signer: TestCert;
  /** more certificates to carry in the CMS (intermediates) */
  chain?: TestCert[];
  /** put the signer's certificate in the CMS (default true) */
  includeSignerCert?: boolean;
  /** add signed attributes (default true) */
  signedAttributes?: boolean;
  /** carry the content inside the CMS (default false: detached) */
  attach?: boolean;
  /** identify the signer by subjectKeyIdentifier instead of issuer and serial number */
  bySubjectKeyId?: boolean;
  signingTime?: Date;
  hash?: 'SHA-256' | 'SHA-384' | 'SHA-512';
}

/** A CMS SignedData as pkijs builds it (so tests can alter it before encoding). */
export async function buildSignedData(o: SignOptions): Promise<pkijs.SignedData> {
  const hash = o.hash ?? 'SHA-256';
  const cert = o.signer.cert;
  const sid = o.bySubjectKeyId
    ? new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: await keyId(cert) })
    : new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber });
  const signerInfo = new pkijs.SignerInfo({ version: o.bySubjectKeyId ? 3 : 1, sid });
  if (o.signedAttributes ?? true) {
    const md = new Uint8Array(await globalThis.crypto.subtle.digest(hash, o.content));
    signerInfo.signedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: '1.2.840.113549.1.9.3', values: [new asn1js.ObjectIdentifier({ value: pkijs.ContentInfo.DATA })] }),
        new pkijs.Attribute({ type: '1.2.840.113549.1.9.5', values: [new asn1js.UTCTime({ valueDate: o.signingTime ?? new Date() })] }),
        new pkijs.Attribute({ type: '1.2.840.113549.1.9.4', values: [new asn1js.OctetString({ valueHex: md })] }),
      ],
    });
  }
  const certificates = [...((o.includeSignerCert ?? true) ? [o.signer] : []), ...(o.chain ?? [])].map((c) => c.cert);
  const sd = new pkijs.SignedData({
    version: o.bySubjectKeyId ? 3 : 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: pkijs.ContentInfo.DATA,
      ...(o.attach ? { eContent: new asn1js.OctetString({ valueHex: o.content }) } : {}),
    }),
    signerInfos: [signerInfo],
    ...(certificates.length ? { certificates } : {}),
  });
  await sd.sign(o.signer.keys.privateKey as never, 0, hash, o.content, engine);
  return sd;
}

export function encodeSignedData(sd: pkijs.SignedData): Uint8Array {
  const info = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: sd.toSchema(true) });
  return new Uint8Array(info.toSchema().toBER(false));
}

/** A detached CMS SignedData (DER) over `content`. */
export async function signDetached(o: SignOptions): Promise<Uint8Array> {
  return encodeSignedData(await buildSignedData(o));
}

/** A CRL (DER) signed by `ca`, listing `revoked` certificates as revoked at `revokedAt`. */
export async function issueCrl(
  ca: TestCert,
  revoked: TestCert[],
  o: { thisUpdate?: Date; nextUpdate?: Date; revokedAt?: Date } = {},
): Promise<Uint8Array> {
  const now = Date.now();
  const crl = new pkijs.CertificateRevocationList();
  crl.version = 1;
  crl.issuer = ca.cert.subject;
  crl.thisUpdate = new pkijs.Time({ type: 0, value: o.thisUpdate ?? new Date(now - 3600_000) });
  crl.nextUpdate = new pkijs.Time({ type: 0, value: o.nextUpdate ?? new Date(now + 86400_000) });
  if (revoked.length)
    crl.revokedCertificates = revoked.map(
      (r) =>
        new pkijs.RevokedCertificate({
          userCertificate: r.cert.serialNumber,
          revocationDate: new pkijs.Time({ type: 0, value: o.revokedAt ?? new Date(now - 60_000) }),
        }),
    );
  await crl.sign(ca.keys.privateKey as never, 'SHA-256', engine);
  return new Uint8Array(crl.toSchema(true).toBER(false));
}
