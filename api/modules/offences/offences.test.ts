import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { createUser } from '../../../cli/create-user.ts';

/**
 * Offences end to end through the API (docs/offences.md): the workflow with its wrong-state 409s and
 * the fine's interval warning, an inspector's own drafts, the police's offences sent to their
 * region's ministry, and fine payments split exactly that mark an offence paid.
 */
const OFFENCES = '/api/ecofund-offences/offences';
const PAYMENTS = '/api/ecofund-offences/offences-payment';
let api: TestApi;
let r1: number;
let r2: number;
let fineId: number;
let fineIncome: number;
let otherIncome: number;
let subjectId: number;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

async function user(username: string, role: string, region: number, kind = 'staff'): Promise<void> {
  ids[username] = await createUser(api.db.knex, { username, password: 'secret-pw', roles: [role], region_id: region });
  await api.db.knex('users').where({ id: ids[username] }).update({ kind });
  tokens[username] = await api.login(username, 'secret-pw');
}

const draft = (over: Record<string, unknown> = {}) => ({
  number: 'HB-1',
  offence_date: '2025-09-01',
  opened_on: '2025-09-02',
  region_id: r1,
  address: 'Olmazor tumani, Navroʻz mahallasi',
  location: { lat: 41.35, lng: 69.22 },
  fine_id: fineId,
  fine_multiple: '7.5',
  offenders: [
    { offender_kind: 'person', full_name: 'Aliyev Vali', citizenship: 'Oʻzbekiston', nationality: 'oʻzbek', passport: 'AA 1234567' },
    { offender_kind: 'organisation', inn: '600000101' },
  ],
  witnesses: [{ full_name: 'Saidova Gulnora', passport: 'AB 7654321' }],
  ...over,
});

const act = (id: number, action: string, token: string, body: Record<string, unknown> = {}) =>
  api.post(`${OFFENCES}/${id}/actions/${action}`, body, { token });

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  [r1, r2] = (await k('regions').orderBy('id').limit(2).pluck('id')).map(Number);
  [{ id: fineId }] = await k('fine')
    .insert({
      code: 'MJtK-65-1',
      article: '65',
      part: '1',
      name: JSON.stringify({ uz: 'Daraxtlarni qonunsiz kesish' }),
      min_multiple: '5',
      max_multiple: '10',
    })
    .returning('id');
  fineIncome = (await k('income_types').where({ group: 'fine' }).first('id')).id;
  otherIncome = (await k('income_types').whereNot({ group: 'fine' }).first('id')).id;
  const category = (await k('subject_categories').first('id')).id;
  subjectId = (await api.post('/api/ecofund/subject', { inn: '600000101', name: '“Kimyo” MChJ', region_id: r1, category_id: category }))
    .body.id;
  await user('insp1', 'inspector', r1);
  // an inspector is a user with a position and a rank, which their offences show
  const [position] = await k('position')
    .insert({ code: 'T-LEAD', name: JSON.stringify({ uz: 'Yetakchi inspektor' }) })
    .returning('id');
  const [rank] = await k('rank')
    .insert({ code: 'T-CPT', name: JSON.stringify({ uz: 'Kapitan' }) })
    .returning('id');
  await k('users').where({ id: ids.insp1 }).update({ fio: 'Karimov Jasur', position_id: position.id, rank_id: rank.id });
  ids.position = position.id;
  ids.rank = rank.id;
  await user('insp2', 'inspector', r1);
  await user('reviewer', 'confirming_staff', r1);
  await user('police1', 'police', r1, 'mvd');
  await user('police2', 'police', r2, 'mvd');
  await user('fund1', 'fund', r1);
});
afterAll(async () => {
  await api?.close();
});

describe('the offence workflow', () => {
  let id: number;

  it("warns with the article's interval when the multiple is outside it, and fines by the base value on the offence date", async () => {
    const outside = await api.post(OFFENCES, draft({ fine_multiple: '12' }), { token: tokens.insp1, lang: 'ru' });
    expect(outside.status).toBe(400);
    expect(outside.body.errors).toEqual({ fine_multiple: 'Значение должно быть в заданном интервале (5 – 10)' });
    const r = await api.post(OFFENCES, draft(), { token: tokens.insp1 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    id = r.body.id;
    // 7.5 × 412 000.00 (the base value from 2025-08-01), the inspector is the one who wrote it
    expect(r.body).toMatchObject({
      status: 'draft',
      fine_amount: '3090000.00',
      inspector_id: ids.insp1,
      inspector_fio: 'Karimov Jasur',
      inspector_position_id: ids.position,
      inspector_rank_id: ids.rank,
      payment_status: 'unpaid',
      paid_amount: '0.00',
      mvd_sent: false,
    });
    expect(r.body.offenders).toHaveLength(2);
    expect(r.body.offenders[0]).toMatchObject({ passport: 'AA1234567', subject_id: null });
    // the organisation is found by its INN through the subjects and named after it
    expect(r.body.offenders[1]).toMatchObject({ subject_id: subjectId, full_name: '“Kimyo” MChJ' });
    expect(r.body.witnesses).toEqual([expect.objectContaining({ full_name: 'Saidova Gulnora', passport: 'AB7654321' })]);
  });

  it("refuses a passport not in the spec's format and an organisation whose INN no subject has", async () => {
    const bad = await api.post(
      OFFENCES,
      draft({
        offenders: [
          { offender_kind: 'person', full_name: 'X', passport: 'A 1234567' },
          { offender_kind: 'organisation', inn: '699999999' },
        ],
      }),
      { token: tokens.insp1 },
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['offenders.0.passport']);
    const unknown = await api.post(OFFENCES, draft({ offenders: [{ offender_kind: 'organisation', inn: '699999999' }] }), {
      token: tokens.insp1,
      lang: 'ru',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ 'offenders.0.inn': 'Субъект по этому ИНН не найден' });
  });

  it('moves draft → review → returned → review → ministry → closed, each action its own flow row; wrong states are 409', async () => {
    // the reviewer cannot send a draft to the ministry, nor close it
    expect((await act(id, 'send-to-mvd', tokens.reviewer)).status).toBe(409);
    expect((await act(id, 'close', tokens.reviewer)).status).toBe(409);
    // the police do not see a draft at all
    expect((await act(id, 'mvd-close', tokens.police1, { mvd_result: 'fine_enforced' })).status).toBe(404);
    // the inspector may not take the reviewer's actions
    expect((await act(id, 'send-to-mvd', tokens.insp1)).status).toBe(403);

    let r = await act(id, 'send-for-review', tokens.insp1);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('review');
    expect((await act(id, 'send-for-review', tokens.insp1)).status).toBe(409);
    // sent: no longer the inspector's to edit
    const locked = await api.put(`${OFFENCES}/${id}`, { address: 'x', version: r.body.version }, { token: tokens.insp1 });
    expect(locked.status).toBe(409);

    expect((await act(id, 'return-to-inspector', tokens.reviewer)).status).toBe(400);
    r = await act(id, 'return-to-inspector', tokens.reviewer, { comment: 'Qaror raqamini kiriting' });
    expect(r.body.status).toBe('returned');
    const edited = await api.put(
      `${OFFENCES}/${id}`,
      { decree_series: 'QR', decree_number: 'QR-2025-77', decree_date: '2025-09-03', version: r.body.version },
      { token: tokens.insp1 },
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await act(id, 'send-for-review', tokens.insp1)).body.status).toBe('review');

    r = await act(id, 'send-to-mvd', tokens.reviewer);
    expect(r.body).toMatchObject({ status: 'mvd', mvd_sent: true });
    expect((await act(id, 'send-to-mvd', tokens.reviewer)).status).toBe(409);

    // the police record the result through the ministry's own calls, then close it
    const result = await api.post(
      `/api/mvd/offences/${id}/result`,
      { mvd_result: 'offender_found', mvd_note: 'Huquqbuzar aniqlandi' },
      { token: tokens.police1 },
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ status: 'mvd', mvd_result: 'offender_found', mvd_note: 'Huquqbuzar aniqlandi' });
    const closed = await api.post(`/api/mvd/offences/${id}/close`, { mvd_result: 'fine_enforced' }, { token: tokens.police1 });
    expect(closed.body).toMatchObject({ status: 'closed', mvd_result: 'fine_enforced' });
    expect((await api.post(`/api/mvd/offences/${id}/close`, { mvd_result: 'fine_enforced' }, { token: tokens.police1 })).status).toBe(409);
    expect((await act(id, 'send-for-review', tokens.insp1)).status).toBe(409);

    const flows = await api.get(`${OFFENCES}/${id}/flows`, { token: tokens.reviewer });
    expect(
      flows.body.map((f: { action: string; from_state: string; to_state: string }) => `${f.action}:${f.from_state}>${f.to_state}`),
    ).toEqual([
      'send-for-review:draft>review',
      'return-to-inspector:review>returned',
      'send-for-review:returned>review',
      'send-to-mvd:review>mvd',
      'mvd-result:mvd>mvd',
      'mvd-close:mvd>closed',
    ]);
    expect(flows.body[1].comment).toBe('Qaror raqamini kiriting');
  });

  it('lets the police return an offence to the inspector with a reason', async () => {
    const { body: o } = await api.post(OFFENCES, draft({ number: 'HB-RET' }), { token: tokens.insp1 });
    await act(o.id, 'send-for-review', tokens.insp1);
    await act(o.id, 'send-to-mvd', tokens.reviewer);
    expect((await api.post(`/api/mvd/offences/${o.id}/return`, {}, { token: tokens.police1 })).status).toBe(400);
    const r = await api.post(`/api/mvd/offences/${o.id}/return`, { comment: 'Manzil notoʻgʻri' }, { token: tokens.police1 });
    expect(r.body).toMatchObject({ status: 'returned', mvd_result: 'returned' });
    // back with the inspector, who may edit it again
    expect((await api.get(`${OFFENCES}/${o.id}`, { token: tokens.insp1 })).body.status).toBe('returned');
  });
});

describe('who sees which offences', () => {
  it('an inspector sees and edits only their own offences', async () => {
    const { body: mine } = await api.post(OFFENCES, draft({ number: 'HB-OWN-2' }), { token: tokens.insp2 });
    expect(mine.inspector_id).toBe(ids.insp2);
    const list = await api.get(`${OFFENCES}?perPage=100`, { token: tokens.insp2 });
    expect(list.body.map((o: { number: string }) => o.number)).toEqual(['HB-OWN-2']);
    const other = (await api.get(`${OFFENCES}?perPage=100`, { token: tokens.insp1 })).body.find(
      (o: { number: string }) => o.number === 'HB-RET',
    );
    expect((await api.get(`${OFFENCES}/${other.id}`, { token: tokens.insp2 })).status).toBe(404);
    expect((await api.put(`${OFFENCES}/${other.id}`, { address: 'x', version: other.version }, { token: tokens.insp2 })).status).toBe(404);
    expect((await api.del(`${OFFENCES}/${other.id}`, { token: tokens.insp2 })).status).toBe(404);
    // nor writes one in another inspector's name
    expect((await api.post(OFFENCES, draft({ number: 'HB-X', inspector_id: ids.insp1 }), { token: tokens.insp2 })).status).toBe(403);
    // the region's reviewer sees them all
    const all = (await api.get(`${OFFENCES}?perPage=100`, { token: tokens.reviewer })).body.map((o: { number: string }) => o.number);
    expect(all).toEqual(expect.arrayContaining(['HB-1', 'HB-RET', 'HB-OWN-2']));
    // a draft is deleted by its inspector
    expect((await api.del(`${OFFENCES}/${mine.id}`, { token: tokens.insp2 })).status).toBe(200);
  });

  it("a police user sees only what was sent to their region's ministry", async () => {
    const { body: sent } = await api.post(OFFENCES, draft({ number: 'HB-MVD' }), { token: tokens.insp1 });
    await act(sent.id, 'send-for-review', tokens.insp1);
    await act(sent.id, 'send-to-mvd', tokens.reviewer);
    const { body: other } = await api.post(OFFENCES, draft({ number: 'HB-R2', region_id: r2 }));
    await act(other.id, 'send-for-review', api.adminToken!);
    await act(other.id, 'send-to-mvd', api.adminToken!);
    const numbers = async (path: string, token: string) =>
      (await api.get(path, { token })).body.map((o: { number: string }) => o.number).sort();
    expect(await numbers(`${OFFENCES}?perPage=100`, tokens.police1)).toEqual(['HB-1', 'HB-MVD', 'HB-RET']);
    expect(await numbers('/api/mvd/offences?perPage=100', tokens.police1)).toEqual(['HB-1', 'HB-MVD', 'HB-RET']);
    expect(await numbers('/api/mvd/offences?perPage=100', tokens.police2)).toEqual(['HB-R2']);
    expect((await api.get(`${OFFENCES}/${sent.id}`, { token: tokens.police2 })).status).toBe(404);
    expect((await api.post(`/api/mvd/offences/${sent.id}/close`, { mvd_result: 'returned' }, { token: tokens.police2 })).status).toBe(404);
    // not the fund's staff: the police neither create nor edit offences
    expect((await api.post(OFFENCES, draft({ number: 'HB-P' }), { token: tokens.police1 })).status).toBe(403);
  });
});

describe('fine payments', () => {
  let offence: { id: number };
  beforeAll(async () => {
    offence = (await api.get(`${OFFENCES}?q=HB-1&perPage=5`, { token: tokens.reviewer })).body.find(
      (o: { number: string }) => o.number === 'HB-1',
    );
  });
  const pay = (over: Record<string, unknown>) =>
    api.post(
      PAYMENTS,
      { paid_on: '2025-09-10', number: 'T-1', amount: '1000000.01', payer: 'Aliyev Vali', income_type_id: fineIncome, ...over },
      { token: tokens.fund1 },
    );
  const payAct = (id: number, action: string, token: string, body: Record<string, unknown> = {}) =>
    api.post(`${PAYMENTS}/${id}/actions/${action}`, body, { token });

  it('takes only fine income codes', async () => {
    const r = await pay({ income_type_id: otherIncome });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors)).toEqual(['income_type_id']);
  });

  it('attaches by decree number, splits 26 % / 74 % exactly and marks the offence partly paid, then paid', async () => {
    const first = await pay({ purpose: 'Jarima, qaror № QR-2025-77, Aliyev V.' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    let r = await payAct(first.body.id, 'attach-by-decree', tokens.fund1);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'defined', offence_id: offence.id, decree_number: 'QR-2025-77', region_id: r1 });
    // defined is not yet paid
    expect((await api.get(`${OFFENCES}/${offence.id}`, { token: tokens.reviewer })).body.payment_status).toBe('unpaid');
    // the fund's user attaches; confirming is the confirming staff's
    expect((await payAct(first.body.id, 'confirm', tokens.fund1)).status).toBe(403);
    r = await payAct(first.body.id, 'confirm', tokens.reviewer);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // 100 000 001 tiyin: 26 % = 26 000 000.26, 74 % = 74 000 000.74 → the spare tiyin to the larger remainder
    expect(r.body).toMatchObject({ status: 'confirmed', budget_amount: '260000.00', fund_amount: '740000.01' });
    let o = (await api.get(`${OFFENCES}/${offence.id}`, { token: tokens.reviewer })).body;
    expect(o).toMatchObject({ payment_status: 'partly_paid', paid_amount: '1000000.01' });

    const second = await pay({ number: 'T-2', amount: '2089999.99', purpose: 'Jarima' });
    expect((await payAct(second.body.id, 'attach-by-decree', tokens.fund1)).status).toBe(400);
    r = await payAct(second.body.id, 'attach', tokens.fund1, { offence_id: offence.id });
    expect(r.body).toMatchObject({ status: 'defined', offence_id: offence.id });
    r = await payAct(second.body.id, 'confirm', tokens.reviewer);
    expect(r.body).toMatchObject({ budget_amount: '543400.00', fund_amount: '1546599.99' });
    o = (await api.get(`${OFFENCES}/${offence.id}`, { token: tokens.reviewer })).body;
    expect(o).toMatchObject({ payment_status: 'paid', paid_amount: '3090000.00', fine_amount: '3090000.00' });

    // cancelling a confirmation undoes the split and the offence is partly paid again
    r = await payAct(second.body.id, 'cancel-confirmed', tokens.reviewer);
    expect(r.body).toMatchObject({ status: 'defined', budget_amount: null, fund_amount: null });
    o = (await api.get(`${OFFENCES}/${offence.id}`, { token: tokens.reviewer })).body;
    expect(o).toMatchObject({ payment_status: 'partly_paid', paid_amount: '1000000.01' });
    // the offence's change is audited as the payments' doing
    const audit = await api.db.knex('audit_log').where({ entity: 'offences', record_id: offence.id, action: 'payments' }).count({ n: '*' });
    expect(Number(audit[0].n)).toBe(3);
    // the offence lists its payments
    const listed = await api.get(`${PAYMENTS}?offence_id=${offence.id}`, { token: tokens.reviewer });
    expect(listed.body.map((p: { number: string }) => p.number).sort()).toEqual(['T-1', 'T-2']);
  });

  it("takes the statements' fine payments and attaches those naming a decree", async () => {
    const k = api.db.knex;
    const [stack] = await k('payment_stacks').insert({ number: 'KV-F', statement_date: '2025-09-20' }).returning('id');
    const [fine] = await k('payments')
      .insert({
        stack_id: stack.id,
        paid_on: '2025-09-20',
        number: 'B-7',
        amount: '500.00',
        payment_type: 'card',
        income_type_id: fineIncome,
        income_code: '3430153',
        purpose: 'Ekologik jarima, qaror № QR-2025-77',
        status: 'undefined',
        region_id: r1,
      })
      .returning('id');
    await k('payments').insert({
      stack_id: stack.id,
      paid_on: '2025-09-20',
      number: 'B-8',
      amount: '900.00',
      payment_type: 'card',
      income_type_id: otherIncome,
      purpose: 'Kompensatsiya',
      status: 'undefined',
      region_id: r1,
    });
    // another region's fund user takes none of them
    await user('fund2', 'fund', r2);
    expect((await api.post(`${PAYMENTS}/from-statements`, undefined, { token: tokens.fund2 })).body.taken).toBe(0);
    const r = await api.post(`${PAYMENTS}/from-statements`, undefined, { token: tokens.fund1 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ taken: 1, attached: 1 });
    const taken = (await api.get(`${PAYMENTS}/${r.body.ids[0]}`, { token: tokens.fund1 })).body;
    expect(taken).toMatchObject({ payment_id: fine.id, number: 'B-7', status: 'defined', offence_id: offence.id });
    // taken once
    expect((await api.post(`${PAYMENTS}/from-statements`, undefined, { token: tokens.fund1 })).body.taken).toBe(0);
    // and the database itself refuses a second row for the same statement payment, whoever writes it
    const { id: _taken, ...copy } = await k('offence_payments').where({ id: r.body.ids[0] }).first();
    await expect(k('offence_payments').insert(copy)).rejects.toThrow(/offence_payments_payment_id_unique/);
  });
});

describe('mahallas', () => {
  it('sit under a district and take its region', async () => {
    const area = await api.db.knex('areas').where({ region_id: r2 }).first('id');
    const r = await api.post('/api/ecofund-sprav/mahalla', {
      area_id: area.id,
      code: 'M-1',
      name: { uz: 'Navroʻz', uk: 'Наврўз', ru: 'Навруз' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.region_id).toBe(r2);
    const off = await api.post(OFFENCES, draft({ number: 'HB-M', region_id: r2, area_id: area.id, mahalla_id: r.body.id }));
    expect(off.body.mahalla_id).toBe(r.body.id);
    // a mahalla of another district than the offence's is refused beside the mahalla, naming the district, in the caller's language
    const other = await api.db.knex('areas').where({ region_id: r2 }).whereNot({ id: area.id }).first('id');
    const wrong = await api.post(OFFENCES, draft({ number: 'HB-M2', region_id: r2, area_id: other.id, mahalla_id: r.body.id }), {
      lang: 'ru',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ mahalla_id: expect.stringMatching(/^Не относится к выбранному значению «Район/) });
    // and so is moving the offence to another district while it keeps the mahalla
    const moved = await api.put(`${OFFENCES}/${off.body.id}`, { area_id: other.id, version: off.body.version });
    expect(moved.status).toBe(400);
    expect(Object.keys(moved.body.errors)).toEqual(['mahalla_id']);
    // the registry's plantings name mahallas the same way
    const species = await api.db.knex('tree_species').first('id');
    const planting = {
      species_id: species.id,
      count: 3,
      planted_on: '2025-04-01',
      place_type: 'street',
      region_id: r2,
      area_id: area.id,
      mahalla_id: r.body.id,
      location: { lng: 66.9, lat: 39.6 },
    };
    const ok = await api.post('/api/ecofund-plantings/plantings', planting);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.mahalla_id).toBe(r.body.id);
    expect((await api.post('/api/ecofund-plantings/plantings', { ...planting, area_id: other.id })).status).toBe(400);
  });
});
