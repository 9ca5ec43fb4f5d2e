import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { ESignFailure, describeCertificate, type CertificateInfo, type SigningKey } from './types';

/**
 * The key-file provider: a PKCS#12 file (.pfx / .p12) opened in the browser with its password,
 * its private key imported into WebCrypto (not extractable), and a detached CMS SignedData made
 * with pkijs over the content to sign — signed attributes content-type, signing-time and
 * message-digest, the signer's certificate inside, SHA-256 — which is what the server's verifier
 * expects (docs/e-signature.md).
 *
 * Files protected with PBES2 (PBKDF2 + AES, what OpenSSL 3 and current CAs write) open; the old
 * RC2 / 3DES PKCS#12 encryption has no WebCrypto implementation and is refused as unreadable.
 */

const OID = {
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  rsa: '1.2.840.113549.1.1.1',
  ec: '1.2.840.10045.2.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
} as const;

const CURVES: Record<string, string> = { '1.2.840.10045.3.1.7': 'P-256', '1.3.132.0.34': 'P-384', '1.3.132.0.35': 'P-521' };

function engine(): pkijs.CryptoEngine {
  return new pkijs.CryptoEngine({ name: 'webcrypto', crypto: globalThis.crypto as never });
}

const toBuffer = (u: Uint8Array): ArrayBuffer => u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
const utf8 = (s: string): ArrayBuffer => toBuffer(new TextEncoder().encode(s));

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

interface Opened {
  keyInfo: pkijs.PrivateKeyInfo;
  certificates: pkijs.Certificate[];
}

async function openPfx(file: ArrayBuffer, password: string): Promise<Opened> {
  const crypto = engine();
  const asn = asn1js.fromBER(file);
  if (asn.offset === -1) throw new ESignFailure('admin.sign.pfx_unreadable');
  let pfx: pkijs.PFX;
  try {
    pfx = new pkijs.PFX({ schema: asn.result });
  } catch {
    throw new ESignFailure('admin.sign.pfx_unreadable');
  }
  const pw = utf8(password);
  try {
    // the file's MAC is keyed by the password: a wrong one fails here
    await pfx.parseInternalValues({ password: pw, checkIntegrity: true }, crypto);
  } catch (err) {
    throw new ESignFailure(/integrity/i.test(String(err)) ? 'admin.sign.pfx_bad_password' : 'admin.sign.pfx_unreadable', String(err));
  }
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new ESignFailure('admin.sign.pfx_unreadable');
  try {
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: pw })) }, crypto);
  } catch (err) {
    // a wrong password fails the decryption of the encrypted part
    throw new ESignFailure('admin.sign.pfx_bad_password', String(err));
  }
  let keyInfo: pkijs.PrivateKeyInfo | undefined;
  const certificates: pkijs.Certificate[] = [];
  for (const contents of safe.parsedValue?.safeContents ?? []) {
    for (const bag of contents.value.safeBags) {
      if (bag.bagId === OID.shroudedKeyBag) {
        const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
        try {
          // public in pkijs's code, protected in its typings
          await (
            shrouded as unknown as { parseInternalValues(p: { password: ArrayBuffer }, c: pkijs.ICryptoEngine): Promise<void> }
          ).parseInternalValues({ password: pw }, crypto);
        } catch (err) {
          throw new ESignFailure('admin.sign.pfx_bad_password', String(err));
        }
        keyInfo = shrouded.parsedValue;
      } else if (bag.bagId === OID.keyBag) {
        keyInfo = bag.bagValue as pkijs.PrivateKeyInfo;
      } else if (bag.bagId === OID.certBag) {
        const cert = (bag.bagValue as pkijs.CertBag).parsedValue;
        if (cert instanceof pkijs.Certificate) certificates.push(cert);
      }
    }
  }
  if (!keyInfo) throw new ESignFailure('admin.sign.pfx_no_key');
  if (!certificates.length) throw new ESignFailure('esign.certificate_not_found');
  return { keyInfo, certificates };
}

/** The certificate whose public key is the private key's (the file may carry the CA's too). */
async function signerCertificate(
  keyInfo: pkijs.PrivateKeyInfo,
  certs: pkijs.Certificate[],
  key: CryptoKey,
  algorithm: EcKeyImportParams | RsaHashedImportParams,
): Promise<pkijs.Certificate> {
  const probe = new Uint8Array([1, 2, 3, 4]);
  const params = algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5' };
  const sig = await globalThis.crypto.subtle.sign(params, key, probe);
  for (const cert of certs) {
    try {
      const pub = await globalThis.crypto.subtle.importKey('spki', cert.subjectPublicKeyInfo.toSchema().toBER(false), algorithm, false, [
        'verify',
      ]);
      if (await globalThis.crypto.subtle.verify(params, pub, sig, probe)) return cert;
    } catch {
      /* another kind of key */
    }
  }
  void keyInfo;
  throw new ESignFailure('esign.certificate_not_found');
}

async function importPrivateKey(
  keyInfo: pkijs.PrivateKeyInfo,
): Promise<{ key: CryptoKey; algorithm: EcKeyImportParams | RsaHashedImportParams }> {
  const der = keyInfo.toSchema().toBER(false);
  const oid = keyInfo.privateKeyAlgorithm.algorithmId;
  let algorithm: EcKeyImportParams | RsaHashedImportParams;
  if (oid === OID.rsa) {
    algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  } else if (oid === OID.ec) {
    const params = keyInfo.privateKeyAlgorithm.algorithmParams as asn1js.ObjectIdentifier | undefined;
    const curve = params ? CURVES[params.valueBlock.toString()] : undefined;
    if (!curve) throw new ESignFailure('esign.unsupported_algorithm');
    algorithm = { name: 'ECDSA', namedCurve: curve };
  } else {
    // GOST / O'zDSt keys (E-IMZO's own) have no WebCrypto implementation
    throw new ESignFailure('esign.unsupported_algorithm', oid);
  }
  try {
    const key = await globalThis.crypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']);
    return { key, algorithm };
  } catch (err) {
    throw new ESignFailure('esign.unsupported_algorithm', String(err));
  }
}

/** A detached CMS SignedData (DER) over `content`, made with `key` for `cert`. */
export async function signDetachedCms(
  content: Uint8Array,
  key: CryptoKey,
  cert: pkijs.Certificate,
  signingTime = new Date(),
): Promise<Uint8Array> {
  const crypto = engine();
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', toBuffer(content)));
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: pkijs.ContentInfo.DATA })] }),
        new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: signingTime })] }),
        new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: toBuffer(digest) })] }),
      ],
    }),
  });
  const sd = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: pkijs.ContentInfo.DATA }),
    signerInfos: [signerInfo],
    certificates: [cert],
  });
  await sd.sign(key, 0, 'SHA-256', toBuffer(content), crypto);
  const info = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: sd.toSchema(true) });
  return new Uint8Array(info.toSchema().toBER(false));
}

/**
 * Opens a key file with its password: the signing key, and its certificate as the signer will see
 * it (name, organisation, INN, validity). Wrong password, unreadable file, unsupported key: an
 * ESignFailure with a caption key.
 */
export async function openKeyFile(file: ArrayBuffer, password: string): Promise<SigningKey & { certificate: CertificateInfo }> {
  const { keyInfo, certificates } = await openPfx(file, password);
  const { key, algorithm } = await importPrivateKey(keyInfo);
  const cert = await signerCertificate(keyInfo, certificates, key, algorithm);
  const certificate = describeCertificate(cert);
  return {
    certificate,
    async sign(content: Uint8Array) {
      return toBase64(await signDetachedCms(content, key, cert));
    },
  };
}
