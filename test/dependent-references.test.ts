import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { createUser } from '../cli/create-user.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { translate } from '../api/meta/captions.ts';
import { LANGS, type FieldMeta, type MetaModel } from '../api/meta/types.ts';
import { JobWorker } from '../api/jobs/worker.ts';
import { Repository } from '../api/engine/repository.ts';
import { ApiError } from '../api/http/errors.ts';
import type { Principal } from '../api/auth/ability.ts';

/**
 * References that depend on another field of the same row (`within`, docs/metadata.md): a district
 * of another region than the row's is a 400 beside the district in the caller's language — on
 * create, on an update that moves either side, and in an import, by row — and the pickers' lists
 * hold only what the caller's scope lets them choose (a region's fund user: their region and its
 * districts). Every pair of references in the metadata where one's target refers to the other's
 * target is declared, or named below as independent with why.
 */
const model = loadMetadata();
// subjects made importable here, for the import's case (the registry imports none of its own)
model.entities.get('subject')!.import = true;
const SUBJECTS = '/api/ecofund/subject';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
let api: TestApi;
let regionA: number;
let regionB: number;
let areaA: number;
let areaB: number;
let category: number;
let fundToken: string;

beforeAll(async () => {
  api = await startTestApi(model);
  const k = api.db.knex;
  [regionA, regionB] = (await k('regions').orderBy('id').limit(2).pluck('id')).map(Number);
  areaA = Number((await k('areas').where({ region_id: regionA }).orderBy('id').first('id')).id);
  areaB = Number((await k('areas').where({ region_id: regionB }).orderBy('id').first('id')).id);
  category = Number((await k('subject_categories').orderBy('id').first('id')).id);
  await createUser(k, { username: 'fund_a', password: 'secret-pw', roles: ['fund'], region_id: regionA });
  fundToken = await api.login('fund_a', 'secret-pw');
}, 120_000);
afterAll(async () => {
  await api?.close();
});

/** The message of a district that is not of the row's region, in a language. */
const notInRegion = (lang: string) =>
  translate(api.model, lang as never, 'validation.not_within', { field: translate(api.model, lang as never, 'fields.region_id') });

let inn = 520000000;
const subject = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  inn: String(++inn),
  name: `“Sinov ${inn}” MChJ`,
  category_id: category,
  ...over,
});

describe("a district of the row's region", () => {
  it('refuses a subject whose district is of another region: 400 beside area_id, in uz, uk and ru; nothing written', async () => {
    for (const lang of LANGS) {
      const body = subject({ region_id: regionA, area_id: areaB });
      const r = await api.post(SUBJECTS, body, { lang });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual({ area_id: notInRegion(lang) });
      expect(await api.db.knex('subjects').where({ inn: body.inn }).first('id')).toBeUndefined();
    }
    // the messages themselves: Uzbek Latin, Uzbek Cyrillic (not Ukrainian), Russian
    expect(notInRegion('uz')).toMatch(/^«[A-Za-zʻ ]+» da tanlangan qiymatga tegishli emas$/);
    expect(notInRegion('uk')).toMatch(/^«[А-ЯЎҚҒҲа-яўқғҳ ]+» да танланган қийматга тегишли эмас$/);
    expect(notInRegion('ru')).toMatch(/^Не относится к выбранному значению «[А-Яа-я ]+»$/);
  });

  it('takes a subject whose district is of its region (201), and refuses an update that moves either side apart', async () => {
    const made = await api.post(SUBJECTS, subject({ region_id: regionA, area_id: areaA }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ region_id: regionA, area_id: areaA });
    const id = made.body.id;
    // the region moved, the district left as it was
    const moved = await api.put(`${SUBJECTS}/${id}`, { region_id: regionB, version: made.body.version }, { lang: 'ru' });
    expect([moved.status, moved.body.errors]).toEqual([400, { area_id: notInRegion('ru') }]);
    // the district moved to another region's
    const other = await api.put(`${SUBJECTS}/${id}`, { area_id: areaB, version: made.body.version }, { lang: 'uk' });
    expect([other.status, other.body.errors]).toEqual([400, { area_id: notInRegion('uk') }]);
    // both moved together: fine
    const both = await api.put(`${SUBJECTS}/${id}`, { region_id: regionB, area_id: areaB, version: made.body.version });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(await api.db.knex('subjects').where({ id }).first('region_id', 'area_id')).toEqual({ region_id: regionB, area_id: areaB });
  });

  it('refuses a batch written at once (createMany) naming the row and field, writing nothing', async () => {
    const admin = await api.db.knex('users').whereRaw('lower(username) = ?', ['admin']).first('id');
    const principal: Principal = {
      id: admin.id,
      username: 'admin',
      region_id: null,
      branch_id: null,
      subject_id: null,
      actions: new Set([253, 6101]),
    };
    const repo = new Repository({ knex: api.db.knex, model: api.model, principal, lang: 'uz' }, api.model.entities.get('subject')!);
    const rows = [
      subject({ region_id: regionA, area_id: areaA }),
      subject({ region_id: regionA, area_id: areaB }),
      subject({ region_id: regionB, area_id: areaB }),
    ];
    const err = await repo.createMany(rows).then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err.fieldErrors).toEqual({
      'rows.2.area_id': { key: 'validation.not_within', args: { field: translate(api.model, 'uz', 'fields.region_id') } },
    });
    expect(
      await api.db
        .knex('subjects')
        .whereIn(
          'inn',
          rows.map((r) => String(r.inn)),
        )
        .first('id'),
    ).toBeUndefined();
  });

  it('refuses an imported file with a mismatched row, naming its row and column; nothing written', { timeout: 60_000 }, async () => {
    const rows = [subject({ region_id: regionA, area_id: areaA }), subject({ region_id: regionA, area_id: areaB })];
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Import');
    ws.addRow(['inn', 'name', 'region_id', 'area_id', 'category_id']);
    for (const r of rows) ws.addRow([r.inn, r.name, r.region_id, r.area_id, r.category_id]);
    const res = await fetch(`${api.url}${SUBJECTS}/import`, {
      method: 'POST',
      body: new Uint8Array(await wb.xlsx.writeBuffer()),
      headers: { Authorization: `Bearer ${api.adminToken}`, Language: 'ru', 'Content-Type': XLSX },
    });
    const job = (await res.json()) as { id: number };
    expect(res.status, JSON.stringify(job)).toBe(202);
    await new JobWorker(api.db.knex, () => api.model, { pollMs: 50, heartbeatMs: 20, leaseMs: 60_000 }).drain();
    const done = await api.get(`/api/jobs/${job.id}`, { lang: 'ru' });
    expect(done.body).toMatchObject({ state: 'failed', error: { code: -105, errors: { 'rows.3.area_id': notInRegion('ru') } } });
    expect(
      await api.db
        .knex('subjects')
        .whereIn(
          'inn',
          rows.map((r) => String(r.inn)),
        )
        .first('id'),
    ).toBeUndefined();
  });
});

describe("the pickers' lists, as the caller's scope", () => {
  it('tells the back-office which field a reference depends on (GET /api/meta)', async () => {
    const meta = await api.get('/api/meta', { token: fundToken });
    const fields = meta.body.entities.find((e: { name: string }) => e.name === 'subject').fields as {
      name: string;
      within?: Record<string, string>;
    }[];
    expect(fields.find((f) => f.name === 'area_id')?.within).toEqual({ region_id: 'region_id' });
  });

  it("gives a region's fund user their region only, and its districts only", async () => {
    const regions = await api.get('/api/ecofund-sprav/regions?range=[0,99]', { token: fundToken });
    expect(regions.status).toBe(200);
    expect(regions.body.map((r: { id: number }) => r.id)).toEqual([regionA]);
    expect(regions.headers.get('content-range')).toMatch(/\/1$/);
    // the administrator, of no region, sees every one
    expect((await api.get('/api/ecofund-sprav/regions?range=[0,99]')).body.length).toBeGreaterThan(1);
    const areas = await api.get('/api/ecofund-sprav/areas?range=[0,99]', { token: fundToken });
    expect(areas.status, JSON.stringify(areas.body)).toBe(200);
    expect(areas.body.length).toBeGreaterThan(0);
    expect(new Set(areas.body.map((a: { region_id: number }) => a.region_id))).toEqual(new Set([regionA]));
    // another region's row is not found to them
    expect((await api.get(`/api/ecofund-sprav/regions/${regionB}`, { token: fundToken })).status).toBe(404);
  });

  it("refuses another region's district beside its field; another region is not theirs to name (403)", async () => {
    // naming a scope value of another than one's own is refused before anything is looked up
    expect((await api.post(SUBJECTS, subject({ region_id: regionB }), { token: fundToken })).status).toBe(403);
    // another region's district does not exist to them
    const area = await api.post(SUBJECTS, subject({ region_id: regionA, area_id: areaB }), { token: fundToken });
    expect([area.status, area.body.errors]).toEqual([400, { area_id: translate(api.model, 'uz', 'validation.ref_not_found') }]);
    const own = await api.post(SUBJECTS, subject({ region_id: regionA, area_id: areaA }), { token: fundToken });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
  });
});

/**
 * Pairs of references in one row where one's target has a reference to the other's target, and
 * the row need not keep them together: `<entity>.<ref>.<its column>` → why.
 */
const INDEPENDENT: Record<string, string> = {
  'expertise-requests-data.subject_id.category_id':
    "the request's category is of the activity asked about, not the subject's registered one",
  'notification.user_id.region_id': 'a user may have no region (headquarters), and a notification to one user names them alone',
  'notification.user_id.subject_id': 'likewise: most users are of no subject',
  'notification.user_id.branch_id': 'likewise: most users are of no branch',
  'offences.offence_type_id.fine_id':
    "a type's article is a default; the offence's article is the inspector's finding (and a type may have none)",
  'planting-inspections.inspector_id.region_id': 'an inspector of the ministry has no region',
  'planting-inspections.org_id.region_id': 'a national organisation has no region',
  'planting-inspections.planting_id.area_id': 'a planting may have no district',
  'planting-inspections.planting_id.org_id': 'an inspection may find another organisation at work than the one recorded',
  'planting-plans.org_id.region_id': 'a national organisation has no region and plans in every one',
  'plantings.org_id.region_id': 'a national organisation has no region and plants in every one',
  'plantings.volunteer_id.area_id': 'a volunteer plants beyond their own district',
  'tree-cutting-violations.permit_id.area_id': 'a permit may have no district',
  'tree-cutting-violations.permit_id.species_id': 'felling another species than permitted is itself the violation',
  'volunteers.user_id.region_id': "a resident's account may have no region",
};

/** Written by the engine or a hook, not chosen in a form: kept together by what writes it. */
const derived = (f: FieldMeta) => Boolean(f.readOnly || f.hidden || f.from || f.computedBy);

function dependentPairs(m: MetaModel): { key: string; declared: boolean }[] {
  const out: { key: string; declared: boolean }[] = [];
  for (const e of m.entities.values()) {
    for (const [b, fb] of Object.entries(e.fields)) {
      const target = fb.type === 'ref' ? m.entities.get(fb.ref!) : undefined;
      if (!target || derived(fb)) continue;
      for (const [a, fa] of Object.entries(e.fields)) {
        if (a === b || fa.type !== 'ref' || derived(fa)) continue;
        for (const [c, fc] of Object.entries(target.fields)) {
          if (fc.type !== 'ref' || fc.ref !== fa.ref) continue;
          // a column the target copies from one of its references (a mahalla's region, from its
          // district) agrees when that reference does (the mahalla within the row's district)
          const via = fc.from?.split('.')[0];
          out.push({ key: `${e.name}.${b}.${a}`, declared: fb.within?.[c] === a || (via !== undefined && via in (fb.within ?? {})) });
        }
      }
    }
  }
  return out;
}

describe("the metadata's dependent references", () => {
  it('declares every pair the forms choose, or names it independent with why', () => {
    const pairs = dependentPairs(model);
    const undeclared = pairs.filter((p) => !p.declared && !(p.key in INDEPENDENT)).map((p) => p.key);
    expect(undeclared).toEqual([]);
    // nothing named independent is declared after all, or gone
    const declared = new Set(pairs.filter((p) => p.declared).map((p) => p.key));
    expect(Object.keys(INDEPENDENT).filter((k) => declared.has(k) || !pairs.some((p) => p.key === k))).toEqual([]);
    expect([...declared].sort()).toEqual(
      expect.arrayContaining([
        'subject.area_id.region_id',
        'offences.mahalla_id.area_id',
        'users.branch_id.region_id',
        'penya.report_id.subject_id',
        'issued-documents.template_id.type_id',
      ]),
    );
  });
});
