/** test/support/run-tmp.mjs: a test run's temporary folder, `TMPDIR` pointed at it. */
export function runTmpDir(prefix: string): { dir: string; remove(): void };
/** Whether a process of this id runs on this machine (one of another user's counts: EPERM). */
export function processAlive(pid: number): boolean;
