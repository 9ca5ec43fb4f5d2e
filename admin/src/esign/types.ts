import type * as pkijs from 'pkijs';

/**
 * The one interface both signing providers (the E-IMZO program, a PKCS#12 key file) give the
 * signing dialog: a chosen key that turns the content to sign into a detached CMS SignedData,
 * base64 — what `POST …/actions/send {signature}` takes.
 */
export interface SigningKey {
  sign(content: Uint8Array): Promise<string>;
}

/** A certificate as the signer sees it before signing. */
export interface CertificateInfo {
  commonName: string;
  organisation?: string;
  inn?: string;
  pinfl?: string;
  serialNumber?: string;
  validFrom?: string;
  validTo?: string;
  issuer?: string;
}

/** A failure the user can act on, with the caption key of its message (esign.*, spec §8). */
export class ESignFailure extends Error {
  constructor(
    readonly key: string,
    readonly detail?: string,
  ) {
    super(key);
    this.name = 'ESignFailure';
  }
}

export const TAX_OIDS = { inn: '1.2.860.3.16.1.1', pinfl: '1.2.860.3.16.1.2', uid: '0.9.2342.19200300.100.1.1' } as const;
const NAMES: Record<string, string> = { '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.11': 'OU', '2.5.4.6': 'C', '2.5.4.7': 'L' };

function attr(name: pkijs.RelativeDistinguishedNames, oid: string): string | undefined {
  const tv = name.typesAndValues.find((x) => x.type === oid);
  const v = tv?.value?.valueBlock?.value;
  return typeof v === 'string' ? v.trim() : undefined;
}

// a certificate's dates as Tashkent's calendar reads them (a key valid from 00:30 on the 2nd there is not the 1st's)
const tashkentDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent', year: 'numeric', month: '2-digit', day: '2-digit' });
const dateOf = (d: Date | undefined) => (d && !Number.isNaN(d.getTime()) ? tashkentDay.format(d) : undefined);

export function describeCertificate(cert: pkijs.Certificate): CertificateInfo {
  const s = cert.subject;
  const inn = attr(s, TAX_OIDS.inn) ?? attr(s, TAX_OIDS.uid);
  const serial = Array.from(new Uint8Array(cert.serialNumber.valueBlock.valueHexView))
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .replace(/^0+/, '');
  return {
    commonName: attr(s, '2.5.4.3') ?? '',
    organisation: attr(s, '2.5.4.10'),
    inn: inn && /^\d{9}$/.test(inn) ? inn : undefined,
    pinfl: attr(s, TAX_OIDS.pinfl),
    serialNumber: serial || '0',
    validFrom: dateOf(cert.notBefore.value),
    validTo: dateOf(cert.notAfter.value),
    issuer: cert.issuer.typesAndValues.map((tv) => `${NAMES[tv.type] ?? tv.type}=${String(tv.value?.valueBlock?.value ?? '')}`).join(', '),
  };
}
