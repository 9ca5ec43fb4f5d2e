/**
 * Certification path from the signer's certificate to one of the trusted CAs: each link is a CA
 * certificate (basicConstraints cA, keyCertSign when keyUsage is present, pathLen respected, no
 * unknown critical extension) whose subject is the child's issuer and whose key verifies the child's
 * signature. Intermediates may come from the CMS's certificate set; the path must end at a trusted
 * CA. The signer's certificate is never its own anchor, so a self-signed signer is refused even if
 * someone put it in the trusted list.
 *
 * Validity dates are not checked here (the caller checks every certificate of the returned path), but
 * among candidate issuers those valid at `at` are tried first.
 */
import * as pkijs from 'pkijs';
import { importPublicKey, signatureScheme, verifySignature } from './algorithms.ts';
import {
  KEY_USAGE,
  authorityKeyId,
  basicConstraints,
  formatName,
  keyUsage,
  sameBytes,
  sameCertificate,
  subjectKeyId,
  unknownCriticalExtensions,
  validAt,
} from './certificate.ts';
import { ESignError } from './errors.ts';

/** Certificates between the signer and the trusted CA, at most. */
export const MAX_INTERMEDIATES = 4;

interface Candidate {
  cert: pkijs.Certificate;
  anchor: boolean;
}

/**
 * Returns the path [signer, intermediates…, trusted CA]. Throws `untrusted_issuer` when there is
 * none, or `unsupported_algorithm` when the only possible links use algorithms we cannot check.
 */
export async function buildPath(
  leaf: pkijs.Certificate,
  intermediates: readonly pkijs.Certificate[],
  anchors: readonly pkijs.Certificate[],
  at: Date,
): Promise<pkijs.Certificate[]> {
  const refusals: string[] = [];
  let unsupported: ESignError | null = null;
  // an intermediate whose branch led nowhere is not explored again: keeps the search linear in the
  // number of certificates even when many share a name and a key
  const explored = new Set<pkijs.Certificate>();

  const extend = async (path: pkijs.Certificate[]): Promise<pkijs.Certificate[] | null> => {
    const child = path[path.length - 1];
    const candidates: Candidate[] = [
      ...anchors.map((cert) => ({ cert, anchor: true })),
      ...intermediates.map((cert) => ({ cert, anchor: false })),
    ]
      .filter((c) => !explored.has(c.cert) && !path.some((p) => sameCertificate(p, c.cert)))
      .filter((c) => c.cert.subject.isEqual(child.issuer))
      .filter((c) => keyIdsAgree(child, c.cert))
      // trusted first, then those valid at `at`
      .sort(
        (a, b) => Number(b.anchor) - Number(a.anchor) || Number(validAt(b.cert, at) === 'valid') - Number(validAt(a.cert, at) === 'valid'),
      );

    for (const { cert, anchor } of candidates) {
      const who = `"${formatName(cert.subject)}"${anchor ? ' (trusted)' : ''}`;
      const bc = basicConstraints(cert);
      if (!bc.ca) {
        refusals.push(`${who} is not a CA certificate`);
        continue;
      }
      const ku = keyUsage(cert);
      if (ku && !ku.has(KEY_USAGE.keyCertSign)) {
        refusals.push(`${who} may not sign certificates (keyUsage)`);
        continue;
      }
      const unknown = unknownCriticalExtensions(cert);
      if (unknown.length) {
        refusals.push(`${who} has unknown critical extensions ${unknown.join(', ')}`);
        continue;
      }
      const below = path.length - 1; // intermediates between this CA and the signer
      if (bc.pathLen !== null && below > bc.pathLen) {
        refusals.push(`${who} allows ${bc.pathLen} intermediate CAs below it, the path has ${below}`);
        continue;
      }

      try {
        if (!(await signedBy(child, cert))) {
          refusals.push(`the signature of "${formatName(child.subject)}" does not verify with the key of ${who}`);
          continue;
        }
      } catch (e) {
        if (e instanceof ESignError && (e.code === 'unsupported_algorithm' || e.code === 'data_failed')) {
          unsupported ??= new ESignError(
            'unsupported_algorithm',
            `cannot check "${formatName(child.subject)}" against ${who}: ${e.detail}`,
            undefined,
            { cause: e },
          );
          continue;
        }
        throw e;
      }
      if (anchor) return [...path, cert];
      if (path.length > MAX_INTERMEDIATES) {
        refusals.push(`the path through ${who} is longer than ${MAX_INTERMEDIATES} intermediate CAs`);
        continue;
      }
      explored.add(cert);
      const found = await extend([...path, cert]);
      if (found) return found;
    }
    return null;
  };

  const path = await extend([leaf]);
  if (path) return path;
  if (unsupported) throw unsupported;
  const selfSigned = leaf.subject.isEqual(leaf.issuer);
  const reason = selfSigned
    ? "the signer's certificate is self-signed"
    : `no trusted CA issued "${formatName(leaf.issuer)}"'s certificate chain`;
  throw new ESignError('untrusted_issuer', [reason, ...refusals].join('; '));
}

/** When both the child's authorityKeyIdentifier and the issuer's subjectKeyIdentifier exist, they must agree. */
function keyIdsAgree(child: pkijs.Certificate, issuer: pkijs.Certificate): boolean {
  const aki = authorityKeyId(child);
  const ski = subjectKeyId(issuer);
  return !aki || !ski || sameBytes(aki, ski);
}

/** Does `issuer`'s key verify `child`'s signature? Throws `unsupported_algorithm` for algorithms we cannot check. */
async function signedBy(child: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  const outer = child.signatureAlgorithm;
  const inner = child.signature;
  if (outer.algorithmId !== inner.algorithmId) return false; // RFC 5280 4.1.1.2: the two must be the same
  const scheme = signatureScheme(outer);
  const key = await importPublicKey(issuer.subjectPublicKeyInfo, scheme);
  return verifySignature(key, scheme, child.signatureValue.valueBlock.valueHexView, child.tbsView);
}
