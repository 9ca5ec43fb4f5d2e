import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';
import { newVerifyCode } from '../api/domain/verify-code.ts';

/**
 * Documents anyone can verify (issue 28, decision 0075): each issued document keeps the short code
 * its QR code and its foot print, and the region whose office issued it. The documents issued
 * before get a code too (they were printed without it; the back-office shows it on their page).
 */
export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.addEntityColumns('issued-documents', ['verify_code', 'region_id']);
  await knex.raw('CREATE UNIQUE INDEX IF NOT EXISTS issued_documents_verify_code_unique ON issued_documents (verify_code)');
  const ids: string[] = await knex('issued_documents').whereNull('verify_code').pluck('id');
  for (const id of ids) await knex('issued_documents').where({ id }).update({ verify_code: newVerifyCode() });
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS issued_documents_verify_code_unique');
  await h.dropEntityColumns('issued-documents', ['verify_code', 'region_id']);
}
