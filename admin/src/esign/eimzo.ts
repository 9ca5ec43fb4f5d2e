import { ESignFailure, TAX_OIDS, type CertificateInfo, type SigningKey } from './types';

/**
 * The E-IMZO provider: the local signing program (E-IMZO) listens on the user's own computer at
 * wss://127.0.0.1:64443/service/cryptapi and answers one JSON call per WebSocket connection
 * (the protocol of its CAPIWS client): `version`, `apikey` (the site's key for the program),
 * `pfx.list_all_certificates`, `pfx.load_key` (the program asks the key's password itself) and
 * `pkcs7.create_pkcs7` (a detached CMS over base64 content).
 *
 * Failures map to the spec's messages: nothing answers → "cannot connect to the program"
 * (it is not running or not installed); an answer with a version older than MIN_VERSION →
 * "program not installed or outdated"; the program refuses the site's key or has no key plugin →
 * "app not found".
 */
export const EIMZO_URL = 'wss://127.0.0.1:64443/service/cryptapi';
export const MIN_VERSION: [number, number] = [3, 37];
const CALL_TIMEOUT = 8000;

/**
 * Keys E-IMZO's vendor publishes for local development; a deployment registers its domain with
 * the vendor and sets its key in the esign.eimzo_api_key setting (the program refuses sites
 * without one).
 */
export const API_KEYS: Record<string, string> = {
  localhost:
    '96D0C1491615C82B9A54D9989779DF825B690748224C2B04F500F370D51827CE2644D8D4A82C18184D73AB8530BB8ED537269603F61DB0D03D2104ABF789970B',
  '127.0.0.1':
    'A7BCFA5D490B351BE0754130DF03A068F855DB4333D43921125B9CF2670EF6A40370C646B90401955E1F7BC9CDBF59CE0B2C5467D820BE189C845D0B79CFC96F',
};

interface Answer {
  success?: boolean;
  reason?: string;
  [k: string]: unknown;
}

/** One call: a new WebSocket, the JSON sent on open, the first message is the answer. */
export function callEimzo(payload: Record<string, unknown>, url = EIMZO_URL, timeout = CALL_TIMEOUT): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch (err) {
      reject(new ESignFailure('esign.cannot_connect', String(err)));
      return;
    }
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        ws.close();
      } catch {
        /* closed */
      }
      fn();
    };
    const timer = setTimeout(() => done(() => reject(new ESignFailure('esign.cannot_connect', 'timeout'))), timeout);
    ws.onerror = () => done(() => reject(new ESignFailure('esign.cannot_connect', 'websocket error')));
    ws.onclose = (e) => done(() => reject(new ESignFailure('esign.cannot_connect', `closed ${e.code}`)));
    ws.onopen = () => ws.send(JSON.stringify(payload));
    ws.onmessage = (e) =>
      done(() => {
        try {
          resolve(JSON.parse(String(e.data)) as Answer);
        } catch {
          reject(new ESignFailure('esign.data_failed', 'not JSON'));
        }
      });
  });
}

/** A key file the program knows of, with the certificate its alias describes. */
export interface EimzoKey {
  disk: string;
  path: string;
  name: string;
  alias: string;
  certificate: CertificateInfo;
}

/** E-IMZO's alias: `cn=…,o=…,1.2.860.3.16.1.1=…,serialnumber=…,validfrom=…,validto=…` (lower-case keys). */
export function parseAlias(alias: string): CertificateInfo {
  const values: Record<string, string> = {};
  for (const part of alias.split(',')) {
    const i = part.indexOf('=');
    if (i > 0) values[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim();
  }
  const date = (s: string | undefined) => (s ? s.replace(/\./g, '-').slice(0, 10) : undefined);
  const inn = values[TAX_OIDS.inn] ?? values.uid;
  return {
    commonName: values.cn ?? '',
    organisation: values.o,
    inn: inn && /^\d{9}$/.test(inn) ? inn : undefined,
    pinfl: values[TAX_OIDS.pinfl],
    serialNumber: values.serialnumber,
    validFrom: date(values.validfrom),
    validTo: date(values.validto),
  };
}

const failed = (a: Answer, key: string) => new ESignFailure(key, a.reason ?? 'refused');

export function versionOk(major: number, minor: number): boolean {
  return major > MIN_VERSION[0] || (major === MIN_VERSION[0] && minor >= MIN_VERSION[1]);
}

/** Connects to the program: its version, the site's key, and the key files it can see. */
export async function eimzoKeys(call: typeof callEimzo = callEimzo): Promise<EimzoKey[]> {
  const v = await call({ name: 'version' });
  const major = Number(v.major);
  const minor = Number(v.minor);
  if (!v.success || !Number.isFinite(major) || !versionOk(major, minor))
    throw new ESignFailure('esign.program_missing', `version ${String(v.major)}.${String(v.minor)}`);
  const host = typeof location === 'undefined' ? 'localhost' : location.hostname;
  // a deployment's key comes from the esign.eimzo_api_key setting (written into the page), else the vendor's development keys
  const configured = typeof window === 'undefined' ? undefined : window.__ECOFOND_CONFIG__?.eimzoKey;
  const key = configured || API_KEYS[host];
  if (key) {
    const k = await call({ name: 'apikey', arguments: [host, key] });
    if (!k.success) throw failed(k, 'esign.app_not_found');
  }
  const list = await call({ plugin: 'pfx', name: 'list_all_certificates' });
  if (!list.success) throw failed(list, 'esign.app_not_found');
  const certs = (list.certificates ?? []) as Omit<EimzoKey, 'certificate'>[];
  return certs.map((c) => ({ ...c, certificate: parseAlias(c.alias) }));
}

/** Loads a key (the program asks its password) and signs with it. */
export async function eimzoSigningKey(key: EimzoKey, call: typeof callEimzo = callEimzo): Promise<SigningKey> {
  const loaded = await call({ plugin: 'pfx', name: 'load_key', arguments: [key.disk, key.path, key.name, key.alias] }, EIMZO_URL, 120_000);
  if (!loaded.success || typeof loaded.keyId !== 'string') throw failed(loaded, 'esign.certificate_not_found');
  const keyId = loaded.keyId;
  return {
    async sign(content: Uint8Array) {
      let s = '';
      for (let i = 0; i < content.length; i += 0x8000) s += String.fromCharCode(...content.subarray(i, i + 0x8000));
      const r = await call({ plugin: 'pkcs7', name: 'create_pkcs7', arguments: [btoa(s), keyId, 'yes'] }, EIMZO_URL, 120_000);
      if (!r.success || typeof r.pkcs7_64 !== 'string') throw failed(r, 'esign.data_failed');
      return r.pkcs7_64;
    },
  };
}
