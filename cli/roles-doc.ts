import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EntityMeta, MetaModel } from '../api/meta/types.ts';
import { ADMIN_MODULES, SYSTEM_ROLES, actionUses, roleActions, type RoleScope, type SystemRole } from '../seeds/roles.ts';
import { DEMO_USERS, rolesOf } from '../seeds/demo-users.ts';
import { DEMO_ADMIN_PASSWORD } from '../seeds/index.ts';

export const ROLES_DOC = fileURLToPath(new URL('../docs/roles.md', import.meta.url));

const SCOPES: Record<RoleScope, string> = {
  region: 'its region (`users.region_id`)',
  subject: 'its subject (`users.subject_id`)',
  branch: 'its branch (`users.branch_id`)',
  none: 'all rows (headquarters level)',
};

const OPS = ['read', 'create', 'update', 'delete', 'export'] as const;

/** What a role holds of one entity: its operations, the other menu routes over its rows, its workflow actions. */
function entityLine(e: EntityMeta, ids: Set<number>, model: MetaModel): string | null {
  const ops = OPS.filter((op) => e.access[op] !== undefined && ids.has(e.access[op]!));
  const routes = model.menu.flatMap((s) =>
    s.children
      .filter(
        (c) =>
          c.entity === e.name && !c.nomenu && c.action !== undefined && (e.access.readAlso ?? []).includes(c.action) && ids.has(c.action),
      )
      .map((c) => c.route),
  );
  const actions = Object.entries(e.workflow?.actions ?? {})
    .filter(([, a]) => ids.has(a.action))
    .map(([n]) => n);
  const sets = Object.entries(e.rows ?? {})
    .filter(([, r]) => ids.has(r.action))
    .map(([n]) => n);
  if (!ops.length && !routes.length && !actions.length && !sets.length) return null;
  const parts = [
    ops.join(', '),
    sets.length ? `rows ${sets.join(', ')}` : '',
    routes.length ? `routes ${routes.join(', ')}` : '',
    actions.length ? `actions ${actions.join(', ')}` : '',
  ].filter(Boolean);
  return `${e.name} (${parts.join('; ')})`;
}

/** The modules, entities, operations, reports and screens a role holds, as one table cell. */
function grantsCell(role: SystemRole, model: MetaModel): string {
  const ids = new Set(roleActions(role, model));
  if (role.all) return `every action of the catalogue (${ids.size} ids today, and each one added later)`;
  const order = [...model.menu.map((s) => s.route.slice(1))];
  const modules = [...new Set([...order, ...[...model.entities.values()].map((e) => e.module)])];
  const lines: string[] = [];
  for (const module of modules) {
    const entities = [...model.entities.values()].filter((e) => e.module === module);
    const books = entities.filter((e) => e.kind === 'reference');
    const bookLine = (e: EntityMeta) => entityLine(e, ids, model);
    // a module all of whose books the role reads and exports, and nothing more of them, is said in one phrase
    const allBooks = books.length > 1 && books.every((e) => bookLine(e) === `${e.name} (read, export)`);
    const items = entities
      .filter((e) => !(allBooks && books.includes(e)))
      .map(bookLine)
      .filter((x): x is string => !!x);
    if (allBooks) items.unshift('every reference book (read, export)');
    if (items.length) lines.push(`**${module}**: ${items.join('; ')}`);
  }
  const reports = [...model.reports.values()]
    .filter((r) => r.access !== undefined && ids.has(r.access))
    .map((r) => (r.public ? `${r.name} (public)` : r.name));
  if (reports.length) lines.push(`**reports**: ${reports.join(', ')}`);
  // menu routes with a screen of their own (no entity, no report, no other use of the id)
  const uses = actionUses(model);
  const screens = model.menu.flatMap((s) =>
    s.children
      .filter(
        (c) =>
          !c.entity &&
          !c.report &&
          c.action !== undefined &&
          ids.has(c.action) &&
          !(uses.get(c.action) ?? []).some((u) => u.kind !== 'route'),
      )
      .map((c) => `${s.route.slice(1)}/${c.route}`),
  );
  if (screens.length) lines.push(`**screens**: ${screens.join(', ')}`);
  return lines.join('<br>');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** docs/roles.md: one row per system role, then the reasons, from seeds/roles.ts, seeds/demo-users.ts and the metadata. */
export function rolesDoc(model: MetaModel): string {
  // the demo users holding the role: its own first, then those holding it besides another (`also`)
  const demo = (code: string) =>
    code === 'administrator'
      ? ['admin']
      : [...DEMO_USERS.filter((u) => u.role === code), ...DEMO_USERS.filter((u) => u.role !== code && rolesOf(u).includes(code))].map(
          (u) => u.username,
        );
  const rows = SYSTEM_ROLES.map(
    (r) =>
      `| **${r.name.uz}** (\`${r.code}\`) | ${cell(r.purpose)} | ${SCOPES[r.scope]} | ${cell(grantsCell(r, model))} | ${
        demo(r.code)
          .map((u) => `\`${u}\``)
          .join(', ') || '—'
      } |`,
  );
  const notes = SYSTEM_ROLES.flatMap((r) => [`### ${r.name.uz} (\`${r.code}\`)`, '', ...r.notes.map((n) => `- ${n}`), '']);
  return [
    '# Roles',
    '',
    '<!-- Generated by `npx ecofond roles:doc` from seeds/roles.ts, seeds/demo-users.ts and the metadata; cli/roles-doc.test.ts fails when it is out of date. -->',
    '',
    "The spec's ten roles (section 6) as `seed` creates them. A user holds the actions of their roles",
    '(`role_actions` rows with state 1); the rows they see are limited by their own `region_id`,',
    '`subject_id` or `branch_id` wherever an entity declares that scope (a user with none of them sees',
    'every row). Grants are written by metadata name in `seeds/roles.ts`; `seed` adds to each role the',
    'actions it has never had a row for, so an action an administrator closed on the access-managing',
    'screen stays closed. Besides its grants, each role reads the reference books its entities point at.',
    '',
    `Nobody but the administrator holds an action of the ${ADMIN_MODULES.join(', ')} modules (users, roles, access,`,
    "settings, logs) or of their menu sections, even where another route shares the id; the fund's",
    '`branch` book is the one exception, read and exported by those who work branch plans.',
    '',
    '| role | what it is for | scope | what it gets | demo user |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    `Demo users exist only in the demo data (\`npm start\`, \`seed --demo\`), all with the password \`${DEMO_ADMIN_PASSWORD}\`; the`,
    'region users share one demo region, the subject user is a subject of it, the branch user a branch of it',
    '(README.md lists them).',
    '',
    '## Why',
    '',
    ...notes,
  ].join('\n');
}

/** Writes docs/roles.md; with `check`, only says whether it is up to date. */
export function writeRolesDoc(model: MetaModel, check = false, file = ROLES_DOC): boolean {
  const text = rolesDoc(model);
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    /* not written yet */
  }
  if (check || current === text) return current === text;
  writeFileSync(file, text);
  return true;
}
