import type { Knex } from 'knex';

/**
 * Reference books made on the back-office's screen (docs/reference-books.md): each row holds a
 * book's entity metadata as a file would, its captions and its menu place. The books' own tables
 * are made by the screen's save, in the same transaction as their row here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('meta_books', (t) => {
    t.bigIncrements('id');
    t.string('name', 60).notNullable().unique();
    t.jsonb('definition').notNullable();
    t.jsonb('captions').notNullable();
    t.jsonb('menu');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.bigInteger('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('updated_by').nullable().references('id').inTable('users').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('meta_books');
}
