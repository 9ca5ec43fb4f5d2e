import type { Knex } from 'knex';
import { hashPassword } from '../api/auth/password.ts';

export interface NewUser {
  username: string;
  password: string;
  fio?: string;
  roles: string[];
  region_id?: number | null;
  subject_id?: number | null;
  branch_id?: number | null;
}

/** Creates a user with the given role codes, in one transaction. */
export async function createUser(knex: Knex, u: NewUser): Promise<number> {
  if (!/^[A-Za-z0-9_.@-]{3,60}$/.test(u.username)) throw new Error('username: 3–60 letters, digits, _ . @ -');
  if (u.password.length < 6) throw new Error('password: at least 6 characters');
  return knex.transaction(async (trx) => {
    const roles = await trx('roles').whereIn('code', u.roles).select('id', 'code');
    const missing = u.roles.filter((c) => !roles.some((r: { code: string }) => r.code === c));
    if (missing.length) throw new Error(`no such role: ${missing.join(', ')}`);
    if (await trx('users').whereRaw('lower(username) = lower(?)', [u.username]).first('id'))
      throw new Error(`user ${u.username} already exists`);
    const [row] = await trx('users')
      .insert({
        username: u.username,
        password: await hashPassword(u.password),
        fio: u.fio ?? null,
        region_id: u.region_id ?? null,
        subject_id: u.subject_id ?? null,
        branch_id: u.branch_id ?? null,
      })
      .returning('id');
    if (roles.length) await trx('user_roles').insert(roles.map((r: { id: number }) => ({ user_id: row.id, role_id: r.id })));
    return row.id as number;
  });
}
