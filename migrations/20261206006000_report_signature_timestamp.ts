import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * E-signature as used in the country (issue 28, decision 0073, docs/e-signature.md): a sent
 * report keeps the RFC 3161 time-stamp token of its signature (`signature_timestamp`, base64 DER;
 * `signed_at` is the token's time) and who verified the signature (`signature_verified_by`: this
 * server, or the E-IMZO server for O'zDSt keys).
 */
export async function up(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.addEntityColumns('subject-report-yearly', ['signature_timestamp', 'signature_verified_by']);
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityColumns('subject-report-yearly', ['signature_timestamp', 'signature_verified_by']);
}
