import type { Knex } from 'knex';
import type { ValidateFunction } from 'ajv';
import type { EntityMeta, WorkflowActionMeta } from '../meta/types.ts';
import { pluginsOf, type ChangeKind, type Repository } from './repository.ts';
import { normalisePayload } from './normalise.ts';
import { compileSchema, fieldSchema, toFieldErrors } from './payload-schema.ts';
import { ApiError, badRequest, notFound, validationError } from '../kernel/errors.ts';
import { translate } from '../meta/captions.ts';
import type { ListParams } from './list-params.ts';

const paramValidators = new WeakMap<WorkflowActionMeta, ValidateFunction>();

/** The JSON Schema of an action's declared parameters (published as such in the OpenAPI document). */
export function actionParamsSchema(a: WorkflowActionMeta): {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
} {
  const entries = Object.entries(a.params ?? {});
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map(([n, f]) => [n, fieldSchema(f)])),
    required: entries.filter(([, f]) => f.required).map(([n]) => n),
  };
}

function paramsValidator(a: WorkflowActionMeta): ValidateFunction {
  let v = paramValidators.get(a);
  if (!v) {
    v = compileSchema(actionParamsSchema(a));
    paramValidators.set(a, v);
  }
  return v;
}

export interface ActionInput {
  comment?: unknown;
  version?: unknown;
  [param: string]: unknown;
}

/**
 * Workflow actions of an entity: run on one row or on several in one transaction, allowed by the
 * action's id within the caller's scope, only from the states the action leaves from. Parameters
 * the action declares are validated; those that are fields of the entity are written to the row,
 * and `clear` fields are emptied. An idempotent action leaves rows already in its target state
 * (with the same parameters) as they are. A move is an ordinary write of the row through the
 * repository's one path (rights and scope before and after, references, the hook, one audit row),
 * plus a flow row.
 */
export class Workflow {
  constructor(private readonly repo: Repository) {}

  private get e(): EntityMeta {
    return this.repo.e;
  }

  private action(name: string): WorkflowActionMeta {
    const a = this.e.workflow?.actions[name];
    if (!a) throw notFound();
    this.repo.assertCan(`wf:${name}`);
    return a;
  }

  private params(a: WorkflowActionMeta, input: ActionInput): { comment: string; params: Record<string, unknown> } {
    const comment = typeof input.comment === 'string' ? input.comment.trim() : '';
    if (input.comment !== undefined && input.comment !== null && typeof input.comment !== 'string')
      throw validationError({ comment: { key: 'validation.wrong_format' } });
    if (comment.length > 2000) throw validationError({ comment: { key: 'validation.max_length', args: { limit: 2000 } } });
    if (a.comment === 'required' && !comment) throw validationError({ comment: { key: 'validation.required' } });
    const params = normaliseParams(a, input);
    const validate = paramsValidator(a);
    if (!validate(params)) throw validationError(toFieldErrors({ ...this.e, fields: a.params ?? {} }, validate.errors ?? []));
    return { comment, params };
  }

  async run(id: number, name: string, input: ActionInput): Promise<Record<string, unknown>> {
    const a = this.action(name);
    const { comment, params } = this.params(a, input);
    return this.repo.transaction(async (trx) => {
      // a row out of the caller's scope is not found, whatever the parameters name
      const row = await this.repo.scoped(`wf:${name}`, trx).where('t.id', id).forUpdate().first('t.id', 't.version');
      if (!row) throw notFound();
      await this.repo.checkReferences(trx, [params], a.params ?? {}, false);
      if (input.version !== undefined && input.version !== null && Number(input.version) !== row.version)
        throw new ApiError('stale', 'errors.stale', { version: row.version });
      const before = (await this.repo.snapshots(trx, [id])).get(id)!;
      await this.move(trx, before, name, a, params, comment);
      if (a.delete) return { id, deleted: true };
      return this.repo.getOne(id, this.repo.can('read') ? 'read' : `wf:${name}`, trx).catch((err) => {
        // a row moved out of what the caller may read: the move stands, the answer is its id
        if (err instanceof ApiError && err.kind === 'notFound') return { id };
        throw err;
      });
    });
  }

  /** The action on the given rows, or on every row of the list's filters (`all`), all or nothing. */
  async runMany(
    name: string,
    input: ActionInput & { ids?: unknown; all?: unknown },
    listParams?: ListParams,
  ): Promise<{ ids: number[]; changed: number }> {
    const a = this.bulkAction(name);
    const { comment, params } = this.params(a, input);
    const ids = input.ids;
    if (input.all !== true) assertIds(ids);
    return this.repo.transaction(async (trx) => {
      await this.repo.checkReferences(trx, [params], a.params ?? {}, false);
      const q = this.repo.scoped(`wf:${name}`, trx).forUpdate().orderBy('t.id').select('t.id');
      if (input.all === true) {
        if (listParams) this.repo.applyFilters(q, listParams);
        q.whereIn(`t.${this.e.workflow!.field}`, a.idempotent && a.to ? [...a.from, a.to] : a.from);
      } else q.whereIn('t.id', ids as number[]);
      const found: number[] = (await q).map((r: { id: number }) => r.id);
      if (input.all !== true && found.length !== new Set(ids as number[]).size) throw notFound();
      const before = await this.repo.snapshots(trx, found);
      const moved = await this.moveMany(
        trx,
        found.map((id) => ({ row: before.get(id)!, params, comment })),
        name,
        a,
      );
      return { ids: found, changed: moved.filter(Boolean).length };
    });
  }

  /**
   * The action on several sets of rows, each with its own parameters (an import attaching each
   * payment to its payer), all or nothing and set-wise: the rows locked and read in one query, the
   * parameters' references checked together, the moves written as `changeMany` writes them, their
   * flow rows in one statement. A row named twice, or not the caller's to move, is a 404.
   */
  async runSets(name: string, sets: { ids: number[]; input: ActionInput }[]): Promise<{ ids: number[]; changed: number }> {
    const a = this.bulkAction(name);
    const checked = sets.map(({ ids, input }) => {
      assertIds(ids);
      return { ids, ...this.params(a, input) };
    });
    const all = checked.flatMap((x) => x.ids);
    if (!all.length) return { ids: [], changed: 0 };
    if (new Set(all).size !== all.length) throw notFound();
    return this.repo.transaction(async (trx) => {
      await this.repo.checkReferences(
        trx,
        checked.map((x) => x.params),
        a.params ?? {},
        false,
      );
      const found = new Set<number>();
      for (let i = 0; i < all.length; i += 10_000) {
        const ids = all.slice(i, i + 10_000);
        for (const r of await this.repo.scoped(`wf:${name}`, trx).forUpdate().whereIn('t.id', ids).orderBy('t.id').select('t.id'))
          found.add(r.id);
      }
      if (found.size !== all.length) throw notFound();
      const before = await this.repo.snapshots(trx, all);
      const moved = await this.moveMany(
        trx,
        checked.flatMap((x) => x.ids.map((id) => ({ row: before.get(id)!, params: x.params, comment: x.comment }))),
        name,
        a,
      );
      return { ids: all, changed: moved.filter(Boolean).length };
    });
  }

  /** An action that may run on several rows at once; only such an action does. */
  private bulkAction(name: string): WorkflowActionMeta {
    const a = this.action(name);
    if (!a.bulk) throw notFound();
    return a;
  }

  /** Moves one locked row; false when an idempotent action had nothing to do. */
  private async move(
    trx: Knex.Transaction,
    row: Record<string, unknown>,
    name: string,
    a: WorkflowActionMeta,
    params: Record<string, unknown>,
    comment: string,
  ): Promise<boolean> {
    const [moved] = await this.moveMany(trx, [{ row, params, comment }], name, a);
    return moved;
  }

  /**
   * Moves locked rows, each with its parameters: whether each moved (an idempotent action leaves
   * a row already where it would take it). The first row in a state the action does not leave from
   * refuses them all (409).
   */
  private async moveMany(
    trx: Knex.Transaction,
    moves: { row: Record<string, unknown>; params: Record<string, unknown>; comment: string }[],
    name: string,
    a: WorkflowActionMeta,
  ): Promise<boolean[]> {
    const wf = this.e.workflow!;
    const planned = moves.map(({ row, params, comment }) => {
      const changes: Record<string, unknown> = {};
      for (const [n, v] of Object.entries(params)) if (n in this.e.fields) changes[n] = v;
      for (const n of a.clear ?? []) changes[n] = null;
      Object.assign(changes, a.set ?? {});
      const from = row[wf.field] as string;
      return { row, params, comment, changes, derived: { ...changes }, from, to: a.to ?? from };
    });
    await this.repo.deriveFields(
      trx,
      planned.map((p) => p.derived),
    );
    const moving = planned.filter(
      (p) =>
        !(
          a.idempotent &&
          p.from === p.to &&
          Object.entries(p.derived).every(([n, v]) => JSON.stringify(p.row[n] ?? null) === JSON.stringify(v ?? null))
        ),
    );
    for (const { row, from } of moving) {
      if (a.from.includes(from)) continue;
      const { model, lang } = this.repo.ctx;
      throw new ApiError('workflow', 'errors.workflow_state', {
        action: translate(model, lang, a.label ?? `actions.${name}`),
        state: translate(model, lang, `enums.${wf.field}.${from}`),
        id: row.id,
      });
    }
    const kind = (p: (typeof planned)[number]): ChangeKind => ({
      op: 'action',
      action: name,
      check: `wf:${name}`,
      hook: a.hook,
      from: p.from,
      to: p.to,
      params: p.params,
    });
    if (a.delete) {
      // each row goes (its hook deletes or refuses what depends on it): a delete audit row naming the action, no flow row
      for (const p of moving) await this.repo.removeLocked(trx, [p.row], { ...kind(p), op: 'delete', to: p.from });
    } else if (moving.length) {
      await this.repo.changeMany(
        trx,
        moving.map((p) => ({ before: p.row, changes: p.changes, data: {}, kind: kind(p), extra: { [wf.field]: p.to } })),
      );
      for (let i = 0; i < moving.length; i += 5000) {
        await trx('flows').insert(
          moving.slice(i, i + 5000).map((p) => ({
            entity: this.e.name,
            record_id: p.row.id,
            action: name,
            from_state: p.from,
            to_state: p.to,
            comment: p.comment || null,
            user_id: this.repo.actor,
          })),
        );
      }
      // each move told in its transaction (api/engine/events.ts): the notifications module queues the
      // action's `notify` there, so a notification exists exactly when the move does
      const events = pluginsOf(this.repo.ctx.model)?.events;
      if (events?.has('workflow.moved')) {
        const { model, principal } = this.repo.ctx;
        for (const p of moving) {
          await events.emit('workflow.moved', {
            trx,
            model,
            entity: this.e,
            action: name,
            notify: a.notify,
            row: { ...p.row, ...p.derived, [wf.field]: p.to },
            extra: { ...p.params, comment: p.comment, action: name },
            principal,
          });
        }
      }
    }
    const moved = new Set(moving);
    return planned.map((p) => moved.has(p));
  }

  /** The record's workflow history, oldest first. */
  async flows(id: number): Promise<Record<string, unknown>[]> {
    await this.repo.findOne(id, 'read');
    return this.repo.ctx
      .knex('flows as f')
      .leftJoin('users as u', 'u.id', 'f.user_id')
      .where({ 'f.entity': this.e.name, 'f.record_id': id })
      .orderBy('f.id')
      .select(
        'f.id',
        'f.action',
        'f.from_state',
        'f.to_state',
        'f.comment',
        'f.created_at',
        'f.user_id',
        'u.fio as user_fio',
        'u.username',
      );
  }
}

function normaliseParams(a: WorkflowActionMeta, input: ActionInput): Record<string, unknown> {
  if (!a.params) return {};
  const picked = Object.fromEntries(
    Object.keys(a.params)
      .filter((n) => n in input)
      .map((n) => [n, input[n]]),
  );
  return normalisePayload({ fields: a.params } as EntityMeta, picked);
}

/** Rows named for a bulk action: 1 to 100 000 positive ids, else a 400. */
function assertIds(ids: unknown): asserts ids is number[] {
  if (!Array.isArray(ids) || !ids.length || ids.length > 100_000 || !ids.every((x) => Number.isSafeInteger(x) && x > 0))
    throw badRequest('errors.select_rows');
}
