import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta, Lang, MetaModel } from '../meta/types.ts';
import type { Principal, EntityAbility, Operation } from '../auth/ability.ts';
import { applyAbility, canOnRow, entityAbility } from '../auth/ability.ts';
import { ApiError, forbidden, notFound, validationError, type FieldError } from '../http/errors.ts';
import { refTable, selectColumns, sortExpression, toColumnValue, columnSelect } from './sql.ts';
import type { ListParams } from './list-params.ts';
import { compilePayloadValidator, writableFields, type PayloadValidator } from './payload-schema.ts';
import { translateDbError } from './db-errors.ts';
import { normalisePayload } from './normalise.ts';
import { applyFilter } from './filters.ts';
import { hashPassword } from '../auth/password.ts';
import { HOOKS } from '../hooks/index.ts';

/** Lists count exactly up to this many rows; beyond it the planner's estimate is given (docs/performance.md). */
export const EXACT_COUNT_LIMIT = Number(process.env.ECOFOND_EXACT_COUNT_LIMIT || 10000);

export interface EngineContext {
  knex: Knex;
  model: MetaModel;
  principal: Principal;
  lang: Lang;
  /** exact counts up to this many rows (default EXACT_COUNT_LIMIT) */
  countLimit?: number;
}

const validators = new WeakMap<EntityMeta, { create: PayloadValidator; update: PayloadValidator }>();
function validatorsOf(e: EntityMeta) {
  let v = validators.get(e);
  if (!v) {
    v = { create: compilePayloadValidator(e, 'create'), update: compilePayloadValidator(e, 'update') };
    validators.set(e, v);
  }
  return v;
}

/**
 * The generic repository: every entity's list, read, create, update and delete, with the caller's
 * permissions and row scope applied as SQL, and every write in one transaction.
 */
export class Repository {
  readonly ability: EntityAbility;
  constructor(readonly ctx: EngineContext, readonly e: EntityMeta) {
    this.ability = entityAbility(e, ctx.principal);
  }

  /** 403 unless some rule allows the operation on some row. */
  assertCan(op: Operation | string): void {
    if (!this.ability.can(op, this.e.name)) throw forbidden();
  }

  /** A query over the entity's rows the caller may see for an operation. */
  scoped(op: Operation | string, db: Knex | Knex.Transaction = this.ctx.knex): Knex.QueryBuilder {
    const qb = db(`${this.e.table} as t`);
    if (!applyAbility(qb, this.ability, this.e, op)) throw forbidden();
    if (this.e.softDelete) qb.whereNull('t.deleted_at');
    for (const [col, v] of Object.entries(this.e.view ?? {})) qb.where(`t.${col}`, v);
    return qb;
  }

  private filtered(op: Operation, params: ListParams, db?: Knex | Knex.Transaction): Knex.QueryBuilder {
    return this.applyFilters(this.scoped(op, db), params);
  }

  applyFilters(qb: Knex.QueryBuilder, params: ListParams): Knex.QueryBuilder {
    for (const f of params.filters) applyFilter(qb, this.e, f);
    if (params.ids) qb.whereIn('t.id', params.ids);
    return qb;
  }

  applyOrder(qb: Knex.QueryBuilder, params: ListParams): Knex.QueryBuilder {
    for (const s of params.sort) qb.orderByRaw(`${sortExpression(this.e, s.field, this.ctx.lang, 't')} ${s.desc ? 'DESC' : 'ASC'}`);
    if (!params.sort.some((s) => s.field === 'id')) qb.orderBy('t.id', params.sort[0]?.desc ? 'desc' : 'asc');
    return qb;
  }

  async list(params: ListParams): Promise<{ rows: Record<string, unknown>[]; total: number; exact: boolean }> {
    this.assertCan('read');
    const { knex } = this.ctx;
    const rowsQ = this.applyOrder(this.filtered('read', params), params)
      .select(knex.raw(selectColumns(this.e).join(', ')))
      .offset(params.offset).limit(params.limit);
    const [rows, count] = await Promise.all([rowsQ, this.count(params)]);
    const total = Math.max(count.total, params.offset + rows.length);
    return { rows, total, exact: count.exact };
  }

  /** An exact count up to EXACT_COUNT_LIMIT rows, the planner's estimate beyond it. */
  async count(params: ListParams, op: Operation = 'read'): Promise<{ total: number; exact: boolean }> {
    const { knex } = this.ctx;
    if (params.ids) return { total: params.ids.length, exact: true };
    const limit = this.ctx.countLimit ?? EXACT_COUNT_LIMIT;
    const capped = this.filtered(op, params).select(knex.raw('1')).limit(limit + 1);
    const [{ n }] = await knex.select(knex.raw('count(*)::int as n')).from(capped.as('c'));
    if (n <= limit) return { total: n, exact: true };
    const sql = this.filtered(op, params).select(knex.raw('1')).toSQL();
    const plan = await knex.raw(`EXPLAIN (FORMAT JSON) ${sql.sql}`, sql.bindings as Knex.RawBinding[]);
    const rows = plan.rows as { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[];
    const estimate = Math.round(rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
    return { total: Math.max(estimate, limit + 1), exact: false };
  }

  async getOne(id: number, op: Operation | string = 'read', db?: Knex | Knex.Transaction): Promise<Record<string, unknown>> {
    this.assertCan(op);
    const { knex } = this.ctx;
    const row = await this.scoped(op, db).where('t.id', id).first(knex.raw(selectColumns(this.e).join(', ')));
    if (!row) throw notFound();
    await this.loadChildren([row], db);
    return row;
  }

  private async loadChildren(rows: Record<string, unknown>[], db: Knex | Knex.Transaction = this.ctx.knex): Promise<void> {
    for (const [name, f] of Object.entries(this.e.fields)) {
      if (f.type !== 'children') continue;
      const cols = ['c.id', 'c.ordering', ...Object.entries(f.fields ?? {}).map(([n, cf]) => columnSelect(n, cf, 'c'))];
      const ids = rows.map((r) => r.id);
      const children = await db(`${f.table} as c`).whereIn('c.parent_id', ids as number[]).orderBy(['c.parent_id', 'c.ordering', 'c.id'])
        .select(this.ctx.knex.raw(['c.parent_id', ...cols].join(', ')));
      for (const r of rows) r[name] = children.filter((c: Record<string, unknown>) => c.parent_id === r.id).map(({ parent_id: _p, ...c }: Record<string, unknown>) => c);
    }
  }

  async create(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.assertCan('create');
    const data = normalisePayload(this.e, payload);
    // the caller's scope fills scope columns left empty (and refuses other values, below)
    for (const [col, v] of Object.entries(this.scopeValues())) if (col !== 'id' && data[col] == null) data[col] = v;
    const errors = validatorsOf(this.e).create(data);
    if (errors) throw validationError(errors);
    const row = pickWritable(this.e, data, 'create');
    if (this.e.workflow) row[this.e.workflow.field] = this.e.workflow.initial;
    for (const [name, f] of Object.entries(this.e.fields)) if (row[name] === undefined && f.default !== undefined && f.type !== 'children') row[name] = f.default;
    if (!canOnRow(this.ability, this.e, 'create', row)) throw forbidden();
    return this.ctx.knex.transaction(async (trx) => {
      await this.checkReferences(trx, { ...row, ...childRows(this.e, data) });
      await this.deriveFields(trx, row);
      await this.hashPasswords(row);
      const values = { ...this.toColumns(row), ...(this.e.view ?? {}) };
      values.created_by = this.ctx.principal.id;
      values.updated_by = this.ctx.principal.id;
      let id: number;
      try {
        const [inserted] = await trx(this.e.table).insert(values).returning('id');
        id = inserted.id;
        await this.writeChildren(trx, id, data, true);
        await this.writeJoins(trx, id, data);
        await this.afterWrite(trx, id, 'create');
      } catch (err) { throw translateDbError(err, this.e); }
      // a caller who may create but not read (or not this row) is answered with the id only
      const created = this.ability.can('read', this.e.name)
        ? await this.getOne(id, 'read', trx).catch((err) => { if (err instanceof ApiError && err.kind === 'notFound') return { id }; throw err; })
        : { id };
      await this.audit(trx, id, 'create', null, created);
      return created;
    });
  }

  async update(id: number, payload: Record<string, unknown>, expectedVersion: unknown): Promise<Record<string, unknown>> {
    this.assertCan('update');
    if (expectedVersion === undefined || expectedVersion === null || expectedVersion === '') throw validationError({ version: { key: 'validation.version_required' } });
    const version = Number(expectedVersion);
    if (!Number.isInteger(version)) throw validationError({ version: { key: 'validation.wrong_format' } });
    const data = normalisePayload(this.e, payload);
    const errors = validatorsOf(this.e).update(data);
    if (errors) throw validationError(errors);
    return this.ctx.knex.transaction(async (trx) => {
      const before = await this.scoped('update', trx).where('t.id', id).forUpdate().first(this.ctx.knex.raw(selectColumns(this.e).join(', ')));
      if (!before) throw notFound();
      if (before.version !== version) throw new ApiError('stale', 'errors.stale', { version: before.version });
      const changes = pickWritable(this.e, data, 'update');
      const merged = { ...before, ...changes };
      if (!canOnRow(this.ability, this.e, 'update', merged)) throw forbidden();
      await this.checkReferences(trx, { ...changes, ...childRows(this.e, data) });
      await this.deriveFields(trx, changes);
      await this.hashPasswords(changes);
      const values = this.toColumns(changes);
      values.version = version + 1;
      values.updated_at = this.ctx.knex.fn.now();
      values.updated_by = this.ctx.principal.id;
      try {
        const n = await trx(this.e.table).where({ id, version }).update(values);
        if (n !== 1) throw new ApiError('stale', 'errors.stale', { version: before.version });
        await this.writeChildren(trx, id, data, false);
        await this.writeJoins(trx, id, data);
        await this.afterWrite(trx, id, 'update');
      } catch (err) { throw translateDbError(err, this.e); }
      const after = await this.getOne(id, this.ability.can('read', this.e.name) ? 'read' : 'update', trx);
      await this.audit(trx, id, 'update', before, after);
      return after;
    });
  }

  async remove(ids: number[]): Promise<void> {
    this.assertCan('delete');
    await this.ctx.knex.transaction(async (trx) => {
      const found = await this.scoped('delete', trx).whereIn('t.id', ids).forUpdate().select('t.*');
      if (found.length !== new Set(ids).size) throw notFound();
      try {
        if (this.e.softDelete) await trx(this.e.table).whereIn('id', ids).update({ deleted_at: this.ctx.knex.fn.now(), updated_by: this.ctx.principal.id });
        else await trx(this.e.table).whereIn('id', ids).delete();
      } catch (err) { throw translateDbError(err, this.e, 'delete'); }
      for (const row of found) await this.audit(trx, row.id, 'delete', row, null);
    });
  }

  /** The caller's subject, branch and region for the scope columns this entity declares. */
  private scopeValues(): Record<string, number> {
    const out: Record<string, number> = {};
    const p = this.ctx.principal;
    for (const kind of ['subject', 'branch', 'region'] as const) {
      const col = this.e.scope?.[kind];
      if (col && p[`${kind}_id`] != null) out[col] = p[`${kind}_id`]!;
    }
    return out;
  }

  toColumns(row: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(row)) {
      const f = this.e.fields[name];
      if (!f || f.type === 'children' || f.through) continue;
      out[name] = toColumnValue(this.ctx.knex, f, v);
    }
    return out;
  }

  /** Every referenced id exists: a 400 beside the field, not a foreign-key 500. */
  async checkReferences(trx: Knex.Transaction, row: Record<string, unknown>, fields: Record<string, FieldMeta> = this.e.fields, prefix = ''): Promise<void> {
    const errors: Record<string, FieldError> = {};
    for (const [name, f] of Object.entries(fields)) {
      const v = row[name];
      if (v == null) continue;
      if (f.type === 'ref' || f.type === 'refs' || f.type === 'file' || f.type === 'image' || f.type === 'files') {
        const ids = (Array.isArray(v) ? v : [v]) as number[];
        if (!ids.length) continue;
        const table = f.type === 'ref' || f.type === 'refs' ? refTable(this.ctx.model, f.ref!) : 'resources';
        const found = await trx(table).whereIn('id', ids).pluck('id');
        if (found.length !== new Set(ids).size) errors[`${prefix}${name}`] = { key: 'validation.ref_not_found' };
      }
      if (f.lookup) {
        const [target, column] = f.lookup.split('.');
        if (!(await trx(refTable(this.ctx.model, target)).where(column, v as string).first(column))) errors[`${prefix}${name}`] = { key: 'validation.ref_not_found' };
      }
      if (f.type === 'children' && Array.isArray(v)) {
        for (const [i, child] of (v as Record<string, unknown>[]).entries()) await this.checkReferences(trx, child, f.fields ?? {}, `${name}.${i}.`).catch((err) => {
          if (err instanceof ApiError && err.fieldErrors) Object.assign(errors, err.fieldErrors); else throw err;
        });
      }
    }
    if (Object.keys(errors).length) throw validationError(errors);
  }

  /** Fields declared `from: "<ref>.<column>"` copy the referenced row's column. */
  async deriveFields(trx: Knex.Transaction, row: Record<string, unknown>): Promise<void> {
    for (const [name, f] of Object.entries(this.e.fields)) {
      if (!f.from) continue;
      const [refField, column] = f.from.split('.');
      if (!(refField in row)) continue;
      const target = refTable(this.ctx.model, this.e.fields[refField].ref!);
      const v = row[refField] == null ? null : (await trx(target).where('id', row[refField] as number).first(column))?.[column] ?? null;
      row[name] = v;
    }
  }

  private async afterWrite(trx: Knex.Transaction, id: number, op: 'create' | 'update'): Promise<void> {
    if (!this.e.afterWrite) return;
    const hook = HOOKS[this.e.afterWrite];
    if (!hook) throw new Error(`hook "${this.e.afterWrite}" is not defined`);
    await hook({ trx, entity: this.e, row: { id }, action: op, from: '', to: '', principal: this.ctx.principal });
  }

  private async hashPasswords(row: Record<string, unknown>): Promise<void> {
    for (const [name, f] of Object.entries(this.e.fields)) {
      if (f.type === 'password' && typeof row[name] === 'string') row[name] = await hashPassword(row[name] as string);
    }
  }

  /** Multi-references kept in a join table: replaced as a whole when given. */
  private async writeJoins(trx: Knex.Transaction, id: number, data: Record<string, unknown>): Promise<void> {
    for (const [name, f] of Object.entries(this.e.fields)) {
      if (!f.through || !(name in data)) continue;
      const { table, key, refKey } = f.through;
      await trx(table).where(key, id).delete();
      const ids = [...new Set((data[name] as number[] | null) ?? [])];
      if (ids.length) await trx(table).insert(ids.map((r) => ({ [key]: id, [refKey]: r })));
    }
  }

  private async writeChildren(trx: Knex.Transaction, id: number, data: Record<string, unknown>, creating: boolean): Promise<void> {
    for (const [name, f] of Object.entries(this.e.fields)) {
      if (f.type !== 'children' || f.readOnly || !(name in data)) continue;
      if (!creating) await trx(f.table!).where('parent_id', id).delete();
      const rows = (data[name] as Record<string, unknown>[] | null) ?? [];
      if (!rows.length) continue;
      const writable = Object.entries(f.fields ?? {}).filter(([, cf]) => !cf.readOnly && !cf.computedBy && !cf.from);
      await trx(f.table!).insert(rows.map((r, i) => {
        const out: Record<string, unknown> = { parent_id: id, ordering: i };
        for (const [cn, cf] of writable) {
          const v = r[cn] === undefined ? cf.default : r[cn];
          if (v !== undefined) out[cn] = toColumnValue(this.ctx.knex, cf, v);
        }
        return out;
      }));
    }
  }

  private async audit(trx: Knex.Transaction, id: number, op: string, before: unknown, after: unknown): Promise<void> {
    if (!this.e.audit) return;
    await trx('audit_log').insert({
      entity: this.e.name, record_id: id, op, user_id: this.ctx.principal.id,
      before: before === null ? null : JSON.stringify(before), after: after === null ? null : JSON.stringify(after),
    });
  }
}

/** The child-table values of a payload, by field name. */
function childRows(e: EntityMeta, data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(e.fields).filter(([n, f]) => f.type === 'children' && !f.readOnly && n in data).map(([n]) => [n, data[n]]));
}

function pickWritable(e: EntityMeta, data: Record<string, unknown>, mode: 'create' | 'update'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of writableFields(e)) {
    if (f.type === 'children') continue;
    if (mode === 'update' && e.workflow?.field === name) continue;
    if (name in data) out[name] = data[name];
  }
  return out;
}

export function repository(ctx: EngineContext, e: EntityMeta): Repository {
  return new Repository(ctx, e);
}
