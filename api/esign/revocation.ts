/**
 * Revocation (docs/e-signature.md, check 7b): every certificate of the path below the trusted CA
 * that names a CRL distribution point (2.5.29.31, an http(s) URI) is looked up in its issuer's CRL.
 * The CRL must be signed by that issuer (same name, its key verifies), current (nextUpdate not
 * past) and must not list the certificate's serial with a revocation date at or before `at`.
 * A certificate whose CA publishes no distribution point is not checked (there is nothing to
 * check against); a CRL that cannot be fetched or checked refuses the signature
 * (`revocation_unavailable`) rather than accepting a certificate that may be revoked.
 *
 * CRLs are kept in memory per URL until their nextUpdate (at most an hour).
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { digestHash, importPublicKey, signatureScheme, verifySignature } from './algorithms.ts';
import { formatName, sameBytes } from './certificate.ts';
import { ESignError } from './errors.ts';

export type CrlFetcher = (url: string) => Promise<Uint8Array>;

export const CRL_TIMEOUT_MS = 10_000;
const MAX_CRL_BYTES = 20 * 1024 * 1024;
const CACHE_MS = 3_600_000;

/** CRL distribution point URIs (http/https) a certificate names. */
export function crlUrls(cert: pkijs.Certificate): string[] {
  const ext = cert.extensions?.find((e) => e.extnID === '2.5.29.31');
  if (!ext) return [];
  let cdp: pkijs.CRLDistributionPoints;
  try {
    cdp = new pkijs.CRLDistributionPoints({ schema: asn1js.fromBER(ext.extnValue.valueBlock.valueHexView).result });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const point of cdp.distributionPoints) {
    const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
    for (const n of names) if (n.type === 6 && typeof n.value === 'string' && /^https?:\/\//i.test(n.value)) out.push(n.value);
  }
  return out;
}

export const httpCrlFetcher: CrlFetcher = async (url) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(CRL_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = new Uint8Array(await res.arrayBuffer());
  if (body.byteLength > MAX_CRL_BYTES) throw new Error('the CRL is too large');
  return body;
};

const cache = new Map<string, { until: number; crl: pkijs.CertificateRevocationList }>();

/** Forgets the CRLs kept in memory (tests). */
export function clearCrlCache(): void {
  cache.clear();
}

async function loadCrl(url: string, fetcher: CrlFetcher, issuer: pkijs.Certificate, at: Date): Promise<pkijs.CertificateRevocationList> {
  const hit = cache.get(url);
  if (hit && hit.until > Date.now()) return hit.crl;
  let der: Uint8Array;
  try {
    der = pemOrDer(await fetcher(url));
  } catch (e) {
    throw new ESignError('revocation_unavailable', `the CRL ${url} cannot be fetched: ${(e as Error).message}`, undefined, { cause: e });
  }
  let crl: pkijs.CertificateRevocationList;
  try {
    const asn = asn1js.fromBER(der);
    if (asn.offset === -1) throw new Error('not ASN.1');
    crl = new pkijs.CertificateRevocationList({ schema: asn.result });
  } catch (e) {
    throw new ESignError('revocation_unavailable', `the CRL ${url} cannot be read: ${(e as Error).message}`, undefined, { cause: e });
  }
  if (!crl.issuer.isEqual(issuer.subject))
    throw new ESignError(
      'revocation_unavailable',
      `the CRL ${url} is issued by ${formatName(crl.issuer)}, not ${formatName(issuer.subject)}`,
    );
  let ok: boolean;
  try {
    const scheme = signatureScheme(crl.signatureAlgorithm, digestHashOf(crl.signatureAlgorithm));
    const key = await importPublicKey(issuer.subjectPublicKeyInfo, scheme);
    ok = await verifySignature(key, scheme, crl.signatureValue.valueBlock.valueHexView, crl.tbsView);
  } catch (e) {
    throw new ESignError('revocation_unavailable', `the CRL ${url}'s signature cannot be checked: ${(e as Error).message}`, undefined, {
      cause: e,
    });
  }
  if (!ok) throw new ESignError('revocation_unavailable', `the CRL ${url} is not signed by its issuer`);
  const next = crl.nextUpdate?.value;
  if (next && next.getTime() < at.getTime())
    throw new ESignError('revocation_unavailable', `the CRL ${url} is out of date (next update ${next.toISOString()})`);
  cache.set(url, { until: Math.min(Date.now() + CACHE_MS, next?.getTime() ?? Date.now() + CACHE_MS), crl });
  return crl;
}

/** The hash a CRL's signature algorithm implies (RSA and ECDSA signature OIDs name it). */
function digestHashOf(alg: pkijs.AlgorithmIdentifier): ReturnType<typeof digestHash> | undefined {
  const byOid: Record<string, ReturnType<typeof digestHash>> = {
    '1.2.840.113549.1.1.11': 'SHA-256',
    '1.2.840.113549.1.1.12': 'SHA-384',
    '1.2.840.113549.1.1.13': 'SHA-512',
    '1.2.840.10045.4.3.2': 'SHA-256',
    '1.2.840.10045.4.3.3': 'SHA-384',
    '1.2.840.10045.4.3.4': 'SHA-512',
  };
  return byOid[alg.algorithmId];
}

function pemOrDer(bytes: Uint8Array): Uint8Array {
  const head = Buffer.from(bytes.subarray(0, 30)).toString('latin1');
  if (!head.includes('-----BEGIN')) return bytes;
  const text = Buffer.from(bytes).toString('latin1');
  const m = /-----BEGIN X509 CRL-----([\s\S]*?)-----END X509 CRL-----/.exec(text);
  if (!m) throw new Error('PEM without an X509 CRL block');
  return new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ''), 'base64'));
}

/**
 * Checks each certificate of `path` (signer first, trusted CA last) against its issuer's CRL when
 * it names one. Throws `certificate_revoked` or `revocation_unavailable`.
 */
export async function checkRevocation(path: readonly pkijs.Certificate[], at: Date, fetcher: CrlFetcher = httpCrlFetcher): Promise<void> {
  for (let i = 0; i < path.length - 1; i++) {
    const cert = path[i];
    const issuer = path[i + 1];
    const urls = crlUrls(cert);
    if (!urls.length) continue;
    let crl: pkijs.CertificateRevocationList | undefined;
    let failure: unknown;
    for (const url of urls) {
      try {
        crl = await loadCrl(url, fetcher, issuer, at);
        break;
      } catch (e) {
        failure = e;
      }
    }
    if (!crl) throw failure;
    const serial = cert.serialNumber.valueBlock.valueHexView;
    const entry = crl.revokedCertificates?.find((r) => sameBytes(r.userCertificate.valueBlock.valueHexView, serial));
    if (entry && entry.revocationDate.value.getTime() <= at.getTime()) {
      const whose = i === 0 ? "the signer's certificate" : `CA certificate "${formatName(cert.subject)}"`;
      throw new ESignError('certificate_revoked', `${whose} was revoked on ${entry.revocationDate.value.toISOString()}`);
    }
  }
}
