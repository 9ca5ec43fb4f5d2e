/** E-signature: canonical content, detached CMS verification, error codes and caption keys. */
export { canonicalContent, canonicalJson, decimalString } from './canonical.ts';
export { verifyDetachedSignature, decodeSignature, MAX_CMS_CERTIFICATES, MAX_SIGNATURE_BYTES } from './verify.ts';
export type { ExpectedSigner, SignerIdentity, TrustedCAs, VerifyOptions, VerifyResult } from './verify.ts';
export { TAX_ID_OIDS, loadTrustedCAs } from './certificate.ts';
export {
  ESIGN_CLIENT_CODES,
  ESIGN_MESSAGE_KEYS,
  ESIGN_SERVER_CODES,
  ESignError,
  isESignError,
} from './errors.ts';
export type { ESignClientCode, ESignErrorCode, ESignErrorCertificate, ESignMessageKey, ESignServerCode } from './errors.ts';
