import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A test run's temporary folder (plain JavaScript: `e2e/run.mjs` runs under Node alone, `npm
 * test`'s global set-up under vitest). Whatever the run's tests, servers and browsers make under
 * `os.tmpdir()` goes into `<tmp>/<prefix><pid>-…`: `TMPDIR` points there for this process and the
 * ones it starts. `remove()` deletes it and puts `TMPDIR` back; the folders of earlier runs of the
 * same prefix whose process is gone (a run killed by a timeout) are removed when the next one starts.
 */
export function runTmpDir(prefix) {
  const parent = tmpdir();
  for (const name of readdirSync(parent)) {
    const pid = name.startsWith(prefix) ? Number.parseInt(name.slice(prefix.length), 10) : 0;
    if (pid && !processAlive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(parent, `${prefix}${process.pid}-`));
  chmodSync(dir, 0o1777); // as /tmp: the servers tests start as the postgres user write there too
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return {
    dir,
    remove() {
      rmSync(dir, { recursive: true, force: true });
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    },
  };
}

/** Whether a process of this id runs on this machine (one of another user's counts: EPERM). */
export function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}
