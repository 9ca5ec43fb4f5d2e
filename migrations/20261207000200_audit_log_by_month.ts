import type { Knex } from 'knex';
import { partitionAuditByMonth, unpartitionAudit } from '../api/db/audit-partitions.ts';

/**
 * The audit trail partitioned by month (issue 31, docs/decisions/0079): `audit_log` becomes a
 * table partitioned by range of `created_at`, a partition a Tashkent month with rows and two
 * ahead, a default one; the rows moved in the migration's transaction, the primary key
 * `(id, created_at)`, the indexes the list and a record's history read — (entity, record_id, id),
 * (entity, id), (user_id, id), (created_at) — on every partition. The jobs' worker makes the coming
 * months and drops those past `ECOFOND_AUDIT_RETENTION_MONTHS` (api/db/audit-partitions.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await partitionAuditByMonth(knex);
}

export async function down(knex: Knex): Promise<void> {
  await unpartitionAudit(knex);
}
