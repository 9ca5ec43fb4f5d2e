import { createMongoAbility, subject as asSubject, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { rulesToAST } from '@casl/ability/extra';
import type { Knex } from 'knex';
import type { EntityMeta } from '../meta/types.ts';
import { q } from '../engine/sql.ts';

export type Operation = 'read' | 'create' | 'update' | 'delete' | 'export';
export const OPERATIONS: Operation[] = ['read', 'create', 'update', 'delete', 'export'];

/** What the API knows of the caller: their allowed action ids and the attributes row scopes use. */
export interface Principal {
  id: number;
  username: string;
  actions: Set<number>;
  region_id: number | null;
  branch_id: number | null;
  subject_id: number | null;
}

/** Nobody signed in: the public site's caller (no actions, no user row: writes on their behalf record no user). */
export const ANONYMOUS: Principal = Object.freeze({
  id: 0,
  username: '',
  actions: new Set<number>(),
  region_id: null,
  branch_id: null,
  subject_id: null,
}) as Principal;

/** The user a principal's writes are recorded under (null for nobody). */
export const actorOf = (p: Principal): number | null => (p.id > 0 ? p.id : null);

/** The action id guarding an operation; export falls back to read. Undefined: nobody may. */
export function actionIdFor(e: EntityMeta, op: Operation): number | undefined {
  if (op === 'export') return e.access.export ?? e.access.read;
  return e.access[op];
}

/** Whether the principal's actions open an operation: its id, or for reading any of `readAlso`. */
export function allows(e: EntityMeta, op: Operation, p: Pick<Principal, 'actions'>): boolean {
  const id = actionIdFor(e, op);
  if (id !== undefined && p.actions.has(id)) return true;
  const readLike = op === 'read' || (op === 'export' && e.access.export === undefined);
  return readLike && (e.access.readAlso ?? []).some((x) => p.actions.has(x));
}

/** The row conditions a principal's scope puts on an entity: their subject, branch and region. */
export function scopeConditions(e: EntityMeta, p: Principal): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of ['subject', 'branch', 'region'] as const) {
    const col = e.scope?.[kind];
    const v = p[`${kind}_id`];
    if (col && v != null) out[col] = v;
  }
  return out;
}

/**
 * The row sets of an entity (`rows`) a principal holds, as column conditions ("$user" → their id):
 * they see the rows of any of them. Null when they hold none, or the entity declares none: every
 * row of their scope, as for any entity.
 */
export function rowSetConditions(e: EntityMeta, p: Principal): Record<string, unknown>[] | null {
  const held = Object.values(e.rows ?? {}).filter((r) => p.actions.has(r.action));
  if (!held.length) return null;
  return held.map((r) => Object.fromEntries(Object.entries(r.where).map(([k, v]) => [k, v === '$user' ? p.id : v])));
}

export type EntityAbility = MongoAbility<[Operation | string, string]>;

/**
 * Abilities already built, by the caller's action set (one shared Set per distinct set of actions,
 * api/auth/session-cache.ts), the entity (a reloaded model's entities are new objects) and what
 * else the rules name: the scope's values and, for an entity with row sets, the user.
 */
const built = new WeakMap<Set<number>, WeakMap<EntityMeta, Map<string, EntityAbility>>>();

/**
 * A CASL ability for one entity: the principal may do an operation when one of their roles allows
 * its action id (state 1), limited to the rows of their scope. Built once per action set, entity
 * and scope, and shared: an ability is never changed once built.
 */
export function entityAbility(e: EntityMeta, p: Principal): EntityAbility {
  let byEntity = built.get(p.actions);
  if (!byEntity) built.set(p.actions, (byEntity = new WeakMap()));
  let byScope = byEntity.get(e);
  if (!byScope) byEntity.set(e, (byScope = new Map()));
  const key = `${p.region_id ?? ''}|${p.branch_id ?? ''}|${p.subject_id ?? ''}|${e.rows ? p.id : ''}`;
  let ability = byScope.get(key);
  if (!ability) {
    if (byScope.size >= 1000) byScope.clear();
    byScope.set(key, (ability = buildAbility(e, p)));
  }
  return ability;
}

function buildAbility(e: EntityMeta, p: Principal): EntityAbility {
  const rules: RawRuleOf<EntityAbility>[] = [];
  const scope = scopeConditions(e, p);
  // the scope, narrowed to each row set the principal holds (several: any of them)
  const sets = (rowSetConditions(e, p) ?? [{}]).map((w) => ({ ...w, ...scope }));
  const add = (action: string) => {
    for (const conditions of sets)
      rules.push(Object.keys(conditions).length ? { action, subject: e.name, conditions } : { action, subject: e.name });
  };
  for (const op of OPERATIONS) if (allows(e, op, p)) add(op);
  if (e.workflow) {
    for (const [name, a] of Object.entries(e.workflow.actions)) if (p.actions.has(a.action)) add(`wf:${name}`);
  }
  return createMongoAbility(rules);
}

export function canOnRow(ability: EntityAbility, e: EntityMeta, op: string, row: Record<string, unknown>): boolean {
  return ability.can(op, asSubject(e.name, { ...row }) as unknown as string);
}

interface Ast {
  operator: string;
  value: unknown;
  field?: string;
}

/**
 * Adds the ability's conditions for an operation to a query as SQL, through CASL's own rule
 * combination (rulesToAST). Returns false when the operation is not allowed at all.
 */
export function applyAbility(qb: Knex.QueryBuilder, ability: EntityAbility, e: EntityMeta, op: string, alias = 't'): boolean {
  const sql = abilitySql(ability, e, op, alias);
  if (sql === false) return false;
  if (sql) qb.whereRaw(sql.text, sql.bindings as Knex.RawBinding[]);
  return true;
}

/** An ability's SQL for an operation, kept with the (shared, unchanging) ability: false when not allowed, null when every row is (a list's cached SQL is kept by its text: api/engine/list-sql.ts). */
const sqlOf = new WeakMap<EntityAbility, Map<string, { text: string; bindings: unknown[] } | null | false>>();
export function abilitySql(
  ability: EntityAbility,
  e: EntityMeta,
  op: string,
  alias: string,
): { text: string; bindings: unknown[] } | null | false {
  let m = sqlOf.get(ability);
  if (!m) sqlOf.set(ability, (m = new Map()));
  const key = `${e.name}\u0000${op}\u0000${alias}`;
  if (m.has(key)) return m.get(key)!;
  const ast = rulesToAST(ability, op, e.name) as Ast | null;
  const sql = ast ? astToSql(ast, alias) : false;
  m.set(key, sql);
  return sql;
}

/**
 * The columns the ability's conditions for an operation name (empty when it allows every row); null
 * when the operation is not allowed at all. Lets a reader that keeps its own aggregates of an
 * entity's rows apply the same conditions to them when they carry those columns (the offences map).
 */
export function abilityColumns(ability: EntityAbility, e: EntityMeta, op: string): Set<string> | null {
  const ast = rulesToAST(ability, op, e.name) as Ast | null;
  if (!ast) return null;
  const out = new Set<string>();
  const walk = (a: Ast) => {
    if (a.operator === 'and' || a.operator === 'or') (a.value as Ast[]).forEach(walk);
    else if (a.operator === 'not') walk(a.value as Ast);
    else if (a.field) out.add(a.field);
  };
  walk(ast);
  return out;
}

function astToSql(ast: Ast, alias: string): { text: string; bindings: unknown[] } | null {
  const col = () => `${q(alias)}.${q(ast.field!)}`;
  switch (ast.operator) {
    case 'and':
    case 'or': {
      const parts = (ast.value as Ast[]).map((a) => astToSql(a, alias)).filter((x): x is { text: string; bindings: unknown[] } => !!x);
      if (!parts.length) return null;
      return {
        text: `(${parts.map((p) => p.text).join(ast.operator === 'and' ? ' AND ' : ' OR ')})`,
        bindings: parts.flatMap((p) => p.bindings),
      };
    }
    case 'not': {
      const inner = astToSql(ast.value as Ast, alias);
      return inner ? { text: `NOT ${inner.text}`, bindings: inner.bindings } : { text: 'FALSE', bindings: [] };
    }
    case 'eq':
      return ast.value === null ? { text: `${col()} IS NULL`, bindings: [] } : { text: `${col()} = ?`, bindings: [ast.value] };
    case 'ne':
      return { text: `${col()} IS DISTINCT FROM ?`, bindings: [ast.value] };
    case 'in':
      return { text: `${col()} = ANY(?)`, bindings: [ast.value] };
    default:
      throw new Error(`scope condition "${ast.operator}" has no SQL form`);
  }
}
