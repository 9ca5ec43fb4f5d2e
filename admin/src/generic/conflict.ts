/**
 * A save refused because the row moved on while the user edited it (409, code -106, decision 0021,
 * docs/api.md): the answer carries the row as it is now (`current`) and the fields sent that differ
 * from it (`differs`). The form keeps the user's input, shows both versions of each such field and
 * lets the user take the server's value or keep theirs; the next save carries the row's new
 * `version`, so it goes through (decision 0077).
 */

/** What a 409 of a stale save says: the row now, its version, the fields that differ. */
export interface Conflict {
  version: number;
  current: Record<string, unknown>;
  differs: string[];
}

/** The conflict an error of a save carries, or null when it is some other error. */
export function conflictOf(err: unknown): Conflict | null {
  if (!err || typeof err !== 'object') return null;
  const { status, body } = err as { status?: unknown; body?: unknown };
  if (status !== 409 || !body || typeof body !== 'object') return null;
  const b = body as { current?: unknown; differs?: unknown };
  const current = b.current;
  if (!current || typeof current !== 'object' || Array.isArray(current)) return null;
  const version = (current as { version?: unknown }).version;
  if (typeof version !== 'number' && typeof version !== 'string') return null;
  const differs = Array.isArray(b.differs) ? b.differs.filter((k): k is string => typeof k === 'string') : [];
  return { version: Number(version), current: current as Record<string, unknown>, differs };
}

/** The user's choice for one differing field: theirs (the default: nothing they typed is lost) or the server's. */
export type Choice = 'mine' | 'server';

/**
 * The values to send after the user chose: the form's values, each field whose choice is the
 * server's replaced by the server's value, and the row's version now.
 */
export function resolved(
  values: Record<string, unknown>,
  conflict: Conflict,
  choices: Record<string, Choice | undefined>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values, version: conflict.version };
  for (const k of conflict.differs) if (choices[k] === 'server') out[k] = conflict.current[k];
  return out;
}
