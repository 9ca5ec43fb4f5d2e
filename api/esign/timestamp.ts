/**
 * RFC 3161 time-stamps of accepted signatures (docs/e-signature.md, decision 0073): the server asks a
 * time-stamping authority (TSA) for a token over the SignerInfo's signature value (RFC 3161
 * appendix A), checks the answer, and keeps the token with the report. The signing time shown is the
 * token's `genTime`, never the signer's clock.
 *
 * A deployment names its TSA (`esign.tsa_url` / ECOFOND_TSA_URL: HTTP POST
 * `application/timestamp-query`). Without one, the server's own local TSA answers: a P-256 key and
 * a self-signed certificate made when the process starts ("ecofond local TSA"), for the demo and
 * the tests only — its tokens prove nothing to anyone but this server.
 */
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { digest, digestHash, importPublicKey, signatureScheme, verifySignature } from './algorithms.ts';
import { formatName, sameBytes, sameCertificate } from './certificate.ts';
import { ESignError } from './errors.ts';

export const TSP_OIDS = {
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  /** unsigned attribute of a SignerInfo carrying a time-stamp token */
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  /** the local TSA's policy: an arbitrary arc, meaning "demo only" */
  localPolicy: '1.3.6.1.4.1.99999.1.1',
} as const;

/** How long the server waits for a TSA. */
export const TSA_TIMEOUT_MS = 10_000;

export interface TimestampInfo {
  /** the token, DER (a ContentInfo holding a SignedData over a TSTInfo) */
  token: Uint8Array;
  /** the token's time: the moment the TSA saw the signature */
  genTime: Date;
  /** lower-case hex */
  serialNumber: string;
  /** the TSA certificate's subject, `CN=…` form, when the token carries it */
  tsa: string | null;
  policy: string;
  /** OID of the imprint's hash and the imprint itself */
  hashAlgorithm: string;
  imprint: Uint8Array;
}

const engine = new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto as never });

// ─── parse ───────────────────────────────────────────────────────────────────

function fromDer(der: Uint8Array, what: string): asn1js.AsnType {
  const asn = asn1js.fromBER(der);
  if (asn.offset === -1 || asn.offset !== der.byteLength) throw new ESignError('data_failed', `the ${what} is not DER`);
  return asn.result;
}

function tokenSignedData(token: Uint8Array): { sd: pkijs.SignedData; tst: pkijs.TSTInfo; eContent: Uint8Array } {
  try {
    const info = new pkijs.ContentInfo({ schema: fromDer(token, 'time-stamp token') });
    if (info.contentType !== pkijs.ContentInfo.SIGNED_DATA) throw new Error('not a SignedData');
    const sd = new pkijs.SignedData({ schema: info.content });
    if (sd.encapContentInfo.eContentType !== TSP_OIDS.tstInfo || !sd.encapContentInfo.eContent) throw new Error('no TSTInfo');
    const eContent = new Uint8Array(sd.encapContentInfo.eContent.getValue());
    const tst = new pkijs.TSTInfo({ schema: fromDer(eContent, 'TSTInfo') });
    return { sd, tst, eContent };
  } catch (e) {
    if (e instanceof ESignError) throw e;
    throw new ESignError('data_failed', `the time-stamp token cannot be read: ${(e as Error).message}`, undefined, { cause: e });
  }
}

/** Reads a time-stamp token (DER or base64) without checking its signature: its time, serial, TSA. */
export function parseTimestampToken(token: Uint8Array | string): TimestampInfo {
  const der = typeof token === 'string' ? new Uint8Array(Buffer.from(token, 'base64')) : token;
  const { sd, tst } = tokenSignedData(der);
  const cert = (sd.certificates ?? []).find((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  return {
    token: der,
    genTime: tst.genTime,
    serialNumber: Buffer.from(tst.serialNumber.valueBlock.valueHexView)
      .toString('hex')
      .replace(/^0+(?=.)/, ''),
    tsa: cert ? formatName(cert.subject) : null,
    policy: tst.policy,
    hashAlgorithm: tst.messageImprint.hashAlgorithm.algorithmId,
    imprint: tst.messageImprint.hashedMessage.valueBlock.valueHexView,
  };
}

/** The time-stamp token a CMS SignerInfo carries as an unsigned attribute (E-IMZO's timestamp/pkcs7 adds one), or null. */
export function embeddedTimestampToken(signerInfo: pkijs.SignerInfo): Uint8Array | null {
  const attr = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === TSP_OIDS.timeStampToken);
  const value = attr?.values[0] as asn1js.AsnType | undefined;
  return value ? new Uint8Array(value.toBER(false)) : null;
}

// ─── check ───────────────────────────────────────────────────────────────────

/**
 * Checks a token against the imprint it must carry: TSTInfo's message imprint equals `imprint`
 * (SHA-256), the nonce (when asked) matches, the token's signature verifies with the TSA
 * certificate it carries, and that certificate is `tsaCertificate` when one is required.
 */
export async function checkTimestampToken(
  token: Uint8Array,
  o: { imprint: Uint8Array; nonce?: Uint8Array; tsaCertificate?: pkijs.Certificate },
): Promise<TimestampInfo> {
  const { sd, tst, eContent } = tokenSignedData(token);
  const bad = (detail: string): never => {
    throw new ESignError('timestamp_failed', detail);
  };
  if (tst.messageImprint.hashAlgorithm.algorithmId !== TSP_OIDS.sha256) bad('the token is not over a SHA-256 imprint');
  if (!sameBytes(tst.messageImprint.hashedMessage.valueBlock.valueHexView, o.imprint)) bad('the token is over another signature');
  if (o.nonce && (!tst.nonce || !sameBytes(stripZeros(tst.nonce.valueBlock.valueHexView), stripZeros(o.nonce))))
    bad('the token does not answer our nonce');
  if (sd.signerInfos.length !== 1) bad('the token must have one signer');
  const si = sd.signerInfos[0];
  const certs = (sd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const sid: unknown = si.sid;
  const cert =
    sid instanceof pkijs.IssuerAndSerialNumber
      ? certs.find(
          (c) =>
            c.issuer.isEqual(sid.issuer) && sameBytes(c.serialNumber.valueBlock.valueHexView, sid.serialNumber.valueBlock.valueHexView),
        )
      : certs[0];
  if (!cert) return bad("the token does not carry its TSA's certificate");
  if (o.tsaCertificate && !sameCertificate(cert, o.tsaCertificate)) bad('the token was signed by another TSA');
  const attrs = si.signedAttrs?.attributes;
  if (!attrs || !si.signedAttrs) return bad('the token has no signed attributes');
  const md = attrs.find((a) => a.type === TSP_OIDS.messageDigest)?.values[0];
  const hash = digestHash(si.digestAlgorithm);
  if (!(md instanceof asn1js.OctetString) || !sameBytes(md.valueBlock.valueHexView, await digest(hash, eContent)))
    bad("the token's message digest does not match its TSTInfo");
  const scheme = signatureScheme(si.signatureAlgorithm, hash);
  const key = await importPublicKey(cert.subjectPublicKeyInfo, scheme);
  if (!(await verifySignature(key, scheme, si.signature.valueBlock.valueHexView, new Uint8Array(si.signedAttrs.encodedValue))))
    bad("the token's signature does not verify");
  const info = parseTimestampToken(token);
  return info;
}

function stripZeros(b: Uint8Array): Uint8Array {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}

// ─── ask ─────────────────────────────────────────────────────────────────────

/** A DER TimeStampReq for a SHA-256 imprint, asking for the TSA's certificate. */
export function timestampRequest(imprint: Uint8Array, nonce: Uint8Array): Uint8Array {
  const req = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: TSP_OIDS.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  return new Uint8Array(req.toSchema().toBER(false));
}

/** The token out of a DER TimeStampResp; `timestamp_failed` unless granted. */
export function tokenFromResponse(der: Uint8Array): Uint8Array {
  let resp: pkijs.TimeStampResp;
  try {
    resp = new pkijs.TimeStampResp({ schema: fromDer(der, 'time-stamp response') });
  } catch (e) {
    throw new ESignError('timestamp_failed', `the TSA's answer cannot be read: ${(e as Error).message}`, undefined, { cause: e });
  }
  const status = resp.status.status;
  if ((status !== 0 && status !== 1) || !resp.timeStampToken)
    throw new ESignError(
      'timestamp_failed',
      `the TSA refused: status ${status} ${resp.status.statusStrings?.map((s) => s.valueBlock.value).join('; ') ?? ''}`,
    );
  return new Uint8Array(resp.timeStampToken.toSchema().toBER(false));
}

export interface TimestampAuthority {
  /** a DER TimeStampResp to a DER TimeStampReq */
  respond(request: Uint8Array): Promise<Uint8Array>;
  /** the certificate the tokens must be signed with, when known in advance (the local TSA) */
  certificate?: pkijs.Certificate;
  /** `local` or the URL */
  name: string;
}

/** A TSA reached over HTTP (RFC 3161 §3.4). */
export function httpTsa(url: string, timeoutMs = TSA_TIMEOUT_MS): TimestampAuthority {
  return {
    name: url,
    async respond(request) {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
          body: request,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        throw new ESignError('timestamp_failed', `the TSA ${url} cannot be reached: ${(e as Error).message}`, undefined, { cause: e });
      }
      if (!res.ok) throw new ESignError('timestamp_failed', `the TSA ${url} answered HTTP ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}

/**
 * Time-stamps a signature value: asks `tsa` for a token over SHA-256(signatureValue) with a fresh
 * nonce and checks the token it returns.
 */
export async function timestampSignature(signatureValue: Uint8Array, tsa: TimestampAuthority): Promise<TimestampInfo> {
  const imprint = await digest('SHA-256', signatureValue);
  const nonce = globalThis.crypto.getRandomValues(new Uint8Array(8));
  nonce[0] &= 0x7f;
  const token = tokenFromResponse(await tsa.respond(timestampRequest(imprint, nonce)));
  return checkTimestampToken(token, { imprint, nonce, tsaCertificate: tsa.certificate });
}

// ─── the local TSA ───────────────────────────────────────────────────────────

interface LocalTsaState {
  cert: pkijs.Certificate;
  der: Uint8Array;
  privateKey: webcrypto.CryptoKey;
}

let serialCounter = BigInt(Date.now()) * 1000n;

/** Makes a TSA: a fresh P-256 key and a self-signed certificate with the timeStamping key purpose. */
export async function createLocalTsa(name = 'ecofond local TSA (demo)', clock: () => Date = () => new Date()): Promise<TimestampAuthority> {
  const state = await makeTsaCertificate(name);
  return {
    name: 'local',
    certificate: state.cert,
    respond: (request) => localRespond(state, request, clock()),
  };
}

async function makeTsaCertificate(name: string): Promise<LocalTsaState> {
  const keys = (await globalThis.crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({
    valueHex: globalThis.crypto.getRandomValues(new Uint8Array(8)).map((b, i) => (i ? b : b & 0x7f)),
  });
  const rdn = new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({ type: '2.5.4.6', value: new asn1js.PrintableString({ value: 'UZ' }) }),
      new pkijs.AttributeTypeAndValue({ type: '2.5.4.3', value: new asn1js.Utf8String({ value: name }) }),
    ],
  });
  cert.subject = rdn;
  cert.issuer = rdn;
  const now = Date.now();
  cert.notBefore.value = new Date(now - 86_400_000);
  cert.notAfter.value = new Date(now + 10 * 365 * 86_400_000);
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey as never, engine);
  const eku = new pkijs.ExtKeyUsage({ keyPurposes: ['1.3.6.1.5.5.7.3.8'] });
  cert.extensions = [
    new pkijs.Extension({ extnID: '2.5.29.37', critical: true, extnValue: eku.toSchema().toBER(false), parsedValue: eku }),
  ];
  await cert.sign(keys.privateKey as never, 'SHA-256', engine);
  const der = new Uint8Array(cert.toSchema(true).toBER(false));
  return { cert: new pkijs.Certificate({ schema: asn1js.fromBER(der).result }), der, privateKey: keys.privateKey };
}

async function localRespond(state: LocalTsaState, request: Uint8Array, now: Date): Promise<Uint8Array> {
  const reject = (text: string) =>
    new Uint8Array(
      new pkijs.TimeStampResp({
        status: new pkijs.PKIStatusInfo({ status: 2, statusStrings: [new asn1js.Utf8String({ value: text })] }),
      })
        .toSchema()
        .toBER(false),
    );
  let req: pkijs.TimeStampReq;
  try {
    req = new pkijs.TimeStampReq({ schema: fromDer(request, 'request') });
  } catch {
    return reject('bad request');
  }
  if (req.messageImprint.hashAlgorithm.algorithmId !== TSP_OIDS.sha256) return reject('only SHA-256 imprints');
  serialCounter += 1n;
  const tst = new pkijs.TSTInfo({
    version: 1,
    policy: TSP_OIDS.localPolicy,
    messageImprint: req.messageImprint,
    serialNumber: new asn1js.Integer({ valueHex: bigintBytes(serialCounter) }),
    genTime: new Date(Math.floor(now.getTime() / 1000) * 1000),
    ...(req.nonce ? { nonce: req.nonce } : {}),
  });
  const eContent = new Uint8Array(tst.toSchema().toBER(false));
  const certHash = await digest('SHA-256', state.der);
  // SigningCertificateV2 { certs SEQUENCE OF ESSCertIDv2 { certHash } } (sha-256 is the default hash)
  const signingCert = new asn1js.Sequence({
    value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash })] })] })],
  });
  const si = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: state.cert.issuer, serialNumber: state.cert.serialNumber }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: TSP_OIDS.contentType, values: [new asn1js.ObjectIdentifier({ value: TSP_OIDS.tstInfo })] }),
        new pkijs.Attribute({
          type: TSP_OIDS.messageDigest,
          values: [new asn1js.OctetString({ valueHex: await digest('SHA-256', eContent) })],
        }),
        new pkijs.Attribute({ type: TSP_OIDS.signingCertificateV2, values: [signingCert] }),
      ],
    }),
  });
  const sd = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: TSP_OIDS.tstInfo,
      eContent: new asn1js.OctetString({ valueHex: eContent }),
    }),
    signerInfos: [si],
    ...(req.certReq ? { certificates: [state.cert] } : {}),
  });
  await sd.sign(state.privateKey as never, 0, 'SHA-256', eContent, engine);
  const token = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: sd.toSchema(true) });
  return new Uint8Array(
    new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token }).toSchema().toBER(false),
  );
}

function bigintBytes(n: bigint): Uint8Array {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (Number.parseInt(hex[0], 16) >= 8) hex = `00${hex}`;
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

let shared: Promise<TimestampAuthority> | undefined;
/** This process's local TSA, made on first use. */
export function localTsa(): Promise<TimestampAuthority> {
  shared ??= createLocalTsa();
  return shared;
}
