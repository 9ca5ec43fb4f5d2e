import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { createUser } from '../../../cli/create-user.ts';
import { todayTashkent } from '../../meta/today.ts';

/**
 * People facts end to end through the API (docs/offences.md, "People facts"): sent by a population
 * user, typed in by staff or sent from the public site's form (limited per address); taken,
 * assigned, rejected with a reason, turned into a draft offence linked both ways, with the
 * wrong-state 409s; who sees which; and the informant's incentive, recorded exactly when the linked
 * offence's fine is fully paid and not before.
 */
const FACTS = '/api/ecofund-offences/people-facts';
const OFFENCES = '/api/ecofund-offences/offences';
const PAYMENTS = '/api/ecofund-offences/offences-payment';
/** a 1×1 PNG */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** the first bytes of an MP4 file: a `ftyp` box of brand isom */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom\0\0\x02\0isomiso2avc1mp41', 'latin1'), Buffer.alloc(64)]);

let api: TestApi;
let r1: number;
let r2: number;
let fineId: number;
let fineIncome: number;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

async function user(username: string, role: string, region: number, kind = 'staff', fio = username): Promise<void> {
  ids[username] = await createUser(api.db.knex, { username, password: 'secret-pw', roles: [role], region_id: region });
  await api.db.knex('users').where({ id: ids[username] }).update({ kind, fio });
  tokens[username] = await api.login(username, 'secret-pw');
}

const fact = (over: Record<string, unknown> = {}) => ({
  description: 'Bogʻda uchta chinor daraxti kesilmoqda',
  region_id: r1,
  address: 'Navroʻz mahallasi, 12-uy',
  location: { lat: 41.31, lng: 69.28 },
  informant_name: 'Aliyev Vali',
  informant_phone: '(90) 123-45-67',
  ...over,
});
const act = (id: number, action: string, token: string, body: Record<string, unknown> = {}) =>
  api.post(`${FACTS}/${id}/actions/${action}`, body, { token });
const statusCode = async (statusId: number) => (await api.db.knex('people_fact_statuses').where({ id: statusId }).first('code')).code;
const publicPost = (body: unknown, lang = 'uz') => api.post('/api/public/people-facts', body, { token: '', lang });
const upload = async (path: string, name: string, body: Buffer, token = '') => {
  const res = await fetch(`${api.url}${path}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/octet-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.status, body: (await res.json()) as { id: number; mime: string; errors: Record<string, string> } };
};

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  [r1, r2] = (await k('regions').orderBy('id').limit(2).pluck('id')).map(Number);
  [{ id: fineId }] = await k('fine')
    .insert({
      code: 'PF-65-1',
      article: '65',
      part: '1',
      name: JSON.stringify({ uz: 'Daraxtlarni qonunsiz kesish' }),
      min_multiple: '5',
      max_multiple: '10',
    })
    .returning('id');
  fineIncome = (await k('income_types').where({ group: 'fine' }).first('id')).id;
  await user('insp1', 'inspector', r1, 'staff', 'Karimov Jasur');
  await user('insp2', 'inspector', r1);
  await user('insp3', 'inspector', r2);
  await user('reviewer', 'confirming_staff', r1, 'staff', 'Toshmatova Nilufar');
  await user('reviewer2', 'confirming_staff', r2);
  await user('fund1', 'fund', r1);
  await user('pop1', 'population', r1, 'population');
  await user('pop2', 'population', r1, 'population');
});
afterAll(async () => {
  await api?.close();
});

describe('sending a fact', () => {
  it('a population user sends one from the back-office: their own, of their region, new', async () => {
    const r = await api.post(FACTS, fact(), { token: tokens.pop1 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      fact_source: 'population',
      status: 'new',
      informant_user_id: ids.pop1,
      region_id: r1,
      informant_phone: '901234567',
      incentives: [],
    });
    expect(r.body.number).toBe(`FX-${todayTashkent().slice(0, 4)}-${String(r.body.id).padStart(6, '0')}`);
    expect(await statusCode(r.body.status_id)).toBe('NEW');
    expect(new Date(r.body.received_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    ids.popFact = r.body.id;
    // not in another region, not in another's name, never edited once sent
    expect((await api.post(FACTS, fact({ region_id: r2 }), { token: tokens.pop1 })).status).toBe(403);
    expect((await api.post(FACTS, fact({ informant_user_id: ids.pop2 }), { token: tokens.pop1 })).status).toBe(403);
    expect(
      (await api.put(`${FACTS}/${r.body.id}`, { description: 'Boshqa narsa yozaman', version: r.body.version }, { token: tokens.pop1 }))
        .status,
    ).toBe(403);
    expect((await act(r.body.id, 'take', tokens.pop1)).status).toBe(403);
  });

  it('a population user sees only their own facts', async () => {
    const other = await api.post(FACTS, fact({ description: 'Ariqqa chiqindi tashlanmoqda' }), { token: tokens.pop2 });
    expect(other.status).toBe(201);
    const mine = await api.get(`${FACTS}?perPage=100`, { token: tokens.pop1 });
    expect(mine.body.map((f: { id: number }) => f.id)).toEqual([ids.popFact]);
    expect((await api.get(`${FACTS}/${other.body.id}`, { token: tokens.pop1 })).status).toBe(404);
    expect((await api.get(`${FACTS}/${ids.popFact}`, { token: tokens.pop1 })).body.informant_name).toBe('Aliyev Vali');
  });

  it('staff type one in; a district outside the region, and a fact without its description, are refused beside the field', async () => {
    const area = await api.db.knex('areas').where({ region_id: r2 }).first('id');
    // to the region's staff another region's district does not exist (the districts are region-scoped)
    const wrong = await api.post(FACTS, fact({ area_id: area.id }), { token: tokens.reviewer, lang: 'ru' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ area_id: 'Выбранная запись не найдена' });
    // to whoever may see it, it is not of the fact's region
    const outside = await api.post(FACTS, fact({ area_id: area.id }), { lang: 'ru' });
    expect(outside.status).toBe(400);
    expect(Object.keys(outside.body.errors)).toEqual(['area_id']);
    expect(outside.body.errors.area_id).toContain('Регион');
    const empty = await api.post(FACTS, fact({ description: '' }), { token: tokens.reviewer });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors)).toEqual(['description']);
    const r = await api.post(FACTS, fact({ description: 'Telefon orqali: daraxtlar kesilgan' }), { token: tokens.reviewer });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ fact_source: 'staff', informant_user_id: null, status: 'new' });
  });
});

describe("the public site's form", () => {
  it('takes a fact with photos and a video uploaded through the public form, from nobody', async () => {
    const photo = await upload('/api/public/uploads', 'joy.png', PNG);
    expect(photo.status).toBe(201);
    const video = await upload('/api/public/uploads', 'video.mp4', MP4);
    expect(video.status, JSON.stringify(video.body)).toBe(201);
    expect(video.body.mime).toBe('video/mp4');
    const r = await publicPost(
      fact({ files: [photo.body.id, video.body.id], informant_email: 'vali@example.uz', fact_source: 'staff', inspector_id: ids.insp1 }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toEqual({ id: expect.any(Number), number: expect.stringMatching(/^FX-\d{4}-\d{6}$/), status: 'new' });
    const saved = (await api.get(`${FACTS}/${r.body.id}`, { token: tokens.reviewer })).body;
    // what the form may not say is not taken
    expect(saved).toMatchObject({
      fact_source: 'public',
      status: 'new',
      inspector_id: null,
      informant_user_id: null,
      files: [photo.body.id, video.body.id],
      informant_email: 'vali@example.uz',
    });
    const audit = await api.db.knex('audit_log').where({ entity: 'people-facts', record_id: r.body.id }).first('op', 'user_id');
    expect(audit).toEqual({ op: 'create', user_id: null });
    ids.publicFact = r.body.id;
    ids.photo = photo.body.id;
    ids.video = video.body.id;
  });

  it("answers a bad fact with a 400 naming each field, in the caller's language", async () => {
    const r = await publicPost({ description: 'Kesilmoqda', region_id: r1, informant_name: 'A', informant_phone: '12' }, 'ru');
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors).sort()).toEqual(['informant_name', 'informant_phone']);
    const noRegion = await publicPost(fact({ region_id: 99999999 }));
    expect(noRegion.status).toBe(400);
    expect(Object.keys(noRegion.body.errors)).toEqual(['region_id']);
    // a file the public form did not upload (a staff user's) is not the public's to attach
    const staffFile = await upload('/api/resources/upload', 'x.png', PNG, api.adminToken);
    const foreign = await publicPost(fact({ files: [staffFile.body.id] }));
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.errors)).toEqual(['files']);
    // and a PDF is neither a photo nor a video
    const pdf = await upload('/api/public/uploads', 'x.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
    expect(pdf.status).toBe(400);
    expect(Object.keys(pdf.body.errors)).toEqual(['file']);
  });
});

describe('who sees which facts', () => {
  it("region staff see their region's facts, and no other region's", async () => {
    const theirs = await api.post(FACTS, fact({ region_id: r2, description: 'Boshqa viloyatdagi xabar' }), { token: tokens.reviewer2 });
    expect(theirs.status).toBe(201);
    ids.r2Fact = theirs.body.id;
    const regions = async (token: string) => [
      ...new Set((await api.get(`${FACTS}?perPage=100`, { token })).body.map((f: { region_id: number }) => f.region_id)),
    ];
    expect(await regions(tokens.reviewer)).toEqual([r1]);
    expect(await regions(tokens.reviewer2)).toEqual([r2]);
    expect((await api.get(`${FACTS}/${ids.popFact}`, { token: tokens.reviewer2 })).status).toBe(404);
    expect((await act(ids.popFact, 'take', tokens.reviewer2)).status).toBe(404);
    // an inspector sees none until one is assigned to them
    expect((await api.get(`${FACTS}?perPage=100`, { token: tokens.insp1 })).body).toEqual([]);
    expect((await api.get(`${FACTS}/${ids.popFact}`, { token: tokens.insp1 })).status).toBe(404);
  });
});

describe('the workflow', () => {
  it('take, reject with a reason, and 409 from any state the action does not leave from', async () => {
    let r = await act(ids.popFact, 'take', tokens.reviewer);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('check');
    expect(await statusCode(r.body.status_id)).toBe('CHECK');
    expect((await act(ids.popFact, 'take', tokens.reviewer)).status).toBe(409);
    // a reason is needed, and named
    const bare = await act(ids.popFact, 'reject', tokens.reviewer, { reject_reason: '' });
    expect(bare.status).toBe(400);
    expect(Object.keys(bare.body.errors)).toEqual(['reject_reason']);
    expect(Object.keys((await act(ids.popFact, 'reject', tokens.reviewer)).body.errors)).toEqual(['reject_reason']);
    r = await act(ids.popFact, 'reject', tokens.reviewer, { reject_reason: 'Rasmda huquqbuzarlik koʻrinmaydi' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'rejected', reject_reason: 'Rasmda huquqbuzarlik koʻrinmaydi' });
    expect(await statusCode(r.body.status_id)).toBe('REJECTED');
    for (const [action, body] of [
      ['take', {}],
      ['reject', { reject_reason: 'Yana bir bor' }],
      ['assign', { inspector_id: ids.insp1 }],
      ['to-offence', { fine_id: fineId }],
    ] as const) {
      const wrong = await act(ids.popFact, action, tokens.reviewer, body);
      expect(wrong.status, action).toBe(409);
    }
    // a rejected fact is no longer edited
    expect((await api.put(`${FACTS}/${ids.popFact}`, { address: 'x', version: r.body.version }, { token: tokens.reviewer })).status).toBe(
      409,
    );
    // its informant reads why
    expect((await api.get(`${FACTS}/${ids.popFact}`, { token: tokens.pop1 })).body.reject_reason).toBe('Rasmda huquqbuzarlik koʻrinmaydi');
    const flows = await api.get(`${FACTS}/${ids.popFact}/flows`, { token: tokens.reviewer });
    expect(
      flows.body.map((f: { action: string; from_state: string; to_state: string }) => `${f.action}:${f.from_state}>${f.to_state}`),
    ).toEqual(['take:new>check', 'reject:check>rejected']);
    expect(
      Number(
        (await api.db.knex('audit_log').where({ entity: 'people-facts', record_id: ids.popFact, op: 'action' }).count({ n: '*' }))[0].n,
      ),
    ).toBe(2);
  });

  it('a new fact is not turned into an offence before it is reviewed', async () => {
    expect((await act(ids.publicFact, 'to-offence', tokens.reviewer, { fine_id: fineId })).status).toBe(409);
  });

  it('assigns a fact only to an inspector of its region, who then sees it (and no other inspector does)', async () => {
    // not an inspector: a population user; another region's inspector is not the reviewer's to name
    for (const who of [ids.pop1, ids.insp3]) {
      const bad = await act(ids.publicFact, 'assign', tokens.reviewer, { inspector_id: who });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toEqual(['inspector_id']);
    }
    // the reviewer picks among the region's staff
    const inspectors = await api.get('/api/ecofund-offences/inspectors?perPage=100', { token: tokens.reviewer });
    expect(inspectors.status).toBe(200);
    expect(inspectors.body.map((u: { id: number }) => u.id)).toEqual(expect.arrayContaining([ids.insp1, ids.insp2]));
    expect(inspectors.body.map((u: { id: number }) => u.id)).not.toContain(ids.insp3);
    expect(inspectors.body.map((u: { id: number }) => u.id)).not.toContain(ids.pop1);
    expect(Object.keys(inspectors.body[0]).sort()).toEqual([
      'created_at',
      'created_by',
      'fio',
      'id',
      'position_id',
      'rank_id',
      'region_id',
      'status',
      'updated_at',
      'updated_by',
      'version',
    ]);
    const r = await act(ids.publicFact, 'assign', tokens.reviewer, { inspector_id: ids.insp1 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'assigned', inspector_id: ids.insp1, inspector_fio: 'Karimov Jasur' });
    expect(await statusCode(r.body.status_id)).toBe('ASSIGNED');
    expect((await api.get(`${FACTS}?perPage=100`, { token: tokens.insp1 })).body.map((f: { id: number }) => f.id)).toEqual([
      ids.publicFact,
    ]);
    expect((await api.get(`${FACTS}/${ids.publicFact}`, { token: tokens.insp2 })).status).toBe(404);
    expect((await act(ids.publicFact, 'to-offence', tokens.insp2, { fine_id: fineId })).status).toBe(404);
    // the inspector neither takes nor reassigns
    expect((await act(ids.publicFact, 'assign', tokens.insp1, { inspector_id: ids.insp2 })).status).toBe(403);
  });

  it('the assigned inspector turns it into a draft offence of theirs, prefilled from the fact and linked both ways', async () => {
    const outside = await act(ids.publicFact, 'to-offence', tokens.insp1, { fine_id: fineId, fine_multiple: '12' });
    expect(outside.status).toBe(400);
    expect(Object.keys(outside.body.errors)).toEqual(['fine_multiple']);
    expect(Object.keys((await act(ids.publicFact, 'to-offence', tokens.insp1, {})).body.errors)).toEqual(['fine_id']);
    const r = await act(ids.publicFact, 'to-offence', tokens.insp1, { fine_id: fineId });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'offence', offence_id: expect.any(Number), payment_status: 'unpaid', incentives: [] });
    expect(await statusCode(r.body.status_id)).toBe('OFFENCE');
    ids.offence = r.body.offence_id;
    const o = (await api.get(`${OFFENCES}/${ids.offence}`, { token: tokens.insp1 })).body;
    expect(o).toMatchObject({
      status: 'draft',
      people_fact_id: ids.publicFact,
      number: r.body.number,
      offence_date: todayTashkent(),
      region_id: r1,
      address: 'Navroʻz mahallasi, 12-uy',
      location: { lat: 41.31, lng: 69.28 },
      description: 'Bogʻda uchta chinor daraxti kesilmoqda',
      fine_id: fineId,
      fine_multiple: '5.00',
      inspector_id: ids.insp1,
      inspector_fio: 'Karimov Jasur',
      payment_status: 'unpaid',
    });
    expect(Number(o.fine_amount)).toBeGreaterThan(0);
    const types = new Map(
      (await api.db.knex('offence_files_type').select('id', 'code')).map((t: { id: number; code: string }) => [Number(t.id), t.code]),
    );
    expect(o.files.map((f: { file: number; type_id: number }) => [f.file, types.get(Number(f.type_id))])).toEqual([
      [ids.photo, 'PHOTO'],
      [ids.video, 'VIDEO'],
    ]);
    // the offence's files are the inspector's to read, through the offence
    expect((await fetch(`${api.url}/api/resources/${ids.video}`, { headers: { Authorization: `Bearer ${tokens.insp1}` } })).status).toBe(
      200,
    );
    // one audit row each, the offence's naming the fact
    const audit = await api.db.knex('audit_log').where({ entity: 'offences', record_id: ids.offence }).select('op', 'action', 'user_id');
    expect(audit).toEqual([{ op: 'create', action: 'people-fact', user_id: ids.insp1 }]);
    // no second offence, nor a rejection, of a fact turned into one
    expect((await act(ids.publicFact, 'to-offence', tokens.insp1, { fine_id: fineId })).status).toBe(409);
    expect((await act(ids.publicFact, 'reject', tokens.insp1, { reject_reason: 'Endi kech' })).status).toBe(409);
    // the reviewer finds the fact from the offence's page
    expect((await api.get(`${FACTS}?offence_id=${ids.offence}`, { token: tokens.reviewer })).body.map((f: { id: number }) => f.id)).toEqual(
      [ids.publicFact],
    );
  });

  it("a fact the reviewer turns into an offence without an inspector is the reviewer's offence", async () => {
    const { body: f } = await api.post(FACTS, fact({ description: 'Daryo boʻyida chiqindi yoqilmoqda' }), { token: tokens.reviewer });
    await act(f.id, 'take', tokens.reviewer);
    const [type] = await api.db
      .knex('offence_type')
      .insert({ code: 'PF-T', name: JSON.stringify({ uz: 'Chiqindilar' }), fine_id: fineId })
      .returning('id');
    const r = await act(f.id, 'to-offence', tokens.reviewer, {
      fine_id: fineId,
      fine_multiple: '7.5',
      offence_type_id: type.id,
      offence_date: '2025-09-01',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const o = (await api.get(`${OFFENCES}/${r.body.offence_id}`, { token: tokens.reviewer })).body;
    expect(o).toMatchObject({
      inspector_id: ids.reviewer,
      fine_multiple: '7.50',
      offence_type_id: type.id,
      offence_date: '2025-09-01',
      files: [],
      people_fact_id: f.id,
    });
  });
});

describe("the informant's incentive", () => {
  const pay = (amount: string, number: string) =>
    api.post(
      PAYMENTS,
      { paid_on: todayTashkent(), number, amount, payer: 'Jarimachi', income_type_id: fineIncome },
      { token: tokens.fund1 },
    );
  const payAct = (id: number, action: string, token: string, body: Record<string, unknown> = {}) =>
    api.post(`${PAYMENTS}/${id}/actions/${action}`, body, { token });
  const factNow = async () => (await api.get(`${FACTS}/${ids.publicFact}`, { token: tokens.reviewer })).body;

  it('is recorded when the linked fine is fully paid, not before, exactly by the setting', async () => {
    await api.db.knex('app_configs').where({ key: 'fund.fact_incentive' }).update({ value: '12.5%' });
    const offence = (await api.get(`${OFFENCES}/${ids.offence}`, { token: tokens.reviewer })).body;
    const fine = BigInt(offence.fine_amount.replace('.', ''));
    const first = fine / 3n;
    const firstText = `${first / 100n}.${String(first % 100n).padStart(2, '0')}`;
    const rest = fine - first;
    const restText = `${rest / 100n}.${String(rest % 100n).padStart(2, '0')}`;

    const p1 = (await pay(firstText, 'PF-1')).body;
    expect((await payAct(p1.id, 'attach', tokens.fund1, { offence_id: ids.offence })).status).toBe(200);
    expect((await payAct(p1.id, 'confirm', tokens.reviewer)).status).toBe(200);
    let f = await factNow();
    expect(f).toMatchObject({ payment_status: 'partly_paid', incentives: [] });
    // nothing to pay out yet
    expect((await act(ids.publicFact, 'pay-incentive', tokens.fund1)).status).toBe(409);

    const p2 = (await pay(restText, 'PF-2')).body;
    await payAct(p2.id, 'attach', tokens.fund1, { offence_id: ids.offence });
    expect((await payAct(p2.id, 'confirm', tokens.reviewer)).status).toBe(200);
    f = await factNow();
    // 12.5 % of the fine, rounded half up to the tiyin
    const expected = (fine * 125n * 2n + 1000n) / 2000n;
    expect(f.payment_status).toBe('paid');
    expect(f.incentives).toHaveLength(1);
    expect(f.incentives[0]).toMatchObject({
      fine_amount: offence.fine_amount,
      rule: '12.5%',
      amount: `${expected / 100n}.${String(expected % 100n).padStart(2, '0')}`,
      paid: false,
      paid_on: null,
    });
    expect(f.incentives[0].recorded_at).toBeTruthy();
    // the fact's change is the payments' doing, audited as such
    expect(
      Number(
        (
          await api.db.knex('audit_log').where({ entity: 'people-facts', record_id: ids.publicFact, action: 'payments' }).count({ n: '*' })
        )[0].n,
      ),
    ).toBe(2);

    // a confirmation cancelled before the incentive is paid out withdraws it; confirmed again, it is back
    await payAct(p2.id, 'cancel-confirmed', tokens.reviewer);
    expect(await factNow()).toMatchObject({ payment_status: 'partly_paid', incentives: [] });
    await payAct(p2.id, 'confirm', tokens.reviewer);
    expect((await factNow()).incentives).toHaveLength(1);
    ids.p2 = p2.id;
  });

  it('is paid out by the fund once, and then stays whatever the payments do', async () => {
    expect((await act(ids.publicFact, 'pay-incentive', tokens.reviewer)).status).toBe(403);
    const r = await act(ids.publicFact, 'pay-incentive', tokens.fund1);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('offence');
    expect(r.body.incentives[0]).toMatchObject({ paid: true, paid_on: todayTashkent() });
    const again = await act(ids.publicFact, 'pay-incentive', tokens.fund1);
    expect(again.status).toBe(409);
    await payAct(ids.p2, 'cancel-confirmed', tokens.reviewer);
    const f = (await api.get(`${FACTS}/${ids.publicFact}`, { token: tokens.reviewer })).body;
    expect(f.payment_status).toBe('partly_paid');
    expect(f.incentives[0]).toMatchObject({ paid: true });
  });

  it('a fact without an incentive has none to show', async () => {
    const f = (await api.get(`${FACTS}/${ids.r2Fact}`, { token: tokens.reviewer2 })).body;
    expect(f.incentives).toEqual([]);
    expect(api.model.entities.get('people-facts')!.fields.incentives.empty).toBe('empty.no_incentive');
  });
});

describe("the public form's limit", () => {
  it('answers 429 once an address has sent its submissions for the hour', async () => {
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++)
      status = (await publicPost(fact({ description: `Xabar raqami ${i} — kesilmoqda` }))).status;
    expect(status).toBe(429);
    const r = await publicPost(fact(), 'ru');
    expect(r.status).toBe(429);
    expect(r.body.message).toBeTruthy();
  });
});
