import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';

/**
 * Control zones end to end over HTTP: a folder tree whose folders define fields, the zone's form
 * made from them (its own and its upper folders'), values checked on the server by the same JSON
 * Schema — a value that breaks its field's rule is a 400 naming the field in the caller's language
 * — the region scope of zones and values; given permits extended and terminated with a flow row
 * each, and 409s from the wrong state.
 */
let api: TestApi;
let regionA: number;
let regionB: number;
let inspector: string;
const FOLDERS = '/api/ecoinspection-dictionaries/control-zones-folders';
const FIELDS = '/api/ecoinspection-dictionaries/control-zone-fields';
const ZONES = '/api/ecoinspection-dictionaries/control-zone';
const VALUES = '/api/ecoinspection-dictionaries/control-zone-field-values';
const PERMITS = '/api/ecoinspection-dictionaries/given-permits';
const ring = (lng: number, lat: number) => [
  [lng, lat],
  [lng + 0.01, lat],
  [lng + 0.01, lat + 0.01],
  [lng, lat + 0.01],
];

let root: number;
let lakes: number;
let zoneA: number;
let zoneB: number;

beforeAll(async () => {
  api = await startTestApi();
  [regionA, regionB] = (await api.db.knex('regions').orderBy('id').limit(2).pluck('id')).map(Number);
  // an inspector of region A: reads zones, fills values, issues, extends and terminates permits
  inspector = await api.userWithActions('zone_inspector', [5303, 5305, 6383, 6384, 5302, 6387, 6388, 6391, 6392], { region_id: regionA });

  root = (await api.post(FOLDERS, { code: 'T-WATER', name: { uz: 'Suv obyektlari', uk: 'Сув объектлари', ru: 'Водные объекты' } })).body.id;
  const sub = await api.post(FOLDERS, { code: 'T-LAKES', parent_id: root, name: { uz: 'Koʻllar', ru: 'Озёра' } });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  lakes = sub.body.id;
  const fields = [
    {
      folder_id: root,
      code: 'area_ha',
      caption: { uz: 'Maydoni (ga)', uk: 'Майдони (га)', ru: 'Площадь (га)' },
      field_kind: 'number',
      required: true,
      min: '0',
      max: '1000',
      ordering: 1,
    },
    {
      folder_id: lakes,
      code: 'depth',
      caption: { uz: 'Chuqurligi (m)', uk: 'Чуқурлиги (м)', ru: 'Глубина (м)' },
      field_kind: 'integer',
      min: '0',
      max: '50',
      ordering: 1,
    },
    {
      folder_id: lakes,
      code: 'water',
      caption: { uz: 'Suv turi', uk: 'Сув тури', ru: 'Тип воды' },
      field_kind: 'select',
      ordering: 2,
      options: [
        { value: 'fresh', caption: { uz: 'Chuchuk', ru: 'Пресная' } },
        { value: 'salt', caption: { uz: 'Shoʻr', ru: 'Солёная' } },
      ],
    },
  ];
  for (const f of fields) {
    const r = await api.post(FIELDS, f);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  const za = await api.post(ZONES, {
    folder_id: lakes,
    code: 'T-Z-A',
    name: { uz: 'Koʻl A' },
    region_id: regionA,
    outline: ring(69.2, 41.3),
  });
  expect(za.status, JSON.stringify(za.body)).toBe(201);
  zoneA = za.body.id;
  zoneB = (
    await api.post(ZONES, { folder_id: lakes, code: 'T-Z-B', name: { uz: 'Koʻl B' }, region_id: regionB, outline: ring(65.3, 40.1) })
  ).body.id;
});
afterAll(async () => {
  await api?.close();
});

describe('field definitions', () => {
  it('refuses a choice field without options, options on another kind, a code twice in a folder, and a folder under itself', async () => {
    const noOptions = await api.post(
      FIELDS,
      { folder_id: lakes, code: 'kind', caption: { uz: 'Turi' }, field_kind: 'select' },
      { lang: 'ru' },
    );
    expect(noOptions.status).toBe(400);
    expect(noOptions.body.errors).toEqual({ options: 'Для поля выбора укажите хотя бы один вариант' });
    const strayOptions = await api.post(FIELDS, {
      folder_id: lakes,
      code: 'kind',
      caption: { uz: 'Turi' },
      field_kind: 'string',
      options: [{ value: 'a', caption: { uz: 'A' } }],
    });
    expect(Object.keys(strayOptions.body.errors)).toEqual(['options']);
    const twin = await api.post(FIELDS, { folder_id: lakes, code: 'depth', caption: { uz: 'Yana' }, field_kind: 'integer' });
    expect(twin.body.errors).toEqual({ code: 'Bunday qiymat allaqachon mavjud' });
    const bounds = await api.post(FIELDS, { folder_id: lakes, code: 'name2', caption: { uz: 'Nom' }, field_kind: 'string', min: '1' });
    expect(Object.keys(bounds.body.errors)).toEqual(['min']);
    const folder = (await api.get(`${FOLDERS}/${root}`)).body;
    const cycle = await api.put(`${FOLDERS}/${root}`, { ...folder, parent_id: lakes });
    expect(cycle.status).toBe(400);
    expect(Object.keys(cycle.body.errors)).toEqual(['parent_id']);
  });
});

describe('a zone form made from the definitions', () => {
  it("holds the upper folder's fields first, then the folder's own, captioned in the caller's language", async () => {
    const r = await api.get(`${ZONES}/${zoneA}/values-schema`, { lang: 'ru' });
    expect(r.status).toBe(200);
    expect(r.body.uiSchema['ui:order']).toEqual(['area_ha', 'depth', 'water', '*']);
    expect(r.body.schema.required).toEqual(['area_ha']);
    expect(r.body.schema.properties.area_ha).toEqual({ title: 'Площадь (га)', type: 'number', minimum: 0, maximum: 1000 });
    expect(r.body.schema.properties.water.enum).toEqual(['fresh', 'salt']);
    expect(r.body.uiSchema.water['ui:enumNames']).toEqual(['Пресная', 'Солёная']);
    const uk = await api.get(`${ZONES}/${zoneA}/values-schema`, { lang: 'uk' });
    expect(uk.body.schema.properties.depth.title).toBe('Чуқурлиги (м)');
  });

  it("takes good values and answers a value that breaks its rule with a 400 naming the field, in the caller's language", async () => {
    const ok = await api.post(VALUES, { zone_id: zoneA, filled_on: '2026-05-10', values: { area_ha: 12.5, depth: 7, water: 'fresh' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ region_id: regionA, folder_id: lakes, values: { area_ha: 12.5, depth: 7, water: 'fresh' } });

    const deep = await api.post(VALUES, { zone_id: zoneA, filled_on: '2026-05-10', values: { area_ha: 3, depth: 80 } });
    expect(deep.status).toBe(400);
    expect(deep.body.errors).toEqual({ 'values.depth': '«Chuqurligi (m)»: Qiymat belgilangan oraliqda boʻlishi kerak (0 – 50)' });
    const ru = await api.post(
      VALUES,
      { zone_id: zoneA, filled_on: '2026-05-10', values: { depth: 3.5, water: 'sea', colour: 'blue' } },
      { lang: 'ru' },
    );
    expect(ru.status).toBe(400);
    expect(Object.keys(ru.body.errors).sort()).toEqual(['values.area_ha', 'values.colour', 'values.depth', 'values.water']);
    expect(ru.body.errors['values.area_ha']).toMatch(/^«Площадь \(га\)»: /);
    expect(ru.body.errors['values.water']).toMatch(/^«Тип воды»: /);
    const uk = await api.post(VALUES, { zone_id: zoneA, filled_on: '2026-05-10', values: {} }, { lang: 'uk' });
    expect(uk.body.errors['values.area_ha']).toMatch(/^«Майдони \(га\)»: /);
    // values that are not an object at all are the field's own error
    const notObject = await api.post(VALUES, { zone_id: zoneA, filled_on: '2026-05-10', values: [1, 2] });
    expect(Object.keys(notObject.body.errors)).toEqual(['values']);

    // an update is checked the same way, and a rule tightened later holds the next write
    const bad = await api.put(`${VALUES}/${ok.body.id}`, { ...ok.body, values: { area_ha: 2000 } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['values.area_ha']);
    const depthField = await api.db.knex('control_zone_fields').where({ folder_id: lakes, code: 'depth' }).first();
    const field = (await api.get(`${FIELDS}/${depthField.id}`)).body;
    expect((await api.put(`${FIELDS}/${field.id}`, { ...field, required: true })).status).toBe(200);
    const missing = await api.put(`${VALUES}/${ok.body.id}`, { ...ok.body, values: { area_ha: 5 } });
    expect(Object.keys(missing.body.errors)).toEqual(['values.depth']);
    expect((await api.put(`${VALUES}/${ok.body.id}`, { ...ok.body, values: { area_ha: 5, depth: 2 } })).status).toBe(200);
  });

  it('keeps an inspector to the zones and values of their region', async () => {
    expect((await api.get(`${ZONES}/${zoneB}/values-schema`, { token: inspector })).status).toBe(404);
    const zones = (await api.get(ZONES, { token: inspector })).body.map((z: { id: number }) => z.id);
    expect(zones).toContain(zoneA);
    expect(zones).not.toContain(zoneB);
    const mine = await api.post(
      VALUES,
      { zone_id: zoneA, filled_on: '2026-06-01', values: { area_ha: 1, depth: 1 } },
      { token: inspector },
    );
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const other = await api.post(
      VALUES,
      { zone_id: zoneB, filled_on: '2026-06-01', values: { area_ha: 1, depth: 1 } },
      { token: inspector },
    );
    expect([400, 403]).toContain(other.status);
    expect(Number((await api.db.knex('control_zone_field_values').where({ zone_id: zoneB }).count('* as n').first())!.n)).toBe(0);
    // fields and folders are the administrator's: the inspector does not define them
    expect(
      (await api.post(FIELDS, { folder_id: lakes, code: 'x', caption: { uz: 'X' }, field_kind: 'string' }, { token: inspector })).status,
    ).toBe(403);
    const values = (await api.get(VALUES, { token: inspector })).body;
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((v: { region_id: number }) => v.region_id === regionA)).toBe(true);
  });
});

describe('given permits', () => {
  let subjectId: number;
  beforeAll(async () => {
    const categoryId = (await api.db.knex('subject_categories').orderBy('id').first('id')).id;
    subjectId = (
      await api.post('/api/ecofund/subject', { inn: '310000001', name: 'Korxona 310000001', region_id: regionA, category_id: categoryId })
    ).body.id;
  });
  const typeId = async () =>
    (await api.db.knex('given_permit_types').orderBy('id').first('id'))?.id ??
    (await api.post('/api/ecoinspection-dictionaries/given-permit-types', { code: 'T1', name: { uz: 'Suvdan foydalanish' } })).body.id;

  it('is issued to a subject or a person, with the holder its kind needs', async () => {
    const t = await typeId();
    const noSubject = await api.post(PERMITS, {
      type_id: t,
      number: 'GP-0',
      issued_on: '2026-01-10',
      holder_kind: 'subject',
      region_id: regionA,
      object: 'Quduq',
      valid_from: '2026-01-10',
      valid_to: '2026-12-31',
    });
    expect(noSubject.status).toBe(400);
    expect(Object.keys(noSubject.body.errors)).toEqual(['subject_id']);
    const person = await api.post(PERMITS, {
      type_id: t,
      number: 'GP-P',
      issued_on: '2026-01-10',
      holder_kind: 'person',
      person_name: 'Karimov Anvar',
      person_pinfl: '31234567890123',
      region_id: regionA,
      object: 'Ov',
      valid_from: '2026-01-10',
      valid_to: '2026-12-31',
    });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
  });

  it('extends and terminates validity as actions with a flow row each, 409 from the wrong state', async () => {
    const t = await typeId();
    const created = await api.post(
      PERMITS,
      {
        type_id: t,
        number: 'GP-1',
        issued_on: '2026-01-10',
        holder_kind: 'subject',
        subject_id: subjectId,
        region_id: regionA,
        object: 'Chiqindi joylashtirish',
        valid_from: '2026-01-10',
        valid_to: '2026-06-30',
      },
      { token: inspector },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const earlier = await api.post(
      `${PERMITS}/${id}/actions/extend-validity`,
      { valid_to: '2026-03-01' },
      { token: inspector, lang: 'ru' },
    );
    expect(earlier.status).toBe(400);
    expect(earlier.body.errors).toEqual({ valid_to: 'Новый срок должен быть позже действующего (2026-06-30)' });
    const extended = await api.post(
      `${PERMITS}/${id}/actions/extend-validity`,
      { valid_to: '2027-06-30', comment: 'Ariza asosida' },
      { token: inspector },
    );
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect(extended.body).toMatchObject({ status: 'active', valid_to: '2027-06-30' });
    const early = await api.post(`${PERMITS}/${id}/actions/terminate-validity`, { terminated_on: '2026-02-01' }, { token: inspector });
    expect(early.body.errors).toEqual({ comment: 'Ushbu kiritma majburiy' });
    const terminated = await api.post(
      `${PERMITS}/${id}/actions/terminate-validity`,
      { terminated_on: '2026-02-01', comment: 'Talablar buzilgan' },
      { token: inspector },
    );
    expect(terminated.status, JSON.stringify(terminated.body)).toBe(200);
    expect(terminated.body).toMatchObject({ status: 'terminated', terminated_on: '2026-02-01', valid_to: '2027-06-30' });

    const again = await api.post(`${PERMITS}/${id}/actions/extend-validity`, { valid_to: '2028-01-01' }, { token: inspector });
    expect(again.status).toBe(409);
    expect(
      (await api.post(`${PERMITS}/${id}/actions/terminate-validity`, { terminated_on: '2026-02-02', comment: 'x' }, { token: inspector }))
        .status,
    ).toBe(409);
    const edit = await api.put(`${PERMITS}/${id}`, { ...terminated.body, object: 'Boshqa' }, { token: inspector });
    expect(edit.status).toBe(409);

    const flows = (await api.get(`${PERMITS}/${id}/flows`, { token: inspector })).body;
    expect(flows.map((f: Record<string, unknown>) => [f.action, f.from_state, f.to_state, f.comment])).toEqual([
      ['extend-validity', 'active', 'active', 'Ariza asosida'],
      ['terminate-validity', 'active', 'terminated', 'Talablar buzilgan'],
    ]);
  });

  it('keeps a permit of another region from a regional inspector', async () => {
    const t = await typeId();
    const far = await api.post(PERMITS, {
      type_id: t,
      number: 'GP-B',
      issued_on: '2026-01-10',
      holder_kind: 'person',
      person_name: 'Aliyev Vali',
      region_id: regionB,
      object: 'Baliq ovlash',
      valid_from: '2026-01-10',
      valid_to: '2026-12-31',
    });
    expect(far.status).toBe(201);
    expect((await api.get(`${PERMITS}/${far.body.id}`, { token: inspector })).status).toBe(404);
    expect(
      (await api.post(`${PERMITS}/${far.body.id}/actions/extend-validity`, { valid_to: '2027-12-31' }, { token: inspector })).status,
    ).toBe(404);
  });
});
