import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';

/** Penya from a debt and the payments after its due date; protocol fines within their article's interval; the calculator. */
let api: TestApi;
let subjectId: number;
beforeAll(async () => {
  api = await startTestApi();
  const region = (await api.db.knex('regions').first('id')).id;
  const category = (await api.db.knex('subject_categories').first('id')).id;
  subjectId = (await api.post('/api/ecofund/subject', { inn: '600000001', name: 'Kimyo zavodi', region_id: region, category_id: category }))
    .body.id;
});
afterAll(async () => {
  await api?.close();
});

describe('penalties', () => {
  it('accrues penya daily on the debt, less payments after the due date', async () => {
    // 1 000 000.00 due 2024-01-31, 0.1 % a day: Feb 1 – Feb 29 (leap year) = 29 days on the whole debt
    const r = await api.post('/api/ecofund/penya', {
      subject_id: subjectId,
      debt: '1000000.00',
      due_date: '2024-01-31',
      as_of: '2024-02-29',
      daily_rate: '0.1',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ overdue_days: 29, paid: '0.00', amount: '29000.00' });
    // a payment of 600 000.00 on Feb 10 leaves 400 000.00 from Feb 11: 10 days × 1 000 + 19 days × 400
    const [stack] = await api.db.knex('payment_stacks').insert({ number: 'S', statement_date: '2024-02-10' }).returning('id');
    await api.db.knex('payments').insert({
      stack_id: stack.id,
      paid_on: '2024-02-10',
      number: '1',
      amount: '600000.00',
      payment_type: 'card',
      subject_id: subjectId,
      status: 'confirmed',
    });
    const again = await api.put(`/api/ecofund/penya/${r.body.id}`, { as_of: '2024-02-29', version: r.body.version });
    expect(again.body).toMatchObject({ paid: '600000.00', amount: '17600.00' });
  });

  it("fines a protocol by the base value on its date, within the article's interval", async () => {
    const [stack] = await api.db
      .knex('protocol_stacks')
      .insert({
        number: 'B-1',
        stack_date: '2025-09-01',
        category_id: (await api.db.knex('stack_protocol_categories').first('id')).id,
        region_id: (await api.db.knex('regions').first('id')).id,
      })
      .returning('id');
    const [article] = await api.db
      .knex('fine')
      .insert({ code: 'KoAP-65', article: '65', name: JSON.stringify({ uz: 'Daraxt kesish' }), min_multiple: '5', max_multiple: '10' })
      .returning('id');
    const base = { stack_id: stack.id, subject_id: subjectId, number: 'P-1', protocol_date: '2025-09-01', fine_id: article.id };
    const outside = await api.post('/api/ecofund/subject-protocols', { ...base, fine_multiple: '12' }, { lang: 'ru' });
    expect(outside.status).toBe(400);
    expect(outside.body.errors).toEqual({ fine_multiple: 'Значение должно быть в заданном интервале (5 – 10)' });
    const ok = await api.post('/api/ecofund/subject-protocols', { ...base, fine_multiple: '7.5' });
    // 7.5 × 412 000.00 (base value from 2025-08-01)
    expect(ok.body.fine_amount).toBe('3090000.00');
  });

  it('calculates compensation without saving', async () => {
    const r = await api.post('/api/ecofund/ecologic-calculator', {
      report_date: '2025-09-01',
      ingredients: [
        { pollutant: 'Chang', mass: '2.5', norm: '0.1', coefficient2: '1.2' },
        { pollutant: 'NO2', mass: '1.25', norm: '0.04' },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ base_value: '412000.00', base_value_since: '2025-08-01', total_multiples: '0.35', amount: '144200.00' });
    const bad = await api.post(
      '/api/ecofund/ecologic-calculator',
      { report_date: '2025-09-01', ingredients: [{ pollutant: 'x', mass: '-1' }] },
      { lang: 'ru' },
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['ingredients.0.mass', 'ingredients.0.norm']);
    const token = await api.userWithActions('no_calc', [253]);
    expect((await api.post('/api/ecofund/ecologic-calculator', { report_date: '2025-09-01', ingredients: [] }, { token })).status).toBe(
      403,
    );
    expect(await api.db.knex('subject_reports').count({ n: '*' })).toEqual([{ n: 0 }]);
  });
});
