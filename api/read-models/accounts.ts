import type { Knex } from 'knex';
import type { Principal } from '../auth/ability.ts';
import type { Lang } from '../meta/types.ts';

/**
 * A user's account as sign-in and the account's own routes need it (its password hash, status
 * and contacts): the system's own reads, never answered as they are (`publicUser` picks what a
 * caller sees). The users entity's repository answers every other read of a user.
 */

/** A user's row as stored (its password hash included: never answered as it is). */
export interface AccountRow {
  id: number;
  username: string;
  password: string;
  status: string;
  email: string | null;
  phone: string | null;
  lang_code: Lang;
  [column: string]: unknown;
}

/** The account of a user name (case folded), for a sign-in, a code or a reset: the name's own row only. */
export function accountByName(knex: Knex, username: string): Promise<AccountRow | undefined> {
  return knex('users').whereRaw('lower(username) = lower(?)', [username]).first();
}

/** The caller's own account: their row and no other. */
export function ownAccountRow(knex: Knex, principal: Pick<Principal, 'id'>): Promise<AccountRow | undefined> {
  return knex('users').where({ id: principal.id }).first();
}

/** The account that holds an address (sign-up): by its name, its e-mail or its phone — only whether one does. */
export function accountHoldingAddress(knex: Knex | Knex.Transaction, address: string): Promise<{ id: number } | undefined> {
  return knex('users')
    .where((q) => q.whereRaw('lower(username) = ?', [address]).orWhereRaw('lower(email) = ?', [address]).orWhere('phone', address))
    .first('id');
}

/** A system role's id by its code (a signed-up resident is given the population role). */
export async function roleIdByCode(knex: Knex | Knex.Transaction, code: string): Promise<number | undefined> {
  const row = await knex('roles').where({ code }).first('id');
  return row ? Number(row.id) : undefined;
}
