import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * Template documents (docs/template-documents.md): the templates of each document type with their
 * own fields, and the documents issued from them — the filled HTML and the server-made PDF kept as
 * they were printed, so that editing a template never changes a document already issued.
 */
const ENTITIES = ['template-documents', 'issued-documents'];

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(ENTITIES);
  // a record's documents are listed by the record, newest first
  await knex.raw('CREATE INDEX IF NOT EXISTS issued_documents_record_idx ON issued_documents (entity, record_id, id DESC)');
}

export async function down(_knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.dropEntityTables([...ENTITIES].reverse());
}
