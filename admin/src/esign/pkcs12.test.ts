import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64, openKeyFile } from './pkcs12';
import { skipBecause } from '../../../test/support/skip';

// the server's test PKI and verifier, loaded at run time so that the admin's type check (DOM
// typings) does not take in the API's sources
interface TestCert {
  pem: string;
  keys: CryptoKeyPair;
}
const TEST_PKI = '../../../api/esign/test-pki.ts';
const VERIFY = '../../../api/esign/verify.ts';
const { issueCertificate, privateKeyPem, generateKeys } = (await import(/* @vite-ignore */ TEST_PKI)) as {
  issueCertificate(o: { subject: Record<string, string>; issuer?: TestCert; ca?: boolean; keys?: CryptoKeyPair }): Promise<TestCert>;
  privateKeyPem(k: CryptoKeyPair): Promise<string>;
  generateKeys(kind: 'RSA'): Promise<CryptoKeyPair>;
};
const { verifyDetachedSignature } = (await import(/* @vite-ignore */ VERIFY)) as {
  verifyDetachedSignature(o: {
    content: Uint8Array;
    signature: string;
    trustedCAs: string[];
    expected: { inn: string };
  }): Promise<{ ok: boolean }>;
};

/**
 * The key-file provider against the server's verifier: a .p12 written by OpenSSL (as a CA would
 * hand it out) is opened with its password, signs content as a detached CMS, and the server's
 * verifyDetachedSignature accepts it with the subject's INN. Skipped without `openssl`.
 */
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const INN = '301234567';

describe('PKCS#12 key file provider', skipBecause(!hasOpenssl && 'no `openssl` on PATH: it writes the .p12 key files opened here'), () => {
  let dir: string;
  let ca: TestCert;
  const files: Record<string, ArrayBuffer> = {};

  const p12 = async (name: string, signer: TestCert, password: string) => {
    writeFileSync(join(dir, `${name}.key`), await privateKeyPem(signer.keys));
    writeFileSync(join(dir, `${name}.crt`), signer.pem + ca.pem);
    const r = spawnSync('openssl', [
      'pkcs12',
      '-export',
      '-inkey',
      join(dir, `${name}.key`),
      '-in',
      join(dir, `${name}.crt`),
      '-passout',
      `pass:${password}`,
      '-out',
      join(dir, `${name}.p12`),
    ]);
    if (r.status !== 0) throw new Error(String(r.stderr));
    const b = readFileSync(join(dir, `${name}.p12`));
    files[name] = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ecofond-p12-'));
    ca = await issueCertificate({ subject: { cn: 'Test CA', o: 'Test' }, ca: true });
    await p12('ec', await issueCertificate({ subject: { cn: 'Direktor', o: 'Sement MChJ', inn: INN }, issuer: ca }), 'secret12');
    await p12(
      'rsa',
      await issueCertificate({ subject: { cn: 'Buxgalter', o: 'Sement MChJ', inn: INN }, issuer: ca, keys: await generateKeys('RSA') }),
      'parol 123',
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const kind of ['ec', 'rsa'] as const) {
    it(`opens a ${kind} key file and signs what the server verifies`, async () => {
      const key = await openKeyFile(files[kind], kind === 'ec' ? 'secret12' : 'parol 123');
      expect(key.certificate).toMatchObject({ inn: INN, organisation: 'Sement MChJ' });
      const content = new TextEncoder().encode('{"amount":"15234.75","report_id":"5"}');
      const signature = await key.sign(content);
      expect(fromBase64(signature)[0]).toBe(0x30);
      const result = await verifyDetachedSignature({ content, signature, trustedCAs: [ca.pem], expected: { inn: INN } });
      expect(result.ok).toBe(true);
      await expect(
        verifyDetachedSignature({ content: new TextEncoder().encode('other'), signature, trustedCAs: [ca.pem], expected: { inn: INN } }),
      ).rejects.toMatchObject({ code: 'signature_invalid' });
    });
  }

  it('says the password is wrong, and that a file is not a key file', async () => {
    await expect(openKeyFile(files.ec, 'wrong')).rejects.toMatchObject({ key: 'admin.sign.pfx_bad_password' });
    await expect(openKeyFile(new TextEncoder().encode('not a pfx').buffer as ArrayBuffer, 'x')).rejects.toMatchObject({
      key: 'admin.sign.pfx_unreadable',
    });
  });
});
