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
 * Rows written as one slice: COPYed into the slice's table, checked and inserted while this
 * process reads and prepares the next slice (the file's reading and the database's writing side
 * by side on two cores, decision 0045). Its text is held until it is sent: about 5 MB.
 * `ECOFOND_COPY_SLICE` sets it (the tests write small files in many slices).
 */
const copySlice = () => Number(process.env.ECOFOND_COPY_SLICE) || 20_000;

/**
 * Creates the rows of `source` in `trx` through COPY and staging tables (above), a slice at a time:
 * while the database checks and inserts one slice, this process prepares the next. Errors are keyed
 * `rows.<n>.<field>` by the chunks' row numbers: the chunks' own, the validator's, the references'
 * and the repeats' — all of the file's (after the first bad row nothing more is inserted, but every
 * row is still checked), then a 400 (importRowsError) and the transaction rolled back by the
 * caller. The staging tables are dropped at the transaction's end.
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
  const id = randomBytes(4).toString('hex');
  // the whole file's good rows (repeats, and what the caller reads back), and one slice's
  const stage = `copy_${e.table}_${id}`;
  const slice = `copy_${e.table}_${id}_slice`;
  const S = q(stage);
  const B = q(slice);
  const errors: Record<string, FieldError> = {};
  let bad = false;
  let total = 0;
  let written = 0;
  let cols: string[] | undefined;
  // the slice's text: lines of COPY_CHUNK rows joined (one flat string each), and the lines since
  let parts: string[] = [];
  let lines: string[] = [];
  let sliceRows = 0;
  const sliceSize = copySlice();
  // the slice the database is writing while this process reads on (its failure is the answer)
  let writing: Promise<void> | null = null;
  let sql: ReturnType<typeof sliceStatements> | undefined;
  await trx.raw(`CREATE TEMP TABLE ${S} ON COMMIT DROP AS SELECT NULL::int AS _row, t.* FROM ${q(e.table)} t WITH NO DATA`);
  await trx.raw(`CREATE TEMP TABLE ${B} ON COMMIT DROP AS SELECT * FROM ${S} WITH NO DATA`);

  /** The slice's text COPYed into its table (the connection waits on nothing else meanwhile). */
  const sendSlice = async (parts: string[]) => {
    const stream = conn.query(copyFrom(`COPY ${B} (_row, ${cols!.map(q).join(', ')}) FROM STDIN`));
    let streamErr: unknown;
    stream.on('error', (err: unknown) => {
      streamErr ??= err;
    });
    const finished = once(stream, 'finish');
    finished.catch(() => undefined);
    for (let i = 0; i < parts.length && !streamErr; i++) {
      if (!stream.write(parts[i])) await Promise.race([once(stream, 'drain'), finished]);
      parts[i] = '';
    }
    if (!streamErr) {
      stream.end();
      await finished.catch((err) => {
        streamErr ??= err;
      });
    }
    if (streamErr) {
      if (!stream.writableFinished) {
        const closed = once(stream, 'close').catch(() => undefined);
        stream.destroy(streamErr instanceof Error ? streamErr : new Error(String(streamErr)));
        await closed;
      }
      throw streamErr;
    }
  };

  /** The slice checked (references), then — the file good so far — inserted with its audit rows, and kept in the file's table. */
  const writeSlice = async (parts: string[]) => {
    await sendSlice(parts);
    sql ??= sliceStatements(repo, trx, x, e, new Set(cols), B);
    for (const check of sql.refs) {
      const missing = await trx.raw(check.sql, check.bindings);
      for (const { _row } of missing.rows as { _row: number }[]) {
        errors[`rows.${_row}.${check.field}`] ??= { key: 'validation.ref_not_found' };
        bad = true;
      }
    }
    if (!bad) {
      let res: { n: number; allowed: number };
      try {
        res = (await trx.raw(sql.insert, sql.bindings(opts.action ?? null))).rows[0];
      } catch (err) {
        throw translateDbError(err, e);
      }
      if (res.allowed !== res.n) throw forbidden();
      written += res.n;
    }
    await trx.raw(`INSERT INTO ${S} SELECT * FROM ${B}`);
    await trx.raw(`TRUNCATE ${B}`);
  };

  /** The slice held so far handed to the database, once it has written the one before. */
  const flush = async () => {
    if (lines.length) parts.push(lines.join(''));
    lines = [];
    if (!parts.length) return;
    const text = parts;
    parts = [];
    sliceRows = 0;
    if (writing) await writing;
    writing = writeSlice(text);
    // its failure is awaited (and answered) at the next flush or the end; not unhandled meanwhile
    writing.catch(() => undefined);
  };

  try {
    for await (const chunk of source) {
      opts.signal?.throwIfAborted();
      total += chunk.payloads.length;
      // rows the caller found bad (a sheet's cells) are not copied: their values may not be of their type
      const refusedRows = new Set<number>();
      for (const [k, v] of Object.entries(chunk.errors ?? {})) {
        errors[k] ??= v;
        bad = true;
        refusedRows.add(Number(k.split('.')[1]));
      }
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
        if (!cols) cols = Object.keys(values);
        else if (Object.keys(values).some((k) => !cols!.includes(k))) {
          throw new Error(`copyCreate: a row of ${e.name} has a column the first row has not`);
        }
        let line = String(n);
        for (const c of cols) line += `\t${copyText(values[c])}`;
        lines.push(`${line}\n`);
        if (lines.length >= COPY_CHUNK) {
          parts.push(lines.join(''));
          lines = [];
        }
        if (++sliceRows >= sliceSize) await flush();
      }
      opts.onProgress?.(total, total);
    }
    opts.signal?.throwIfAborted();
    await flush();
    if (writing) await writing;
  } catch (err) {
    // a slice under way finishes (or fails) before the transaction is rolled back by the caller
    if (writing) await (writing as Promise<void>).catch(() => undefined);
    throw translateDbError(err, e);
  }
  if (!cols) {
    if (bad) throw importRowsError(errors);
    return { count: 0, stage: null };
  }
  // a row repeating an earlier one of the file in the given columns
  const copied = new Set(cols);
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
  return { count: written, stage };
}

/**
 * The statements that write one slice from its table `B`: a query per reference (the referenced
 * row there and in the caller's scope; the slice's rows naming none), and the insert — the rows
 * with their derived fields, scope columns left empty the caller's, in the file's order; each
 * checked against the caller's scope for a create; one audit row each — in one statement.
 */
function sliceStatements(repo: CopyTarget, trx: Knex.Transaction, x: CopyInternals, e: EntityMeta, copied: Set<string>, B: string) {
  const refs: { field: string; sql: string; bindings: Knex.RawBinding[] }[] = [];
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type !== 'ref' || !copied.has(name)) continue;
    const target = x.model.entities.get(f.ref!);
    const scope = target && x.principal ? Object.entries(scopeConditions(target, x.principal)) : [];
    const within = scope.map(([c]) => ` AND r.${q(c)} = ?`).join('');
    refs.push({
      field: name,
      sql: `SELECT s._row FROM ${B} s WHERE s.${q(name)} IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM ${q(refTable(x.model, f.ref!))} r WHERE r.id = s.${q(name)}${within}) ORDER BY s._row`,
      bindings: scope.map(([, v]) => v as Knex.RawBinding),
    });
  }
  const select = new Map<string, { sql: string; bindings: Knex.RawBinding[] }>();
  for (const c of copied) select.set(c, { sql: `s.${q(c)}`, bindings: [] });
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
  const selectBindings = [...select.values()].flatMap((v) => v.bindings);
  const after = Object.entries(e.fields)
    .filter(([, f]) => f.type !== 'children' && f.type !== 'password')
    .map(([name, f]) => `'${name}', ${auditValue(f, `i.${q(name)}`)}`);
  // jsonb_build_object takes at most 100 arguments: the fields in groups, joined
  const groups: string[] = [];
  for (let i = 0; i < after.length; i += 40) groups.push(`jsonb_build_object(${after.slice(i, i + 40).join(', ')})`);
  const check = repo.scoped('create', trx, trx.raw('ins AS t')).count({ n: '*' }).toSQL();
  const insert = `WITH ins AS (
      INSERT INTO ${q(e.table)} (${into}) SELECT ${exprs} FROM ${B} s ${joins.join(' ')} ORDER BY s._row RETURNING *
    ), aud AS (
      INSERT INTO audit_log (entity, record_id, op, action, user_id, before, after)
      SELECT ?, i.id, 'create', ?, ?::bigint, NULL, jsonb_strip_nulls(${groups.join(' || ')}) FROM ins i ORDER BY i.id
    )
    SELECT (SELECT count(*) FROM ins)::int AS n, (${check.sql})::int AS allowed`;
  return {
    refs,
    insert,
    bindings: (action: string | null): Knex.RawBinding[] => [
      ...selectBindings,
      e.name,
      action,
      x.actor,
      ...(check.bindings as Knex.RawBinding[]),
    ],
  };
}
