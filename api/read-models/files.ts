import type { Knex } from 'knex';

/**
 * The uploaded files' registry (`resources`, docs/decisions/0017): not an entity, so read here.
 * Which files a signed-in caller may read through rows is api/engine/file-access.ts's question;
 * these are the public forms' files.
 */

/** Kinds of file a public form takes. */
export type UploadKind = 'image' | 'video';

/**
 * Of `ids`, those uploaded through the public forms (no uploader) or, when `owner` is given, by
 * that user, of one of the `kinds`: the scope of a form's photo or video. Another user's upload is
 * not among them.
 */
export async function formUploads(
  knex: Knex,
  ids: readonly number[],
  owner: number | null,
  kinds: readonly UploadKind[],
): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const found = await knex('resources')
    .whereIn('id', [...ids])
    .where((q) => (owner === null ? q.whereNull('created_by') : q.whereNull('created_by').orWhere('created_by', owner)))
    .where((q) => {
      for (const k of kinds) q.orWhereLike('mime', `${k}/%`);
    })
    .pluck('id');
  return new Set(found.map(Number));
}

export interface StoredFile {
  id: number;
  storage_path: string;
  mime: string;
  original_name: string;
  size: number;
}

/**
 * A file's record, to send its bytes. No scope of its own: every caller has shown first that the
 * file may be read (a public row refers to it, the caller may read a row holding it, or it is the
 * caller's job's), and an unknown id is a 404 all the same.
 */
export async function storedFile(knex: Knex, id: number): Promise<StoredFile | undefined> {
  return knex('resources').where({ id }).first('id', 'storage_path', 'mime', 'original_name', 'size');
}
