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
const HOLDS: [string, (read: (entity: string) => Knex.QueryBuilder, id: number) => Knex.QueryBuilder][] = [
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
  [
    'errors.held_offences',
    (read, id) => read('offences').joinRaw('join offence_offenders o on o.parent_id = t.id').where({ 'o.subject_id': id }),
  ],
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
  for (const [key, query] of HOLDS) {
    const n = await count(query(read, id));
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
  /** the stacks of the removed rows that hold nothing else now */
  const emptied = async (entity: string, table: string, stackIds: number[]) => {
    if (!stackIds.length) return;
    await remove(entity, (q) => q.whereIn('t.id', stackIds).whereNotExists(trx(table).whereRaw('?? = t.id', [`${table}.stack_id`])));
  };
  const stacksOf = async (entity: string) =>
    (await read(entity).where({ 't.subject_id': id }).distinct('t.stack_id').pluck('t.stack_id')).map(Number);

  await remove('subject-report-yearly', (q) => q.where('t.subject_id', id));
  const protocolStacks = await stacksOf('subject-protocols');
  await remove('subject-protocols', (q) => q.where('t.subject_id', id));
  await emptied('stack-protocols', 'protocols', protocolStacks);
  const actStacks = await stacksOf('subject-akts');
  await remove('subject-akts', (q) => q.where('t.subject_id', id));
  await emptied('stack-akts', 'akts', actStacks);
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
  'subjects.checkParent': async ({ trx, row, params, entity }) => {
    const parent = Number(params?.parent_id);
    if (parent === row.id) throw validationError({ parent_id: { key: 'validation.own_parent' } });
    // walk up from the new main organisation: meeting this subject would make a cycle
    const chain = await trx.raw(
      `with recursive up(id, parent_id, depth) as (
         select id, parent_id, 0 from ?? where id = ?
         union all select s.id, s.parent_id, up.depth + 1 from ?? s join up on s.id = up.parent_id where up.depth < 100)
       select id from up`,
      [entity.table, parent, entity.table],
    );
    if ((chain.rows as { id: number }[]).some((r) => r.id === row.id))
      throw validationError({ parent_id: { key: 'validation.parent_cycle' } });
  },
  'subjects.fullDelete': fullDelete,
};
