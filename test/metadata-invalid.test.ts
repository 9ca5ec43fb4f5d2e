import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMetadata, MetadataInvalid } from '../api/meta/load.ts';
import { fixtureMetaDir } from './support/fixture-model.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkModules } from '../api/registry.ts';

/** A malformed metadata file is refused with its path, the JSON pointer and the reason. */
const cli = fileURLToPath(new URL('../cli/bin.mjs', import.meta.url));
const base = {
  name: 'broken-book',
  module: 'fixtures',
  caption: 'entity.regions',
  access: { read: 9501 },
  fields: { name: { type: 'text3', required: true } },
  list: { columns: ['id', 'name'], sort: ['name', 'asc'] },
};

function problemsOf(entity: object) {
  try {
    loadMetadata(fixtureMetaDir([entity]));
  } catch (err) {
    expect(err).toBeInstanceOf(MetadataInvalid);
    return (err as MetadataInvalid).problems;
  }
  throw new Error('metadata was accepted');
}

/** A fixture module file next to the project's (metadata/modules/fixtures.json). */
function withRoutes(routes: object[], entities: object[] = []): string {
  const dir = fixtureMetaDir(entities);
  writeFileSync(join(dir, 'modules', 'fixtures.json'), JSON.stringify({ module: 'fixtures', routes }));
  return dir;
}

describe('metadata validation', () => {
  it("accepts the repository's metadata", () => {
    expect(loadMetadata().entities.size).toBeGreaterThan(20);
  });

  it('names the file, the pointer and the reason of a schema error', () => {
    const problems = problemsOf({ ...base, fields: { name: { type: 'text3', required: 'yes' }, code: { type: 'strnig' } } });
    expect(problems).toContainEqual({
      file: 'metadata/entities/fixtures/broken-book.json',
      pointer: '/fields/name/required',
      message: 'must be boolean',
    });
    expect(
      problems.some((p) => p.pointer === '/fields/code/type' && p.message.startsWith('must be equal to one of the allowed values')),
    ).toBe(true);
  });

  it('refuses a badge on a field that is not a flag', () => {
    expect(problemsOf({ ...base, fields: { ...base.fields, code: { type: 'string', badge: 'warning' } } })).toContainEqual(
      expect.objectContaining({ pointer: '/fields/code/type', message: 'must be equal to constant' }),
    );
    expect(problemsOf({ ...base, fields: { ...base.fields, flag: { type: 'boolean', badge: 'pink' } } })).toContainEqual(
      expect.objectContaining({ pointer: '/fields/flag/badge' }),
    );
  });

  it('refuses an action id that would grant a change of another entity too (a read id may open several lists)', () => {
    // 6301 creates act stacks (metadata/entities/ecofund/stack-akts.json)
    expect(problemsOf({ ...base, access: { read: 9501, create: 6301 } })).toContainEqual(
      expect.objectContaining({
        pointer: '/access/create',
        message: 'action id 6301 already gives create on stack-akts: an id that changes rows belongs to one operation of one entity',
      }),
    );
    expect(problemsOf({ ...base, access: { read: 6301 } })).toContainEqual(expect.objectContaining({ pointer: '/access/read' }));
    // 292 reads act stacks: another list may share it
    expect(() => loadMetadata(fixtureMetaDir([{ ...base, access: { read: 292 } }]))).not.toThrow();
  });

  it('refuses a queue of states its workflow has not, of actions that do not move its rows on, or that its list cannot filter', () => {
    const flow = (queues: object, filters: object = { status: 'in' }) => ({
      ...base,
      fields: { ...base.fields, status: { type: 'enum', values: ['new', 'sent'] } },
      list: { ...base.list, filters },
      workflow: {
        field: 'status',
        initial: 'new',
        actions: { send: { from: ['new'], to: 'sent', action: 9502 }, recalculate: { from: ['new'], action: 9503 } },
        queues,
      },
    });
    const at = (name: string) => `/workflow/queues/${name}`;
    expect(problemsOf(flow({ 'reports-to-send': { states: ['draft'], actions: ['send'] } }))).toContainEqual(
      expect.objectContaining({ pointer: `${at('reports-to-send')}/states/0`, message: '"draft" is not a value of status' }),
    );
    expect(problemsOf(flow({ 'reports-to-send': { states: ['new'], actions: ['recalculate', 'vanished'] } }))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: `${at('reports-to-send')}/actions/0` }),
        expect.objectContaining({ pointer: `${at('reports-to-send')}/actions/1` }),
      ]),
    );
    expect(problemsOf(flow({ 'reports-to-send': { states: ['new', 'sent'], actions: ['send'] } }, { status: 'eq' }))).toContainEqual(
      expect.objectContaining({ pointer: `${at('reports-to-send')}/states` }),
    );
    expect(problemsOf(flow({ 'no-such-caption': { states: ['new'], actions: ['send'] } }))).toContainEqual(
      expect.objectContaining({ pointer: at('no-such-caption'), message: expect.stringContaining('queues.no-such-caption') }),
    );
    // a queue as declared, of one state and an "eq" filter, is taken
    expect(() =>
      loadMetadata(fixtureMetaDir([flow({ 'reports-to-send': { states: ['new'], actions: ['send'] } }, { status: 'eq' })])),
    ).not.toThrow();
  });

  it('refuses a reference within fields it does not have, or by a column its list cannot filter', () => {
    const ref = (within: object) => ({
      ...base,
      fields: { ...base.fields, area_id: { type: 'ref', ref: 'areas' }, mahalla_id: { type: 'ref', ref: 'mahalla', within } },
    });
    expect(problemsOf(ref({ area_id: 'district_id' }))).toContainEqual(
      expect.objectContaining({
        pointer: '/fields/mahalla_id/within/area_id',
        message: '"district_id" is not a field beside "mahalla_id"',
      }),
    );
    expect(problemsOf(ref({ code: 'area_id' }))).toContainEqual(
      expect.objectContaining({
        pointer: '/fields/mahalla_id/within/code',
        message: 'mahalla has no "eq" list filter "code" for the form to offer the rows that agree',
      }),
    );
  });

  it('refuses a reference within a field that holds another kind of value than the referenced column', () => {
    const ref = (own: object, within: object) => ({
      ...base,
      fields: { ...base.fields, ...own, area_id: { type: 'ref', ref: 'areas', within } },
    });
    // a district's region_id refers to regions: the row's field must too
    expect(problemsOf(ref({ region_id: { type: 'ref', ref: 'subject' } }, { region_id: 'region_id' }))).toContainEqual(
      expect.objectContaining({
        pointer: '/fields/area_id/within/region_id',
        message: '"region_id" must be a ref to regions, as areas.region_id is',
      }),
    );
    expect(problemsOf(ref({ region_id: { type: 'integer' } }, { region_id: 'region_id' }))).toContainEqual(
      expect.objectContaining({
        pointer: '/fields/area_id/within/region_id',
        message: '"region_id" must be a ref to regions, as areas.region_id is',
      }),
    );
    expect(problemsOf(ref({}, { region_id: 'area_id' }))).toContainEqual(
      expect.objectContaining({ pointer: '/fields/area_id/within/region_id', message: '"area_id" cannot agree with itself' }),
    );
    // a column of another kind than a reference is compared with a field of its own type
    expect(problemsOf(ref({ soato: { type: 'integer' } }, { soato: 'soato' }))).toContainEqual(
      expect.objectContaining({
        pointer: '/fields/area_id/within/soato',
        message: '"soato" (integer) cannot be compared with areas.soato (string)',
      }),
    );
    // the region field of the row, a ref to regions as the district's: valid
    expect(() =>
      loadMetadata(fixtureMetaDir([ref({ region_id: { type: 'ref', ref: 'regions' } }, { region_id: 'region_id' })])),
    ).not.toThrow();
  });

  it('refuses unknown properties, references, columns and captions', () => {
    expect(problemsOf({ ...base, colour: 'red' })).toContainEqual(
      expect.objectContaining({ pointer: '', message: 'unknown property "colour"' }),
    );
    expect(problemsOf({ ...base, fields: { ...base.fields, x_id: { type: 'ref', ref: 'nowhere' } } })).toContainEqual(
      expect.objectContaining({ pointer: '/fields/x_id/ref', message: 'no entity "nowhere"' }),
    );
    expect(problemsOf({ ...base, list: { columns: ['id', 'nome'], sort: ['name', 'asc'] } })).toContainEqual(
      expect.objectContaining({ pointer: '/list/columns/1', message: '"nome" is not a field of broken-book' }),
    );
    expect(problemsOf({ ...base, caption: 'entity.never_translated' })).toContainEqual(
      expect.objectContaining({ pointer: '/caption', message: 'caption "entity.never_translated" is missing in i18n/uz.json' }),
    );
    expect(problemsOf({ ...base, name: 'regions' })).toContainEqual(expect.objectContaining({ pointer: '/name' }));
  });

  it("refuses a field, filter or column whose caption any one catalogue lacks (no caption falls back to a field's name)", () => {
    const without = (lang: string, group: string, key: string) => (dir: string) => {
      const file = join(dir, 'i18n', `${lang}.json`);
      const tree = JSON.parse(readFileSync(file, 'utf8'));
      delete tree[group][key];
      writeFileSync(file, JSON.stringify(tree));
      return dir;
    };
    const problemsIn = (dir: string) => {
      try {
        loadMetadata(dir);
      } catch (err) {
        return (err as MetadataInvalid).problems;
      }
      throw new Error('metadata was accepted');
    };
    // a field with its own caption in uz and uk only
    const own = {
      ...base,
      fields: { ...base.fields, area_id: { type: 'ref', ref: 'areas', label: 'fields.fixture_area' } },
      list: { ...base.list, filters: { area_id: 'eq' } },
    };
    expect(
      problemsIn(fixtureMetaDir([own], { uz: { 'fields.fixture_area': 'Tuman' }, uk: { 'fields.fixture_area': 'Туман' }, ru: {} })),
    ).toContainEqual({
      file: 'metadata/entities/fixtures/broken-book.json',
      pointer: '/fields/area_id',
      message: 'caption "fields.fixture_area" is missing in i18n/ru.json',
    });
    // a bookkeeping column as a list's column and filter: its shared caption must be in every catalogue
    const stamped = { ...base, list: { ...base.list, columns: ['id', 'name', 'updated_at'], filters: { created_at: 'range' } } };
    const problems = problemsIn(without('uk', 'fields', 'created_at')(without('ru', 'fields', 'updated_at')(fixtureMetaDir([stamped]))));
    // (reported once, at the first place that needs it: an entity of the repository may come first)
    expect(problems).toContainEqual(expect.objectContaining({ message: 'caption "fields.updated_at" is missing in i18n/ru.json' }));
    expect(problems).toContainEqual(expect.objectContaining({ message: 'caption "fields.created_at" is missing in i18n/uk.json' }));
  });

  it('refuses a list cookie that is not a filter cookie, or one two lists share', () => {
    const list = (cookie: string) => ({ ...base.list, cookie });
    expect(problemsOf({ ...base, list: list('session') })).toContainEqual(
      expect.objectContaining({ pointer: '/list/cookie', message: 'must match pattern "^filter_[a-z_]+$"' }),
    );
    expect(problemsOf({ ...base, list: list('filter_X; Path=/') })).toContainEqual(expect.objectContaining({ pointer: '/list/cookie' }));
    // the subjects list (metadata/entities/ecofund/subject.json) already keeps filter_subjects
    expect(problemsOf({ ...base, list: list('filter_subjects') })).toContainEqual({
      file: 'metadata/entities/fixtures/broken-book.json',
      pointer: '/list/cookie',
      message: 'cookie "filter_subjects" already keeps the filter of subject',
    });
    expect(loadMetadata(fixtureMetaDir([{ ...base, list: list('filter_broken_book') }])).entities.get('broken-book')!.list.cookie).toBe(
      'filter_broken_book',
    );
  });

  it('makes meta:validate exit 1 with the same message', () => {
    const dir = fixtureMetaDir([{ ...base, fields: { name: { type: 'text3', required: 'yes' } } }]);
    let out = '';
    let code = 0;
    try {
      execFileSync(process.execPath, [cli, 'meta:validate', '--dir', dir], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      const e = err as { status: number; stderr: string };
      code = e.status;
      out = e.stderr;
    }
    expect(code).toBe(1);
    expect(out).toContain('metadata/entities/fixtures/broken-book.json: /fields/name/required: must be boolean');
    expect(execFileSync(process.execPath, [cli, 'meta:validate'], { encoding: 'utf8' })).toMatch(/^Metadata is valid: \d+ entities/);
  });

  it('refuses hooks and handlers no module defines, and routes that do not hold together', () => {
    const model = loadMetadata(
      withRoutes(
        [{ name: 'nowhere', method: 'get', path: '/fixtures/nowhere', handler: 'fixtures.nowhere' }],
        [{ ...base, afterWrite: 'books.vanished', workflow: undefined }],
      ),
    );
    expect(checkModules(model)).toEqual(
      expect.arrayContaining([
        {
          file: 'metadata/entities/fixtures/broken-book.json',
          pointer: '/afterWrite',
          message: 'no module defines the hook "books.vanished"',
        },
        {
          file: 'metadata/modules/fixtures.json',
          pointer: '/routes/0/handler',
          message: 'no module defines the handler "fixtures.nowhere"',
        },
      ]),
    );
    const problems = (routes: object[]) => {
      try {
        loadMetadata(withRoutes(routes));
      } catch (err) {
        return (err as MetadataInvalid).problems;
      }
      throw new Error('metadata was accepted');
    };
    expect(problems([{ name: 'a', method: 'get', path: ':id/a', handler: 'x.y' }])).toContainEqual(
      expect.objectContaining({ pointer: '/routes/0/path', message: "a path under an entity's needs the entity" }),
    );
    expect(problems([{ name: 'b', method: 'get', path: '/x/:code', handler: 'x.y' }])).toContainEqual(
      expect.objectContaining({ pointer: '/routes/0/params', message: 'path parameter ":code" is not declared' }),
    );
    expect(problems([{ name: 'c', method: 'post', path: ':id/c', entity: 'users', op: 'wf:promote', handler: 'x.y' }])).toContainEqual(
      expect.objectContaining({ pointer: '/routes/0/op', message: 'users has no workflow action "promote"' }),
    );
    // two files with one route: whichever comes second is told of the first
    expect(problems([{ name: 'd', method: 'get', path: '/health', handler: 'x.y' }])).toContainEqual(
      expect.objectContaining({
        pointer: '/routes/0/path',
        message: expect.stringMatching(/^GET \/health is already a route of metadata\/modules\/(system|fixtures)\.json$/),
      }),
    );
    expect(problems([{ name: 'e', method: 'get', path: '/x', auth: 'public', action: 474, handler: 'x.y' }])).toContainEqual(
      expect.objectContaining({ pointer: '/routes/0/auth', message: 'a public route needs no action' }),
    );
    // the read replica (DATABASE_READ_URL) is read-only and lags: only a GET that writes nothing reads there
    expect(problems([{ name: 'f', method: 'post', path: '/x', auth: 'public', reads: 'replica', handler: 'x.y' }])).toContainEqual(
      expect.objectContaining({ pointer: '/routes/0/reads', message: 'only a GET that writes nothing may read from the replica' }),
    );
  });
});
