import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel, Text3 } from '../meta/types.ts';
import { LANGS } from '../meta/types.ts';
import { translate } from '../meta/captions.ts';
import { ApiError, notFound } from '../kernel/errors.ts';
import { Repository } from '../engine/repository.ts';
import { importRows } from '../engine/import.ts';
import type { JobRow, JobRun } from './queue.ts';
import { queueWithFile, withJobFile } from './job-files.ts';

/**
 * An entity's rows imported from an .xlsx as a background job (docs/reference-books.md,
 * docs/jobs.md): `POST <path>/import` (an entity with `"import": true`) keeps the file beside the
 * jobs' files and queues an `entity-import` job of its caller, answered 202; the job runs
 * `importRows` (api/engine/import.ts) as its owner stands when it runs — their right to create,
 * their scope, validation, one audit row a row, one transaction — with its progress (0–100 %) and
 * cancel between batches (nothing written). The kept file is removed when the job ends.
 */

export const ENTITY_IMPORT = 'entity-import';

export async function queueEntityImport(
  knex: Knex,
  model: MetaModel,
  e: EntityMeta,
  o: { userId: number; lang: Lang; file: Uint8Array },
): Promise<JobRow> {
  const title = Object.fromEntries(
    LANGS.map((l) => [l, translate(model, l, 'jobs.entity_import', { entity: translate(model, l, e.caption) })]),
  ) as Text3;
  return queueWithFile(knex, 'import', o.file, {
    kind: ENTITY_IMPORT,
    userId: o.userId,
    lang: o.lang,
    params: { entity: e.name },
    title,
    total: 100,
  });
}

const entityImportJob: JobRun = async ({ knex, model, principal, lang, params, progress, signal }) =>
  withJobFile('import', params, signal, async (file) => {
    // the entity as the model stands now: a book removed or no longer importable in between is a 404
    const e = model.entities.get(String(params.entity));
    if (!e?.import) throw notFound();
    if (!file) throw new ApiError('badRequest', 'errors.import_file');
    const repo = new Repository({ knex, model, principal, lang }, e);
    const result = await importRows(repo, file, { signal, onProgress: (done, total) => progress(done, total) });
    return { ...result };
  });

/** The import job kinds, registered by start-up's registry (api/registry.ts). */
export const IMPORT_JOB_KINDS: Record<string, JobRun> = { [ENTITY_IMPORT]: entityImportJob };
