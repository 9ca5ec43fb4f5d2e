import type { Knex } from 'knex';

/**
 * The audit trail partitioned by month (docs/decisions/0079, docs/operations.md "The audit trail"):
 * `audit_log` is a table partitioned by range of `created_at`, a partition a month
 * (`audit_log_m202612` holds December 2026, Tashkent's months: bounds at local midnight, +05) and a
 * default one (`audit_log_default`) for a row no month's partition takes. The jobs' worker makes
 * this month's and the next `AHEAD` months' partitions (a server's start too), so the default one
 * stays empty; a month whose rows did land there is made by moving them into it. The retention
 * setting (`ECOFOND_AUDIT_RETENTION_MONTHS`; unset: everything is kept) detaches and drops the
 * months wholly older than it — whole partitions, no DELETE of rows, no vacuum after.
 *
 * The year-partitioned tables' helper (api/db/partitions.ts) leaves this table alone: it has no
 * `<table>_other` partition.
 */

export const AUDIT_TABLE = 'audit_log';
export const AUDIT_DEFAULT = 'audit_log_default';
/** months made ahead of this one */
export const AHEAD = 2;

/** The indexes every month's partition has (created on the parent): the list's, the history's, by id. */
export const AUDIT_INDEXES = [
  // a record's history: its entity (and the views of its table) and id, newest first
  'CREATE INDEX audit_log_record_idx ON audit_log (entity, record_id, id)',
  // the list filtered by entity, newest first
  'CREATE INDEX audit_log_entity_idx ON audit_log (entity, id)',
  // the list filtered by user, newest first
  'CREATE INDEX audit_log_user_idx ON audit_log (user_id, id)',
  // the list's date range
  'CREATE INDEX audit_log_created_idx ON audit_log (created_at)',
];

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** A month as its first day: year and month (1–12). */
interface Month {
  y: number;
  m: number;
}
const add = ({ y, m }: Month, n: number): Month => {
  const i = y * 12 + (m - 1) + n;
  return { y: Math.floor(i / 12), m: (i % 12) + 1 };
};
const pad = (n: number) => String(n).padStart(2, '0');
/** Tashkent's month of an instant (UTC+5, no summer time). */
export const monthOf = (d: Date): Month => {
  const t = new Date(d.getTime() + 5 * 3600_000);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1 };
};
const bound = (x: Month) => `${x.y}-${pad(x.m)}-01 00:00:00+05`;
export const monthPartition = (x: Month) => `${AUDIT_TABLE}_m${x.y}${pad(x.m)}`;
const partitionMonth = (name: string): Month | null => {
  const r = /^audit_log_m(\d{4})(\d{2})$/.exec(name);
  return r ? { y: Number(r[1]), m: Number(r[2]) } : null;
};

/** Whether audit_log is partitioned already. */
export async function auditPartitioned(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw(
    `SELECT 1 FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
    WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace`,
    [AUDIT_TABLE],
  );
  return rows.length > 0;
}

/** The month partitions attached to audit_log, oldest first. */
export async function auditMonths(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass(?) ORDER BY c.relname`,
    [AUDIT_TABLE],
  );
  return (rows as { name: string }[]).map((r) => r.name).filter((n) => partitionMonth(n));
}

/**
 * Turns the one `audit_log` table into the partitioned one, rows and all, in the caller's
 * transaction (a migration's): a partition for each month with rows and up to `AHEAD` months
 * ahead, the default one, the rows moved (not rewritten by the engine), the primary key
 * `(id, created_at)`, the id's sequence kept.
 */
export async function partitionAuditByMonth(knex: Knex, now: Date = new Date()): Promise<void> {
  if (await auditPartitioned(knex)) return;
  const [{ seq }] = (await knex.raw('SELECT pg_get_serial_sequence(?, ?) AS seq', [AUDIT_TABLE, 'id'])).rows as { seq: string | null }[];
  const { rows: spans } = await knex.raw(`SELECT min(created_at) AS lo, max(created_at) AS hi FROM ${AUDIT_TABLE}`);
  const months: Month[] = [];
  const here = monthOf(now);
  const lo = spans[0]?.lo ? monthOf(new Date(spans[0].lo)) : here;
  const hiRow = spans[0]?.hi ? monthOf(new Date(spans[0].hi)) : here;
  const hi = add(hiRow.y * 12 + hiRow.m > here.y * 12 + here.m ? hiRow : here, AHEAD);
  for (let x = lo; x.y * 12 + x.m <= hi.y * 12 + hi.m; x = add(x, 1)) months.push(x);

  if (seq) await knex.raw(`ALTER SEQUENCE ${seq} OWNED BY NONE`);
  await knex.raw(
    `CREATE TABLE audit_log_partitioned (LIKE ${AUDIT_TABLE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS)
    PARTITION BY RANGE (created_at)`,
  );
  for (const x of months) await createMonth(knex, 'audit_log_partitioned', x);
  await knex.raw(`CREATE TABLE ${AUDIT_DEFAULT} PARTITION OF audit_log_partitioned DEFAULT`);
  await knex.raw(`INSERT INTO audit_log_partitioned SELECT * FROM ${AUDIT_TABLE}`);
  await knex.raw(`DROP TABLE ${AUDIT_TABLE}`);
  await knex.raw(`ALTER TABLE audit_log_partitioned RENAME TO ${AUDIT_TABLE}`);
  await knex.raw(`ALTER TABLE ${AUDIT_TABLE} ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id, created_at)`);
  if (seq) await knex.raw(`ALTER SEQUENCE ${seq} OWNED BY ${AUDIT_TABLE}.id`);
  for (const sql of AUDIT_INDEXES) await knex.raw(sql);
  await knex.raw(`ANALYZE ${AUDIT_TABLE}`);
}

/** Back to one table (the migration's down), with the indexes it had before. */
export async function unpartitionAudit(knex: Knex): Promise<void> {
  if (!(await auditPartitioned(knex))) return;
  const [{ seq }] = (await knex.raw('SELECT pg_get_serial_sequence(?, ?) AS seq', [AUDIT_TABLE, 'id'])).rows as { seq: string | null }[];
  if (seq) await knex.raw(`ALTER SEQUENCE ${seq} OWNED BY NONE`);
  await knex.raw(
    `CREATE TABLE audit_log_plain (LIKE ${AUDIT_TABLE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS)`,
  );
  await knex.raw(`INSERT INTO audit_log_plain SELECT * FROM ${AUDIT_TABLE}`);
  await knex.raw(`DROP TABLE ${AUDIT_TABLE}`);
  await knex.raw(`ALTER TABLE audit_log_plain RENAME TO ${AUDIT_TABLE}`);
  await knex.raw(`ALTER TABLE ${AUDIT_TABLE} ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id)`);
  if (seq) await knex.raw(`ALTER SEQUENCE ${seq} OWNED BY ${AUDIT_TABLE}.id`);
  await knex.raw('CREATE INDEX audit_log_entity_record_id_index ON audit_log (entity, record_id)');
  await knex.raw('CREATE INDEX audit_log_created_idx ON audit_log (created_at)');
  await knex.raw('CREATE INDEX audit_log_user_idx ON audit_log (user_id, created_at)');
}

async function createMonth(knex: Knex, parent: string, x: Month): Promise<void> {
  await knex.raw(
    `CREATE TABLE ${ident(monthPartition(x))} PARTITION OF ${ident(parent)} FOR VALUES FROM ('${bound(x)}') TO ('${bound(add(x, 1))}')`,
  );
}

/**
 * Makes this month's and the next `AHEAD` months' partitions where missing (idempotent; the jobs'
 * worker and a server's start). Rows of such a month already in the default partition are moved
 * into the new one in the same transaction (the month is made apart, filled, then attached).
 * Answers the partitions made.
 */
export async function ensureAuditMonths(knex: Knex, now: Date = new Date()): Promise<string[]> {
  if (!(await auditPartitioned(knex))) return [];
  const have = new Set(await auditMonths(knex));
  const made: string[] = [];
  for (let i = 0; i <= AHEAD; i++) {
    const x = add(monthOf(now), i);
    const name = monthPartition(x);
    if (have.has(name)) continue;
    await knex.transaction(async (trx) => {
      // one maker at a time (another process's worker); the partition may have come meanwhile
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [AUDIT_TABLE]);
      if ((await auditMonths(trx)).includes(name)) return;
      const range = [bound(x), bound(add(x, 1))];
      await trx.raw(`CREATE TABLE ${ident(name)} (LIKE ${AUDIT_TABLE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      await trx.raw(
        `WITH moved AS (DELETE FROM ${AUDIT_DEFAULT} WHERE created_at >= ?::timestamptz AND created_at < ?::timestamptz RETURNING *)
          INSERT INTO ${ident(name)} SELECT * FROM moved`,
        range,
      );
      await trx.raw(`ALTER TABLE ${AUDIT_TABLE} ATTACH PARTITION ${ident(name)} FOR VALUES FROM ('${range[0]}') TO ('${range[1]}')`);
      made.push(name);
    });
  }
  return made;
}

/** The retention setting: months of the audit trail kept (whole months before this one); null keeps all. */
export function auditRetentionMonths(env: NodeJS.ProcessEnv = process.env): number | null {
  const v = env.ECOFOND_AUDIT_RETENTION_MONTHS;
  if (v === undefined || v.trim() === '') return null;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`ECOFOND_AUDIT_RETENTION_MONTHS: a whole number of months, 1 or more (got "${v}")`);
  return n;
}

/**
 * Drops the month partitions that end before the retention's start: with `months` = 60 in
 * December 2026, every month before December 2021 (this month and the 60 before it are kept).
 * Each is detached, then dropped — a partition at a time, its rows gone with it. Rows in the
 * default partition older than that are deleted. Answers the partitions dropped.
 */
export async function dropExpiredAuditMonths(knex: Knex, months: number | null, now: Date = new Date()): Promise<string[]> {
  if (months === null || !(await auditPartitioned(knex))) return [];
  const first = add(monthOf(now), -months);
  const dropped: string[] = [];
  for (const name of await auditMonths(knex)) {
    const x = partitionMonth(name)!;
    if (x.y * 12 + x.m >= first.y * 12 + first.m) continue;
    await knex.transaction(async (trx) => {
      await trx.raw(`ALTER TABLE ${AUDIT_TABLE} DETACH PARTITION ${ident(name)}`);
      await trx.raw(`DROP TABLE ${ident(name)}`);
    });
    dropped.push(name);
  }
  await knex.raw(`DELETE FROM ${AUDIT_DEFAULT} WHERE created_at < ?::timestamptz`, [bound(first)]);
  return dropped;
}
