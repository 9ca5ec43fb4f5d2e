import { readFileSync } from 'node:fs';

/**
 * A process's processor time so far, user + system, in seconds (Linux: `/proc/<pid>/stat`, fields
 * 14 and 15 after the command's closing parenthesis, in ticks of 1/100 s); null when the process is
 * gone or not on this machine (a remote database's backend).
 */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}
