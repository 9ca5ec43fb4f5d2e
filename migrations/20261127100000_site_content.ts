import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The public site's content and the public's suggestions (issue 14, docs/site-content.md): the
 * site's menu, sections and texts, the suggestions, and the news' publish / unpublish workflow
 * (a `status` beside `is_published`, which the public reads; existing rows take the state their
 * flag says). The rows themselves are the seed's (seeds/site-content.ts).
 */
export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(['site-section', 'site-content', 'menu', 'suggestion']);
  await h.addEntityColumns('publications', ['status']);
  await knex.raw(
    "UPDATE publications SET status = CASE WHEN is_published THEN 'published' ELSE 'draft' END WHERE status IS NULL OR status <> CASE WHEN is_published THEN 'published' ELSE 'draft' END",
  );
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityColumns('publications', ['status']);
  await h.dropEntityTables(['suggestion', 'menu', 'site-content', 'site-section']);
}
