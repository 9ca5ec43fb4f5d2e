import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata } from '../api/meta/load.ts';
import { Repository } from '../api/engine/repository.ts';
import type { Principal } from '../api/auth/ability.ts';
import type { Database } from '../api/db/connection.ts';
import type { EntityRows } from '../api/meta/rows.generated.ts';
import { testDatabase } from '../test/support/db.ts';
import { rowHook, type HookContext } from '../api/modules/types.ts';
import { buildRegistry } from '../api/registry.ts';
import { ROWS_FILE, SCHEMA_FILE, rowProps, rowTypes, schemaTypes, writeRowTypes, type RowProp } from './meta-types.ts';

const model = loadMetadata();

/** The checked-in api/meta/rows.generated.ts is what `npx ecofond meta:types` writes from the metadata today. */
describe('meta:types', () => {
  const text = rowTypes(model);

  it("is current (run `npx ecofond meta:types` after changing an entity's fields)", () => {
    expect(readFileSync(ROWS_FILE, 'utf8')).toBe(text);
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(schemaTypes(JSON.parse(readFileSync('metadata/schema/entity.schema.json', 'utf8'))));
  });

  it('types an entity file from the schema: its fields, enums and tuples', () => {
    const files = schemaTypes(JSON.parse(readFileSync('metadata/schema/entity.schema.json', 'utf8')));
    expect(files).toContain('export type EntityField = {\n  type: "string" | "integer" | "decimal" | "money"');
    expect(files).toContain('  onDelete?: "restrict" | "cascade" | "set null";');
    expect(files).toContain('    sort: [EntityIdentifier, "asc" | "desc"];');
    expect(files).toMatch(/^ {2}fields: Record<string, EntityField>;$/m);
  });

  it('types an enum as its values, money as an exact string, a ref as a number, children as their rows', () => {
    const offences = block(text, 'OffencesRow');
    expect(offences).toContain('  status: "draft" | "review" | "returned" | "mvd" | "closed" | null;');
    expect(offences).toContain('  fine_amount: string | null;'); // money
    expect(offences).toContain('  fine_id: number;'); // a required ref
    expect(offences).toContain('  offenders?: OffencesOffendersRow[];');
    expect(offences).toContain('  location: PointValue | null;');
    expect(offences).toMatch(/^ {2}id: number;\n {2}version: number;\n {2}created_at: Date;/m);
    const offenders = block(text, 'OffencesOffendersRow');
    expect(offenders).toContain('  id: number;\n  ordering: number;');
    expect(offenders).toContain('  offender_kind: "person" | "organisation";');
    const payments = block(text, 'PaymentsRow');
    expect(payments).toContain('  amount: string;'); // required money: never a float
    expect(payments).toContain('  paid_on: string;'); // a date
    // a log without tracking has no version; a password is never read
    expect(block(text, 'AuditLogRow')).not.toContain('version');
    expect(block(text, 'UsersRow')).not.toMatch(/password/);
    expect(text).toContain('  "offences": OffencesRow;');
    // the types compile to what they say (tsc checks these lines)
    const status: EntityRows['offences']['status'] = 'mvd';
    // @ts-expect-error money is a string, never a number
    const amount: EntityRows['payments']['amount'] = 12.5;
    void status;
    void amount;
  });

  it('--check exits 1 naming the line when a metadata field no longer matches the checked-in file', () => {
    const root = mkdtempSync(join(tmpdir(), 'meta-types-'));
    try {
      cpSync('metadata', join(root, 'metadata'), { recursive: true });
      mkdirSync(dirname(join(root, ROWS_FILE)), { recursive: true });
      for (const f of [ROWS_FILE, SCHEMA_FILE]) writeFileSync(join(root, f), readFileSync(f, 'utf8'));
      const file = join(root, 'metadata/entities/ecofund/payments.json');
      const payments = JSON.parse(readFileSync(file, 'utf8'));
      expect(writeRowTypes(loadMetadata(join(root, 'metadata')), root, true)).toEqual({ current: true });
      payments.fields.amount.type = 'integer';
      writeFileSync(file, JSON.stringify(payments, null, 2));
      const r = spawnSync(process.execPath, ['cli/bin.mjs', 'meta:types', '--check', '--root', root], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('has "  amount: string;", the metadata gives "  amount: number;"');
      expect(r.stderr).toContain('The generated types are out of date: run `npx ecofond meta:types`');
      // without --check it writes the file, and then it is current
      expect(writeRowTypes(loadMetadata(join(root, 'metadata')), root)).toEqual({ current: false });
      expect(writeRowTypes(loadMetadata(join(root, 'metadata')), root, true)).toEqual({ current: true });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * The generated types against the rows the engine really reads: every entity with a row in the
 * seeded database is read through the Repository (getOne, children included) and each value must be
 * of the type its property says, with no property missing and none more.
 */
describe('the row types against the rows the engine reads', () => {
  let db: Database;
  beforeAll(async () => {
    db = await testDatabase();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it("every seeded entity's row, and an offence's, a subject's and a penya's, is of its generated type", async () => {
    const k = db.knex;
    const bound = buildRegistry().bind(loadMetadata()); // the modules' hooks run on the documents' writes
    const admin = await k('users').where({ username: 'admin' }).first('id');
    const principal: Principal = {
      id: admin.id,
      username: 'admin',
      actions: new Set(bound.actions.keys()),
      region_id: null,
      branch_id: null,
      subject_id: null,
    };
    // documents beside the seeded books: an offence (a point, enums, money, its offenders and witnesses), a subject, a penya
    const repo = (n: string) => new Repository({ knex: k, model: bound, principal, lang: 'uz' }, bound.entities.get(n)!);
    const region = Number(
      await k('regions')
        .orderBy('id')
        .first('id')
        .then((r) => r.id),
    );
    const [{ id: fineId }] = await k('fine')
      .insert({ code: 'T-65', article: '65', name: JSON.stringify({ uz: 'Daraxt kesish' }), min_multiple: '5', max_multiple: '10' })
      .returning('id');
    const subject = await repo('subject').create({
      inn: '600000101',
      name: 'Kimyo MChJ',
      region_id: region,
      category_id: (await k('subject_categories').first('id')).id,
    });
    await repo('offences').create({
      number: 'HB-1',
      offence_date: '2025-09-01',
      region_id: region,
      location: { lat: 41.35, lng: 69.22 },
      fine_id: fineId,
      fine_multiple: '7.5',
      offenders: [
        { offender_kind: 'person', full_name: 'Aliyev Vali' },
        { offender_kind: 'organisation', inn: '600000101' },
      ],
      witnesses: [{ full_name: 'Saidova Gulnora' }],
    });
    await repo('penya').create({
      subject_id: subject.id,
      debt: '1000000.00',
      due_date: '2024-01-31',
      as_of: '2024-02-29',
      daily_rate: '0.1',
    });
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const e of bound.entities.values()) {
      const q = k(e.table).orderBy('id');
      if (e.view) q.where(e.view);
      if (e.softDelete) q.whereNull('deleted_at');
      const first = await q.first('id').catch(() => undefined);
      if (!first) continue;
      const row = await new Repository({ knex: k, model: bound, principal, lang: 'uz' }, e).getOne(first.id);
      wrong.push(...mismatches(row, rowProps(e), e.name));
      checked.push(e.name);
    }
    expect(wrong).toEqual([]);
    // the seeded reference books and system tables: enums, money, dates, times, text3, refs, children
    expect(checked.length).toBeGreaterThan(20);
    expect(checked).toEqual(expect.arrayContaining(['offences', 'subject', 'penya']));
  }, 120_000);
});

/** A hook typed for one entity's row reads that row; run for another entity it refuses. */
describe('rowHook', () => {
  const hook = rowHook('penya', async ({ row }) => ({ amount: row.debt }));
  const ctx = (entity: string) => ({ entity: model.entities.get(entity)!, row: { debt: '10.00' } }) as unknown as HookContext;
  it("hands the hook its entity's row", async () => {
    expect(await hook(ctx('penya'))).toEqual({ amount: '10.00' });
  });
  it('throws when run for another entity', () => {
    expect(() => hook(ctx('offences'))).toThrow('a hook of penya was run for offences');
  });
});

/** The text of one interface of the generated file. */
function block(text: string, name: string): string {
  const at = text.indexOf(`export interface ${name} {`);
  expect(at, name).toBeGreaterThanOrEqual(0);
  return text.slice(at, text.indexOf('\n}\n', at));
}

/** Where a row read by the engine differs from its row type: a value of another type, a property missing or more. */
function mismatches(row: Record<string, unknown>, props: RowProp[], where: string): string[] {
  const out: string[] = [];
  const names = new Set(props.map((p) => p.name));
  for (const k of Object.keys(row)) if (!names.has(k)) out.push(`${where}.${k}: read, but not in the type`);
  for (const p of props) {
    if (!(p.name in row)) {
      if (!p.optional) out.push(`${where}.${p.name}: in the type, not read`);
      continue;
    }
    const v = row[p.name];
    if (p.child) {
      if (!Array.isArray(v)) {
        out.push(`${where}.${p.name}: not an array`);
        continue;
      }
      v.forEach((c, i) => out.push(...mismatches(c as Record<string, unknown>, p.child!, `${where}.${p.name}.${i}`)));
      continue;
    }
    if (!p.type.split(' | ').some((t) => fits(t, v))) out.push(`${where}.${p.name}: ${JSON.stringify(v)} is not ${p.type}`);
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fits(t: string, v: unknown): boolean {
  if (t.startsWith('"')) return v === JSON.parse(t);
  switch (t) {
    case 'null':
      return v === null;
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'Date':
      return v instanceof Date;
    case 'unknown':
      return true;
    case 'number[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'number');
    case 'Text3Value':
      return isObject(v) && ['uz', 'uk', 'ru'].every((l) => v[l] === undefined || v[l] === null || typeof v[l] === 'string');
    case 'PointValue':
      return isObject(v) && typeof v.lat === 'number' && typeof v.lng === 'number';
    case 'PolygonValue':
      return Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'number'));
    default:
      throw new Error(`the test does not know the type ${t}`);
  }
}
