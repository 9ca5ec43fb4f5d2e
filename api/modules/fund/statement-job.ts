import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { LANGS, type Lang, type MetaModel, type Text3 } from '../../meta/types.ts';
import { translate } from '../../meta/captions.ts';
import { Repository } from '../../engine/repository.ts';
import { enqueueJob, JOB_CANCELLED, registerJobKind, type JobRow } from '../../jobs/queue.ts';
import { jobsDir } from '../../jobs/worker.ts';
import { importStatement } from './statement-import.ts';

/**
 * A bank statement imported as a background job (docs/jobs.md, docs/payments-import.md):
 * `POST <stack>/:id/import?background=1` keeps the file beside the jobs' files and queues a
 * `statement-import` job of its caller; the job runs `importStatement` — the same checks, the same
 * one transaction, the first hundred errors by row number and their count — as its owner stands
 * when it runs, its progress (0–100 %) on the job, cancel between batches (nothing written). The
 * kept file is removed when the job ends (a worker that dies leaves it for the retry; the jobs'
 * clean-up removes one left a day).
 */

const KIND = 'statement-import';
const NAME = /^statement-[0-9a-f-]{36}\.xlsx$/;

export async function queueStatementImport(knex: Knex, model: MetaModel, o: { userId: number; lang: Lang; stackId: number; number: string; file: Uint8Array }): Promise<JobRow> {
  mkdirSync(jobsDir(), { recursive: true });
  const name = `statement-${randomUUID()}.xlsx`;
  writeFileSync(join(jobsDir(), name), o.file);
  const title = Object.fromEntries(LANGS.map((l) => [l, translate(model, l, 'jobs.statement_import', { number: o.number })])) as Text3;
  try {
    return await enqueueJob(knex, { kind: KIND, userId: o.userId, lang: o.lang, params: { stack_id: o.stackId, file: name }, title, total: 100 });
  } catch (err) {
    unlinkSync(join(jobsDir(), name));
    throw err;
  }
}

registerJobKind(KIND, async ({ knex, model, principal, lang, params, progress, signal }) => {
  const name = String(params.file);
  if (!NAME.test(name)) throw new Error(`bad statement file name ${name}`);
  const path = join(jobsDir(), name);
  const repo = (entity: string) => new Repository({ knex, model, principal, lang }, model.entities.get(entity)!);
  try {
    const result = await importStatement({
      knex, repo, stackId: Number(params.stack_id), file: readFileSync(path), signal, onProgress: (done, total) => progress(done, total),
    });
    return { ...result };
  } finally {
    // kept only for a job that runs again: its worker stopping or losing it (not a cancel, a refusal or a success)
    const again = signal.aborted && signal.reason !== JOB_CANCELLED;
    if (!again && existsSync(path)) unlinkSync(path);
  }
});
