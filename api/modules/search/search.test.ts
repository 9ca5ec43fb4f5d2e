import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { newSubject } from '../../../test/support/subjects.ts';
import { samplePayload } from '../../../test/support/samples.ts';
import { MAX_TERM, searchables, type SearchAnswer } from './search.ts';

/**
 * The global search through the API (docs/global-search.md): it looks in the entities whose list
 * search is marked global, through each list's read path — a region's user finds their region's
 * subject and not another region's, a reader without the right to personal data neither finds a
 * row by a masked field nor reads it in the hit, the administrator finds both.
 */
let api: TestApi;
let r1 = 0;
let r2 = 0;
let here = 0;
let there = 0;
let paymentId = 0;
const PAYER_INN = '31876543219876'; // a person's PINFL: masked (an organisation's nine-digit INN is not)
const PAYMENT_NUMBER = 'GS-PAY-7741';

const search = async (q: string, token?: string, lang = 'uz') => {
  const r = await api.get<SearchAnswer>(`/api/search?q=${encodeURIComponent(q)}`, { token, lang });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
const idsOf = (a: SearchAnswer, entity: string) => a.groups.find((g) => g.entity === entity)?.hits.map((h) => h.id) ?? [];

beforeAll(async () => {
  api = await startTestApi();
  const k = api.db.knex;
  [r1, r2] = (await k('regions').orderBy('id').limit(2).pluck('id')).map(Number);
  const category = Number((await k('subject_categories').first('id')).id);
  here = await newSubject(api, '307700111', r1, category);
  there = await newSubject(api, '307700222', r2, category);
  const payments = api.model.entities.get('payments')!;
  const payload = { ...(await samplePayload(k, api.model, payments)), number: PAYMENT_NUMBER, payer_inn: PAYER_INN };
  const p = await api.post(`/api${payments.path}`, payload);
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  paymentId = p.body.id;
  // a payment takes its region from the subject it is attached to (the fund's attach move): set here
  await k('payments').where({ id: paymentId }).update({ subject_id: here, region_id: r1 });
}, 120_000);
afterAll(async () => {
  await api?.close();
});

describe('GET /api/search', () => {
  it('looks in the entities metadata marks global, a search filter each', () => {
    const names = searchables(api.model).map((d) => d.entity.name);
    expect(names).toEqual(expect.arrayContaining(['subject', 'payments', 'offences']));
    for (const d of searchables(api.model)) expect(d.meta.op).toBe('search');
  });

  it('answers 401 without a token, 400 naming q for a term too long, nothing for a term too short', async () => {
    expect((await api.get('/api/search?q=3077', { token: '' })).status).toBe(401);
    const long = await api.get(`/api/search?q=${'a'.repeat(MAX_TERM + 1)}`, { lang: 'ru' });
    expect(long.status).toBe(400);
    expect(Object.keys(long.body.errors ?? {})).toEqual(['q']);
    expect((await search('3')).groups).toEqual([]);
  });

  it('finds subjects by INN and name with their entity caption in the caller language', async () => {
    const a = await search('30770');
    expect(idsOf(a, 'subject')).toEqual(expect.arrayContaining([here, there]));
    const byName = await search('subyekt 307700222', undefined, 'ru');
    const g = byName.groups.find((x) => x.entity === 'subject')!;
    expect(g.caption).toBe(api.model.captions.ru[api.model.entities.get('subject')!.caption] ?? g.caption);
    expect(g.hits).toEqual([{ id: there, title: 'Subyekt 307700222', detail: '307700222' }]);
  });

  it('finds for a region user only the rows of their region', async () => {
    const subject = api.model.entities.get('subject')!;
    const token = await api.userWithActions('gs_region', [subject.access.read], { region_id: r1 });
    const a = await search('30770', token);
    expect(idsOf(a, 'subject')).toContain(here);
    expect(idsOf(a, 'subject')).not.toContain(there);
    // an entity they may not read is not searched at all
    expect(a.groups.map((g) => g.entity)).toEqual(['subject']);
    const none = await api.userWithActions('gs_none', []);
    expect((await search('30770', none)).groups).toEqual([]);
  });

  it('does not search a personal field masked to the caller, nor show it in a hit', async () => {
    const payments = api.model.entities.get('payments')!;
    expect(idsOf(await search(PAYER_INN), 'payments')).toEqual([paymentId]);
    const token = await api.userWithActions('gs_payments', [payments.access.read], { region_id: r1 });
    expect(idsOf(await search(PAYER_INN, token), 'payments')).toEqual([]);
    const byNumber = await search(PAYMENT_NUMBER, token);
    const hit = byNumber.groups.find((g) => g.entity === 'payments')!.hits[0];
    expect(hit.id).toBe(paymentId);
    expect(hit.title).toBe(PAYMENT_NUMBER);
    expect(JSON.stringify(hit)).not.toContain(PAYER_INN);
  });
});
