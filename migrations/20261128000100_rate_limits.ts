import type { Knex } from 'knex';

/**
 * The rate limits every server process shares (api/http/rate-limit.ts): one row a key and fixed
 * window. UNLOGGED: written on every limited attempt and worthless after a crash, so kept out of
 * the WAL (and of replicas).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE UNLOGGED TABLE rate_limits (
    key varchar(300) NOT NULL,
    bucket bigint NOT NULL,
    n integer NOT NULL,
    PRIMARY KEY (key, bucket)
  )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limits');
}
