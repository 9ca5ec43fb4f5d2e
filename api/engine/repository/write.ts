import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel } from '../../meta/types.ts';
import type { Principal } from '../../auth/ability.ts';
import { ApiError, forbidden, importRowsError, notFound, validationError, type FieldError } from '../../kernel/errors.ts';
import { selectColumns, toColumnValue } from '../sql.ts';
import { translateDbError } from '../db-errors.ts';
import { normalisePayload } from '../normalise.ts';
import { childFields, loadChildren, patchChildren, replaceChildren, writeJoin } from '../children.ts';
import { auditDiff, writeAudit, type AuditOp } from '../audit.ts';
import { assertPrivileges, privilegeFields } from '../privileges.ts';
import { checkForms, type FormSchemaProvider } from '../forms.ts';
import type { Events } from '../../kernel/events.ts';
import type { EngineEvents } from '../events.ts';
import type { ModelSetup } from '../../meta/live.ts';
import type { EngineContext } from './scope.ts';
import { RepositoryChecks, validatorOf } from './checks.ts';
import { hasMaskedFields, unmaskPayload } from '../personal.ts';
import { copyConnection, copyCreatable, copyCreate, type CopyCreated, type CopyOptions } from '../copy-create.ts';
import { assertSame, claimKey, findKey, KeyTaken, settleKey, type IdempotencyClaim } from '../idempotency.ts';

/**
 * What a hook receives: the transaction of the write it belongs to, the entity, the row as it now
 * stands (children included), the row before the write (null on create), the caller, and a way to
 * write other entities' rows through the engine in the same transaction.
 */
export interface HookContext {
  trx: Knex.Transaction;
  model: MetaModel;
  entity: EntityMeta;
  /** the row after the write, as the engine reads it (children included) */
  row: Record<string, unknown>;
  /** the row before the write; null when it was created */
  before: Record<string, unknown> | null;
  /** 'create', 'update', or the workflow action's name */
  action: string;
  /** a workflow move's states (empty for plain writes) */
  from: string;
  to: string;
  /** a workflow action's parameters, validated */
  params?: Record<string, unknown>;
  /** the fields this write set */
  changed: ReadonlySet<string>;
  principal: Principal;
  lang: Lang;
  /**
   * Another entity's repository in this transaction, writing on the caller's behalf: the write
   * that runs the hook was allowed, so the caller's rights are not asked again; validation, the
   * after-check of what is written and the audit row are the engine's as always.
   */
  repo(entity: string): Repository;
}

/**
 * What a hook may give back: new values of the row's own computed fields (`computedBy`, read-only),
 * and of its read-only child tables — an array of rows replaces the child rows, an array of rows
 * that all carry `id` updates those child rows' computed columns. The engine writes them in the
 * same transaction and they are part of the write's one audit row.
 */
export type HookResult = Record<string, unknown>;

export type Hook = (ctx: HookContext) => Promise<HookResult | void>;

/**
 * What the engine calls but does not own: the modules' hooks and form schemas, found by name from
 * the metadata, and the events it emits. Start-up builds them once from the modules
 * (api/registry.ts's buildRegistry) and binds every model it serves to them (`bind`, also each
 * model a reload builds); the engine reads them from the model it is given (pluginsOf).
 */
export interface EnginePlugins extends ModelSetup {
  hooks: Readonly<Record<string, Hook>>;
  forms: Readonly<Record<string, FormSchemaProvider>>;
  events: Events<EngineEvents>;
}

const pluginsByModel = new WeakMap<MetaModel, EnginePlugins>();

/** Binds a model to the plug-ins its engine calls (start-up does it: api/registry.ts). */
export function bindPlugins(model: MetaModel, plugins: EnginePlugins): MetaModel {
  pluginsByModel.set(model, plugins);
  return model;
}

/** The plug-ins a model was bound to; a model no start-up bound has none (a hook it names is an error). */
export function pluginsOf(model: MetaModel): EnginePlugins | undefined {
  return pluginsByModel.get(model);
}

export interface WriteOptions {
  /** fields this write may set although clients may not (a route's declared `writes`) */
  fields?: readonly string[];
  /** what the audit row names besides the operation (set-password, import, set-action…) */
  action?: string;
  /** update without the optimistic version check (a route's own change of a field or two) */
  anyVersion?: boolean;
  /** createMany: the rows' numbers in the file they come from, which errors are keyed by (`rows.<n>.<field>`) */
  rowNumbers?: readonly number[];
  /**
   * createMany: errors the caller found in the rows before (a sheet's cells), keyed by those row
   * numbers; answered with the engine's own, the first error of a field the one kept
   */
  errors?: Record<string, FieldError>;
  /** createMany: rows written so far and all of them (createStream: those received so far), after each batch */
  onProgress?: (done: number, total: number) => void;
  /** createMany: stops between batches (the transaction is rolled back) */
  signal?: AbortSignal;
  /** create: the request's idempotency key, claimed in the create's transaction (api/engine/idempotency.ts) */
  idempotency?: IdempotencyClaim;
}

/** A create under an idempotency key (Repository.createOnce): the row as the caller may read it, the status, and whether it was an earlier create's. */
export interface CreatedOnce {
  row: Record<string, unknown>;
  status: number;
  replayed: boolean;
}

/**
 * Created rows as they arrive (createStream): a file's rows read so far, their numbers in the file
 * (which errors are keyed by), and errors the caller found in them (a sheet's cells).
 */
export interface RowChunk {
  payloads: Record<string, unknown>[];
  rowNumbers: readonly number[];
  errors?: Record<string, FieldError>;
}

/** One locked row's change (Repository.changeMany): the row before it, the fields it sets, the payload (child rows), how it is recorded, and columns set besides (a workflow state). */
export interface RowChange {
  before: Record<string, unknown>;
  changes: Record<string, unknown>;
  data: Record<string, unknown>;
  kind: ChangeKind;
  extra?: Record<string, unknown>;
}

/** How a change is recorded and checked: the audit operation, the operation checked on the row after it, its hook. */
export interface ChangeKind {
  op: AuditOp;
  /** the ability operation the row must still allow after the change */
  check: string;
  action?: string;
  hook?: string;
  /** a workflow move's states and parameters, for the hook */
  from?: string;
  to?: string;
  params?: Record<string, unknown>;
}

const EMPTY_SET: Set<string> = new Set();

/** Rows a statement of a large createMany inserts. */
const INSERT_BATCH = 5000;

/** Rows of the first batch of a large createMany: fewer, so that the database starts while the rest are prepared. */
const FIRST_BATCH = 1000;

/** From this many rows a createMany of a simple entity is written in pipelined batches (createBatched). */
const BATCHED_FROM = 500;

/**
 * Rows that can travel as JSON to `json_populate_recordset`: the same columns each, every value a
 * plain one (not an SQL expression such as a point's), json columns' values objects not text.
 */
function plainRows(e: EntityMeta, values: Record<string, unknown>[]): boolean {
  const keys = Object.keys(values[0]);
  if (keys.some((k) => ['text3', 'json'].includes(e.fields[k]?.type))) return false;
  const joined = keys.join('\u0000');
  return values.every(
    (v) => Object.keys(v).join('\u0000') === joined && Object.values(v).every((x) => x === null || typeof x !== 'object'),
  );
}

/**
 * The generic repository: every entity's list, read, create, update and delete, with the caller's
 * permissions and row scope applied as SQL. It is the system's one write path: every change —
 * create, update, delete, import, a workflow move, a hook's or a route's write — is checked against
 * the caller's right and scope on the row before and after, validated, written with its child and
 * join rows, given to the entity's hook, and recorded in one audit row, all in one transaction.
 */
export class Repository extends RepositoryChecks {
  /** Another entity's repository for the same caller (and, unless told otherwise, the same transaction and trust). */
  other(name: string, over: Partial<EngineContext> = {}): Repository {
    const e = this.ctx.model.entities.get(name);
    if (!e) throw new Error(`no entity "${name}"`);
    return new Repository({ ...this.ctx, ...over }, e);
  }

  async create(payload: Record<string, unknown>, opts: WriteOptions = {}): Promise<Record<string, unknown>> {
    const [after] = await this.createMany([payload], opts);
    return this.answer(after);
  }

  /**
   * A create under an idempotency key (docs/field-app.md): when the caller's key is already a
   * committed create's, that create's status and its row as the caller may read it now (nothing
   * written; a 422 when the key came with another body); else the create, the key claimed in its
   * transaction — a request racing it with the key waits there and is answered the first's result.
   */
  async createOnce(payload: Record<string, unknown>, claim: IdempotencyClaim, opts: WriteOptions = {}): Promise<CreatedOnce> {
    this.assertCan('create');
    const first = await this.replayed(claim);
    if (first) return first;
    try {
      return { row: await this.create(payload, { ...opts, idempotency: claim }), status: 201, replayed: false };
    } catch (err) {
      if (!(err instanceof KeyTaken)) throw err;
      const again = await this.replayed(claim);
      if (again) return again;
      throw new ApiError('busy', 'errors.idempotency_key_busy');
    }
  }

  /** The earlier create of a key (null when there is none): its status and its row as the caller may read it now, or its id. */
  async replayed(claim: IdempotencyClaim): Promise<CreatedOnce | null> {
    const stored = await findKey(this.db, claim);
    if (!stored) return null;
    assertSame(stored, claim);
    const id = stored.record_id;
    let row: Record<string, unknown> | undefined;
    if (this.can('read')) {
      row = await this.scoped('read')
        .where('t.id', id)
        .first(this.ctx.knex.raw(selectColumns(this.e).join(', ')));
      if (row) await loadChildren(this.db, this.e, [row]);
    }
    return { row: row ? this.answer(row) : { id }, status: stored.status, replayed: true };
  }

  /** The idempotency key a single create claims: the write's own, or the request's (a route's first create of its entity). */
  private claimOf(opts: WriteOptions, rows: number): IdempotencyClaim | undefined {
    if (rows !== 1) return undefined;
    if (opts.idempotency) return opts.idempotency;
    const c = this.ctx.idempotency;
    return c && !c.claimed && c.entity === this.e.name ? c : undefined;
  }

  /**
   * Creates rows all or nothing (an import): each validated as a single create would be — errors
   * named `rows.<n>.<field>` when there are several — references checked in one query a field, one
   * audit row each. Answers the rows as stored.
   */
  async createMany(payloads: Record<string, unknown>[], opts: WriteOptions = {}): Promise<Record<string, unknown>[]> {
    this.assertCan('create');
    const simple = this.simpleCreate();
    if (simple && payloads.length > BATCHED_FROM) {
      const chunk: RowChunk = { payloads, rowNumbers: opts.rowNumbers ?? payloads.map((_, i) => i + 1) };
      return this.createBatched(
        (async function* () {
          yield chunk;
        })(),
        opts,
      );
    }
    const many = payloads.length > 1 || !!opts.rowNumbers;
    const prefix = (i: number) => (many ? `rows.${opts.rowNumbers?.[i] ?? i + 1}.` : '');
    const errors: Record<string, FieldError> = { ...opts.errors };
    const prepare = this.createPreparer(opts);
    /** rows the validator refused: not looked up in the database (their values may not be of their type) */
    const refused = new Set<number>();
    const prepared = payloads.map((payload, i) => {
      const { data, row, bad } = prepare(payload);
      if (bad) {
        refused.add(i);
        for (const [k, v] of Object.entries(bad)) errors[prefix(i) + k] ??= v;
      }
      return { data, row };
    });
    if (!many && Object.keys(errors).length) throw validationError(errors);
    // what is written from here on is each row's normalised copy: the caller's payloads may go
    // eslint-disable-next-line no-useless-assignment -- drops this call's hold on them for the collector
    payloads = [];
    // a large write holds one copy of its rows less: what a row needs besides its columns (its
    // child values, the fields it touched) is computed only for entities that have such fields
    const hasChildren = childFields(this.e).some(([, f]) => !f.readOnly);
    const touching = Object.values(this.e.fields).some((f) => f.within || f.form);
    const touched = (row: Record<string, unknown>) => (touching ? new Set(Object.keys(row)) : EMPTY_SET);
    const claim = this.claimOf(opts, prepared.length);
    return this.transaction(async (trx) => {
      // the key first: a second request with it waits here until this one commits or rolls back
      if (claim) await claimKey(trx, claim);
      // every row is checked before the file is refused: the database's checks of the rows the validator let through too
      const checked: { row: Record<string, unknown>; key: string; touched: Set<string> }[] = [];
      prepared.forEach(({ row, data }, i) => {
        if (!refused.has(i))
          checked.push({ row: hasChildren ? { ...row, ...this.childValues(data) } : row, key: prefix(i), touched: touched(row) });
      });
      for (const [k, v] of Object.entries(await this.referenceErrors(trx, checked, this.e.fields))) errors[k] ??= v;
      for (const [k, v] of Object.entries(await this.withinErrors(trx, checked))) errors[k] ??= v;
      for (const [k, v] of Object.entries(await this.fileErrors(trx, checked))) errors[k] ??= v;
      checked.length = 0;
      if (Object.keys(errors).length) throw many ? importRowsError(errors) : validationError(errors);
      await this.deriveFields(
        trx,
        prepared.map((p) => p.row),
      );
      await checkForms(
        trx,
        this.ctx.model,
        this.ctx.lang,
        this.e,
        pluginsOf(this.ctx.model)?.forms ?? {},
        prepared.map(({ row }) => ({ row, touched: touched(row) })),
      );
      await this.authorizeCreates(
        trx,
        prepared.map(({ row }) => row),
      );
      const ids: number[] = [];
      try {
        const values = prepared.map(({ row }) => this.createColumns(row));
        if (simple) {
          for (let i = 0; i < values.length; i += 500)
            ids.push(
              ...(
                await trx(this.e.table)
                  .insert(values.slice(i, i + 500))
                  .returning('id')
              ).map((r: { id: number }) => r.id),
            );
        } else {
          for (const [i, { row, data }] of prepared.entries()) {
            opts.signal?.throwIfAborted();
            const [{ id }] = await trx(this.e.table).insert(values[i]).returning('id');
            ids.push(id);
            await this.writeRelated(trx, id, row, data, true);
            await this.runHook(trx, this.e.afterWrite, id, null, new Set([...Object.keys(row), ...Object.keys(this.childValues(data))]), {
              op: 'create',
              check: 'create',
            });
          }
        }
      } catch (err) {
        throw translateDbError(err, this.e);
      }
      const afters = await this.snapshots(trx, ids);
      const rows = ids.map((id) => afters.get(id)!);
      for (const after of rows) this.checkAfter('create', after);
      await writeAudit(
        trx,
        this.e,
        this.actor,
        rows.map((after, i) => ({
          id: after.id as number,
          op: 'create',
          action: opts.action,
          ...auditDiff(null, after, this.secrets(prepared[i].row)),
        })),
      );
      if (claim) await settleKey(trx, claim, rows[0].id as number, 201);
      opts.onProgress?.(rows.length, rows.length);
      return rows;
    });
  }

  /**
   * Creates rows as they arrive, all or nothing, as createMany creates many (an import read as it
   * streams: the database writes the first rows while the rest are still being read). Only for an
   * entity whose rows are written from their own columns (no writable child rows, join table or
   * after-write hook). Errors are keyed by the chunks' row numbers; a source that fails fails the write.
   */
  async createStream(
    source: AsyncIterable<RowChunk>,
    opts: Omit<WriteOptions, 'rowNumbers' | 'errors'> = {},
  ): Promise<Record<string, unknown>[]> {
    this.assertCan('create');
    if (!this.simpleCreate()) throw new Error(`createStream: ${this.e.name} is not written from its own columns alone`);
    return this.createBatched(source, opts);
  }

  /**
   * createStream's set path on PostgreSQL (api/engine/copy-create.ts): the rows prepared and
   * validated here as a single create's, COPYed into a staging table of `trx`, checked set-wise
   * and written with their audit rows in one statement. Null — nothing read from `source` — where
   * the entity or the connection does not allow it (embedded PGlite): the caller uses createStream.
   */
  async createCopy(trx: Knex.Transaction, source: AsyncIterable<RowChunk>, opts: CopyOptions = {}): Promise<CopyCreated | null> {
    this.assertCan('create');
    const conn = copyCreatable(this.e) ? await copyConnection(trx) : null;
    if (!conn) return null;
    const scope = Object.fromEntries(Object.entries(this.scopeValues()).filter(([col]) => col !== 'id'));
    const internals = {
      prepare: this.createPreparer({ action: opts.action }),
      columns: (row: Record<string, unknown>) => this.createColumns(row),
      scope,
      principal: this.ctx.trusted ? null : this.ctx.principal,
      model: this.ctx.model,
      actor: this.actor,
    };
    return copyCreate(this, trx, conn, source, internals, opts);
  }

  /** An entity whose created rows are written from their own columns alone: no writable child rows (a payment's read-only splits are not written on create), no join table, no after-write hook. */
  private simpleCreate(): boolean {
    return !childFields(this.e).some(([, f]) => !f.readOnly) && !Object.values(this.e.fields).some((f) => f.through) && !this.e.afterWrite;
  }

  /**
   * A created row as the caller sent it, prepared (createMany, createBatched): normalised, the
   * caller's scope filled in (naming another is refused), the row set's defaults, validated (`bad`:
   * the validator's errors), picked to the fields a create may write, the workflow's first state
   * and the fields' defaults.
   */
  private createPreparer(opts: WriteOptions): (payload: Record<string, unknown>) => {
    data: Record<string, unknown>;
    row: Record<string, unknown>;
    bad: Record<string, FieldError> | null;
  } {
    const scope = Object.entries(this.scopeValues()).filter(([col]) => col !== 'id');
    const setDefaults = Object.entries(this.rowSetDefaults());
    const validate = validatorOf(this.e, 'create', opts.fields);
    const defaults = Object.entries(this.e.fields).filter(([, f]) => f.default !== undefined && f.type !== 'children');
    return (payload) => {
      const data = normalisePayload(this.e, payload);
      for (const [col, v] of scope) {
        // naming another scope than one's own is refused, even for a column the row copies from a reference
        if (data[col] != null && !this.ctx.trusted && Number(data[col]) !== v) throw forbidden();
        // the caller's scope fills scope columns left empty
        if (data[col] == null) data[col] = v;
      }
      for (const [col, v] of setDefaults) if (data[col] == null) data[col] = v;
      const bad = validate(data);
      const row = this.pick(data, 'create', opts.fields);
      if (this.e.workflow) row[this.e.workflow.field] = this.e.workflow.initial;
      for (const [name, f] of defaults) if (row[name] === undefined) row[name] = f.default;
      return { data, row, bad };
    };
  }

  /**
   * Created rows, checked and derived, made ready to insert: a scope column a row leaves empty — one
   * it copies from a reference too (a payment with no subject yet) — is the caller's; each row
   * within the caller's right; the roles and actions it carries held by the caller; passwords hashed.
   */
  private async authorizeCreates(
    trx: Knex.Transaction,
    rows: Record<string, unknown>[],
    onConnection: (fn: () => Promise<void>) => Promise<void> = (fn) => fn(),
  ): Promise<void> {
    const scope = Object.entries(this.scopeValues()).filter(([col]) => col !== 'id');
    for (const row of rows) for (const [col, v] of scope) if (row[col] == null) row[col] = v;
    for (const row of rows) if (!this.can('create', row)) throw forbidden();
    // the roles' lookups are statements: `onConnection` queues them (createBatched's pipeline)
    if (!this.ctx.trusted && privilegeFields(this.e).length)
      await onConnection(async () => {
        for (const row of rows) await assertPrivileges(trx, this.e, this.ctx.principal, null, row);
      });
    for (const row of rows) await this.hashPasswords(row);
  }

  /** A created row's columns as inserted: the entity's view columns and who made it. */
  private createColumns(row: Record<string, unknown>): Record<string, unknown> {
    return { ...this.toColumns(row), ...(this.e.view ?? {}), created_by: this.actor, updated_by: this.actor };
  }

  /**
   * createMany of many rows of a simple entity (an import), a batch of INSERT_BATCH rows at a time
   * and pipelined: each batch is prepared, validated and its references checked (the Node
   * process's work) while the batch before it is being written (the database's), on the
   * transaction's one connection. A batch is written — one statement inserting its rows as one
   * JSON parameter that json_populate_recordset reads, answered as a snapshot reads them
   * (RETURNING), each row checked against the caller's scope after, and one audit row a row —
   * only while no row so far has an error; after the first bad row the rest are still checked,
   * so that the answer lists all of a file's errors, and the transaction is rolled back.
   */
  private async createBatched(source: AsyncIterable<RowChunk>, opts: WriteOptions): Promise<Record<string, unknown>[]> {
    const errors: Record<string, FieldError> = { ...opts.errors };
    let bad = Object.keys(errors).length > 0;
    const prepare = this.createPreparer(opts);
    const touching = Object.values(this.e.fields).some((f) => f.within || f.form);
    const touched = (row: Record<string, unknown>) => (touching ? new Set(Object.keys(row)) : EMPTY_SET);
    const select = selectColumns(this.e).join(', ');
    const table = `"${this.e.table}"`;
    /** rows received so far */
    let total = 0;
    return this.transaction(async (trx) => {
      /** the rows of each batch written, by batch */
      const written: Record<string, unknown>[][] = [];
      let done = 0;
      // the connection takes one statement at a time: the database's work (the checks, the inserts,
      // the audit rows) is queued here in order, while this process prepares the next batch; after
      // the first failure (which aborts the transaction) nothing more is sent, and it is the answer
      let queue: Promise<unknown> = Promise.resolve();
      let failed: { err: unknown } | undefined;
      const serial = <T>(fn: () => Promise<T>): Promise<T> => {
        const p = queue.then(() => {
          if (failed) throw failed.err;
          // an abort stops the import before its next statement
          opts.signal?.throwIfAborted();
          return fn();
        });
        queue = p.catch((err) => {
          failed ??= { err };
        });
        return p;
      };
      const steps: Promise<unknown>[] = [];
      /** a batch's rows inserted and answered as a snapshot reads them */
      const insert = async (values: Record<string, unknown>[], json: string | null): Promise<Record<string, unknown>[]> => {
        try {
          if (json !== null) {
            const cols = Object.keys(values[0])
              .map((c) => `"${c}"`)
              .join(', ');
            const rows: Record<string, unknown>[] = (
              await trx.raw(
                `INSERT INTO ${table} AS t (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${table}, ?::json) RETURNING ${select}`,
                [json],
              )
            ).rows;
            // ids are drawn in the order the rows are inserted
            return rows.sort((x, y) => Number(x.id) - Number(y.id));
          }
          const ids: number[] = [];
          for (let i = 0; i < values.length; i += 500)
            ids.push(
              ...(
                await trx(this.e.table)
                  .insert(values.slice(i, i + 500))
                  .returning('id')
              ).map((r: { id: number }) => r.id),
            );
          const afters = await this.snapshots(trx, ids);
          return ids.map((id) => afters.get(id)!);
        } catch (err) {
          throw translateDbError(err, this.e);
        }
      };
      /** an inserted batch's rows checked against the caller's scope, and their audit rows */
      const finish = async (k: number, rows: Record<string, unknown>[], json: string | null, secrets: string[][]) => {
        if (json !== null) await serial(() => loadChildren(trx, this.e, rows));
        for (const after of rows) this.checkAfter('create', after);
        const entries = rows.map((after, i) => ({
          id: after.id as number,
          op: 'create' as const,
          action: opts.action,
          ...auditDiff(null, after, secrets[i]),
        }));
        await serial(() => writeAudit(trx, this.e, this.actor, entries));
        written[k] = rows;
        opts.onProgress?.((done += rows.length), total);
      };
      try {
        for await (const batch of inBatches(source, FIRST_BATCH, INSERT_BATCH, (chunk) => {
          total += chunk.payloads.length;
          for (const [k, v] of Object.entries(chunk.errors ?? {})) {
            errors[k] ??= v;
            bad = true;
          }
        })) {
          opts.signal?.throwIfAborted();
          const checked: { row: Record<string, unknown>; key: string; touched: Set<string> }[] = [];
          const rows = batch.payloads.map((payload, j) => {
            const { row, bad: refused } = prepare(payload);
            const key = `rows.${batch.rowNumbers[j]}.`;
            // rows the validator refused are not looked up in the database (their values may not be of their type)
            if (refused) {
              bad = true;
              for (const [k, v] of Object.entries(refused)) errors[key + k] ??= v;
            } else checked.push({ row, key, touched: touched(row) });
            return row;
          });
          const found = await serial(async () => ({
            ...(await this.fileErrors(trx, checked)),
            ...(await this.referenceErrors(trx, checked, this.e.fields)),
            ...(await this.withinErrors(trx, checked)),
          }));
          for (const [k, v] of Object.entries(found)) {
            errors[k] ??= v;
            bad = true;
          }
          // after the first bad row nothing more is written: the rows are only checked
          if (bad) continue;
          await serial(async () => {
            await this.deriveFields(trx, rows);
            await checkForms(
              trx,
              this.ctx.model,
              this.ctx.lang,
              this.e,
              pluginsOf(this.ctx.model)?.forms ?? {},
              rows.map((row) => ({ row, touched: touched(row) })),
            );
          });
          const secrets = rows.map((row) => this.secrets(row));
          await this.authorizeCreates(trx, rows, serial);
          const values = rows.map((row) => this.createColumns(row));
          // the JSON is built here, while the batch before is being written
          const json = plainRows(this.e, values) ? JSON.stringify(values) : null;
          // the batch's insert is queued now; its scope check and audit rows once it is answered,
          // behind the next batch's insert (the database is not left waiting while they are built)
          const k = written.length;
          written.push([]);
          const finished = serial(() => insert(values, json)).then((rows) => finish(k, rows, json, secrets));
          finished.catch((err) => {
            failed ??= { err };
          });
          steps.push(finished);
        }
        await Promise.all(steps);
        opts.signal?.throwIfAborted();
      } catch (err) {
        // a failed write aborts the transaction: the first failure, not what failed after it, is the answer
        await Promise.allSettled(steps);
        throw failed ? failed.err : err;
      }
      if (bad) throw importRowsError(errors);
      return written.flat();
    });
  }

  /**
   * Updates a row: the payload as sent, or — a read-modify-write (a role's actions with one added,
   * a read mark moved forward, a sum recounted) — a function of the row as it stands once locked,
   * so that parallel writes of one row each build on the one before them and none is lost; it
   * answers null when there is nothing to change (the row is answered as it is, no audit row).
   */
  async update(
    id: number,
    payload:
      | Record<string, unknown>
      | ((
          before: Record<string, unknown>,
          trx: Knex.Transaction,
        ) => Promise<Record<string, unknown> | null> | Record<string, unknown> | null),
    expectedVersion: unknown,
    opts: WriteOptions = {},
  ): Promise<Record<string, unknown>> {
    this.assertCan('update');
    let version: number | undefined;
    if (!opts.anyVersion) {
      if (expectedVersion === undefined || expectedVersion === null || expectedVersion === '')
        throw validationError({ version: { key: 'validation.version_required' } });
      version = Number(expectedVersion);
      if (!Number.isSafeInteger(version)) throw validationError({ version: { key: 'validation.wrong_format' } });
    }
    const validated = (raw: Record<string, unknown>) => {
      const data = normalisePayload(this.e, raw);
      const errors = validatorOf(this.e, 'update', opts.fields)(data);
      if (errors) throw validationError(errors);
      return data;
    };
    // a reader without the right to personal data sends back the masks they were shown: each is put back to the stored value once the row is read
    const unmask = typeof payload !== 'function' && !this.readsInClear && hasMaskedFields(this.e);
    const sent = typeof payload === 'function' || unmask ? undefined : validated(payload);
    return this.transaction(async (trx) => {
      // a log table (tracking: false) has no version: only a route's own change (anyVersion) updates one
      const locked = await this.scoped('update', trx)
        .where('t.id', id)
        .forUpdate()
        .first(this.e.tracking === false ? ['t.id'] : ['t.id', 't.version']);
      if (!locked) throw notFound();
      if (version !== undefined && locked.version !== version) throw await this.conflict(trx, id, locked.version, payload);
      // read after the lock, in a statement of its own: it sees every write committed before it
      const before = (await this.snapshots(trx, [id])).get(id)!;
      if (!opts.fields?.length) this.assertEditable(before);
      let data = sent;
      if (unmask) data = validated(unmaskPayload(this.e, payload as Record<string, unknown>, before));
      if (!data) {
        const computed = await (
          payload as (before: Record<string, unknown>, trx: Knex.Transaction) => Promise<Record<string, unknown> | null>
        )(before, trx);
        if (!computed) return this.answer(before);
        data = validated(computed);
      }
      const changes = this.pick(data, 'update', opts.fields);
      if (!this.can('update', { ...before, ...changes })) throw forbidden();
      const after = await this.change(trx, before, changes, data, {
        op: 'update',
        check: 'update',
        action: opts.action,
        hook: this.e.afterWrite,
      });
      return this.answer(after);
    });
  }

  /**
   * The 409 of an update sent for a version the row is no longer at (docs/field-app.md): besides
   * the message, the row as it stands now as the caller may read it (`current`, personal fields
   * masked for a reader without the right; only its id and version when they may not read it) and
   * the fields of what was sent whose value differs from it (`differs`), so that a client can show
   * both versions and let its user choose.
   */
  private async conflict(trx: Knex.Transaction, id: number, version: number, payload: unknown): Promise<ApiError> {
    const now = (await this.snapshots(trx, [id])).get(id)!;
    const current = this.answer(now);
    const sent = typeof payload === 'object' && payload ? normalisePayload(this.e, payload as Record<string, unknown>) : {};
    const plain = (v: unknown): unknown =>
      v instanceof Date ? v.toISOString() : typeof v === 'number' || typeof v === 'bigint' ? String(v) : v;
    const same = (a: unknown, b: unknown): boolean => {
      if (Array.isArray(a) && Array.isArray(b))
        // child rows compared by what the client sent of them (the stored ones carry ids and keys it may not)
        return (
          a.length === b.length &&
          a.every((x, i) =>
            x && typeof x === 'object' && b[i] && typeof b[i] === 'object'
              ? Object.entries(x as Record<string, unknown>).every(([k, v]) => same(v, (b[i] as Record<string, unknown>)[k]))
              : same(x, b[i]),
          )
        );
      return JSON.stringify(plain(a ?? null)) === JSON.stringify(plain(b ?? null));
    };
    const differs = Object.keys(sent).filter(
      (k) => k in this.e.fields && k !== 'version' && !this.e.fields[k].readOnly && k in current && !same(sent[k], current[k]),
    );
    return new ApiError('stale', 'errors.stale', { version }, undefined, undefined, {
      version,
      current: 'version' in current ? current : { id, version },
      differs,
    });
  }

  /**
   * Writes one locked row's changes (its columns, child and join rows, and `extra` columns such as
   * a workflow state) as the engine's one path does: references and rights checked, derived fields
   * and passwords filled, the version moved on, the hook's results written, the row checked against
   * the caller's scope after the change, and one audit row.
   */
  async change(
    trx: Knex.Transaction,
    before: Record<string, unknown>,
    changes: Record<string, unknown>,
    data: Record<string, unknown>,
    kind: ChangeKind,
    extra: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const [after] = await this.changeMany(trx, [{ before, changes, data, kind, extra }]);
    return after;
  }

  /**
   * Writes several locked rows' changes as `change` writes one, set-wise where the rows allow it
   * (a workflow action on many rows): their references, rights, derived fields and forms checked
   * and filled in one query a field for all of them, each row updated with its version checked and
   * its hook run, then all of them read and checked against the caller's scope after the change,
   * and one audit row each in one statement. The first failure is the answer.
   */
  async changeMany(trx: Knex.Transaction, items: RowChange[]): Promise<Record<string, unknown>[]> {
    const children = items.map((x) => this.childValues(x.data));
    await this.checkReferences(
      trx,
      items.map((x, i) => ({ ...x.changes, ...children[i] })),
      this.e.fields,
      false,
    );
    const unreadable = await this.fileErrors(
      trx,
      items.map((x, i) => ({ row: { ...x.changes, ...children[i] }, key: '', before: x.before })),
    );
    if (Object.keys(unreadable).length) throw validationError(unreadable);
    const touched = items.map((x) => ({ row: { ...x.before, ...x.changes }, touched: new Set(Object.keys(x.changes)) }));
    await this.checkWithin(trx, touched, false);
    if (!this.ctx.trusted)
      for (const x of items) await assertPrivileges(trx, this.e, this.ctx.principal, x.before, { ...x.before, ...x.changes });
    await this.deriveFields(
      trx,
      items.map((x) => x.changes),
    );
    await checkForms(
      trx,
      this.ctx.model,
      this.ctx.lang,
      this.e,
      pluginsOf(this.ctx.model)?.forms ?? {},
      items.map((x) => ({ row: { ...x.before, ...x.changes }, touched: new Set(Object.keys(x.changes)) })),
    );
    const scope = Object.entries(this.scopeValues()).filter(([col]) => col !== 'id');
    for (const { before, changes, data, kind, extra = {} } of items) {
      const id = before.id as number;
      // a scope column a change empties (a payment's subject taken away, and the region copied from it) stays the caller's
      for (const [col, v] of scope) if (col in changes && changes[col] == null) changes[col] = v;
      await this.hashPasswords(changes);
      const values: Record<string, unknown> = { ...this.toColumns(changes), ...extra };
      if (this.e.tracking !== false)
        Object.assign(values, { version: (before.version as number) + 1, updated_at: this.ctx.knex.fn.now(), updated_by: this.actor });
      try {
        const q = trx(this.e.table).where({ id });
        if (this.e.tracking !== false) q.where({ version: before.version });
        if (Object.keys(values).length && (await q.update(values)) !== 1)
          throw new ApiError('stale', 'errors.stale', { version: before.version });
        await this.writeRelated(trx, id, changes, data, false);
        const changed = new Set([...Object.keys(changes), ...Object.keys(this.childValues(data)), ...Object.keys(extra)]);
        await this.runHook(trx, kind.hook, id, before, changed, kind);
      } catch (err) {
        throw translateDbError(err, this.e);
      }
    }
    const ids = items.map((x) => x.before.id as number);
    const afters = await this.snapshots(trx, ids);
    items.forEach((x, i) => this.checkAfter(x.kind.check, afters.get(ids[i])!));
    await writeAudit(
      trx,
      this.e,
      this.actor,
      items.map((x, i) => ({
        id: ids[i],
        op: x.kind.op,
        action: x.kind.action,
        ...auditDiff(x.before, afters.get(ids[i])!, this.secrets(x.changes)),
      })),
    );
    return ids.map((id) => afters.get(id)!);
  }

  /**
   * Deletes rows in the caller's scope, all or none. `dryRun` does all of it — rights, scope,
   * state, the hooks, the database's own references — in a savepoint it then rolls back: the
   * answer (nothing, or the 404, 409 … the delete would get) without the change, which the
   * back-office asks before it offers a delete to confirm (docs/decisions/0065).
   */
  async remove(ids: number[], opts: WriteOptions & { dryRun?: boolean } = {}): Promise<void> {
    this.assertCan('delete');
    const run = async (trx: Knex.Transaction) => {
      const found = await this.scoped('delete', trx).whereIn('t.id', ids).forUpdate().pluck('t.id');
      if (found.length !== new Set(ids).size) throw notFound();
      const before = await this.snapshots(trx, found);
      for (const row of before.values()) this.assertEditable(row);
      await this.removeLocked(trx, [...before.values()], { op: 'delete', check: 'delete', action: opts.action });
    };
    if (!opts.dryRun) return this.transaction(run);
    await this.transaction(async (outer) => {
      await outer
        .transaction(async (trx) => {
          await run(trx);
          throw DRY_RUN;
        })
        .catch((err: unknown) => {
          if (err !== DRY_RUN) throw err;
        });
    });
  }

  /**
   * Deletes rows already locked and read in the caller's scope: rights a row carries checked, the
   * change's hook (a workflow action that deletes: `kind.hook`) and the entity's `beforeDelete` run
   * on each row — either may refuse, or delete what depends on the row through `ctx.repo` — then
   * the rows go, with one delete audit row each naming the action.
   */
  async removeLocked(trx: Knex.Transaction, rows: Record<string, unknown>[], kind: ChangeKind): Promise<void> {
    // a row the system needs (a seeded role) goes by no one's hand, a hook's included
    const kept = this.e.undeletable;
    if (kept && rows.some((r) => r[kept] === true)) throw new ApiError('inUse', 'errors.undeletable');
    if (!this.ctx.trusted) for (const row of rows) await assertPrivileges(trx, this.e, this.ctx.principal, row, null);
    for (const row of rows) {
      for (const hook of new Set([kind.hook, this.e.beforeDelete])) await this.runHook(trx, hook, row.id as number, row, new Set(), kind);
    }
    const ids = rows.map((r) => r.id as number);
    try {
      if (this.e.softDelete)
        await trx(this.e.table).whereIn('id', ids).update({ deleted_at: this.ctx.knex.fn.now(), updated_by: this.actor });
      else await trx(this.e.table).whereIn('id', ids).delete();
    } catch (err) {
      throw translateDbError(err, this.e, 'delete');
    }
    await writeAudit(
      trx,
      this.e,
      this.actor,
      rows.map((row) => ({
        id: row.id as number,
        op: 'delete',
        action: kind.action,
        ...auditDiff(row, null),
      })),
    );
  }

  /** A row's child rows and join rows as the payload gives them. */
  private async writeRelated(
    trx: Knex.Transaction,
    id: number,
    row: Record<string, unknown>,
    data: Record<string, unknown>,
    creating: boolean,
  ): Promise<void> {
    for (const [name, f] of Object.entries(this.e.fields)) {
      if (f.type === 'children' && !f.readOnly && name in data)
        await replaceChildren(trx, f, id, (data[name] as Record<string, unknown>[] | null) ?? [], creating);
      else if (f.through && name in row) await writeJoin(trx, f, id, row[name]);
    }
  }

  /** Calls a named hook with the row as it now stands, and writes what it computed. */
  private async runHook(
    trx: Knex.Transaction,
    name: string | undefined,
    id: number,
    before: Record<string, unknown> | null,
    changed: Set<string>,
    kind: ChangeKind,
  ): Promise<void> {
    if (!name) return;
    const hook = pluginsOf(this.ctx.model)?.hooks[name];
    if (!hook)
      throw new Error(
        `hook "${name}" is not defined${pluginsOf(this.ctx.model) ? '' : ': the model is bound to no modules (api/registry.ts)'}`,
      );
    const row = (await this.snapshots(trx, [id])).get(id)!;
    const result = await hook({
      trx,
      model: this.ctx.model,
      entity: this.e,
      row,
      before,
      action: kind.action ?? kind.op,
      from: kind.from ?? '',
      to: kind.to ?? '',
      params: kind.params,
      changed,
      principal: this.ctx.principal,
      lang: this.ctx.lang,
      repo: (entity) => this.other(entity, { trx, trusted: true }),
    });
    if (result) await this.applyComputed(trx, id, result);
  }

  /** A hook's results: computed columns of the row, and its read-only child rows (replaced, or patched by id). */
  private async applyComputed(trx: Knex.Transaction, id: number, result: HookResult): Promise<void> {
    const columns: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(result)) {
      const f = this.e.fields[name];
      if (!f) throw new Error(`a hook of ${this.e.name} computed "${name}", which is not a field`);
      if (f.type === 'children') {
        const rows = (v as Record<string, unknown>[] | null) ?? [];
        if (rows.length && rows.every((r) => r.id !== undefined)) await patchChildren(trx, f, id, rows);
        else await replaceChildren(trx, f, id, rows, false, true);
      } else if (f.through) await writeJoin(trx, f, id, v);
      else columns[name] = toColumnValue(this.ctx.knex, f, v);
    }
    if (Object.keys(columns).length) await trx(this.e.table).where({ id }).update(columns);
  }
}

/** What a dry run's savepoint throws to roll itself back. */
const DRY_RUN = Symbol('dry run');

export function repository(ctx: EngineContext, e: EntityMeta): Repository {
  return new Repository(ctx, e);
}

/**
 * An entity's repository by its name, for code that runs with no route's or hook's context to take
 * one from — a worker's callback, the chat's socket hub, a sign-in acting as its own user
 * (docs/decisions/0083). A route takes `rc.repo` / `rc.trustedRepo`, a hook `ctx.repo`.
 */
export function repositoryOf(ctx: EngineContext, entity: string): Repository {
  const e = ctx.model.entities.get(entity);
  if (!e) throw new Error(`no entity "${entity}"`);
  return new Repository(ctx, e);
}

/**
 * Chunks regrouped into batches of `size` rows (the first of `first`, the last one smaller), each chunk handed to `seen`
 * as it arrives: a large write takes its rows as a file is read.
 */
async function* inBatches(
  source: AsyncIterable<RowChunk>,
  first: number,
  size: number,
  seen: (chunk: RowChunk) => void,
): AsyncGenerator<{ payloads: Record<string, unknown>[]; rowNumbers: number[] }> {
  let payloads: Record<string, unknown>[] = [];
  let limit = first;
  let rowNumbers: number[] = [];
  for await (const chunk of source) {
    seen(chunk);
    for (let i = 0; i < chunk.payloads.length; i++) {
      payloads.push(chunk.payloads[i]);
      rowNumbers.push(chunk.rowNumbers[i]);
      if (payloads.length === limit) {
        yield { payloads, rowNumbers };
        limit = size;
        payloads = [];
        rowNumbers = [];
      }
    }
  }
  if (payloads.length) yield { payloads, rowNumbers };
}
