import type { Knex } from 'knex';
import type { Operation } from '../../auth/ability.ts';
import { notFound } from '../../kernel/errors.ts';
import { selectColumns } from '../sql.ts';
import type { ListParams } from '../list-params.ts';
import { loadChildren } from '../children.ts';
import { tableRows } from '../../db/table-rows.ts';
import { keepSql, keptSql, listShape, type ListShape } from '../list-sql.ts';
import { RepositoryScope } from './scope.ts';
import { hasMaskedFields, maskRow, readsInClear, recordClearRead, shownPersonal, type ClearReadKind } from '../personal.ts';

/** Lists count exactly up to this many rows; beyond it the planner's estimate is given (docs/performance.md). */
export const EXACT_COUNT_LIMIT = Number(process.env.ECOFOND_EXACT_COUNT_LIMIT || 10000);

/** From this offset a list page reads its ids first and then their rows (bench/offences-map: page 1 000 of a million offences, 270 → 15 ms). */
export const DEFERRED_OFFSET = 1000;

/** The repository's reads: a list page and its count, a row, rows as the engine stores them. */
export class RepositoryRead extends RepositoryScope {
  async list(params: ListParams): Promise<{ rows: Record<string, unknown>[]; total: number; exact: boolean }> {
    this.assertCan('read');
    const { knex } = this.ctx;
    const shape = this.shapeOf('read', params);
    const columns = knex.raw(selectColumns(this.e).join(', '));
    // a deep page: its ids first, from the index the order and filters use (the rows skipped are
    // never read whole), then those rows — else the planner sorts every matching row to skip them
    const deferred = params.offset >= DEFERRED_OFFSET;
    const page = `rows\u0000${params.sort.map((s) => `${s.field}${s.desc ? '-' : '+'}`).join(',')}\u0000${this.ctx.lang}\u0000${params.offset > 0 ? 'skip' : ''}`;
    const rowsQ = () =>
      this.shaped(deferred ? undefined : shape, page, params.offset > 0 ? [params.limit, params.offset] : [params.limit], () =>
        deferred
          ? this.applyOrder(
              this.scoped('read').whereIn(
                't.id',
                this.applyOrder(this.filtered('read', params), params).select('t.id').offset(params.offset).limit(params.limit),
              ),
              params,
            ).select(columns)
          : this.applyOrder(this.filtered('read', params), params).select(columns).offset(params.offset).limit(params.limit),
      );
    // one connection in a transaction takes one statement at a time
    const [rows, capped] = this.ctx.trx
      ? [await rowsQ(), await this.cappedCount(params, 'read', shape)]
      : await Promise.all([rowsQ(), this.cappedCount(params, 'read', shape)]);
    await this.present(rows, 'list');
    const end = params.offset + rows.length;
    if (capped.exact) return { rows, total: Math.max(capped.total, end), exact: true };
    // past the cap, a short page is the last one: its end is the exact total, and no estimate is asked
    if (rows.length > 0 && rows.length < params.limit) return { rows, total: end, exact: true };
    const estimate = capped.estimated ? capped : await this.estimate(params, 'read', shape);
    return { rows, total: Math.max(estimate.total, end), exact: false };
  }

  /**
   * The first rows of a list without its count (the global search's few hits of an entity,
   * api/modules/search): the list's scope, filters (a search leaves masked fields out), order and
   * masks, its clear reads recorded as a list's.
   */
  async firstRows(params: ListParams): Promise<Record<string, unknown>[]> {
    this.assertCan('read');
    const columns = this.ctx.knex.raw(selectColumns(this.e).join(', '));
    const rows: Record<string, unknown>[] = await this.applyOrder(this.filtered('read', params), params)
      .select(columns)
      .limit(params.limit);
    await this.present(rows, 'list');
    return rows;
  }

  /** An exact count up to EXACT_COUNT_LIMIT rows, the planner's estimate beyond it. */
  async count(params: ListParams, op: Operation = 'read'): Promise<{ total: number; exact: boolean }> {
    const shape = params.ids ? undefined : this.shapeOf(op, params);
    const capped = await this.cappedCount(params, op, shape);
    return capped.exact || capped.estimated ? { total: capped.total, exact: capped.exact } : this.estimate(params, op, shape);
  }

  /**
   * The count up to EXACT_COUNT_LIMIT rows (exact), or that it is beyond (not exact); a by-id read's
   * is its ids' count, with no query. On a table holding more than ten times the cap (by its
   * statistics, api/db/table-rows.ts; a smaller one's count never reads much) the planner's
   * estimate is asked first, and when it is past the cap that estimate is the answer
   * (`estimated`): counting 10 001 rows of a filter that two indexes answer together cost up to
   * 275 ms at 20 M plantings (bench/load), to end in an estimate all the same. A filter the planner
   * overrates shows its estimate where the count would have been exact; a short page still ends the
   * list at its exact total.
   */
  private async cappedCount(
    params: ListParams,
    op: Operation = 'read',
    shape?: ListShape,
  ): Promise<{ total: number; exact: boolean; estimated?: boolean }> {
    const { knex } = this.ctx;
    if (params.ids) return { total: params.ids.length, exact: true };
    const limit = this.ctx.countLimit ?? EXACT_COUNT_LIMIT;
    let planned: number | undefined;
    if ((await tableRows(this.db, this.e.table, this.ctx.knex)) > 10 * limit) {
      planned = await this.planRows(params, op, shape);
      if (planned > limit) return { total: planned, exact: false, estimated: true };
    }
    const [{ n }] = await this.shaped<{ n: number }>(shape, 'count', [limit + 1], () => {
      const capped = this.filtered(op, params)
        .select(knex.raw('1'))
        .limit(limit + 1);
      return this.db.select(knex.raw('count(*)::int as n')).from(capped.as('c'));
    });
    if (n <= limit) return { total: n, exact: true };
    // past the cap after all: the estimate asked already is the answer, not asked again
    return planned === undefined ? { total: n, exact: false } : { total: Math.max(planned, limit + 1), exact: false, estimated: true };
  }

  /** The planner's estimate of the rows (at least one past the cap). */
  private async estimate(params: ListParams, op: Operation = 'read', shape?: ListShape): Promise<{ total: number; exact: boolean }> {
    const limit = this.ctx.countLimit ?? EXACT_COUNT_LIMIT;
    return { total: Math.max(await this.planRows(params, op, shape), limit + 1), exact: false };
  }

  /** The rows the planner expects the list's filters to match: one EXPLAIN round trip. */
  private async planRows(params: ListParams, op: Operation, shape?: ListShape): Promise<number> {
    const rows = await this.shaped<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(shape, 'plan', [], () => {
      const sql = this.filtered(op, params).select(this.ctx.knex.raw('1')).toSQL();
      return this.db.raw(`EXPLAIN (FORMAT JSON) ${sql.sql}`, sql.bindings as Knex.RawBinding[]);
    });
    return Math.round(rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
  }

  /** A list's shape for an operation (api/engine/list-sql.ts): a 403 when the caller may not, a 400 naming a bad filter value. */
  protected shapeOf(op: Operation, params: ListParams): ListShape {
    return listShape(this.e, this.ctx.trusted ? null : this.ability, op, this.personalSafe(params));
  }

  /**
   * The rows a query of a list answers (`kind`: which of its queries, with what of its text the
   * shape does not tell). With a shape (api/engine/list-sql.ts), the text kept for it binds this
   * list's values (the shape's, then `tail`: a page's size and offset, a count's cap); the first
   * time, or without a shape, knex builds the query (`build`) and runs it, and its text is kept.
   */
  private async shaped<R = Record<string, unknown>>(
    shape: ListShape | undefined,
    kind: string,
    tail: unknown[],
    build: () => Knex.QueryBuilder | Knex.Raw,
  ): Promise<R[]> {
    const answered = (r: unknown): R[] => (Array.isArray(r) ? r : (r as { rows: R[] }).rows);
    if (!shape) return answered(await build());
    const key = `${kind}\u0000${shape.key}`;
    const values = [...shape.bindings, ...tail];
    const sql = keptSql(this.e, key, values.length);
    if (sql !== undefined) return answered(await this.db.raw(sql, values as Knex.RawBinding[]));
    const query = build();
    keepSql(this.e, key, query.toSQL(), values);
    return answered(await query);
  }

  /**
   * A row the caller may see for an operation (404 when not), children included. Read for `read`,
   * it is what the caller is shown: personal fields masked unless they read them in clear, and a
   * clear read recorded (api/engine/personal.ts); for another operation it is the row as stored.
   */
  async getOne(id: number, op: Operation | string = 'read', db: Knex | Knex.Transaction = this.db): Promise<Record<string, unknown>> {
    const row = await this.findOne(id, op, db);
    if (op === 'read') await this.present([row], 'record', db);
    return row;
  }

  /** A row the caller may see for an operation, as stored (404 when not): the check before a history, a document list, a route's own work. */
  async findOne(id: number, op: Operation | string, db: Knex | Knex.Transaction = this.db): Promise<Record<string, unknown>> {
    this.assertCan(op);
    const row = await this.scoped(op, db)
      .where('t.id', id)
      .first(this.ctx.knex.raw(selectColumns(this.e).join(', ')));
    if (!row) throw notFound();
    await loadChildren(db, this.e, [row]);
    return row;
  }

  /** Whether the caller reads this entity's personal fields in clear (docs/personal-data.md). */
  get readsInClear(): boolean {
    return readsInClear(this.e, this.ctx.principal, this.ctx.trusted);
  }

  /** A row as the caller may be shown it, without recording a read: personal fields masked unless they read them in clear. */
  masked(row: Record<string, unknown>): Record<string, unknown> {
    return this.readsInClear || !hasMaskedFields(this.e) ? row : maskRow(this.e, row);
  }

  /**
   * Rows on their way to the caller: a reader without the entity's `access.personal` gets their
   * personal fields masked; a member of staff who reads them in clear leaves one access record
   * naming the rows and the fields shown (none when no personal value is shown). The trusted
   * engine (a hook, a route's own work) reads as stored and records nothing.
   */
  async present(rows: Record<string, unknown>[], kind: ClearReadKind, db: Knex | Knex.Transaction = this.db): Promise<void> {
    if (this.ctx.trusted || !rows.length || !hasMaskedFields(this.e)) return;
    if (!this.readsInClear) {
      for (const r of rows) maskRow(this.e, r);
      return;
    }
    const fields = shownPersonal(this.e, rows);
    if (fields.length)
      await recordClearRead(
        db,
        this.ctx.principal,
        this.e,
        kind,
        rows.map((r) => Number(r.id)),
        fields,
      );
  }

  /** Rows as the engine stores them, children included, whatever the caller's scope: a write's before and after. */
  async snapshots(db: Knex | Knex.Transaction, ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    const out = new Map<number, Record<string, unknown>>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await db(`${this.e.table} as t`)
        .whereIn('t.id', ids.slice(i, i + 1000))
        .select(this.ctx.knex.raw(selectColumns(this.e).join(', ')));
      await loadChildren(db, this.e, rows);
      for (const r of rows) out.set(r.id, r);
    }
    return out;
  }

  /** What the caller is answered after a write: the row when they may read it, else its id. */
  protected answer(after: Record<string, unknown>): Record<string, unknown> {
    if (!(this.can('read') && this.can('read', after))) return { id: after.id };
    // the writer's own answer: masked for a writer without the right, not recorded as a read
    return this.readsInClear || !hasMaskedFields(this.e) ? after : maskRow(this.e, structuredClone(after));
  }
}
