import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel } from '../../meta/types.ts';
import type { Principal, EntityAbility, Operation } from '../../auth/ability.ts';
import { actorOf, applyAbility, canOnRow, entityAbility, rowSetConditions } from '../../auth/ability.ts';
import { ApiError, forbidden } from '../../kernel/errors.ts';
import { sortExpression } from '../sql.ts';
import type { ListParams } from '../list-params.ts';
import { applyFilter } from '../filters.ts';
import { translate } from '../../meta/captions.ts';
import { personalFields, readsInClear } from '../personal.ts';
import type { IdempotencyClaim } from '../idempotency.ts';

export interface EngineContext {
  knex: Knex;
  model: MetaModel;
  principal: Principal;
  lang: Lang;
  /** exact counts up to this many rows (default EXACT_COUNT_LIMIT) */
  countLimit?: number;
  /** a transaction the repository's reads and writes join (a hook's, an import's or a route's unit of work) */
  trx?: Knex.Transaction;
  /**
   * writes made on the caller's behalf by a hook or a route whose own right the engine checked:
   * the caller's rights and scope are not asked again; validation, references and the audit row are
   */
  trusted?: boolean;
  /** a route's request's idempotency key: claimed by its first single create of that entity (api/engine/idempotency.ts) */
  idempotency?: IdempotencyClaim;
}

/**
 * The repository's scope and rights: the context it works in, the caller's ability on the entity,
 * the query of the rows the caller may see for an operation (the ability and the entity's soft
 * delete and view as SQL), a list's filters and order, and the checks a write makes of the caller's
 * rights and scope on a row (docs/decisions/0004, 0016). The first layer of `Repository`
 * (api/engine/repository.ts).
 */
export class RepositoryScope {
  readonly ability: EntityAbility;
  constructor(
    readonly ctx: EngineContext,
    readonly e: EntityMeta,
  ) {
    this.ability = entityAbility(e, ctx.principal);
  }

  /** Whom the writes are recorded under: the caller, or nobody for the public. */
  get actor(): number | null {
    return actorOf(this.ctx.principal);
  }

  protected get db(): Knex | Knex.Transaction {
    return this.ctx.trx ?? this.ctx.knex;
  }

  /** Runs in the context's transaction, or in a new one. */
  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.ctx.trx ? fn(this.ctx.trx) : this.ctx.knex.transaction(fn);
  }

  /** Whether the caller may do an operation at all, or on this row. */
  can(op: Operation | string, row?: Record<string, unknown>): boolean {
    if (this.ctx.trusted) return true;
    return row ? canOnRow(this.ability, this.e, op, row) : this.ability.can(op, this.e.name);
  }

  /** 403 unless some rule allows the operation on some row. */
  assertCan(op: Operation | string): void {
    if (!this.can(op)) throw forbidden();
  }

  /**
   * A query over the entity's rows the caller may see for an operation; `from`, a subset of the
   * entity's rows aliased `t` (a subquery of its table), is read instead of the whole table.
   */
  scoped(op: Operation | string, db: Knex | Knex.Transaction = this.db, from?: Knex.Raw): Knex.QueryBuilder {
    const qb = from ? db.from(from) : db(`${this.e.table} as t`);
    if (!this.ctx.trusted && !applyAbility(qb, this.ability, this.e, op)) throw forbidden();
    if (this.e.softDelete) qb.whereNull('t.deleted_at');
    for (const [col, v] of Object.entries(this.e.view ?? {})) qb.where(`t.${col}`, v);
    return qb;
  }

  /**
   * The child rows (a `children` field) of the rows the caller may see for an operation: the
   * parent's scope joined to its child table, aliased `alias` (`c` unless given), its columns named
   * `alias.column` — a child row is read as part of its parent, never past it.
   */
  scopedChildren(op: Operation | string, field: string, alias = 'c', db: Knex | Knex.Transaction = this.db): Knex.QueryBuilder {
    const f = this.e.fields[field];
    if (f?.type !== 'children' || !f.table) throw new Error(`${this.e.name}.${field} is not a children field`);
    return this.scoped(op, db).join(`${f.table} as ${alias}`, `${alias}.${f.parentKey ?? 'parent_id'}`, 't.id');
  }

  protected filtered(op: Operation, params: ListParams, db?: Knex | Knex.Transaction): Knex.QueryBuilder {
    return this.applyFilters(this.scoped(op, db), params);
  }

  applyFilters(qb: Knex.QueryBuilder, params: ListParams): Knex.QueryBuilder {
    params = this.personalSafe(params);
    for (const f of params.filters) applyFilter(qb, this.e, f);
    if (params.ids) qb.whereIn('t.id', params.ids);
    return qb;
  }

  /**
   * A list's parameters as a reader without the right to personal data may use them
   * (docs/personal-data.md, "Searching"): a search does not look into the masked personal fields
   * (a part of a phone found would tell the phone, a digit at a time) — one that looks only there
   * finds nothing; an `eq` filter on one matches the whole value exactly, as the reader already knows it.
   */
  protected personalSafe(params: ListParams): ListParams {
    if (readsInClear(this.e, this.ctx.principal, this.ctx.trusted)) return params;
    const masked = new Set(
      personalFields(this.e)
        .filter((p) => !p.child && p.kind !== 'name')
        .map((p) => p.name),
    );
    if (!masked.size || !params.filters.some((f) => f.meta.op !== 'eq' && f.column.some((c) => masked.has(c)))) return params;
    let nothing = false;
    const filters = params.filters.flatMap((f) => {
      if (f.meta.op === 'eq' || !f.column.some((c) => masked.has(c))) return [f];
      const column = f.column.filter((c) => !masked.has(c));
      if (!column.length) nothing = true;
      return column.length ? [{ ...f, column }] : [];
    });
    return { ...params, filters, ...(nothing ? { ids: [] } : {}) };
  }

  applyOrder(qb: Knex.QueryBuilder, params: ListParams): Knex.QueryBuilder {
    for (const s of params.sort) qb.orderByRaw(`${sortExpression(this.e, s.field, this.ctx.lang, 't')} ${s.desc ? 'DESC' : 'ASC'}`);
    if (!params.sort.some((s) => s.field === 'id')) qb.orderBy('t.id', params.sort[0]?.desc ? 'desc' : 'asc');
    return qb;
  }

  /** 409 when a row's state is not one its workflow lets it be edited or deleted in (a sent report). */
  protected assertEditable(row: Record<string, unknown>): void {
    const wf = this.e.workflow;
    if (!wf?.editable || wf.editable.includes(row[wf.field] as string)) return;
    const { model, lang } = this.ctx;
    throw new ApiError('workflow', 'errors.not_editable', {
      state: translate(model, lang, `enums.${wf.field}.${row[wf.field]}`),
      id: row.id,
    });
  }

  /** 403 when a written row is no longer the caller's to have written (moved out of their scope). */
  protected checkAfter(op: string, after: Record<string, unknown>): void {
    if (!this.can(op, after)) throw forbidden();
  }

  /** The caller's subject, branch and region for the scope columns this entity declares. */
  protected scopeValues(): Record<string, number> {
    const out: Record<string, number> = {};
    const p = this.ctx.principal;
    for (const kind of ['subject', 'branch', 'region'] as const) {
      const col = this.e.scope?.[kind];
      if (col && p[`${kind}_id`] != null) out[col] = p[`${kind}_id`]!;
    }
    return out;
  }

  /**
   * Values a new row takes from the caller's row set when it leaves them empty: an inspector's
   * offence is their own. Only when the caller holds row sets and none of them is every row.
   */
  protected rowSetDefaults(): Record<string, unknown> {
    if (this.ctx.trusted) return {};
    const sets = rowSetConditions(this.e, this.ctx.principal);
    if (!sets?.length || sets.some((w) => !Object.keys(w).length)) return {};
    return sets[0];
  }
}
