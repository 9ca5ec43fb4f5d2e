/**
 * Verification through the vendor's E-IMZO-SERVER (decision 0073, docs/e-signature.md) for
 * signatures the local verifier cannot check: O'zDSt 1092/1106, what real E-IMZO keys use.
 *
 * The calls, as the vendor documents them (github.com/qo0p/e-imzo-doc, section 2.2): every answer
 * is JSON with `status` (1 = success) and `message`; requests carry the user's IP in `X-Real-IP`
 * and the site's domain in `Host`; bodies are base64 text.
 * - `GET  /frontend/challenge` → `{challenge, ttl}`
 * - `POST /frontend/timestamp/pkcs7` body `pkcs7_b64` → `{pkcs7b64, timestampedSignerList}` — the
 *   same PKCS#7 with an RFC 3161 token attached to each signer (unsigned attribute)
 * - `POST /backend/pkcs7/verify/detached` body `data_b64|pkcs7_b64` → `{pkcs7Info: {signers: [...]}}`
 * - `POST /backend/pkcs7/verify/attached` body `pkcs7_b64` → the same with `documentBase64`
 * Each signer: `verified`, `certificateVerified`, `certificateValidAtSigningTime`,
 * `revokedStatusInfo` (present when suspended or revoked), `exception`, `certificate[0]` (the
 * signer's: `subjectInfo` with CN, O, UID, 1.2.860.3.16.1.1 = legal INN, 1.2.860.3.16.1.2 = PINFL;
 * `serialNumber`, `validFrom`, `validTo` as "YYYY-MM-DD HH:mm:ss"), `timeStampInfo`
 * (`verified`, `time`, …). Only tried against a stand-in (test/eimzo-server.test.ts), never against
 * the vendor's server: see docs/e-signature.md.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { INN_PATTERN, PINFL_PATTERN } from './certificate.ts';
import { ESignError } from './errors.ts';
import { embeddedTimestampToken, parseTimestampToken, type TimestampInfo } from './timestamp.ts';
import type { ExpectedSigner, SignerIdentity } from './verify.ts';
import { decodeSignature } from './verify.ts';

export const EIMZO_TIMEOUT_MS = 15_000;

export interface EimzoServer {
  /** base URL, e.g. `http://e-imzo-server:8080` */
  url: string;
  /** the site's domain, sent as `Host` (E-IMZO checks it against its key); default: the URL's host */
  host?: string;
  /** the user's IP, sent as `X-Real-IP` */
  realIp?: string;
  timeoutMs?: number;
}

export interface EimzoCertificateInfo {
  subjectInfo?: Record<string, string>;
  issuerInfo?: Record<string, string>;
  serialNumber?: string;
  subjectName?: string;
  issuerName?: string;
  validFrom?: string;
  validTo?: string;
  publicKey?: { keyAlgName?: string };
  signature?: { signAlgName?: string };
}

export interface EimzoSigner {
  signerId?: { issuer?: string; subjectSerialNumber?: string };
  signingTime?: string;
  certificate?: EimzoCertificateInfo[];
  verified?: boolean;
  certificateVerified?: boolean;
  certificateValidAtSigningTime?: boolean;
  revokedStatusInfo?: unknown;
  exception?: string;
  timeStampInfo?: { verified?: boolean; time?: string; certificateVerified?: boolean };
}

interface EimzoAnswer {
  status?: number;
  message?: string;
  [k: string]: unknown;
}

/** One call; `eimzo_unavailable` when the server cannot be reached or does not answer JSON. */
async function call(server: EimzoServer, method: 'GET' | 'POST', path: string, body?: string): Promise<EimzoAnswer> {
  const url = new URL(path, server.url.endsWith('/') ? server.url : `${server.url}/`);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (server.host) headers.host = server.host;
  if (server.realIp) headers['x-real-ip'] = server.realIp;
  if (body !== undefined) {
    headers['content-type'] = 'text/plain';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const text = await new Promise<string>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method, headers, timeout: server.timeoutMs ?? EIMZO_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300
            ? resolve(Buffer.concat(chunks).toString('utf8'))
            : reject(new Error(`HTTP ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  }).catch((e: Error) => {
    throw new ESignError('eimzo_unavailable', `E-IMZO server ${url.href}: ${e.message}`, undefined, { cause: e });
  });
  try {
    return JSON.parse(text) as EimzoAnswer;
  } catch (e) {
    throw new ESignError('eimzo_unavailable', `E-IMZO server ${url.href} did not answer JSON`, undefined, { cause: e });
  }
}

/** `GET /frontend/challenge`: a one-time value for signing in with a key (not used by report signing). */
export async function eimzoChallenge(server: EimzoServer): Promise<{ challenge: string; ttl: number }> {
  const a = await call(server, 'GET', 'frontend/challenge');
  if (a.status !== 1 || typeof a.challenge !== 'string')
    throw new ESignError('eimzo_unavailable', `E-IMZO challenge refused: ${a.status} ${a.message ?? ''}`);
  return { challenge: a.challenge, ttl: Number(a.ttl ?? 0) };
}

/** `POST /frontend/timestamp/pkcs7`: the PKCS#7 (base64) with a time-stamp token attached. */
export async function eimzoTimestamp(server: EimzoServer, pkcs7b64: string): Promise<string> {
  const a = await call(server, 'POST', 'frontend/timestamp/pkcs7', pkcs7b64);
  if (a.status !== 1 || typeof a.pkcs7b64 !== 'string')
    throw new ESignError('timestamp_failed', `E-IMZO timestamp/pkcs7 refused: ${a.status} ${a.message ?? ''}`);
  return a.pkcs7b64;
}

/** `POST /backend/pkcs7/verify/detached` (content given) or `/attached` (content inside): the signers. */
export async function eimzoVerify(server: EimzoServer, pkcs7b64: string, content?: Uint8Array): Promise<EimzoSigner[]> {
  const a =
    content === undefined
      ? await call(server, 'POST', 'backend/pkcs7/verify/attached', pkcs7b64)
      : await call(server, 'POST', 'backend/pkcs7/verify/detached', `${Buffer.from(content).toString('base64')}|${pkcs7b64}`);
  if (a.status !== 1) throw new ESignError('signature_invalid', `E-IMZO verify refused: ${a.status} ${a.message ?? ''}`);
  const info = a.pkcs7Info as { signers?: EimzoSigner[] } | undefined;
  return info?.signers ?? [];
}

/** E-IMZO's "YYYY-MM-DD HH:mm:ss" (the server's local time, Tashkent) as a Date. */
export function eimzoDate(text: string | undefined): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(text ?? '');
  return m ? new Date(`${m[1]}T${m[2]}+05:00`) : null;
}

export interface EimzoVerification {
  signer: SignerIdentity;
  algorithm: string;
  timestamp: TimestampInfo;
  /** the PKCS#7 as kept: the one E-IMZO returned with its time-stamp token attached (base64) */
  pkcs7b64: string;
}

/**
 * Verifies a detached PKCS#7 over `content` through the E-IMZO server: time-stamps it there unless
 * it already carries a token, verifies it, and maps the answer onto the verifier's codes
 * (docs/e-signature.md). The signer must be the expected subject (same INN/PINFL rules).
 */
export async function verifyWithEimzoServer(
  server: EimzoServer,
  o: { content: Uint8Array; signature: Uint8Array | string; expected: ExpectedSigner },
): Promise<EimzoVerification> {
  const der = decodeSignature(o.signature);
  let pkcs7b64 = Buffer.from(der).toString('base64');
  if (!signerToken(der)) pkcs7b64 = await eimzoTimestamp(server, pkcs7b64);
  const token = signerToken(decodeSignature(pkcs7b64));
  if (!token) throw new ESignError('timestamp_failed', 'E-IMZO returned the PKCS#7 without a time-stamp token');
  const timestamp = parseTimestampToken(token);

  const signers = await eimzoVerify(server, pkcs7b64, o.content);
  if (signers.length !== 1) throw new ESignError('data_failed', `E-IMZO found ${signers.length} signers; exactly one is supported`);
  const s = signers[0];
  const cert = s.certificate?.[0] ?? {};
  const subject = cert.subjectInfo ?? {};
  const certInfo = {
    commonName: subject.CN ?? null,
    serialNumber: (cert.serialNumber ?? s.signerId?.subjectSerialNumber ?? '').toLowerCase(),
    issuer: cert.issuerName ?? s.signerId?.issuer ?? '',
    validFrom: eimzoDate(cert.validFrom) ?? new Date(0),
    validTo: eimzoDate(cert.validTo) ?? new Date(0),
  };
  const refuse = (code: ConstructorParameters<typeof ESignError>[0], detail: string): never => {
    throw new ESignError(code, `E-IMZO: ${detail}${s.exception ? ` (${s.exception})` : ''}`, certInfo);
  };
  if (s.verified !== true) refuse('signature_invalid', 'the signature does not verify');
  if (s.revokedStatusInfo) refuse('certificate_revoked', `the certificate is suspended or revoked: ${JSON.stringify(s.revokedStatusInfo)}`);
  if (s.certificateVerified !== true) refuse('untrusted_issuer', 'the certificate chain is not trusted');
  if (s.certificateValidAtSigningTime !== true) refuse('certificate_expired', 'the certificate was not valid at the time-stamp');
  if (s.timeStampInfo?.verified !== true) refuse('timestamp_failed', 'the time-stamp token does not verify');

  const innOid = subject['1.2.860.3.16.1.1']?.trim();
  const uid = subject.UID?.trim();
  const pinflRaw = subject['1.2.860.3.16.1.2']?.trim();
  const inn = innOid && INN_PATTERN.test(innOid) ? innOid : !innOid && uid && INN_PATTERN.test(uid) ? uid : null;
  const pinfl = pinflRaw && PINFL_PATTERN.test(pinflRaw) ? pinflRaw : null;
  for (const [field, have] of [
    ['inn', inn],
    ['pinfl', pinfl],
  ] as const) {
    const want = o.expected[field];
    if (want === undefined) continue;
    if (have === null) refuse('tax_id_not_found', `the certificate has no ${field.toUpperCase()}`);
    if (have !== want) refuse('tax_id_mismatch', `the certificate's ${field.toUpperCase()} ${have} is not the expected ${want}`);
  }
  return {
    signer: {
      ...certInfo,
      organisation: subject.O ?? null,
      inn,
      pinfl,
      innSource: innOid ? 'inn-oid' : inn ? 'uid' : null,
      subject: cert.subjectName ?? '',
    },
    algorithm: cert.signature?.signAlgName ?? cert.publicKey?.keyAlgName ?? 'E-IMZO',
    timestamp,
    pkcs7b64,
  };
}

/** The time-stamp token of the PKCS#7's first signer, or null. */
function signerToken(der: Uint8Array): Uint8Array | null {
  try {
    const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(der).result });
    const sd = new pkijs.SignedData({ schema: info.content });
    return sd.signerInfos[0] ? embeddedTimestampToken(sd.signerInfos[0]) : null;
  } catch {
    return null;
  }
}
