import type { Knex } from 'knex';
import { LANGS, type Lang, type MetaModel, type Text3 } from '../../meta/types.ts';
import { translate } from '../../meta/captions.ts';
import { repositoryOf } from '../../engine/repository.ts';
import type { JobRow, JobRun } from '../../jobs/queue.ts';
import { queueWithFile, withJobFilePath } from '../../jobs/job-files.ts';
import { importStatement } from './statement-import.ts';

/**
 * A bank statement imported as a background job (docs/jobs.md, docs/payments-import.md):
 * `POST <stack>/:id/import?background=1` keeps the file beside the jobs' files and queues a
 * `statement-import` job of its caller (`&preview=1`: a preview, its result what the import would do,
 * nothing kept; `&expect=<token>`: the import of that preview, 409 if it would write otherwise);
 * the job runs `importStatement` — the same checks, the same
 * one transaction, the first hundred errors by row number and their count — as its owner stands
 * when it runs, its progress (0–100 %) on the job, cancel between batches (nothing written). The
 * kept file is removed when the job ends (a worker that dies leaves it for the retry; the jobs'
 * clean-up removes one left a day).
 */

const KIND = 'statement-import';

export async function queueStatementImport(
  knex: Knex,
  model: MetaModel,
  o: { userId: number; lang: Lang; stackId: number; number: string; file: Uint8Array; preview?: boolean; expect?: string },
): Promise<JobRow> {
  const key = o.preview ? 'jobs.statement_preview' : 'jobs.statement_import';
  const title = Object.fromEntries(LANGS.map((l) => [l, translate(model, l, key, { number: o.number })])) as Text3;
  return queueWithFile(knex, 'statement', o.file, {
    kind: KIND,
    userId: o.userId,
    lang: o.lang,
    params: { stack_id: o.stackId, ...(o.preview ? { preview: true } : {}), ...(o.expect ? { expect: o.expect } : {}) },
    title,
    total: 100,
  });
}

const statementImportJob: JobRun = async ({ knex, model, principal, lang, params, progress, signal }) =>
  // the kept file is read from the disk as it streams, never held whole (docs/payments-import.md)
  withJobFilePath('statement', params, signal, async (file) => {
    if (!file) throw new Error('the statement file is gone');
    const repo = (entity: string) => repositoryOf({ knex, model, principal, lang }, entity);
    const common = {
      knex,
      repo,
      stackId: Number(params.stack_id),
      file,
      signal,
      onProgress: (done: number, total: number) => progress(done, total),
    };
    // a preview job answers what the import would do (nothing kept); an import may confirm a preview
    const result = params.preview
      ? await importStatement({ ...common, preview: true })
      : await importStatement({ ...common, expect: typeof params.expect === 'string' ? params.expect : undefined });
    return { ...result };
  });

/** The fund's job kinds (its ModuleDef's `jobs`, registered by the registry). */
export const FUND_JOBS: Record<string, JobRun> = { [KIND]: statementImportJob };
