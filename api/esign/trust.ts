import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';

/**
 * The certificate authorities whose certificates may sign reports: PEM text in the setting
 * `esign.trusted_cas` (the settings screen), and the PEM file named by ECOFOND_ESIGN_CA_FILE.
 */
export async function trustedCAs(knex: Knex | Knex.Transaction): Promise<string[]> {
  const out: string[] = [];
  const row = await knex('app_configs').where({ key: 'esign.trusted_cas' }).first('value');
  if (row?.value?.trim()) out.push(row.value);
  if (process.env.ECOFOND_ESIGN_CA_FILE) out.push(readFileSync(process.env.ECOFOND_ESIGN_CA_FILE, 'utf8'));
  return out;
}
