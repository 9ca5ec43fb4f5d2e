import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata } from '../meta/load.ts';
import { canonicalContent } from './canonical.ts';
import { ESIGN_SERVER_CODES, ESignError, type ESignServerCode } from './errors.ts';
import {
  type KeyKind,
  type TestCert,
  type TestSubject,
  buildSignedData,
  encodeSignedData,
  generateKeys,
  issueCertificate,
  privateKeyPem,
  signDetached,
} from './test-pki.ts';
import { type VerifyOptions, verifyDetachedSignature } from './verify.ts';
import { skipBecause } from '../../test/support/skip.ts';

const AT = new Date('2025-06-01T12:00:00Z');
const INN = '305123456';
const PINFL = '31234567890123';
const report = {
  id: 77,
  year: 2024,
  period: 'Q2',
  amount: '15234.75',
  subject: { inn: INN, name: '"Toshkent kimyo" AJ' },
  ingredients: [{ code: 'NO2', mass: 1.25, norm: '12.0000' }],
};
const content = canonicalContent(report);
const tampered = canonicalContent({ ...report, amount: '1523.75' });

const holder: TestSubject = { cn: 'ALIYEV VALI', o: '"TOSHKENT KIMYO" AJ', inn: INN, pinfl: PINFL };

let root: TestCert;
let inter: TestCert;
const signers: Record<string, TestCert> = {};
const rsaKeys: Partial<Record<KeyKind, Awaited<ReturnType<typeof generateKeys>>>> = {};

beforeAll(async () => {
  [rsaKeys.RSA, rsaKeys['RSA-PSS']] = await Promise.all([generateKeys('RSA'), generateKeys('RSA-PSS')]);
  root = await issueCertificate({ subject: { cn: 'Ecofond Test Root CA', o: 'Ecofond test PKI' }, ca: 1 });
  inter = await issueCertificate({ subject: { cn: 'Ecofond Test Issuing CA', o: 'Ecofond test PKI' }, issuer: root, ca: 0 });
  const otherRoot = await issueCertificate({ subject: { cn: 'Other Root CA' }, ca: true });
  const expiredInter = await issueCertificate({
    subject: { cn: 'Expired Issuing CA' },
    issuer: root,
    ca: 0,
    notAfter: new Date('2025-01-01T00:00:00Z'),
  });
  const notCa = await issueCertificate({ subject: { cn: 'Not A CA' }, issuer: root });
  const strictRoot = await issueCertificate({ subject: { cn: 'Root With PathLen 0' }, ca: 0 });
  const strictInter = await issueCertificate({ subject: { cn: 'Below PathLen 0' }, issuer: strictRoot, ca: 0 });
  Object.assign(signers, { root, inter, otherRoot, expiredInter, notCa, strictRoot, strictInter });

  const leaf = (subject: TestSubject, extra: Partial<Parameters<typeof issueCertificate>[0]> = {}) =>
    issueCertificate({ subject, issuer: inter, ...extra });
  const made = await Promise.all([
    leaf(holder),
    leaf(holder, { notBefore: new Date('2023-01-01T00:00:00Z'), notAfter: new Date('2024-12-31T23:59:59Z') }),
    leaf(holder, { notBefore: new Date('2025-09-01T00:00:00Z'), notAfter: new Date('2027-09-01T00:00:00Z') }),
    leaf({ ...holder, inn: '305999999' }),
    leaf({ cn: 'NO TAX ID', o: 'Somewhere' }),
    leaf({ cn: 'ALIYEV VALI', uid: INN }),
    leaf({ cn: 'KARIMOVA NODIRA', pinfl: '41234567890123' }),
    issueCertificate({ subject: holder, issuer: otherRoot }),
    issueCertificate({ subject: holder }),
    leaf(holder, { keyUsage: [2] }),
    leaf(holder, { keys: rsaKeys.RSA }),
    leaf(holder, { keys: rsaKeys['RSA-PSS'] }),
    leaf(holder, { spkiAlgorithmOid: '1.2.643.7.1.1.1.1' }),
    issueCertificate({ subject: holder, issuer: expiredInter }),
    issueCertificate({ subject: holder, issuer: notCa }),
    issueCertificate({ subject: holder, issuer: strictInter }),
    leaf(holder, { keys: await generateKeys('ECDSA-P384') }),
    leaf({ ...holder, inn: ' 30512345' }),
    leaf({ ...holder, uid: '412345678' }),
  ]);
  const names = [
    'valid',
    'expired',
    'notYetValid',
    'wrongInn',
    'noInn',
    'uidOnly',
    'person',
    'untrusted',
    'selfSigned',
    'notForSigning',
    'rsa',
    'pss',
    'gostKey',
    'underExpiredCa',
    'underNotCa',
    'pathTooLong',
    'p384',
    'badInn',
    'orgWithUid',
  ];
  names.forEach((n, i) => {
    signers[n] = made[i];
  });
}, 30_000);

function verify(signature: Uint8Array | string, over: Partial<VerifyOptions> = {}) {
  return verifyDetachedSignature({ content, signature, trustedCAs: root.pem, expected: { inn: INN }, at: AT, ...over });
}

async function sign(name: string, over: Partial<Parameters<typeof signDetached>[0]> = {}): Promise<Uint8Array> {
  return signDetached({ content, signer: signers[name], chain: [inter], signingTime: new Date('2025-05-31T10:00:00Z'), ...over });
}

async function refused(promise: Promise<unknown>, code: ESignServerCode): Promise<ESignError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected ${code}`).toBeInstanceOf(ESignError);
  const e = err as ESignError;
  expect({ code: e.code, detail: e.detail }).toMatchObject({ code });
  expect(e.messageKey).toBe(`esign.${code}`);
  return e;
}

describe('verifyDetachedSignature: accepted', () => {
  it('a valid signature, with the signer read from the certificate', async () => {
    const result = await verify(await sign('valid'));
    expect(result).toMatchObject({
      ok: true,
      signer: {
        commonName: 'ALIYEV VALI',
        organisation: '"TOSHKENT KIMYO" AJ',
        inn: INN,
        pinfl: PINFL,
        innSource: 'inn-oid',
        serialNumber: expect.stringMatching(/^[0-9a-f]+$/),
        validFrom: new Date('2024-01-01T00:00:00Z'),
        validTo: new Date('2049-12-31T00:00:00Z'),
        issuer: 'C=UZ, O=Ecofond test PKI, CN=Ecofond Test Issuing CA',
      },
      signingTime: new Date('2025-05-31T10:00:00Z'),
      algorithm: 'ECDSA P-256 SHA-256',
      attached: false,
      chain: [expect.stringContaining('ALIYEV VALI'), expect.stringContaining('Issuing CA'), expect.stringContaining('Root CA')],
    });
    expect(result.signer.serialNumber).toBe(
      Buffer.from(signers.valid.cert.serialNumber.valueBlock.valueHexView).toString('hex').replace(/^0+/, ''),
    );
    expect(result.signer.subject).toBe(
      `C=UZ, O=\\"TOSHKENT KIMYO\\" AJ, CN=ALIYEV VALI, 1.2.860.3.16.1.1=${INN}, 1.2.860.3.16.1.2=${PINFL}`,
    );
  });

  it('base64 (plain, URL-safe, PEM-armoured), DER trusted CAs and lists of them', async () => {
    const sig = await sign('valid');
    const b64 = Buffer.from(sig).toString('base64');
    await verify(b64);
    await verify(Buffer.from(sig).toString('base64url'));
    await verify(`-----BEGIN PKCS7-----\n${b64.replace(/(.{64})/g, '$1\n')}\n-----END PKCS7-----\n`);
    await verify(sig, { trustedCAs: root.der });
    await verify(sig, { trustedCAs: [signers.otherRoot.pem, root.der] });
    await verify(sig, { trustedCAs: signers.otherRoot.pem + root.pem });
  });

  it('expected PINFL, INN and PINFL together, and the INN in UID', async () => {
    await verify(await sign('valid'), { expected: { inn: INN, pinfl: PINFL } });
    const person = await verify(await sign('person'), { expected: { pinfl: '41234567890123' } });
    expect(person.signer).toMatchObject({ inn: null, pinfl: '41234567890123', commonName: 'KARIMOVA NODIRA', organisation: null });
    const uid = await verify(await sign('uidOnly'));
    expect(uid.signer).toMatchObject({ inn: INN, innSource: 'uid' });
    // with both, the organisation's INN (1.2.860.3.16.1.1) wins over the holder's own INN in UID
    const both = await verify(await sign('orgWithUid'));
    expect(both.signer).toMatchObject({ inn: INN, innSource: 'inn-oid' });
    await refused(verify(await sign('orgWithUid'), { expected: { inn: '412345678' } }), 'tax_id_mismatch');
  });

  it('RSA PKCS#1 v1.5, RSA-PSS, ECDSA P-384 and SHA-384/512 digests', async () => {
    expect((await verify(await sign('rsa'))).algorithm).toBe('RSASSA-PKCS1-v1_5 2048 SHA-256');
    expect((await verify(await sign('pss'))).algorithm).toBe('RSA-PSS 2048 SHA-256');
    expect((await verify(await sign('p384', { hash: 'SHA-384' }))).algorithm).toBe('ECDSA P-384 SHA-384');
    expect((await verify(await sign('valid', { hash: 'SHA-512' }))).algorithm).toBe('ECDSA P-256 SHA-512');
  });

  it('without signed attributes, by subject key identifier, and with the content attached', async () => {
    expect((await verify(await sign('valid', { signedAttributes: false }))).signingTime).toBeNull();
    await verify(await sign('valid', { bySubjectKeyId: true }));
    expect((await verify(await sign('valid', { attach: true }))).attached).toBe(true);
  });

  it('defaults `at` to now', async () => {
    const sig = await sign('valid');
    await verifyDetachedSignature({ content, signature: sig, trustedCAs: root.pem, expected: { inn: INN } });
  });
});

describe('verifyDetachedSignature: refused', () => {
  it('tampered content (message-digest) → signature_invalid', async () => {
    const e = await refused(verify(await sign('valid'), { content: tampered }), 'signature_invalid');
    expect(e.detail).toMatch(/message-digest/);
    expect(e.certificate?.commonName).toBe('ALIYEV VALI');
  });

  it('tampered content without signed attributes → signature_invalid', async () => {
    await refused(verify(await sign('valid', { signedAttributes: false }), { content: tampered }), 'signature_invalid');
  });

  it('an altered signature value or signed attribute → signature_invalid', async () => {
    const sd = await buildSignedData({ content, signer: signers.valid, chain: [inter] });
    const value = new Uint8Array(sd.signerInfos[0].signature.valueBlock.valueHexView);
    value[value.length - 5] ^= 0x01;
    sd.signerInfos[0].signature = new asn1js.OctetString({ valueHex: value });
    await refused(verify(encodeSignedData(sd)), 'signature_invalid');

    // the signing-time inside the signed attributes, changed in the DER as it travels
    const der = new Uint8Array(await sign('valid'));
    const at = Buffer.from(der).indexOf(Buffer.from('250531100000Z'));
    expect(at).toBeGreaterThan(0);
    der[at] = '3'.charCodeAt(0);
    await refused(verify(der), 'signature_invalid');
  });

  it('attached content that differs from the content given → signature_invalid', async () => {
    await refused(verify(await sign('valid', { attach: true }), { content: tampered }), 'signature_invalid');
  });

  it('expired certificate → certificate_expired, with the certificate for the message', async () => {
    const e = await refused(verify(await sign('expired')), 'certificate_expired');
    expect(e.certificate?.validTo).toEqual(new Date('2024-12-31T23:59:59Z'));
    expect(e.detail).toMatch(/signer's certificate expired on 2024-12-31/);
  });

  it('certificate not valid yet → certificate_not_yet_valid', async () => {
    await refused(verify(await sign('notYetValid')), 'certificate_not_yet_valid');
  });

  it('an expired CA in the chain → certificate_expired', async () => {
    const e = await refused(verify(await sign('underExpiredCa', { chain: [signers.expiredInter] })), 'certificate_expired');
    expect(e.detail).toMatch(/CA certificate .*Expired Issuing CA/);
  });

  it('wrong INN → tax_id_mismatch; wrong PINFL too', async () => {
    const e = await refused(verify(await sign('wrongInn')), 'tax_id_mismatch');
    expect(e.detail).toMatch(/305999999 is not the expected 305123456/);
    await refused(verify(await sign('valid'), { expected: { inn: INN, pinfl: '39999999999999' } }), 'tax_id_mismatch');
  });

  it('no INN or PINFL in the certificate → tax_id_not_found', async () => {
    await refused(verify(await sign('noInn')), 'tax_id_not_found');
    await refused(verify(await sign('person')), 'tax_id_not_found');
    await refused(verify(await sign('uidOnly'), { expected: { pinfl: PINFL } }), 'tax_id_not_found');
    const e = await refused(verify(await sign('badInn')), 'tax_id_not_found');
    expect(e.detail).toMatch(/malformed/);
  });

  it('issued by a CA that is not trusted → untrusted_issuer', async () => {
    await refused(verify(await sign('untrusted', { chain: [signers.otherRoot] })), 'untrusted_issuer');
  });

  it('self-signed signer → untrusted_issuer, even when listed as trusted', async () => {
    const sig = await sign('selfSigned', { chain: [] });
    const e = await refused(verify(sig), 'untrusted_issuer');
    expect(e.detail).toMatch(/self-signed/);
    await refused(verify(sig, { trustedCAs: [root.pem, signers.selfSigned.pem] }), 'untrusted_issuer');
  });

  it('intermediate missing, issuer not a CA, path length exceeded → untrusted_issuer', async () => {
    await refused(verify(await sign('valid', { chain: [] })), 'untrusted_issuer');
    const e = await refused(verify(await sign('underNotCa', { chain: [signers.notCa] })), 'untrusted_issuer');
    expect(e.detail).toMatch(/not a CA/);
    const p = await refused(
      verify(await sign('pathTooLong', { chain: [signers.strictInter] }), { trustedCAs: signers.strictRoot.pem }),
      'untrusted_issuer',
    );
    expect(p.detail).toMatch(/allows 0 intermediate/);
  });

  it('a key not meant for signing → certificate_not_for_signing', async () => {
    await refused(verify(await sign('notForSigning')), 'certificate_not_for_signing');
  });

  it('no signer certificate in the CMS → certificate_not_found', async () => {
    await refused(verify(await sign('valid', { includeSignerCert: false, chain: [] })), 'certificate_not_found');
    await refused(verify(await sign('valid', { includeSignerCert: false })), 'certificate_not_found');
  });

  it('garbage and non-CMS data → data_failed', async () => {
    const sig = await sign('valid');
    const cases: (Uint8Array | string)[] = [
      new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
      new Uint8Array(0),
      'not base64 at all!',
      '',
      Buffer.from('hello world').toString('base64'),
      new Uint8Array([...sig, 0]),
      sig.subarray(0, sig.length - 10),
      new Uint8Array(new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.7.1' })] }).toBER(false)),
      root.der,
    ];
    for (const c of cases) await refused(verify(c), 'data_failed');
    await refused(verify(123 as unknown as string), 'data_failed');
  });

  it('two signers → data_failed', async () => {
    const sd = await buildSignedData({ content, signer: signers.valid, chain: [inter] });
    sd.signerInfos.push(sd.signerInfos[0]);
    await refused(verify(encodeSignedData(sd)), 'data_failed');
  });

  it("GOST / O'zDSt signatures and digests, SHA-1 and a GOST key → unsupported_algorithm, not a crash", async () => {
    const alter = async (f: (si: pkijs.SignerInfo) => void) => {
      const sd = await buildSignedData({ content, signer: signers.valid, chain: [inter] });
      f(sd.signerInfos[0]);
      return encodeSignedData(sd);
    };
    const gostSig = await alter((si) => {
      si.signatureAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: '1.2.643.7.1.1.3.2' });
    });
    expect((await refused(verify(gostSig), 'unsupported_algorithm')).detail).toMatch(/GOST/);
    const uzDigest = await alter((si) => {
      si.digestAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: '1.2.860.3.15.1.3.2.1.1' });
    });
    expect((await refused(verify(uzDigest), 'unsupported_algorithm')).detail).toMatch(/O'zDSt/);
    const uzSig = await alter((si) => {
      si.signatureAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: '1.2.860.3.15.1.1.2.2.2.2' });
    });
    await refused(verify(uzSig), 'unsupported_algorithm');
    const sha1 = await alter((si) => {
      si.digestAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: '1.3.14.3.2.26', algorithmParams: new asn1js.Null() });
    });
    expect((await refused(verify(sha1), 'unsupported_algorithm')).detail).toMatch(/SHA-1/);
    await refused(verify(await sign('gostKey')), 'unsupported_algorithm');
  });

  it('bad calls are TypeErrors, not signature refusals', async () => {
    const sig = await sign('valid');
    await expect(verify(sig, { expected: {} })).rejects.toThrow(TypeError);
    await expect(verify(sig, { expected: { inn: '12345' } })).rejects.toThrow(TypeError);
    await expect(verify(sig, { trustedCAs: 'not a pem' })).rejects.toThrow(TypeError);
    await expect(verify(sig, { trustedCAs: [] })).rejects.toThrow(TypeError);
    await expect(verify(sig, { at: new Date('nope') })).rejects.toThrow(TypeError);
  });
});

describe('message keys', () => {
  it('every code has a caption in uz, uk and ru', () => {
    const all = loadMetadata().captions;
    const esign = (l: 'uz' | 'uk' | 'ru') => Object.fromEntries(Object.entries(all[l]).filter(([k]) => k.startsWith('esign.')));
    const langs = { uz: esign('uz'), uk: esign('uk'), ru: esign('ru') };
    const keys = Object.keys(langs.uz).sort();
    expect(Object.keys(langs.uk).sort()).toEqual(keys);
    expect(Object.keys(langs.ru).sort()).toEqual(keys);
    for (const code of [...ESIGN_SERVER_CODES, 'program_missing', 'cannot_connect', 'app_not_found'])
      expect(keys).toContain(`esign.${code}`);
    for (const text of Object.values(langs.uk)) expect(text).not.toMatch(/[A-Za-z]/);
    for (const text of Object.values(langs.ru)) expect(text).not.toMatch(/[A-Za-z]/);
    for (const text of Object.values(langs.uz)) expect(text).not.toMatch(/[А-Яа-яЁё'’]/);
  });
});

const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('interoperability with OpenSSL', skipBecause(!openssl && 'no `openssl` on PATH: it writes the signatures checked here'), () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'esign-'));
    writeFileSync(join(dir, 'content.bin'), content);
    writeFileSync(join(dir, 'root.pem'), root.pem);
    writeFileSync(join(dir, 'inter.pem'), inter.pem);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['valid', []],
    ['rsa', []],
    ['pss', ['-keyopt', 'rsa_padding_mode:pss']],
  ] as const)('accepts `openssl cms -sign` output (%s)', async (name, extra) => {
    writeFileSync(join(dir, `${name}.pem`), signers[name].pem);
    writeFileSync(join(dir, `${name}.key`), await privateKeyPem(signers[name].keys));
    execFileSync(
      'openssl',
      [
        'cms',
        '-sign',
        '-binary',
        '-md',
        'sha256',
        '-in',
        join(dir, 'content.bin'),
        '-signer',
        join(dir, `${name}.pem`),
        '-inkey',
        join(dir, `${name}.key`),
        '-certfile',
        join(dir, 'inter.pem'),
        '-outform',
        'DER',
        '-out',
        join(dir, `${name}.p7s`),
        ...extra,
      ],
      { stdio: 'pipe' },
    );
    const result = await verify(readFileSync(join(dir, `${name}.p7s`)));
    expect(result.signer.inn).toBe(INN);
    expect(result.attached).toBe(false);
    await refused(verify(readFileSync(join(dir, `${name}.p7s`)), { content: tampered }), 'signature_invalid');
  });

  it('our test signatures verify with `openssl cms -verify`', async () => {
    writeFileSync(join(dir, 'ours.p7s'), await sign('valid'));
    execFileSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        join(dir, 'ours.p7s'),
        '-content',
        join(dir, 'content.bin'),
        '-CAfile',
        join(dir, 'root.pem'),
        '-purpose',
        'any',
        '-out',
        join(dir, 'out.bin'),
      ],
      { stdio: 'pipe' },
    );
    expect(readFileSync(join(dir, 'out.bin'))).toEqual(Buffer.from(content));
  });
});
