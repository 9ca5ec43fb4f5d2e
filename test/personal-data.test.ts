import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from './support/api.ts';
import { sampleFineArticle } from './support/samples.ts';
import { createUser } from '../cli/create-user.ts';

/**
 * Personal data field by field (docs/personal-data.md, issue 31): a reader without the entity's
 * `access.personal` sees masks in a list, a record, its history, an export and GeoJSON, and cannot
 * search a phone a digit at a time; a reader with it sees the values in clear and leaves exactly
 * one access record a read, which the administrator lists; a mask sent back on update keeps the
 * stored value; a person's data is gathered for them, and anonymised only where no law keeps it.
 */
const OFFENCES = '/api/ecofund-offences/offences';
const GARDENS = '/api/ecofund-plantings/my-gardens';
const READS = '/api/admin/personal-data-reads';
const PINFL = '31234567891234';
let api: TestApi;
let r1: number;
let fineId: number;
let offenceId: number;
let gardenId: number;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

async function user(username: string, role: string, region: number): Promise<void> {
  ids[username] = await createUser(api.db.knex, { username, password: 'secret-pw', roles: [role], region_id: region });
  tokens[username] = await api.login(username, 'secret-pw');
}

const reads = async () =>
  (await api.db.knex('personal_data_reads').orderBy('id').select('*')) as {
    user_id: number;
    entity: string;
    kind: string;
    record_id: number | null;
    record_ids: number[];
    rows: number;
    fields: string[];
  }[];

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  [r1] = (await k('regions').orderBy('id').limit(1).pluck('id')).map(Number);
  fineId = await sampleFineArticle(k, 'PD-65-1');
  await user('pd_hq', 'headquarters', r1);
  await user('pd_reviewer', 'confirming_staff', r1);
  await user('pd_eco', 'ecology_staff', r1);
  const offence = await api.post(OFFENCES, {
    number: 'PD-1',
    offence_date: '2025-09-01',
    region_id: r1,
    address: 'Olmazor tumani',
    location: { lat: 41.35, lng: 69.22 },
    fine_id: fineId,
    fine_multiple: '6',
    offenders: [
      {
        offender_kind: 'person',
        full_name: 'Aliyev Vali',
        birth_date: '1985-03-12',
        passport: 'AA 1234567',
        pinfl: PINFL,
        address: 'Toshkent sh., Chilonzor t., 5-uy',
      },
      { offender_kind: 'person', full_name: 'Boshqa Odam', passport: 'AC 7777777' },
    ],
    witnesses: [{ full_name: 'Saidova Gulnora', passport: 'AB 7654321', phone: '(90) 123-45-67' }],
  });
  expect(offence.status, JSON.stringify(offence.body)).toBe(201);
  offenceId = offence.body.id;
  const garden = await api.post(GARDENS, {
    owner_name: 'Bogʻbon Ota',
    phone: '901112233',
    region_id: r1,
    address: 'Yunusobod, 12-kvartal, 4-uy',
    trees: 5,
    location: { lat: 41.36, lng: 69.28 },
  });
  expect(garden.status, JSON.stringify(garden.body)).toBe(201);
  gardenId = garden.body.id;
});
afterAll(async () => {
  await api?.close();
});

describe('a reader without the personal-data action', () => {
  it('sees an offence record masked field by field, names and other values as they are', async () => {
    const before = (await reads()).length;
    const r = await api.get(`${OFFENCES}/${offenceId}`, { token: tokens.pd_hq });
    expect(r.status).toBe(200);
    const [o, other] = r.body.offenders;
    expect(o).toMatchObject({
      full_name: 'Aliyev Vali',
      passport: 'AA *****67',
      pinfl: '3*********1234',
      birth_date: '1985-**-**',
      address: 'Toshkent sh., ***',
    });
    expect(other.passport).toBe('AC *****77');
    expect(r.body.witnesses[0]).toMatchObject({ full_name: 'Saidova Gulnora', passport: 'AB *****21', phone: '+998 ** *** ** 67' });
    expect(r.body.address).toBe('Olmazor tumani');
    // a masked read is no clear read: nothing recorded
    expect((await reads()).length).toBe(before);
  });

  it("sees the record's history masked too", async () => {
    const r = await api.get(`${OFFENCES}/${offenceId}/history`, { token: tokens.pd_hq });
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain('1234567');
    expect(text).not.toContain(PINFL);
    expect(text).toContain('AA *****67');
  });

  it('sees a list, its export and its GeoJSON masked', async () => {
    const list = await api.get(`${GARDENS}?id=${gardenId}`, { token: tokens.pd_hq });
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({ owner_name: 'Bogʻbon Ota', phone: '+998 ** *** ** 33' });

    const xlsx = await api.get(`${GARDENS}/export`, { token: tokens.pd_hq });
    expect(xlsx.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(xlsx.raw) as unknown as ExcelJS.Buffer);
    const cells = wb.worksheets[0].getSheetValues().flat().map(String);
    expect(cells).toContain('+998 ** *** ** 33');
    expect(cells.some((c) => c.includes('901112233'))).toBe(false);

    const geo = await api.get(`${GARDENS}/export.geojson`, { token: tokens.pd_hq });
    expect(geo.status).toBe(200);
    const fc = typeof geo.body === 'string' ? JSON.parse(geo.body) : geo.body;
    const f = fc.features.find((x: { id: number }) => x.id === gardenId);
    expect(f.properties.phone).toBe('+998 ** *** ** 33');
    expect(JSON.stringify(fc)).not.toContain('901112233');
  });

  it('cannot find a row by a part of its phone, which a reader with the right can', async () => {
    const masked = await api.get(`${GARDENS}?q=111223`, { token: tokens.pd_hq });
    expect(masked.status).toBe(200);
    expect(masked.body.map((r: { id: number }) => r.id)).not.toContain(gardenId);
    const clear = await api.get(`${GARDENS}?q=111223`, { token: tokens.pd_eco });
    expect(clear.body.map((r: { id: number }) => r.id)).toContain(gardenId);
    // the search's other fields still answer
    const byName = await api.get(`${GARDENS}?q=${encodeURIComponent('Bogʻbon')}`, { token: tokens.pd_hq });
    expect(byName.body.map((r: { id: number }) => r.id)).toContain(gardenId);
  });

  it('sends the masks back on update and keeps the clear values', async () => {
    const g = api.model.entities.get('my-gardens')!;
    const token = await api.userWithActions('pd_editor', [g.access.read, g.access.update!], { region_id: r1 });
    const shown = (await api.get(`${GARDENS}/${gardenId}`, { token })).body;
    expect(shown.phone).toBe('+998 ** *** ** 33');
    const put = await api.put(`${GARDENS}/${gardenId}`, { ...shown, trees: 6 }, { token });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.phone).toBe('+998 ** *** ** 33');
    const stored = await api.db.knex('my_gardens').where({ id: gardenId }).first('phone', 'address', 'trees');
    expect(stored).toEqual({ phone: '901112233', address: 'Yunusobod, 12-kvartal, 4-uy', trees: 6 });
    // a new value typed over the mask is written
    const again = (await api.get(`${GARDENS}/${gardenId}`, { token })).body;
    expect((await api.put(`${GARDENS}/${gardenId}`, { ...again, phone: '(93) 555-44-11' }, { token })).status).toBe(200);
    expect((await api.db.knex('my_gardens').where({ id: gardenId }).first('phone')).phone).toBe('935554411');
  });

  it("keeps a child row's clear values when an offence's form sends its masks (or an emptied birth date) back", async () => {
    const o = api.model.entities.get('offences')!;
    const token = await api.userWithActions('pd_offence_editor', [o.access.read, o.access.update!], { region_id: r1 });
    const shown = (await api.get(`${OFFENCES}/${offenceId}`, { token })).body;
    expect(shown.offenders[0].passport).toBe('AA *****67');
    const offenders = shown.offenders.map((x: Record<string, unknown>, i: number) => (i === 0 ? { ...x, birth_date: null } : x));
    const put = await api.put(`${OFFENCES}/${offenceId}`, { ...shown, offenders, description: 'tahrir' }, { token });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const stored = await api.db.knex('offence_offenders').where({ parent_id: offenceId }).orderBy('ordering').select('*');
    expect(stored[0]).toMatchObject({ passport: 'AA1234567', pinfl: PINFL, address: 'Toshkent sh., Chilonzor t., 5-uy' });
    expect(String(stored[0].birth_date instanceof Date ? stored[0].birth_date.getFullYear() : stored[0].birth_date)).toContain('1985');
    expect(stored[1].passport).toBe('AC7777777');
    const witness = await api.db.knex('offence_witnesses').where({ parent_id: offenceId }).first('phone', 'passport');
    expect(witness).toEqual({ phone: '901234567', passport: 'AB7654321' });
  });

  it('never opens a passport copy it cannot see', async () => {
    const o = api.model.entities.get('offences')!;
    expect(o.fields.offenders.fields!.passport_copy.personal).toBe('document');
    const r = await api.get(`${OFFENCES}/${offenceId}`, { token: tokens.pd_hq });
    expect(r.body.offenders[0].passport_copy ?? null).toBeNull();
  });
});

describe('a reader with the personal-data action', () => {
  it('sees the values in clear, and the read leaves exactly one access record', async () => {
    const before = await reads();
    const r = await api.get(`${OFFENCES}/${offenceId}`, { token: tokens.pd_reviewer });
    expect(r.status).toBe(200);
    expect(r.body.offenders[0]).toMatchObject({ passport: 'AA1234567', pinfl: PINFL, birth_date: '1985-03-12' });
    expect(r.body.witnesses[0].phone).toBe('901234567');
    const after = await reads();
    expect(after.length).toBe(before.length + 1);
    const last = after.at(-1)!;
    expect(last).toMatchObject({ user_id: ids.pd_reviewer, entity: 'offences', kind: 'record', record_id: offenceId, rows: 1 });
    expect(last.record_ids).toEqual([offenceId]);
    expect(last.fields).toEqual(
      expect.arrayContaining(['offenders.passport', 'offenders.pinfl', 'offenders.birth_date', 'witnesses.phone']),
    );
  });

  it('leaves one record for a list page naming its rows, and one for an export', async () => {
    const before = (await reads()).length;
    const list = await api.get(`${GARDENS}?id=${gardenId}`, { token: tokens.pd_eco });
    expect(list.body[0].phone).toBe('935554411');
    let all = await reads();
    expect(all.length).toBe(before + 1);
    // a list's rows carry every field (the address too), so both are what the page showed
    expect(all.at(-1)).toMatchObject({ user_id: ids.pd_eco, entity: 'my-gardens', kind: 'list', record_ids: [gardenId] });
    expect(all.at(-1)!.fields.sort()).toEqual(['address', 'phone']);
    const xlsx = await api.get(`${GARDENS}/export`, { token: tokens.pd_eco });
    expect(xlsx.status).toBe(200);
    // an export's access record is written once its file is whole: after the last byte has gone out
    await expect.poll(async () => (await reads()).length).toBe(before + 2);
    all = await reads();
    // an export writes the list's columns: the phone, not the address
    expect(all.at(-1)).toMatchObject({ entity: 'my-gardens', kind: 'export', fields: ['phone'] });
  });

  it('is listed to the administrator, and to nobody else', async () => {
    const r = await api.get(`${READS}?entity=offences&record_id=${offenceId}`);
    expect(r.status).toBe(200);
    expect(r.body.some((x: { user_id: number; kind: string }) => x.user_id === ids.pd_reviewer && x.kind === 'record')).toBe(true);
    expect((await api.get(READS, { token: tokens.pd_hq })).status).toBe(403);
    expect((await api.get(READS, { token: tokens.pd_reviewer })).status).toBe(403);
  });
});

describe("a person's data", () => {
  const EXPORT = '/api/admin/personal-data/person-export';
  const ANONYMISE = '/api/admin/personal-data/anonymise';

  it('is gathered for them by PINFL: only their own child rows, and the gathering recorded', async () => {
    const before = (await reads()).length;
    const r = await api.post(EXPORT, { pinfl: PINFL });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const offences = r.body.records.find((x: { entity: string }) => x.entity === 'offences');
    expect(offences.rows.map((x: { id: number }) => x.id)).toEqual([offenceId]);
    expect(offences.rows[0].offenders).toHaveLength(1);
    expect(offences.rows[0].offenders[0]).toMatchObject({ full_name: 'Aliyev Vali', passport: 'AA1234567' });
    const all = await reads();
    expect(all.length).toBe(before + 1);
    expect(all.at(-1)).toMatchObject({ entity: 'offences', kind: 'person', record_ids: [offenceId] });
  });

  it('is asked for by a valid identifier, by whoever holds the action', async () => {
    expect((await api.post(EXPORT, { pinfl: '123' })).status).toBe(400);
    expect((await api.post(EXPORT, {})).status).toBe(400);
    expect((await api.post(EXPORT, { pinfl: PINFL }, { token: tokens.pd_hq })).status).toBe(403);
    expect((await api.post(ANONYMISE, { pinfl: PINFL }, { token: tokens.pd_reviewer })).status).toBe(403);
  });

  it('is not anonymised while an offence holding it is open or its fine unpaid (409)', async () => {
    const r = await api.post(ANONYMISE, { passport: 'AA1234567' }, { lang: 'ru' });
    expect(r.status).toBe(409);
    expect(JSON.stringify(r.body)).toContain('Обезличить данные лица нельзя');
    const stored = await api.db.knex('offence_offenders').where({ parent_id: offenceId }).orderBy('id').first('passport');
    expect(stored.passport).toBe('AA1234567');
  });

  it('is anonymised once the offence is closed and paid: the person only, the money and the trail kept', async () => {
    const k = api.db.knex;
    // the offence's proceedings ended: closed and paid (set here as the workflow and the payments would)
    await k('offences').where({ id: offenceId }).update({ status: 'closed', payment_status: 'paid' });
    const amount = (await k('offences').where({ id: offenceId }).first('fine_amount')).fine_amount;
    const auditRows = Number((await k('audit_log').where({ entity: 'offences', record_id: offenceId }).count({ n: '*' }))[0].n);
    const r = await api.post(ANONYMISE, { pinfl: PINFL });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.anonymised).toEqual([{ entity: 'offences', ids: [offenceId] }]);
    const offenders = await k('offence_offenders').where({ parent_id: offenceId }).orderBy('ordering').select('*');
    expect(offenders[0]).toMatchObject({
      full_name: '***',
      passport: 'AA0000000',
      pinfl: '00000000000000',
      birth_date: null,
      address: null,
    });
    // the other offender of the same offence is no part of it
    expect(offenders[1]).toMatchObject({ full_name: 'Boshqa Odam', passport: 'AC7777777' });
    const row = await k('offences').where({ id: offenceId }).first('fine_amount', 'status');
    expect(row).toEqual({ fine_amount: amount, status: 'closed' });
    // the trail: every row kept and one more, naming the anonymisation; no clear value left in it
    const trail = await k('audit_log').where({ entity: 'offences', record_id: offenceId }).orderBy('id').select('*');
    expect(trail.length).toBe(auditRows + 1);
    expect(trail.at(-1)!.action).toBe('anonymise');
    const text = JSON.stringify(trail);
    expect(text).not.toContain('1234567');
    expect(text).not.toContain(PINFL);
    expect(text).not.toContain('Aliyev');
    // nothing holds the PINFL any more
    const again = await api.post(EXPORT, { pinfl: PINFL });
    expect(again.body.records).toEqual([]);
  });
});

describe('the API reference', () => {
  it('says a personal field is masked for a caller without the right', async () => {
    const doc = (await api.get('/api/openapi.json')).body;
    const text = JSON.stringify(doc);
    expect(text).toContain('personal data (passport)');
    expect(text).toContain('AA *****67');
  });
});
