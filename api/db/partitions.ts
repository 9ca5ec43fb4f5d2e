import type { Knex } from 'knex';

/**
 * Tables partitioned by year (declarative partitioning, PostgreSQL's own; docs/scaling.md).
 *
 * `partitionByYear(knex, 'plantings', 'planted_on')` turns a table the engine made into one
 * partitioned by the year of a date column, rows and all, in the migration's transaction: the
 * same columns, defaults, checks, indexes (created on the parent, so on every partition),
 * outgoing foreign keys and triggers (the aggregates' statement-level triggers with their
 * transition tables stay on the parent and see every partition's rows, a row moved to another
 * year's partition by an UPDATE included); the primary key becomes `(id, <column>)`, as PostgreSQL
 * requires the partition key in a partitioned table's unique keys. One partition a year with rows,
 * the five years before this one to the next, and a default partition (`<table>_other`) for any
 * other date; `ensureYearPartitions` makes this year's and next year's at each start of a server.
 *
 * The key column must be NOT NULL. A unique index other than the primary key is refused (it would
 * have to include the date). Foreign keys *to* the table cannot be kept — PostgreSQL needs a unique
 * key on the referenced columns alone — so each becomes a pair of triggers doing what it did
 * (`referencePartitioned`): the referencing row's id must exist (looked up FOR KEY SHARE, as a
 * foreign key locks it; a `foreign_key_violation` under the old constraint's name, which the engine
 * turns into a 400 beside the field), and a deleted row's references are refused (RESTRICT / NO
 * ACTION: a 409 "in use"), set to null or deleted as the key said. New references to a partitioned
 * table made by `createEntityTables` / `addEntityColumns` get the same triggers.
 */

/** The two functions the references to a partitioned table run; created once, replaced freely. */
export async function ensureReferenceFunctions(knex: Knex): Promise<void> {
  await knex.raw(`CREATE OR REPLACE FUNCTION ecofond_ref_exists() RETURNS trigger LANGUAGE plpgsql AS $$
    -- TG_ARGV: referenced table, referencing column, constraint name
    DECLARE v bigint := (to_jsonb(NEW) ->> TG_ARGV[1])::bigint; hit bigint;
    BEGIN
      IF v IS NULL THEN RETURN NEW; END IF;
      EXECUTE format('SELECT id FROM %I WHERE id = $1 FOR KEY SHARE', TG_ARGV[0]) INTO hit USING v;
      IF hit IS NULL THEN
        RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', TG_TABLE_NAME, TG_ARGV[2]
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = TG_ARGV[2], TABLE = TG_TABLE_NAME, COLUMN = TG_ARGV[1],
                DETAIL = format('Key (%s)=(%s) is not present in table "%s".', TG_ARGV[1], v, TG_ARGV[0]);
      END IF;
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE OR REPLACE FUNCTION ecofond_ref_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    -- TG_ARGV: referenced (partitioned) table, referencing table, its column, on delete (restrict, set null, cascade), constraint name
    DECLARE still bigint; hit bigint;
    BEGIN
      -- most rows are referred to by nothing: one probe of the referencing column's index
      EXECUTE format('SELECT 1 FROM %I WHERE %I = $1 LIMIT 1', TG_ARGV[1], TG_ARGV[2]) INTO hit USING OLD.id;
      IF hit IS NULL THEN RETURN NULL; END IF;
      -- an UPDATE that changes the year moves the row: a delete here, an insert in another partition
      EXECUTE format('SELECT id FROM %I WHERE id = $1', TG_ARGV[0]) INTO still USING OLD.id;
      IF still IS NOT NULL THEN RETURN NULL; END IF;
      IF TG_ARGV[3] = 'set null' THEN
        EXECUTE format('UPDATE %I SET %I = NULL WHERE %I = $1', TG_ARGV[1], TG_ARGV[2], TG_ARGV[2]) USING OLD.id;
      ELSIF TG_ARGV[3] = 'cascade' THEN
        EXECUTE format('DELETE FROM %I WHERE %I = $1', TG_ARGV[1], TG_ARGV[2]) USING OLD.id;
      ELSE
        RAISE EXCEPTION 'update or delete on table "%" violates foreign key constraint "%" on table "%"', TG_ARGV[0], TG_ARGV[4], TG_ARGV[1]
          USING ERRCODE = 'foreign_key_violation', CONSTRAINT = TG_ARGV[4], TABLE = TG_ARGV[1];
      END IF;
      RETURN NULL;
    END $$`);
}

export type OnDelete = 'restrict' | 'set null' | 'cascade';

/** `table.column` refers to `target.id`, a partitioned table, by triggers in place of a foreign key. */
export async function referencePartitioned(
  knex: Knex,
  table: string,
  column: string,
  target: string,
  onDelete: OnDelete,
  constraint = `${table}_${column}_foreign`,
): Promise<void> {
  await ensureReferenceFunctions(knex);
  await knex.raw(
    `CREATE TRIGGER ?? BEFORE INSERT OR UPDATE OF ?? ON ?? FOR EACH ROW EXECUTE FUNCTION ecofond_ref_exists(${lit(target)}, ${lit(column)}, ${lit(constraint)})`,
    [`${constraint}_check`, column, table],
  );
  await knex.raw(
    `CREATE TRIGGER ?? AFTER DELETE ON ?? FOR EACH ROW EXECUTE FUNCTION ecofond_ref_deleted(${lit(target)}, ${lit(table)}, ${lit(column)}, ${lit(onDelete)}, ${lit(constraint)})`,
    [`${constraint}_deleted`.slice(0, 63), target],
  );
}

/**
 * Forgets the references a table (or one of its columns) holds to partitioned tables: their
 * triggers on the partitioned side, before the table or column is dropped.
 */
export async function dropReferencesFrom(knex: Knex, table: string, column?: string): Promise<void> {
  if (!(await knex.raw(`SELECT 1 FROM pg_proc WHERE proname = 'ecofond_ref_deleted'`)).rows.length) return;
  const { rows } = await knex.raw(`SELECT tgname, tgrelid::regclass::text AS target, encode(tgargs, 'escape') AS args FROM pg_trigger
    WHERE tgfoid = 'ecofond_ref_deleted'::regproc AND tgparentid = 0`);
  for (const r of rows as { tgname: string; target: string; args: string }[]) {
    const [, tbl, col] = r.args.split('\\000');
    if (tbl === table && (!column || col === column)) await knex.raw('DROP TRIGGER ?? ON ??', [r.tgname, r.target]);
  }
}

/** The tables that are partitioned (relkind p) in the current schema. */
export async function partitionedTables(knex: Knex): Promise<Set<string>> {
  const { rows } = await knex.raw(`SELECT c.relname FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
    WHERE c.relnamespace = current_schema()::regnamespace`);
  return new Set((rows as { relname: string }[]).map((r) => r.relname));
}

/** The partitions' names: one a year, and the default one. */
const yearPartition = (table: string, y: number) => `${table}_y${y}`;
const otherPartition = (table: string) => `${table}_other`;

/** Whether `name` is one of `table`'s partitions as named here (a key violated in a partition names the partition). */
export function isPartitionOf(name: string, table: string): boolean {
  return name === otherPartition(table) || (name.startsWith(`${table}_y`) && /^\d{4}$/.test(name.slice(table.length + 2)));
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

export async function partitionByYear(knex: Knex, table: string, column: string, now: Date = new Date()): Promise<void> {
  if ((await partitionedTables(knex)).has(table)) return;
  const t = ident(table);
  const one = async <T>(sql: string, b: readonly unknown[] = []): Promise<T[]> => (await knex.raw(sql, b as Knex.RawBinding[])).rows as T[];
  const [{ attnotnull }] = await one<{ attnotnull: boolean }>(
    'SELECT attnotnull FROM pg_attribute WHERE attrelid = ?::regclass AND attname = ?',
    [table, column],
  );
  if (!attnotnull) throw new Error(`partitionByYear: ${table}.${column} may be null`);
  const uniques = await one<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = ?::regclass AND i.indisunique AND NOT i.indisprimary`,
    [table],
  );
  if (uniques.length)
    throw new Error(`partitionByYear: ${table} has unique indexes (${uniques.map((u) => u.name).join(', ')}) without ${column}`);

  // what the table has, as PostgreSQL prints it
  const indexes = await one<{ name: string; def: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = ?::regclass AND NOT i.indisprimary ORDER BY c.relname`,
    [table],
  );
  const foreign = await one<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE conrelid = ?::regclass AND contype = 'f' ORDER BY conname`,
    [table],
  );
  const triggers = await one<{ name: string; def: string }>(
    `SELECT tgname AS name, pg_get_triggerdef(oid) AS def FROM pg_trigger
    WHERE tgrelid = ?::regclass AND NOT tgisinternal ORDER BY tgname`,
    [table],
  );
  const incoming = await one<{ name: string; tbl: string; col: string; del: string }>(
    `SELECT c.conname AS name, r.relname AS tbl, a.attname AS col, c.confdeltype AS del
    FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    WHERE c.confrelid = ?::regclass AND c.contype = 'f' AND array_length(c.conkey, 1) = 1 ORDER BY c.conname`,
    [table],
  );
  const [{ seq }] = await one<{ seq: string | null }>('SELECT pg_get_serial_sequence(?, ?) AS seq', [table, 'id']);
  const years = (await one<{ y: number }>(`SELECT DISTINCT extract(year FROM ${ident(column)})::int AS y FROM ${t}`)).map((r) =>
    Number(r.y),
  );
  const thisYear = now.getUTCFullYear();
  const wanted = [...new Set([...years, ...Array.from({ length: 7 }, (_, i) => thisYear - 5 + i)])].sort((a, b) => a - b);

  for (const c of incoming) await knex.raw(`ALTER TABLE ${ident(c.tbl)} DROP CONSTRAINT ${ident(c.name)}`);
  if (seq) await knex.raw(`ALTER SEQUENCE ${seq} OWNED BY NONE`);
  const next = ident(`${table}_partitioned`);
  await knex.raw(
    `CREATE TABLE ${next} (LIKE ${t} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS) PARTITION BY RANGE (${ident(column)})`,
  );
  for (const y of wanted) await createYear(knex, `${table}_partitioned`, table, y);
  await knex.raw(`CREATE TABLE ${ident(otherPartition(table))} PARTITION OF ${next} DEFAULT`);
  // the rows, before any index or trigger: they are moved, not written anew (the aggregates hold them already)
  await knex.raw(`INSERT INTO ${next} SELECT * FROM ${t}`);
  await knex.raw(`DROP TABLE ${t}`);
  await knex.raw(`ALTER TABLE ${next} RENAME TO ${t}`);
  await knex.raw(`ALTER TABLE ${t} ADD CONSTRAINT ${ident(`${table}_pkey`)} PRIMARY KEY (id, ${ident(column)})`);
  if (seq) await knex.raw(`ALTER SEQUENCE ${seq} OWNED BY ${t}.id`);
  for (const i of indexes) await knex.raw(i.def);
  for (const f of foreign) await knex.raw(`ALTER TABLE ${t} ADD CONSTRAINT ${ident(f.name)} ${f.def}`);
  for (const tr of triggers) await knex.raw(tr.def);
  for (const c of incoming)
    await referencePartitioned(knex, c.tbl, c.col, table, c.del === 'n' ? 'set null' : c.del === 'c' ? 'cascade' : 'restrict', c.name);
  await knex.raw(`ANALYZE ${t}`);
}

/** Back to one table (a migration's down): the same steps the other way, foreign keys restored. */
export async function unpartition(knex: Knex, table: string): Promise<void> {
  if (!(await partitionedTables(knex)).has(table)) return;
  const t = ident(table);
  const one = async <T>(sql: string, b: readonly unknown[] = []): Promise<T[]> => (await knex.raw(sql, b as Knex.RawBinding[])).rows as T[];
  const indexes = await one<{ def: string }>(
    `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i WHERE i.indrelid = ?::regclass AND NOT i.indisprimary`,
    [table],
  );
  const foreign = await one<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'f'`,
    [table],
  );
  const refs = await one<{ name: string; args: string }>(
    `SELECT tgname AS name, encode(tgargs, 'escape') AS args FROM pg_trigger WHERE tgrelid = ?::regclass AND tgfoid = 'ecofond_ref_deleted'::regproc`,
    [table],
  );
  const triggers = await one<{ def: string }>(
    `SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = ?::regclass AND NOT tgisinternal AND tgparentid = 0 AND tgfoid <> 'ecofond_ref_deleted'::regproc`,
    [table],
  );
  const [{ seq }] = await one<{ seq: string | null }>('SELECT pg_get_serial_sequence(?, ?) AS seq', [table, 'id']);
  if (seq) await knex.raw(`ALTER SEQUENCE ${seq} OWNED BY NONE`);
  const plain = ident(`${table}_plain`);
  await knex.raw(`CREATE TABLE ${plain} (LIKE ${t} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS)`);
  await knex.raw(`INSERT INTO ${plain} SELECT * FROM ${t}`);
  await knex.raw(`DROP TABLE ${t}`);
  await knex.raw(`ALTER TABLE ${plain} RENAME TO ${t}`);
  await knex.raw(`ALTER TABLE ${t} ADD CONSTRAINT ${ident(`${table}_pkey`)} PRIMARY KEY (id)`);
  if (seq) await knex.raw(`ALTER SEQUENCE ${seq} OWNED BY ${t}.id`);
  for (const i of indexes) await knex.raw(i.def);
  for (const f of foreign) await knex.raw(`ALTER TABLE ${t} ADD CONSTRAINT ${ident(f.name)} ${f.def}`);
  for (const tr of triggers) await knex.raw(tr.def);
  for (const r of refs) {
    const [, tbl, col, del, name] = r.args.split('\\000');
    await knex.raw(`DROP TRIGGER IF EXISTS ${ident(`${name}_check`)} ON ${ident(tbl)}`);
    await knex.raw(
      `ALTER TABLE ${ident(tbl)} ADD CONSTRAINT ${ident(name)} FOREIGN KEY (${ident(col)}) REFERENCES ${t}(id) ON DELETE ${del.toUpperCase()}`,
    );
  }
}

/** Makes the partitions of this year and the next where they are missing (a server's start; idempotent). */
export async function ensureYearPartitions(knex: Knex, now: Date = new Date()): Promise<string[]> {
  const made: string[] = [];
  for (const table of await partitionedTables(knex)) {
    if (!(await knex.schema.hasTable(otherPartition(table)))) continue;
    for (const y of [now.getUTCFullYear(), now.getUTCFullYear() + 1]) {
      if (await knex.schema.hasTable(yearPartition(table, y))) continue;
      try {
        await createYear(knex, table, table, y);
        made.push(yearPartition(table, y));
      } catch {
        // the default partition holds rows of that year (or another process made it first): left as it is
      }
    }
  }
  return made;
}

async function createYear(knex: Knex, parent: string, table: string, y: number): Promise<void> {
  await knex.raw(
    `CREATE TABLE ${ident(yearPartition(table, y))} PARTITION OF ${ident(parent)} FOR VALUES FROM ('${y}-01-01') TO ('${y + 1}-01-01')`,
  );
}
