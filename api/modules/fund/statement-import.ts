import type { Knex } from 'knex';
import type { Repository, RowChunk } from '../../engine/repository.ts';
import { ApiError, importRowsError } from '../../kernel/errors.ts';
import { Workflow } from '../../engine/workflow.ts';
import { parseTiyin, formatTiyin } from '../../domain/money.ts';
import { readPaymentSheet, type SheetPayment } from '../../fund/payment-sheet.ts';

/**
 * A bank statement imported into a payment stack (docs/payments-import.md), as a function the
 * synchronous route and a background job both call: the file read as it streams, every row checked
 * (the sheet's cells, then the same validation as a single create of a payment and its references
 * in one query a field), the first hundred errors by row number and their count answered, else
 * every payment written in one transaction through the engine's write path, payers that are
 * subjects attached to them, and the stack's count and total updated.
 */

export type ImportStage = 'read' | 'write' | 'attach' | 'done';

export interface StatementImport {
  knex: Knex;
  /** the caller's repository of an entity (the route's `rc.repo`) */
  repo: (entity: string) => Repository;
  /** the stack, which the caller may update */
  stackId: number;
  /** the .xlsx */
  file: Uint8Array;
  /**
   * Progress for a progress bar: `done` of `total` (100), monotonic, and the stage it is at: `read`
   * until the first rows are written, `write` (the file read and its rows written side by side)
   * up to 90, `attach` 90–100.
   */
  onProgress?: (done: number, total: number, stage: ImportStage) => void;
  /** an abort stops the import between chunks or batches; nothing is written */
  signal?: AbortSignal;
}

export interface StatementImported { imported: number; attached: number; total_amount: string }

export async function importStatement(x: StatementImport): Promise<StatementImported> {
  const { knex, stackId, signal } = x;
  let last = -1;
  let lastStage: ImportStage | undefined;
  // each whole percent once, and each stage when it begins
  const progress = (done: number, stage: ImportStage) => {
    const at = Math.max(last, Math.min(100, Math.floor(done)));
    if (at === last && stage === lastStage) return;
    last = at;
    lastStage = stage;
    x.onProgress?.(at, 100, stage);
  };
  // while the file is read and written side by side: the share of it read, times the share of
  // the rows read so far that are written
  let readShare = 0;
  let written = 0;
  const rows: SheetPayment[] = [];
  const writing = () => progress(rows.length ? (90 * readShare * written) / rows.length : 0, written ? 'write' : 'read');
  const payments = x.repo('payments');
  payments.assertCan('create');
  progress(0, 'read');
  const codes = new Map<string, number>((await knex('income_types').select('id', 'code')).map((r: { id: number; code: string }) => [r.code, r.id]));
  signal?.throwIfAborted();
  const result = await knex.transaction(async (trx) => {
    const stacks = x.repo('stack-payments').other('stack-payments', { trx });
    const locked = await stacks.scoped('update', trx).where('t.id', stackId).forUpdate().first('t.id');
    if (!locked) throw new ApiError('notFound');
    if (await trx('payments').where({ stack_id: stackId }).first('id')) throw new ApiError('inUse', 'errors.stack_imported');
    const inTrx = payments.other('payments', { trx });
    // the file's rows as it is read: the sheet's errors and the income codes' with them
    const sheet = readPaymentSheet(x.file, { signal, onProgress: (d, t) => { readShare = d / t; writing(); } });
    const chunks = (async function* (): AsyncGenerator<RowChunk> {
      for await (const { payments: read, errors } of sheet) {
        for (const p of read) {
          if (p.income_code && !codes.has(p.income_code)) errors[`rows.${p.row}.income_code`] ??= { key: 'validation.ref_not_found' };
          rows.push(p);
        }
        yield {
          payloads: read.map(({ row: _row, income_code, ...p }) => ({ ...p, stack_id: stackId, income_type_id: income_code ? codes.get(income_code) ?? null : null })),
          rowNumbers: read.map((p) => p.row), errors,
        };
      }
    })();
    // the engine checks every row as a single create would — those the sheet found bad too, so
    // that the answer lists all of a file's errors — and refuses the file with the sheet's errors and its own
    const created = await inTrx.createStream(chunks, {
      action: 'import', signal, onProgress: (done) => { written = done; writing(); },
    }).catch((err) => {
      // the engine's own refusal of a single row (a statement of one payment) is still the file's
      if (err instanceof ApiError && err.fieldErrors && err.messageKey !== 'errors.import_rows') throw importRowsError(err.fieldErrors);
      throw err;
    });
    progress(90, 'attach');
    // payers whose INN is a subject's, in the caller's scope: attached, one move per subject
    const inns = [...new Set(rows.map((r) => r.payer_inn).filter((v): v is string => !!v && v.length === 9))];
    const bySubject = new Map<string, number>();
    for (let i = 0; i < inns.length; i += 5000) {
      for (const s of await inTrx.other('subject').scoped('read', trx).whereIn('t.inn', inns.slice(i, i + 5000)).select('t.id', 't.inn')) bySubject.set(s.inn, s.id);
    }
    const groups = new Map<number, number[]>();
    created.forEach((p, i) => {
      const subject = rows[i].payer_inn ? bySubject.get(rows[i].payer_inn!) : undefined;
      if (!subject) return;
      const ids = groups.get(subject);
      if (ids) ids.push(p.id as number);
      else groups.set(subject, [p.id as number]);
    });
    // set-wise: every payer's payments in one action (a flow row, a notification and an audit row each)
    const attached = inTrx.can('wf:attach') && groups.size
      ? (await new Workflow(inTrx).runSets('attach', [...groups].map(([subject, ids]) => ({ ids, input: { subject_id: subject, comment: 'import: payer INN' } })))).changed
      : 0;
    signal?.throwIfAborted();
    const total = rows.reduce((s, r) => s + parseTiyin(r.amount), 0n);
    await stacks.update(stackId, { rows_count: rows.length, total_amount: formatTiyin(total) }, undefined, { fields: ['rows_count', 'total_amount'], action: 'import', anyVersion: true });
    signal?.throwIfAborted();
    return { imported: rows.length, attached, total_amount: formatTiyin(total) };
  });
  progress(100, 'done');
  return result;
}
