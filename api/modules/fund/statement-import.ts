import type { Knex } from 'knex';
import type { Repository, RowChunk } from '../../engine/repository.ts';
import { ApiError, importRowsError } from '../../kernel/errors.ts';
import { Workflow } from '../../engine/workflow.ts';
import { parseTiyin, formatTiyin } from '../../domain/money.ts';
import { readPaymentSheet } from '../../fund/payment-sheet.ts';
import { q } from '../../engine/sql.ts';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { incomeTypeIdsByCode, stackHasPayments } from '../../read-models/statement-import.ts';

/**
 * A bank statement imported into a payment stack (docs/payments-import.md), as a function the
 * synchronous route and a background job both call: the file read as it streams, every row checked
 * (the sheet's cells, then the same validation as a single create of a payment and its references
 * in one query a field), the first hundred errors by row number and their count answered, else
 * every payment written in one transaction through the engine's write path — its COPY set path on
 * PostgreSQL (Repository.createCopy: rows repeating an earlier one found set-wise), the batched
 * one on PGlite —, payers that are subjects attached to them, and the stack's count and total
 * updated; or, previewed, all of it but the attaching done and rolled back, and what would be
 * attached answered.
 */

export type ImportStage = 'read' | 'write' | 'attach' | 'done';

export interface StatementImport {
  knex: Knex;
  /** the caller's repository of an entity (the route's `rc.repo`) */
  repo: (entity: string) => Repository;
  /** the stack, which the caller may update */
  stackId: number;
  /**
   * the .xlsx: its bytes, or its path on disk — read from there as it streams (the zip's directory,
   * then the sheet a piece at a time), never held whole: a background job's kept file, the bench's
   */
  file: Uint8Array | string;
  /**
   * Progress for a progress bar: `done` of `total` (100), monotonic, and the stage it is at: `read`
   * until the first rows are written, `write` (the file read and its rows written side by side)
   * up to 90, `attach` 90–100.
   */
  onProgress?: (done: number, total: number, stage: ImportStage) => void;
  /** an abort stops the import between chunks or batches; nothing is written */
  signal?: AbortSignal;
  /**
   * the token of the preview this import confirms: what it would write (the file, the stack, the
   * count, the total and every attachment) must be what was previewed, else a 409
   * (`errors.import_preview_stale`) and nothing is written
   */
  expect?: string;
}

export interface StatementImported {
  imported: number;
  attached: number;
  total_amount: string;
}

/** A known payer of a previewed statement: the subject its payments will be attached to. */
export interface PreviewPayer {
  subject_id: number;
  inn: string;
  name: string;
  payments: number;
  amount: string;
}

/** What an import would do, answered without committing anything (`preview`). */
export interface StatementPreview {
  preview: true;
  /** what confirms this preview: the import's `expect` (a digest of the file and of what it would do) */
  token: string;
  /** payments the file holds, and their total */
  rows: number;
  total_amount: string;
  /** payments that will be attached, to how many subjects; the first PREVIEW_PAYERS of them by INN */
  attach_payments: number;
  attach_subjects: number;
  /** payments whose payer is no subject of the caller's scope (they stay "undefined") */
  unknown_payments: number;
  payers: PreviewPayer[];
  /** whether the caller may attach (else the payments stay "undefined") */
  can_attach: boolean;
}

/** Known payers a preview lists (their count is given beside). */
export const PREVIEW_PAYERS = 100;

/** The columns that make a row of a statement a repeat of an earlier one (the error is beside `number`). */
export const DUPLICATE_COLUMNS = ['number', 'paid_on', 'amount', 'payer_inn', 'payer_account'] as const;

/**
 * A preview's token: a digest of the file's bytes, the stack, and what the import would write and
 * attach — the same file imported into the same stack with the same payers known gives the same.
 */
export function previewToken(p: { file: Buffer; stackId: number; rows: number; total: string; attach: unknown[] }): string {
  const h = createHash('sha256').update(p.file);
  h.update(JSON.stringify([p.stackId, p.rows, p.total, p.attach]));
  return h.digest('base64url').slice(0, 32);
}

/** The SHA-256 of a file's bytes, held in memory or read from its path a piece at a time. */
async function fileDigest(file: Uint8Array | string): Promise<Buffer> {
  const h = createHash('sha256');
  if (typeof file !== 'string') return h.update(file).digest();
  for await (const piece of createReadStream(file, { highWaterMark: 1024 * 1024 })) h.update(piece as Buffer);
  return h.digest();
}

/** How a preview leaves the transaction: rolled back, with what it would have done. */
class Previewed extends Error {
  constructor(readonly preview: StatementPreview) {
    super('preview');
  }
}

/** The statement imported (or previewed: everything checked and written, then rolled back). */
export function importStatement(x: StatementImport & { preview?: false }): Promise<StatementImported>;
export function importStatement(x: StatementImport & { preview: true }): Promise<StatementPreview>;
export async function importStatement(x: StatementImport & { preview?: boolean }): Promise<StatementImported | StatementPreview> {
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
  let received = 0;
  const writing = () => progress(received ? (90 * readShare * written) / received : 0, written ? 'write' : 'read');
  const payments = x.repo('payments');
  payments.assertCan('create');
  progress(0, 'read');
  // the file's digest (for the preview's token) read beside the import, from the memory or the disk
  const digest = fileDigest(x.file);
  digest.catch(() => undefined);
  const codes = await incomeTypeIdsByCode(knex);
  signal?.throwIfAborted();
  const result = await knex
    .transaction(async (trx) => {
      const stacks = x.repo('stack-payments').other('stack-payments', { trx });
      const locked = await stacks.scoped('update', trx).where('t.id', stackId).forUpdate().first('t.id');
      if (!locked) throw new ApiError('notFound');
      if (await stackHasPayments(trx, stackId)) throw new ApiError('inUse', 'errors.stack_imported');
      const inTrx = payments.other('payments', { trx });
      // the file's rows as it is read: the sheet's errors and the income codes' with them; on the
      // fallback path (no COPY) a row repeating an earlier one is found here, else set-wise in SQL
      const sheet = readPaymentSheet(x.file, {
        signal,
        onProgress: (d, t) => {
          readShare = d / t;
          writing();
        },
      });
      let repeats: Map<string, number> | undefined;
      const chunks = (async function* (): AsyncGenerator<RowChunk> {
        for await (const { payments: read, errors } of sheet) {
          for (const p of read) {
            if (p.income_code && !codes.has(p.income_code)) errors[`rows.${p.row}.income_code`] ??= { key: 'validation.ref_not_found' };
            if (repeats && !Object.keys(errors).some((k) => k.startsWith(`rows.${p.row}.`))) {
              const key = JSON.stringify(DUPLICATE_COLUMNS.map((c) => p[c]));
              const first = repeats.get(key);
              if (first === undefined) repeats.set(key, p.row);
              else errors[`rows.${p.row}.number`] ??= { key: 'validation.duplicate_row', args: { row: first } };
            }
          }
          received += read.length;
          yield {
            payloads: read.map(({ row: _row, income_code, ...p }) => ({
              ...p,
              stack_id: stackId,
              income_type_id: income_code ? (codes.get(income_code) ?? null) : null,
            })),
            rowNumbers: read.map((p) => p.row),
            errors,
          };
        }
      })();
      // the engine checks every row as a single create would — those the sheet found bad too, so
      // that the answer lists all of a file's errors — and refuses the file with the sheet's errors
      // and its own: through COPY and a staging table on PostgreSQL, else (PGlite) in batches
      const write = {
        action: 'import',
        signal,
        onProgress: (done: number) => {
          written = done;
          writing();
        },
      };
      // the staging table of the COPY path: where the written rows' INNs, count and total are read
      // (a local temp table, not the just-written partitions' rows without statistics)
      let stage: string | null = null;
      await (async () => {
        const copied = await inTrx.createCopy(trx, chunks, { ...write, duplicates: DUPLICATE_COLUMNS });
        if (copied) {
          stage = copied.stage;
          return;
        }
        repeats = new Map();
        await inTrx.createStream(chunks, write);
      })().catch((err) => {
        // the engine's own refusal of a single row (a statement of one payment) is still the file's
        if (err instanceof ApiError && err.fieldErrors && err.messageKey !== 'errors.import_rows') throw importRowsError(err.fieldErrors);
        throw err;
      });
      repeats = undefined;
      progress(90, 'attach');
      // the rows written: from the staging table (what was inserted, row for row), else the
      // stack's, read in the caller's scope as any read of them
      const written_: Knex.Raw | Knex.QueryBuilder = stage
        ? trx.raw(`SELECT payer_inn, amount FROM ${q(stage)}`)
        : inTrx.scoped('read', trx).where('t.stack_id', stackId).select('t.payer_inn', 't.amount');
      // payers whose INN is a subject's in the caller's scope, found set-wise: the subjects of the
      // stack's INNs (an uncorrelated subquery over the rows written), then those INNs' payments;
      // attached, one move per subject
      const subjects = new Map<string, { id: number; name: string }>();
      const found: { id: number; inn: string; name: string }[] = await inTrx
        .other('subject')
        .scoped('read', trx)
        .whereRaw('t.inn IN (SELECT DISTINCT w.payer_inn FROM (?) w WHERE length(w.payer_inn) = 9)', [written_])
        .select('t.id', 't.inn', 't.name');
      for (const sub of found) subjects.set(sub.inn, sub);
      const known: { payment: number; subject: number; inn: string; name: string; amount: string }[] = [];
      if (subjects.size) {
        // the stack's payments just written, read in the caller's scope as any read of them
        const paid = await inTrx
          .scoped('read', trx)
          .where('t.stack_id', stackId)
          .whereIn('t.payer_inn', [...subjects.keys()])
          .orderBy('t.id')
          .select('t.id', 't.payer_inn', 't.amount');
        for (const p of paid as { id: number; payer_inn: string; amount: string }[]) {
          const sub = subjects.get(p.payer_inn)!;
          known.push({ payment: p.id, subject: sub.id, inn: p.payer_inn, name: sub.name, amount: p.amount });
        }
      }
      const groups = new Map<number, number[]>();
      for (const k of known) {
        const ids = groups.get(k.subject);
        if (ids) ids.push(k.payment);
        else groups.set(k.subject, [k.payment]);
      }
      const [{ n, total }] = (await trx.raw('SELECT count(*)::int AS n, coalesce(sum(w.amount), 0)::text AS total FROM (?) w', [written_]))
        .rows as { n: number; total: string }[];
      const totalAmount = formatTiyin(parseTiyin(total));
      const canAttach = inTrx.can('wf:attach');
      const bySubject = new Map<number, PreviewPayer>();
      for (const k of known) {
        const p = bySubject.get(k.subject) ?? { subject_id: k.subject, inn: k.inn, name: k.name, payments: 0, amount: '0.00' };
        p.payments++;
        p.amount = formatTiyin(parseTiyin(p.amount) + parseTiyin(String(k.amount)));
        bySubject.set(k.subject, p);
      }
      const allPayers = [...bySubject.values()].sort((a, b) => a.inn.localeCompare(b.inn) || a.subject_id - b.subject_id);
      const attachPayments = canAttach ? known.length : 0;
      // what the caller is shown and confirms: the file, the stack, the counts and every attachment
      const token = previewToken({
        file: await digest,
        stackId,
        rows: n,
        total: totalAmount,
        attach: canAttach ? allPayers.map((p) => [p.subject_id, p.payments, p.amount]) : [],
      });
      if (x.preview) {
        throw new Previewed({
          preview: true,
          token,
          rows: n,
          total_amount: totalAmount,
          attach_payments: attachPayments,
          attach_subjects: canAttach ? groups.size : 0,
          unknown_payments: n - attachPayments,
          payers: allPayers.slice(0, PREVIEW_PAYERS),
          can_attach: canAttach,
        });
      }
      // a write confirming a preview writes what was previewed, else nothing (409: preview again)
      if (x.expect !== undefined && x.expect !== token) throw new ApiError('stale', 'errors.import_preview_stale');
      // set-wise: every payer's payments in one action (a flow row, a notification and an audit row each)
      const attached =
        canAttach && groups.size
          ? (
              await new Workflow(inTrx).runSets(
                'attach',
                [...groups].map(([subject, ids]) => ({ ids, input: { subject_id: subject, comment: 'import: payer INN' } })),
              )
            ).changed
          : 0;
      signal?.throwIfAborted();
      await stacks.update(stackId, { rows_count: n, total_amount: totalAmount }, undefined, {
        fields: ['rows_count', 'total_amount'],
        action: 'import',
        anyVersion: true,
      });
      signal?.throwIfAborted();
      return { imported: n, attached, total_amount: totalAmount };
    })
    .catch((err) => {
      if (err instanceof Previewed) return err.preview;
      throw err;
    });
  progress(100, 'done');
  return result;
}
