import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata, MetadataInvalid } from '../api/meta/load.ts';
import { startTestApi, type TestApi } from './support/api.ts';
import { fixtureMetaDir } from './support/fixture-model.ts';

/**
 * What the back-office's safe deletes stand on (docs/decisions/0065, 0066): a row the system needs
 * (a seeded role) is never deleted, and the back-office is told which field marks it; a delete's
 * dry run (`?dryRun=1`) gives the answer the delete would get — nothing deleted, nothing audited;
 * a deleting workflow action names what goes with the row.
 */
let api: TestApi;
const ROLES = '/api/managing/user-roles';
const BANKS = '/api/ecofund-sprav/banks-mfo';
const REGIONS = '/api/ecofund-sprav/regions';

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const msg = (lang: 'uz' | 'uk' | 'ru', key: string) => api.model.captions[lang][key];
const audits = async (entity: string, id: number) =>
  Number((await api.db.knex('audit_log').where({ entity, record_id: id, op: 'delete' }).count({ n: '*' }))[0].n);

describe('rows the system needs', () => {
  it("refuses deleting a seeded role in the caller's language, alone or among others, and its dry run says so", async () => {
    const admin = await api.db.knex('roles').where({ code: 'administrator' }).first('id', 'is_system');
    expect(admin.is_system).toBe(true);
    // a system role nobody holds: no foreign key holds it, only the rule
    const idle = await api.db
      .knex('roles')
      .where({ is_system: true })
      .whereNotExists(api.db.knex('user_roles').whereRaw('role_id = roles.id'))
      .first('id');
    expect(idle, 'a system role nobody holds').toBeTruthy();
    for (const lang of ['uz', 'uk', 'ru'] as const) {
      for (const path of [`${ROLES}/${idle.id}`, `${ROLES}/${idle.id}?dryRun=1`]) {
        const r = await api.del(path, { lang });
        expect(r.status, path).toBe(409);
        expect(JSON.stringify(r.body)).toContain(msg(lang, 'errors.undeletable'));
      }
    }
    const own = await api.post(ROLES, { code: 'safe_deletes_temp', name: { uz: 'Vaqtinchalik', ru: 'Временная' } });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const many = await api.post(`${ROLES}/delete-many`, { ids: [own.body.id, idle.id] });
    expect(many.status).toBe(409);
    expect(Number((await api.db.knex('roles').whereIn('id', [own.body.id, idle.id]).count({ n: '*' }))[0].n)).toBe(2);
    // a role of one's own goes
    expect((await api.del(`${ROLES}/${own.body.id}`)).status).toBe(200);
    expect(await api.db.knex('roles').where({ id: own.body.id }).first()).toBeUndefined();
  });

  it('tells the back-office which field marks them, and what a full deletion takes with it', async () => {
    const meta = (await api.get('/api/meta')).body as {
      entities: { name: string; undeletable?: string; workflow?: { actions: { name: string; removes?: string[] }[] } }[];
    };
    expect(meta.entities.find((e) => e.name === 'user-roles')?.undeletable).toBe('is_system');
    expect(meta.entities.find((e) => e.name === 'banks-mfo')?.undeletable).toBeUndefined();
    const full = meta.entities.find((e) => e.name === 'subject')?.workflow?.actions.find((a) => a.name === 'full-delete');
    expect(full?.removes).toEqual(expect.arrayContaining(['subject-report-yearly', 'penya', 'users']));
  });
});

describe("a delete's dry run", () => {
  it('answers as the delete would and leaves the rows and the audit as they were', async () => {
    const ids: number[] = [];
    for (const mfo of ['08881', '08882']) {
      const r = await api.post(BANKS, { mfo, name: { uz: `Bank ${mfo}` } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.id);
    }
    const one = await api.del(`${BANKS}/${ids[0]}?dryRun=1`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ id: ids[0], dryRun: true });
    const many = await api.post(`${BANKS}/delete-many?dryRun=1`, { ids });
    expect(many.status).toBe(200);
    expect(many.body).toEqual({ data: ids, dryRun: true });
    expect(Number((await api.db.knex('banks_mfo').whereIn('id', ids).count({ n: '*' }))[0].n)).toBe(2);
    expect(await audits('banks-mfo', ids[0])).toBe(0);
    // the real one goes, with its audit row
    expect((await api.del(`${BANKS}/${ids[0]}`)).status).toBe(200);
    expect(await audits('banks-mfo', ids[0])).toBe(1);
    // a row that is gone is a 404 to the dry run as to the delete
    expect((await api.del(`${BANKS}/${ids[0]}?dryRun=1`)).status).toBe(404);
  });

  it('says 409 "in use" for a row others refer to, before anyone confirms', async () => {
    const region = await api.db.knex('regions').whereExists(api.db.knex('areas').whereRaw('areas.region_id = regions.id')).first('id');
    expect(region, 'a region with its districts').toBeTruthy();
    const r = await api.del(`${REGIONS}/${region.id}?dryRun=1`, { lang: 'ru' });
    expect(r.status).toBe(409);
    expect(JSON.stringify(r.body)).toContain(msg('ru', 'errors.in_use'));
    expect(await api.db.knex('regions').where({ id: region.id }).first('id')).toBeTruthy();
  });

  it('needs the delete right as the delete does', async () => {
    const reader = await api.userWithActions('bank_reader', [api.model.entities.get('banks-mfo')!.access.read!]);
    const [row] = await api.db.knex('banks_mfo').limit(1).pluck('id');
    expect((await api.del(`${BANKS}/${row}?dryRun=1`, { token: reader })).status).toBe(403);
  });
});

describe('the metadata of safe deletes', () => {
  const base = {
    name: 'broken-book',
    module: 'fixtures',
    caption: 'entity.regions',
    access: { read: 9501 },
    fields: { name: { type: 'text3', required: true }, is_system: { type: 'boolean' } },
    list: { columns: ['id', 'name'], sort: ['name', 'asc'] },
  };
  const problemsOf = (entity: object) => {
    try {
      loadMetadata(fixtureMetaDir([entity]));
    } catch (err) {
      expect(err).toBeInstanceOf(MetadataInvalid);
      return (err as MetadataInvalid).problems;
    }
    throw new Error('metadata was accepted');
  };

  it('refuses an undeletable mark that is not a boolean field', () => {
    expect(problemsOf({ ...base, undeletable: 'name' })).toContainEqual(expect.objectContaining({ pointer: '/undeletable' }));
    expect(() => loadMetadata(fixtureMetaDir([{ ...base, undeletable: 'is_system' }]))).not.toThrow();
  });

  it('refuses "removes" on an action that deletes nothing, or naming no entity', () => {
    const wf = (action: object) => ({
      ...base,
      fields: { ...base.fields, status: { type: 'enum', values: ['a', 'b'] } },
      workflow: { field: 'status', initial: 'a', actions: { go: { from: ['a'], action: 9502, ...action } } },
    });
    expect(problemsOf(wf({ to: 'b', removes: ['regions'] }))).toContainEqual(
      expect.objectContaining({
        pointer: '/workflow/actions/go/removes/0',
        message: 'only an action that deletes the row names what goes with it',
      }),
    );
    expect(problemsOf(wf({ delete: true, removes: ['nowhere'] }))).toContainEqual(
      expect.objectContaining({ pointer: '/workflow/actions/go/removes/0', message: '"nowhere" is not an entity' }),
    );
  });
});
