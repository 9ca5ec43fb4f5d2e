import type { Hook } from '../types.ts';
import { validationError } from '../../http/errors.ts';

/** Subject operations: a suspension's dates in order; a main organisation that is not the subject's own branch. */
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
       select id from up`, [entity.table, parent, entity.table]);
    if ((chain.rows as { id: number }[]).some((r) => r.id === row.id)) throw validationError({ parent_id: { key: 'validation.parent_cycle' } });
  },
};
