import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { api } from './support';

/**
 * The server's test PKI for the browser tests: a CA made trusted by the running server (added to
 * `esign.trusted_cas` beside any the deployment has) and a subject's PKCS#12 key file, as a CA
 * would hand it out, for the signing dialog's key-file provider. Writing the key file needs
 * `openssl` (`hasOpenssl`).
 */

// loaded at run time so that the e2e type check (DOM typings) does not take in the API's sources
interface TestCert {
  pem: string;
  keys: CryptoKeyPair;
}
const TEST_PKI = '../api/esign/test-pki.ts';
const { generateKeys, issueCertificate, privateKeyPem } = (await import(/* @vite-ignore */ TEST_PKI)) as {
  issueCertificate(o: { subject: Record<string, string>; issuer?: TestCert; ca?: boolean; keys?: CryptoKeyPair }): Promise<TestCert>;
  privateKeyPem(k: CryptoKeyPair): Promise<string>;
  generateKeys(kind: 'ECDSA-P256'): Promise<CryptoKeyPair>;
};

export const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
/** Why a test signing with a key file cannot run here, or nothing when it can. */
export const noOpenssl = hasOpenssl ? undefined : 'no `openssl` on PATH: it writes the PKCS#12 key file';

interface Config {
  id: number;
  key: string;
  value: string;
  version: number;
}

/**
 * A key file (password `password`) for a signer of this INN, under a new CA that the server is
 * made to trust through `adminPage`'s session; its path in `dir`.
 */
export async function trustedKeyFile(
  adminPage: Page,
  dir: string,
  o: { ca: string; cn: string; org: string; inn: string; file: string; password: string },
): Promise<string> {
  const ca = await issueCertificate({ subject: { cn: o.ca, o: 'Sinov' }, ca: true });
  const signer = await issueCertificate({
    subject: { cn: o.cn, o: o.org, inn: o.inn },
    issuer: ca,
    keys: await generateKeys('ECDSA-P256'),
  });
  writeFileSync(join(dir, `${o.file}.key.pem`), await privateKeyPem(signer.keys));
  writeFileSync(join(dir, `${o.file}.cert.pem`), signer.pem + ca.pem);
  const p12 = join(dir, o.file);
  const made = spawnSync('openssl', [
    'pkcs12',
    '-export',
    '-inkey',
    join(dir, `${o.file}.key.pem`),
    '-in',
    join(dir, `${o.file}.cert.pem`),
    '-passout',
    `pass:${o.password}`,
    '-out',
    p12,
  ]);
  if (made.status !== 0) throw new Error(`openssl pkcs12: ${String(made.stderr)}`);
  const [trusted] = await api<Config[]>(
    adminPage,
    `/api/admin/app-configs?filter=${encodeURIComponent(JSON.stringify({ q: 'esign.trusted_cas' }))}`,
  );
  if (trusted)
    await api(adminPage, `/api/admin/app-configs/${trusted.id}`, 'uz', {
      method: 'PUT',
      body: { ...trusted, value: `${trusted.value ?? ''}\n${ca.pem}`, version: trusted.version },
    });
  else await api(adminPage, '/api/admin/app-configs', 'uz', { method: 'POST', body: { key: 'esign.trusted_cas', value: ca.pem } });
  return p12;
}
