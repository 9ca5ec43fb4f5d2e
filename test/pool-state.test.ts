import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * No session state in a pooled connection (docs/scaling.md): the API may sit behind a pgbouncer in
 * transaction mode, where each transaction may get another server connection. So the server's
 * code sets nothing but `SET LOCAL` (inside a transaction), takes only transaction-scoped advisory
 * locks, prepares no statement by name, makes no temporary table that outlives its transaction
 * (the statement import's staging table is `ON COMMIT DROP`, docs/payments-import.md), and LISTENs only on the two
 * connections of its own (reference books, chat) that DATABASE_LISTEN_URL points at the primary.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.ts$/.test(f) && !/\.test\.ts$/.test(f) ? [p] : [];
  });
const files = [...sources(join(root, 'api')), ...sources(join(root, 'migrations'))].map((p) => ({
  file: relative(root, p),
  text: readFileSync(p, 'utf8'),
}));
const hits = (re: RegExp, where = files) =>
  where.flatMap(({ file, text }) =>
    text
      .split('\n')
      .map((line, i) => ({ file, line: i + 1, text: line }))
      .filter((l) => re.test(l.text) && !/^\s*(\/\/|\*)/.test(l.text)),
  );

describe('pooled connections keep no session state', () => {
  it('sets settings only for a transaction', () => {
    // a statement that starts with SET (not UPDATE … SET) and is not SET LOCAL
    expect(hits(/[`'"]\s*SET\s+(?!LOCAL\b)(SESSION\s+)?[a-z_]+\s*(=|TO\b)/i).map((h) => `${h.file}:${h.line}`)).toEqual([]);
    expect(hits(/set_config\s*\([^)]*,\s*false\s*\)/i)).toEqual([]);
  });

  it('takes no session-level advisory lock, prepares nothing by name, makes no temporary table beyond its transaction', () => {
    expect(hits(/pg_(try_)?advisory_lock(_shared)?\s*\(/i)).toEqual([]);
    expect(hits(/[`'"]\s*PREPARE\s+\w+/i)).toEqual([]);
    expect(hits(/\bCREATE\s+TEMP(ORARY)?\s+TABLE\b(?!.*\bON\s+COMMIT\s+DROP\b)/i)).toEqual([]);
    // those dropped with their transaction are used only inside one (the staging of a COPY and its slice)
    expect([...new Set(hits(/\bCREATE\s+TEMP(ORARY)?\s+TABLE\b/i).map((h) => h.file))]).toEqual(['api/engine/copy-create.ts']);
  });

  it('listens only on the connections of its own', () => {
    expect([...new Set(hits(/[`'"]\s*LISTEN\s/).map((h) => h.file))].sort()).toEqual(['api/meta/live.ts', 'api/modules/chat/hub.ts']);
  });
});
