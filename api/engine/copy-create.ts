import type { Knex } from 'knex';
import pg from 'pg';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { from as copyFrom } from 'pg-copy-streams';
import type { EntityMeta, FieldMeta, MetaModel } from '../meta/types.ts';
import type { Principal } from '../auth/ability.ts';
import { scopeConditions } from '../auth/ability.ts';
import { forbidden, importRowsError, type FieldError } from '../kernel/errors.ts';
import { q, refTable } from './sql.ts';
import { childFields } from './children.ts';
import { fileColumns } from './file-access.ts';
import { privilegeFields } from './privileges.ts';
import { translateDbError } from './db-errors.ts';

/**
 * The engine's set path for many created rows (an import of 100 000 bank payments): the rows are
 * prepared and validated one by one in this process exactly as a single create prepares them (the
 * repository's own preparer: normalised, the caller's scope filled, the compiled validator), then
 * streamed by `COPY … FROM STDIN` into a temporary staging table of the transaction, and from there
 * everything else is one statement over the whole set: the references checked (the referenced row
 * there and in the caller's scope), rows repeating an earlier row of the file found, then the rows
 * inserted with their derived fields (`from`) joined in, each checked against the caller's scope
 * for a create, and one audit row each — what a single create writes — in the same statement.
 * All of it in the caller's transaction: all or nothing (docs/payments-import.md,
 * docs/decisions/0045-copy-staging-for-imports.md).
 *
 * Only for entities whose rows are written from plain columns (copyCreatable): no writable child
 * rows or join tables, no after-write hook, no `within`, form, file, privilege or password field,
 * no point, polygon, json or datetime column; and only on a PostgreSQL server reached by node-pg
 * (embedded PGlite has no COPY stream): elsewhere the caller uses Repository.createStream.
 */

/** A chunk of created rows as they arrive (the repository's RowChunk): their numbers in the file, and errors found in them before. */
export interface CopyChunk {
  payloads: Record<string, unknown>[];
  rowNumbers: readonly number[];
  errors?: Record<string, FieldError>;
}

/** The repository the rows are created through (no import of it here: it imports this file). */
export interface CopyTarget {
  readonly e: EntityMeta;
  /** the entity's rows the caller may see for an operation, `from` read instead of its table */
  scoped(op: string, db?: Knex | Knex.Transaction, from?: Knex.Raw): Knex.QueryBuilder;
}

/** What the repository lends the set path of its own write path (Repository.createCopy). */
export interface CopyInternals {
  /** a payload prepared as a single create prepares it: the row to write, and the validator's errors */
  prepare: (payload: Record<string, unknown>) => { row: Record<string, unknown>; bad: Record<string, FieldError> | null };
  /** a prepared row's columns as inserted (the view's columns and who made it included) */
  columns: (row: Record<string, unknown>) => Record<string, unknown>;
  /** the caller's scope columns and values, filled where a row (derived fields included) leaves them empty */
  scope: Record<string, number>;
  /** the caller, whose scope limits the rows referred to; null for a trusted write */
  principal: Principal | null;
  model: MetaModel;
  actor: number | null;
}

export interface CopyOptions {
  /** what the audit rows name besides the operation (`import`) */
  action?: string;
  /**
   * columns whose values together make a row a repeat of an earlier row of the same file: the later
   * row is refused beside the first of them (`validation.duplicate_row`, naming the earlier row)
   */
  duplicates?: readonly string[];
  /** rows received so far, after each chunk is copied */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface CopyCreated {
  /** rows written */
  count: number;
  /**
   * the staging table the rows were copied into (a temp table of the transaction, dropped at its
   * end; null when nothing was copied): the caller may read the written rows' values from it —
   * analysed, local to the session, cheaper than reading back the just-written table's rows
   */
  stage: string | null;
}

/** Field types whose values COPY's text form carries as they are and the audit's JSON reads back alike. */
const PLAIN = new Set(['string', 'text', 'integer', 'decimal', 'money', 'boolean', 'date', 'enum', 'ref']);

/** Whether an entity's created rows can take the COPY set path (on a server that has COPY streams). */
export function copyCreatable(e: EntityMeta): boolean {
  if (e.afterWrite || childFields(e).some(([, f]) => !f.readOnly)) return false;
  if (fileColumns(e).length || privilegeFields(e).length) return false;
  return Object.values(e.fields).every(
    (f) => f.type === 'children' || (PLAIN.has(f.type) && !f.through && !f.within && !f.form && !f.lookup),
  );
}

/** The node-pg connection of a transaction, or null (embedded PGlite, another driver). */
export async function copyConnection(trx: Knex.Transaction): Promise<pg.Client | null> {
  if (process.env.ECOFOND_IMPORT_COPY === '0') return null;
  const conn = await (trx.client as { acquireConnection(): Promise<unknown> }).acquireConnection();
  return conn instanceof pg.Client ? conn : null;
}

/** A value in COPY's text form: NULL as \N, backslash, tab, newline and carriage return escaped. */
function copyText(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const s = typeof v === 'string' ? v : String(v);
  return /[\\\t\n\r]/.test(s)
    ? s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : s;
}

/** A column of a created row as its audit row's JSON shows it (as a snapshot reads it: numeric and dates as text). */
function auditValue(f: FieldMeta, col: string): string {
  return ['money', 'decimal', 'date'].includes(f.type) ? `${col}::text` : col;
}

/** Rows of a COPY sent at once (about a megabyte of text). */
const COPY_CHUNK = 2000;

/**
 * Creates the rows of `source` in `trx` through COPY and a staging table (above). Errors are keyed
 * `rows.<n>.<field>` by the chunks' row numbers: the chunks' own, the validator's, the references'
 * and the repeats' — all of the file's, then a 400 (importRowsError) and the transaction rolled
 * back by the caller. The staging table is dropped at the transaction's end.
 */
export async function copyCreate(
  repo: CopyTarget,
  trx: Knex.Transaction,
  conn: pg.Client,
  source: AsyncIterable<CopyChunk>,
  x: CopyInternals,
  opts: CopyOptions = {},
): Promise<CopyCreated> {
  const e = repo.e;
  const stage = `copy_${e.table}_${randomBytes(4).toString('hex')}`;
  const errors: Record<string, FieldError> = {};
  let bad = false;
  let total = 0;
  let cols: string[] | undefined;
  let stream: ReturnType<typeof copyFrom> | undefined;
  let finished: Promise<unknown> | undefined;
  let streamErr: unknown;
  await trx.raw(`CREATE TEMP TABLE ${q(stage)} ON COMMIT DROP AS SELECT NULL::int AS _row, t.* FROM ${q(e.table)} t WITH NO DATA`);
  try {
    for await (const chunk of source) {
      opts.signal?.throwIfAborted();
      if (streamErr) throw streamErr;
      total += chunk.payloads.length;
      // rows the caller found bad (a sheet's cells) are not copied: their values may not be of their type
      const refusedRows = new Set<number>();
      for (const [k, v] of Object.entries(chunk.errors ?? {})) {
        errors[k] ??= v;
        bad = true;
        refusedRows.add(Number(k.split('.')[1]));
      }
      let lines: string[] = [];
      for (let i = 0; i < chunk.payloads.length; i++) {
        const n = chunk.rowNumbers[i];
        const { row, bad: refused } = x.prepare(chunk.payloads[i]);
        if (refused) {
          bad = true;
          for (const [k, v] of Object.entries(refused)) errors[`rows.${n}.${k}`] ??= v;
          continue;
        }
        if (refusedRows.has(n)) continue;
        const values = x.columns(row);
        if (!cols) {
          cols = Object.keys(values);
          stream = conn.query(copyFrom(`COPY ${q(stage)} (_row, ${cols.map(q).join(', ')}) FROM STDIN`));
          stream.on('error', (err: unknown) => {
            streamErr ??= err;
          });
          finished = once(stream, 'finish');
          finished.catch(() => undefined);
        } else if (Object.keys(values).some((k) => !cols!.includes(k))) {
          throw new Error(`copyCreate: a row of ${e.name} has a column the first row has not`);
        }
        let line = String(n);
        for (const c of cols) line += `\t${copyText(values[c])}`;
        lines.push(`${line}\n`);
        if (lines.length >= COPY_CHUNK) {
          if (!stream!.write(lines.join(''))) await Promise.race([once(stream!, 'drain'), finished]);
          lines = [];
        }
      }
      if (lines.length && !stream!.write(lines.join(''))) await Promise.race([once(stream!, 'drain'), finished]);
      opts.onProgress?.(total, total);
    }
    opts.signal?.throwIfAborted();
    if (stream) {
      stream.end();
      await finished;
    }
  } catch (err) {
    // the first failure is the answer (the server's refusal of the COPY, else this one)
    const first = streamErr ?? err;
    // a COPY under way is failed (CopyFail): the transaction is then rolled back by the caller
    if (stream && !streamErr && !stream.writableFinished) {
      const closed = once(stream, 'close').catch(() => undefined);
      stream.destroy(err instanceof Error ? err : new Error(String(err)));
      await closed;
    }
    throw translateDbError(first, e);
  }
  if (streamErr) throw translateDbError(streamErr, e);
  if (!cols) {
    if (bad) throw importRowsError(errors);
    return { count: 0, stage: null };
  }
  const copied = new Set(cols);
  const S = q(stage);
  // references: the referenced row is there, and in the caller's scope
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type !== 'ref' || !copied.has(name)) continue;
    const target = x.model.entities.get(f.ref!);
    const scope = target && x.principal ? Object.entries(scopeConditions(target, x.principal)) : [];
    const within = scope.map(([c]) => ` AND r.${q(c)} = ?`).join('');
    const missing = await trx.raw(
      `SELECT s._row FROM ${S} s WHERE s.${q(name)} IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM ${q(refTable(x.model, f.ref!))} r WHERE r.id = s.${q(name)}${within}) ORDER BY s._row`,
      scope.map(([, v]) => v),
    );
    for (const { _row } of missing.rows as { _row: number }[]) {
      errors[`rows.${_row}.${name}`] ??= { key: 'validation.ref_not_found' };
      bad = true;
    }
  }
  // a row repeating an earlier one of the file in the given columns
  const dup = (opts.duplicates ?? []).filter((c) => copied.has(c));
  if (dup.length) {
    const by = dup.map((c) => `s.${q(c)}`).join(', ');
    const repeats = await trx.raw(
      `SELECT _row, first FROM (SELECT s._row, min(s._row) OVER (PARTITION BY ${by}) AS first FROM ${S} s) d WHERE _row <> first ORDER BY _row`,
    );
    for (const { _row, first } of repeats.rows as { _row: number; first: number }[]) {
      errors[`rows.${_row}.${dup[0]}`] ??= { key: 'validation.duplicate_row', args: { row: first } };
      bad = true;
    }
  }
  if (bad) throw importRowsError(errors);
  // the rows inserted with their derived fields, scope columns left empty the caller's, in the
  // file's order; each checked against the caller's scope for a create; one audit row each
  const select = new Map<string, { sql: string; bindings: Knex.RawBinding[] }>();
  for (const c of cols) select.set(c, { sql: `s.${q(c)}`, bindings: [] });
  const joins: string[] = [];
  for (const [name, f] of Object.entries(e.fields)) {
    if (!f.from || copied.has(name)) continue;
    const [refField, column] = f.from.split('.');
    const by = e.fields[refField];
    if (!copied.has(refField) || !by?.ref) continue;
    const alias = `d${joins.length}`;
    joins.push(`LEFT JOIN ${q(refTable(x.model, by.ref))} ${alias} ON ${alias}.id = s.${q(refField)}`);
    select.set(name, { sql: `${alias}.${q(column)}`, bindings: [] });
  }
  // a scope column the row or its reference leaves empty is the caller's
  for (const [c, v] of Object.entries(x.scope)) {
    const own = select.get(c);
    select.set(c, { sql: `coalesce(${own ? own.sql : 'NULL'}, ?::bigint)`, bindings: [v] });
  }
  const into = [...select.keys()].map(q).join(', ');
  const exprs = [...select.values()].map((v) => v.sql).join(', ');
  const bindings = [...select.values()].flatMap((v) => v.bindings);
  const after = Object.entries(e.fields)
    .filter(([, f]) => f.type !== 'children' && f.type !== 'password')
    .map(([name, f]) => `'${name}', ${auditValue(f, `i.${q(name)}`)}`);
  // jsonb_build_object takes at most 100 arguments: the fields in groups, joined
  const groups: string[] = [];
  for (let i = 0; i < after.length; i += 40) groups.push(`jsonb_build_object(${after.slice(i, i + 40).join(', ')})`);
  const check = repo.scoped('create', trx, trx.raw('ins AS t')).count({ n: '*' }).toSQL();
  const sql = `WITH ins AS (
      INSERT INTO ${q(e.table)} (${into}) SELECT ${exprs} FROM ${S} s ${joins.join(' ')} ORDER BY s._row RETURNING *
    ), aud AS (
      INSERT INTO audit_log (entity, record_id, op, action, user_id, before, after)
      SELECT ?, i.id, 'create', ?, ?::bigint, NULL, jsonb_strip_nulls(${groups.join(' || ')}) FROM ins i ORDER BY i.id
    )
    SELECT (SELECT count(*) FROM ins)::int AS n, (${check.sql})::int AS allowed`;
  let res: { n: number; allowed: number };
  try {
    res = (await trx.raw(sql, [...bindings, e.name, opts.action ?? null, x.actor, ...(check.bindings as Knex.RawBinding[])])).rows[0];
  } catch (err) {
    throw translateDbError(err, e);
  }
  if (res.allowed !== res.n) throw forbidden();
  return { count: res.n, stage };
}
