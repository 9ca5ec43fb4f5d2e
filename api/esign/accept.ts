/**
 * Accepting a signature (decision 0073): verify it — locally for RSA/ECDSA keys, through the E-IMZO
 * server (when one is configured) for what the local verifier cannot check (O'zDSt 1092/1106) —
 * then time-stamp it (RFC 3161). The signing time is the token's, never the signer's clock.
 */
import { verifyWithEimzoServer } from './eimzo-server.ts';
import { ESignError } from './errors.ts';
import { httpTsa, localTsa, timestampSignature, type TimestampInfo } from './timestamp.ts';
import type { ESignSettings } from './trust.ts';
import { type ExpectedSigner, type SignerIdentity, verifyDetachedSignature } from './verify.ts';
import type { CrlFetcher } from './revocation.ts';

export interface AcceptedSignature {
  signer: SignerIdentity;
  algorithm: string;
  /** who verified it */
  verifiedBy: 'local' | 'e-imzo';
  timestamp: TimestampInfo;
  /** the signing time: the time-stamp token's genTime */
  signedAt: Date;
  /** the signature as kept (base64): as sent, or as E-IMZO returned it with its token attached */
  signature: string;
  /** the RFC 3161 token, base64 DER */
  timestampToken: string;
}

export async function acceptSignature(o: {
  content: Uint8Array;
  signature: string;
  expected: ExpectedSigner;
  settings: ESignSettings;
  /** the signer's IP, told to the E-IMZO server */
  realIp?: string;
  crl?: CrlFetcher;
}): Promise<AcceptedSignature> {
  const { settings } = o;
  if (!settings.trustedCAs.length && !settings.eimzoUrl)
    throw new ESignError('untrusted_issuer', 'no CA is trusted and no E-IMZO server is set');
  try {
    if (!settings.trustedCAs.length) throw new ESignError('unsupported_algorithm', 'no local trust: E-IMZO server only');
    const result = await verifyDetachedSignature({
      content: o.content,
      signature: o.signature,
      trustedCAs: settings.trustedCAs,
      expected: o.expected,
      crl: o.crl,
    });
    const tsa = settings.tsaUrl ? httpTsa(settings.tsaUrl) : await localTsa();
    const timestamp = await timestampSignature(result.signatureValue, tsa);
    return {
      signer: result.signer,
      algorithm: result.algorithm,
      verifiedBy: 'local',
      timestamp,
      signedAt: timestamp.genTime,
      signature: o.signature.replace(/\s+/g, ''),
      timestampToken: Buffer.from(timestamp.token).toString('base64'),
    };
  } catch (e) {
    if (!(e instanceof ESignError && e.code === 'unsupported_algorithm' && settings.eimzoUrl)) throw e;
  }
  const v = await verifyWithEimzoServer(
    { url: settings.eimzoUrl, host: settings.eimzoHost, realIp: o.realIp },
    { content: o.content, signature: o.signature, expected: o.expected },
  );
  return {
    signer: v.signer,
    algorithm: v.algorithm,
    verifiedBy: 'e-imzo',
    timestamp: v.timestamp,
    signedAt: v.timestamp.genTime,
    signature: v.pkcs7b64,
    timestampToken: Buffer.from(v.timestamp.token).toString('base64'),
  };
}
