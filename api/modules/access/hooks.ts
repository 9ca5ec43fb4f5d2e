import type { Hook } from '../types.ts';
import { revokeUserSessions } from '../../auth/sessions.ts';

/** Users: a blocked user's sessions end at once; so do a user's sessions when their password is set anew. */
export const USER_HOOKS: Record<string, Hook> = {
  'users.endSessions': async ({ trx, row }) => {
    await revokeUserSessions(trx, row.id as number);
  },
  'users.afterWrite': async ({ trx, row, changed }) => {
    if (changed.has('password')) await revokeUserSessions(trx, row.id as number);
  },
};
