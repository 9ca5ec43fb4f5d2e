/**
 * E-signature errors: a stable string `code` a caller may switch on, and the caption key of the
 * message the spec shows (section 8, "E-signature: …"). Texts in uz / uk (Uzbek Cyrillic) / ru are
 * in `metadata/i18n/{uz,uk,ru}.json` under `esign`.
 */

/** Caption keys of the e-signature messages, server-side (verification) and client-side (signing). */
export const ESIGN_MESSAGE_KEYS = {
  // server side: verifyDetachedSignature
  data_failed: 'esign.data_failed',
  certificate_not_found: 'esign.certificate_not_found',
  unsupported_algorithm: 'esign.unsupported_algorithm',
  signature_invalid: 'esign.signature_invalid',
  untrusted_issuer: 'esign.untrusted_issuer',
  certificate_not_for_signing: 'esign.certificate_not_for_signing',
  certificate_expired: 'esign.certificate_expired',
  certificate_not_yet_valid: 'esign.certificate_not_yet_valid',
  tax_id_not_found: 'esign.tax_id_not_found',
  tax_id_mismatch: 'esign.tax_id_mismatch',
  certificate_revoked: 'esign.certificate_revoked',
  revocation_unavailable: 'esign.revocation_unavailable',
  timestamp_failed: 'esign.timestamp_failed',
  eimzo_unavailable: 'esign.eimzo_unavailable',
  // client side: the browser's signing provider (E-IMZO-style local program, key file)
  program_missing: 'esign.program_missing',
  cannot_connect: 'esign.cannot_connect',
  app_not_found: 'esign.app_not_found',
} as const;

export type ESignMessageKey = (typeof ESIGN_MESSAGE_KEYS)[keyof typeof ESIGN_MESSAGE_KEYS];

/** Codes the server-side verifier throws, in the order the checks run (see docs/e-signature.md). */
export const ESIGN_SERVER_CODES = [
  'data_failed',
  'certificate_not_found',
  'unsupported_algorithm',
  'signature_invalid',
  'untrusted_issuer',
  'certificate_not_for_signing',
  'certificate_expired',
  'certificate_not_yet_valid',
  'tax_id_not_found',
  'tax_id_mismatch',
  // the services around the verifier: revocation lists, the TSA, the E-IMZO server
  'certificate_revoked',
  'revocation_unavailable',
  'timestamp_failed',
  'eimzo_unavailable',
] as const;

/** Codes only the browser side raises (the signing program or key file could not be used). */
export const ESIGN_CLIENT_CODES = ['program_missing', 'cannot_connect', 'app_not_found'] as const;

export type ESignServerCode = (typeof ESIGN_SERVER_CODES)[number];
export type ESignClientCode = (typeof ESIGN_CLIENT_CODES)[number];
export type ESignErrorCode = ESignServerCode | ESignClientCode;

/** What is known about the signer's certificate when a check after the certificate lookup fails. */
export interface ESignErrorCertificate {
  commonName: string | null;
  serialNumber: string;
  issuer: string;
  validFrom: Date;
  validTo: Date;
}

export class ESignError extends Error {
  override readonly name = 'ESignError';
  /** caption key of the message, e.g. `esign.certificate_expired` */
  readonly messageKey: ESignMessageKey;

  constructor(
    readonly code: ESignErrorCode,
    /** technical detail in English for logs; never shown to the user as the message */
    readonly detail: string,
    /** the signer's certificate, when it was found before the failing check */
    readonly certificate?: ESignErrorCertificate,
    options?: { cause?: unknown },
  ) {
    super(`${ESIGN_MESSAGE_KEYS[code]}: ${detail}`, options);
    this.messageKey = ESIGN_MESSAGE_KEYS[code];
  }
}

export function isESignError(e: unknown): e is ESignError {
  return e instanceof ESignError;
}
