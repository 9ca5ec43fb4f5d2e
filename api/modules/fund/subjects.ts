import type { Knex } from 'knex';
import type { Hook, HookContext } from '../types.ts';
import { ApiError, validationError } from '../../kernel/errors.ts';
import { translate } from '../../meta/captions.ts';
import { assertPrivileges } from '../../engine/privileges.ts';

/**
 * What holds a subject against its full deletion: money attached to it, and the rows that record
 * money it owes or owed — attached payments (in any state), compensation reports with an amount or
 * a late-report fine, protocols with a fine, acts with damage, penya with an amount — and the
 * offences naming it as an offender (each carries a fine). Counted by the caption that names them,
 * each read through its entity's repository in the deletion's transaction (the hook's trusted read).
 */
type Read = (entity: string) => Knex.QueryBuilder;
/** an entity's child rows (a `children` field, aliased `c`) of the parents the read may see */
type ReadChildren = (entity: string, field: string) => Knex.QueryBuilder;
const HOLDS: [string, (read: Read, id: number, children: ReadChildren) => Knex.QueryBuilder][] = [
  ['errors.held_payments', (read, id) => read('payments').where({ 't.subject_id': id })],
  [
    'errors.held_reports',
    (read, id) =>
      read('subject-report-yearly')
        .where({ 't.subject_id': id })
        .where((q) => q.where('t.amount', '>', 0).orWhere('t.late_fine', '>', 0)),
  ],
  ['errors.held_fines', (read, id) => read('subject-protocols').where({ 't.subject_id': id }).where('t.fine_amount', '>', 0)],
  ['errors.held_acts', (read, id) => read('subject-akts').where({ 't.subject_id': id }).where('t.amount', '>', 0)],
  ['errors.held_penya', (read, id) => read('penya').where({ 't.subject_id': id }).where('t.amount', '>', 0)],
  // an offence's offenders are its child rows (read with their offence): one per offender naming the subject
  ['errors.held_offences', (_read, id, children) => children('offences', 'offenders').where({ 'c.subject_id': id })],
];

async function count(q: Knex.QueryBuilder): Promise<number> {
  return Number((await q.count({ n: '*' }))[0].n);
}

/**
 * The spec's "full deletion" of a subject (its own action, `full-delete`): refused with 409 while
 * money is attached to it (the message names what holds it and how many) or while it has branches
 * (they are subjects of their own: made main organisations first); otherwise its own rows go with
 * it, each through the engine with its delete audit row, in the action's one transaction — reports
 * without money (with their ingredients), protocols and acts without money and the stacks they
 * leave empty, penya rows without an amount, expertise requests, permits given to it, and its user
 * accounts (their sessions and roles with them; the rights they carry are checked against the
 * caller's). Norms and certificates are its child rows. Then the engine deletes the subject.
 */
async function fullDelete({ trx, row, repo, model, lang, principal }: HookContext): Promise<void> {
  const id = row.id as number;
  const held: string[] = [];
  const read = (entity: string) => repo(entity).scoped('read', trx);
  const children = (entity: string, field: string) => repo(entity).scopedChildren('read', field, 'c', trx);
  for (const [key, query] of HOLDS) {
    const n = await count(query(read, id, children));
    if (n) held.push(translate(model, lang, key, { count: n }));
  }
  if (held.length) throw new ApiError('inUse', 'errors.subject_has_money', { holds: held.join('; ') });
  const branches = await count(read('subject').where({ 't.parent_id': id }));
  if (branches) throw new ApiError('inUse', 'errors.subject_has_branches', { count: branches });

  const remove = async (entity: string, where: (q: Knex.QueryBuilder) => void): Promise<number[]> => {
    const r = repo(entity);
    const q = r.scoped('delete', trx).forUpdate().orderBy('t.id');
    where(q);
    const ids: number[] = (await q.pluck('t.id')).map(Number);
    if (ids.length)
      await r.removeLocked(trx, [...(await r.snapshots(trx, ids)).values()], { op: 'delete', check: 'delete', action: 'full-delete' });
    return ids;
  };
  /** the stacks of the removed rows that hold nothing else now (`rows`: the entity of the stacks' rows, read whole by the hook) */
  const emptied = async (entity: string, rows: string, stackIds: number[]) => {
    if (!stackIds.length) return;
    const held = new Set((await read(rows).whereIn('t.stack_id', stackIds).distinct('t.stack_id').pluck('t.stack_id')).map(Number));
    const empty = stackIds.filter((s) => !held.has(s));
    if (empty.length) await remove(entity, (q) => q.whereIn('t.id', empty));
  };
  const stacksOf = async (entity: string) =>
    (await read(entity).where({ 't.subject_id': id }).distinct('t.stack_id').pluck('t.stack_id')).map(Number);

  await remove('subject-report-yearly', (q) => q.where('t.subject_id', id));
  const protocolStacks = await stacksOf('subject-protocols');
  await remove('subject-protocols', (q) => q.where('t.subject_id', id));
  await emptied('stack-protocols', 'subject-protocols', protocolStacks);
  const actStacks = await stacksOf('subject-akts');
  await remove('subject-akts', (q) => q.where('t.subject_id', id));
  await emptied('stack-akts', 'subject-akts', actStacks);
  await remove('penya', (q) => q.where('t.subject_id', id));
  await remove('expertise-requests-data', (q) => q.where('t.subject_id', id));
  await remove('given-permits', (q) => q.where('t.subject_id', id));
  // its accounts: nobody takes away rights they do not hold, here as on the users' screen
  const users = repo('users');
  const accounts = await users.scoped('delete', trx).where('t.subject_id', id).forUpdate().orderBy('t.id').pluck('t.id');
  if (accounts.length) {
    const rows = [...(await users.snapshots(trx, accounts.map(Number))).values()];
    for (const u of rows) await assertPrivileges(trx, users.e, principal, u, null);
    await users.removeLocked(trx, rows, { op: 'delete', check: 'delete', action: 'full-delete' });
  }
}

/** Subject operations: a suspension's dates in order; a main organisation that is not the subject's own branch; the full deletion. */
export const SUBJECT_HOOKS: Record<string, Hook> = {
  'subjects.checkSuspension': async ({ params }) => {
    const from = params?.suspended_from as string;
    const to = params?.suspended_to as string;
    if (from && to && to < from) throw validationError({ suspended_to: { key: 'validation.suspension_dates' } });
  },
  'subjects.checkParent': async ({ trx, row, params, repo, entity }) => {
    const parent = Number(params?.parent_id);
    if (parent === row.id) throw validationError({ parent_id: { key: 'validation.own_parent' } });
    // walk up from the new main organisation (the hook's trusted read): meeting this subject would make a cycle
    const subjects = repo(entity.name);
    const seen = new Set<number>();
    for (let at: number | null = parent; at != null && !seen.has(at) && seen.size < 100; ) {
      if (at === row.id) throw validationError({ parent_id: { key: 'validation.parent_cycle' } });
      seen.add(at);
      const up: { parent_id: number | null } | undefined = await subjects.scoped('read', trx).where('t.id', at).first('t.parent_id');
      at = up?.parent_id == null ? null : Number(up.parent_id);
    }
  },
  'subjects.fullDelete': fullDelete,
};
