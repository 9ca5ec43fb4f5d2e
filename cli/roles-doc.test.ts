import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../api/meta/load.ts';
import { ROLES_DOC, rolesDoc } from './roles-doc.ts';
import { SYSTEM_ROLES } from '../seeds/roles.ts';

/** docs/roles.md is what `npx ecofond roles:doc` writes from seeds/roles.ts and the metadata today. */
describe('docs/roles.md', () => {
  const doc = rolesDoc(loadMetadata());

  it('is up to date (run `npx ecofond roles:doc` after changing a role or the metadata)', () => {
    expect(readFileSync(ROLES_DOC, 'utf8')).toBe(doc);
  });

  it('has one row per role, each with its demo users (its own, then those holding it besides another)', () => {
    const rows = doc.split('\n').filter((l) => l.startsWith('| **'));
    expect(rows).toHaveLength(SYSTEM_ROLES.length);
    for (const r of SYSTEM_ROLES)
      expect(
        rows.find((l) => l.includes(`(\`${r.code}\`)`)),
        r.code,
      ).toMatch(/\| `[a-z]+`(, `[a-z]+`)* \|$/);
    expect(rows.find((l) => l.includes('(`inspector`)'))).toMatch(/\| `inspector`, `field` \|$/);
  });
});
