/** Columns every entity table has, maintained by the engine, never declared in metadata. */
export const SYSTEM_COLUMNS = ['id', 'version', 'created_at', 'updated_at', 'created_by', 'updated_by'];

/** Tables of the system migration that entity fields may point at. */
export const SYSTEM_REFS = ['users', 'resources'];
