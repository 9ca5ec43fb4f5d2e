import type { Knex } from 'knex';

/**
 * The books' rows are the `meta-books` entity's now (docs/reference-books.md), written through the
 * Repository, whose hook fills in the definition: a row written by its name alone (the generic
 * route) starts empty and the hook makes it a code-and-name book in the same transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE meta_books ALTER COLUMN definition SET DEFAULT '{}'::jsonb, ALTER COLUMN captions SET DEFAULT '{}'::jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE meta_books ALTER COLUMN definition DROP DEFAULT, ALTER COLUMN captions DROP DEFAULT');
}
