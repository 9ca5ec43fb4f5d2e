import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel, Text3 } from '../meta/types.ts';
import { LANGS } from '../meta/types.ts';
import { translate } from '../meta/captions.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { Repository } from '../engine/repository.ts';
import { importRows } from '../engine/import.ts';
import { enqueueJob, JOB_CANCELLED, registerJobKind, type JobRow } from './queue.ts';
import { jobsDir } from './worker.ts';

/**
 * An entity's rows imported from an .xlsx as a background job (docs/reference-books.md,
 * docs/jobs.md): `POST <path>/import` (an entity with `"import": true`) keeps the file beside the
 * jobs' files and queues an `entity-import` job of its caller, answered 202; the job runs
 * `importRows` (api/engine/import.ts) as its owner stands when it runs — their right to create,
 * their scope, validation, one audit row a row, one transaction — with its progress (0–100 %) and
 * cancel between batches (nothing written). The kept file is removed when the job ends.
 */

export const ENTITY_IMPORT = 'entity-import';
const NAME = /^import-[0-9a-f-]{36}\.xlsx$/;

export async function queueEntityImport(knex: Knex, model: MetaModel, e: EntityMeta, o: { userId: number; lang: Lang; file: Uint8Array }): Promise<JobRow> {
  mkdirSync(jobsDir(), { recursive: true });
  const name = `import-${randomUUID()}.xlsx`;
  writeFileSync(join(jobsDir(), name), o.file);
  const title = Object.fromEntries(LANGS.map((l) => [l, translate(model, l, 'jobs.entity_import', { entity: translate(model, l, e.caption) })])) as Text3;
  try {
    return await enqueueJob(knex, { kind: ENTITY_IMPORT, userId: o.userId, lang: o.lang, params: { entity: e.name, file: name }, title, total: 100 });
  } catch (err) {
    unlinkSync(join(jobsDir(), name));
    throw err;
  }
}

registerJobKind(ENTITY_IMPORT, async ({ knex, model, principal, lang, params, progress, signal }) => {
  const name = String(params.file);
  if (!NAME.test(name)) throw new Error(`bad import file name ${name}`);
  const path = join(jobsDir(), name);
  try {
    // the entity as the model stands now: a book removed or no longer importable in between is a 404
    const e = model.entities.get(String(params.entity));
    if (!e?.import) throw notFound();
    if (!existsSync(path)) throw new ApiError('badRequest', 'errors.import_file');
    const repo = new Repository({ knex, model, principal, lang }, e);
    const result = await importRows(repo, readFileSync(path), { signal, onProgress: (done, total) => progress(done, total) });
    return { ...result };
  } finally {
    // kept only for a job that runs again: its worker stopping or losing it (not a cancel, a refusal or a success)
    const again = signal.aborted && signal.reason !== JOB_CANCELLED;
    if (!again && existsSync(path)) unlinkSync(path);
  }
});
