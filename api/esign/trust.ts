import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { loadTrustedCAs } from './certificate.ts';
import { formatName } from './certificate.ts';

/**
 * The e-signature settings (docs/e-signature.md, README): the settings screen's value, else the
 * environment variable.
 * - trusted CAs: PEM text in `esign.trusted_cas`, and the PEM file named by ECOFOND_ESIGN_CA_FILE;
 * - `esign.eimzo_server_url` / ECOFOND_EIMZO_URL: the E-IMZO server that verifies O'zDSt signatures;
 *   `esign.eimzo_host` / ECOFOND_EIMZO_HOST: the site's domain E-IMZO is told (`Host`);
 * - `esign.tsa_url` / ECOFOND_TSA_URL: the RFC 3161 time-stamping authority; unset: the local TSA.
 */
export async function trustedCAs(knex: Knex | Knex.Transaction): Promise<string[]> {
  const out: string[] = [];
  const row = await knex('app_configs').where({ key: 'esign.trusted_cas' }).first('value');
  if (row?.value?.trim()) out.push(row.value);
  if (process.env.ECOFOND_ESIGN_CA_FILE) out.push(readFileSync(process.env.ECOFOND_ESIGN_CA_FILE, 'utf8'));
  return out;
}

export const ESIGN_SETTINGS = {
  'esign.eimzo_server_url': 'ECOFOND_EIMZO_URL',
  'esign.eimzo_host': 'ECOFOND_EIMZO_HOST',
  'esign.tsa_url': 'ECOFOND_TSA_URL',
} as const;
export type ESignSettingKey = keyof typeof ESIGN_SETTINGS;

export interface ESignSettings {
  trustedCAs: string[];
  eimzoUrl?: string;
  eimzoHost?: string;
  tsaUrl?: string;
}

export async function esignSettings(knex: Knex | Knex.Transaction): Promise<ESignSettings> {
  const rows: { key: string; value: string | null }[] = await knex('app_configs')
    .whereIn('key', Object.keys(ESIGN_SETTINGS))
    .select('key', 'value');
  const get = (key: ESignSettingKey): string | undefined =>
    rows.find((r) => r.key === key)?.value?.trim() || process.env[ESIGN_SETTINGS[key]]?.trim() || undefined;
  return {
    trustedCAs: await trustedCAs(knex),
    eimzoUrl: get('esign.eimzo_server_url'),
    eimzoHost: get('esign.eimzo_host'),
    tsaUrl: get('esign.tsa_url'),
  };
}

/** What the signing screen tells the signer: whose certificates are accepted and who checks them. */
export interface TrustSummary {
  /** the trusted CAs' names (`CN=…, O=…`) */
  cas: string[];
  /** a trusted CA is a test CA (its name says "test" or "sinov"): the demo, not for real signatures */
  test: boolean;
  /** O'zDSt (E-IMZO) keys are verified by an E-IMZO server */
  eimzoServer: boolean;
  /** `local` (the demo TSA of this server) or `external` */
  tsa: 'local' | 'external';
}

export function trustSummary(s: ESignSettings): TrustSummary {
  let cas: string[];
  try {
    cas = s.trustedCAs.length ? loadTrustedCAs(s.trustedCAs).map((c) => formatName(c.subject)) : [];
  } catch {
    cas = [];
  }
  return {
    cas,
    test: cas.some((n) => /test|sinov|demo|тест/i.test(n)),
    eimzoServer: Boolean(s.eimzoUrl),
    tsa: s.tsaUrl ? 'external' : 'local',
  };
}
