import type { Knex } from 'knex';

/**
 * Versions of data that answers are cached by (api/db/data-version.ts): one row a name, its
 * `version` raised by `bump_data_version(name)`, a statement trigger on every table the cached
 * answers read. An ordinary, transactional row: a reader sees a new version only together with the
 * data that raised it, so an answer is never cached under a version newer than its data.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE data_versions (
    name varchar(60) PRIMARY KEY,
    version bigint NOT NULL DEFAULT 0
  )`);
  await knex.raw(`CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO data_versions (name, version) VALUES (TG_ARGV[0], 1)
        ON CONFLICT (name) DO UPDATE SET version = data_versions.version + 1;
      RETURN NULL;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  const triggers = await knex.raw(
    `SELECT tgname, tgrelid::regclass::text AS rel FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE p.proname = 'bump_data_version'`,
  );
  for (const t of triggers.rows as { tgname: string; rel: string }[]) await knex.raw('DROP TRIGGER ?? ON ??', [t.tgname, t.rel]);
  await knex.raw('DROP FUNCTION IF EXISTS bump_data_version()');
  await knex.schema.dropTableIfExists('data_versions');
}
