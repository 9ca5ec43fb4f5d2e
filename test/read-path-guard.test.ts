import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
// @ts-expect-error the lint configuration is plain JavaScript without types
import { NEW_REPOSITORY_RULE, READ_PATH_PENDING, TABLE_RULES } from '../eslint.config.js';

/**
 * The one read path's ratchet (docs/decisions/0040). ESLint refuses a table named in a module or the
 * HTTP layer, and a module's own `new Repository`, everywhere but the files not moved yet
 * (READ_PATH_PENDING in eslint.config.js); each of those is held here to the count it has, so none
 * grows. Moving reads out lowers a count: lower it here too (the test says so), and drop a file
 * from both lists at zero.
 */
const PENDING_COUNTS: Record<string, number> = {};

const root = join(import.meta.dirname, '..');
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((f) => f.isFile() && f.name.endsWith('.ts') && !f.name.endsWith('.test.ts'))
    .map((f) => relative(root, join(f.parentPath, f.name)));

describe('one read path: tables named outside api/read-models cannot creep back', () => {
  it('the pending list and the counts name the same files', () => {
    expect([...READ_PATH_PENDING].sort()).toEqual(Object.keys(PENDING_COUNTS).sort());
  });

  it('each file of api/modules and api/http names no table but the pending ones, and those no more than their count', async () => {
    // the project's rules, applied to the pending files as well
    const eslint = new ESLint({
      cwd: root,
      overrideConfig: [
        { files: ['api/http/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...TABLE_RULES] } },
        { files: ['api/modules/**/*.ts'], ignores: [], rules: { 'no-restricted-syntax': ['error', ...TABLE_RULES, NEW_REPOSITORY_RULE] } },
      ],
    });
    const files = [...sources('api/modules'), ...sources('api/http')];
    const counts: Record<string, number> = {};
    for (const r of await eslint.lintFiles(files)) {
      const n = r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').length;
      if (n) counts[relative(root, r.filePath)] = n;
    }
    expect(
      counts,
      'a file names more tables than before, or a new one does: read through the repository or api/read-models/ (docs/decisions/0040); fewer: lower PENDING_COUNTS',
    ).toEqual(PENDING_COUNTS);
  }, 120_000);
});
