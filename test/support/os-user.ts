import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The `postgres` OS user's ids, which PostgreSQL's own programs (a replica's server, pgbouncer) run
 * as when the tests run as root — they refuse root; null when there is no such user.
 */
/** Whether a process of this id runs on this machine (test/support/run-tmp.mjs, which the browser run shares). */
export { processAlive } from './run-tmp.mjs';

export async function postgresIds(): Promise<{ uid: number; gid: number } | null> {
  try {
    const [u, g] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
  } catch {
    return null;
  }
}
