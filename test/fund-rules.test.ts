import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { REFERENCE_ROWS } from '../seeds/reference-rows.ts';
import { FORMATS } from '../api/meta/formats.ts';
import { splitIncome } from '../api/domain/income-split.ts';
import { formatTiyin, parseTiyin } from '../api/domain/money.ts';

/**
 * The fund's last rules of issue 32 (docs/domain-rules.md, "Issue 32"), through the API on a
 * fresh install: the quota codes of every percentage the spec names, the five-digit parameter
 * (an activity's OKED code), one branch plan a period.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe("quota income: a code for each of the spec's percentages", () => {
  it('the income-types book of a fresh install has quota codes for 100, 80, 70, 40 and 32 % to the fund, each splitting 100 %', async () => {
    const rows = await api.db
      .knex('income_types')
      .where({ group: 'quota' })
      .orderBy('code')
      .select('code', 'budget_percent', 'fund_percent', 'organisation_percent', 'needs_review');
    const percents = new Set(rows.map((r: { fund_percent: string }) => Number(r.fund_percent)));
    expect([...percents].sort((a, b) => b - a)).toEqual([100, 80, 70, 40, 32]);
    for (const r of rows) expect(Number(r.budget_percent) + Number(r.fund_percent) + Number(r.organisation_percent), r.code).toBe(100);
    // the two the spec gives no code for wait for the fund's word
    expect(rows.filter((r: { needs_review: boolean }) => r.needs_review).map((r: { code: string }) => r.code)).toEqual(
      expect.arrayContaining(['8888870', '9999932']),
    );
  });

  it('a payment under the 70 % and the 32 % code splits by its row, to the tiyin', async () => {
    const row = async (code: string) =>
      api.db.knex('income_types').where({ code }).first('budget_percent', 'fund_percent', 'organisation_percent');
    const s70 = splitIncome(parseTiyin('333.33'), await row('8888870'));
    expect([formatTiyin(s70.budget), formatTiyin(s70.fund)]).toEqual(['100.00', '233.33']);
    const s32 = splitIncome(parseTiyin('1000.00'), await row('9999932'));
    expect([formatTiyin(s32.budget), formatTiyin(s32.fund)]).toEqual(['680.00', '320.00']);
  });
});

describe("the five-digit parameter: an activity's OKED code", () => {
  const book = '/api/ecofund-sprav/subject-activities';
  it('every seeded activity has a five-digit OKED code', () => {
    const re = new RegExp(FORMATS.digits5.pattern);
    const rows = REFERENCE_ROWS['subject-activities'];
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) expect(String(r.oked), String(r.code)).toMatch(re);
  });

  it("takes five digits and refuses anything else, naming the field in the caller's language", async () => {
    const ok = await api.post(book, { code: 'FOREST', name: { uz: 'Oʻrmon xoʻjaligi', ru: 'Лесное хозяйство' }, oked: '02100' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    for (const oked of ['02.10', '2100', '021000', '0210a']) {
      const bad = await api.post(book, { code: `X${oked.replace(/\W/g, '')}`, name: { uz: 'Xato', ru: 'Ошибка' }, oked }, { lang: 'ru' });
      expect(bad.status, oked).toBe(400);
      expect(bad.body.errors, oked).toEqual({ oked: 'Введите 5 цифр' });
    }
  });
});

describe('a branch plan a period', () => {
  it('refuses a second plan for the same branch, year and period, beside the period; another period or year is taken', async () => {
    const k = api.db.knex;
    const region = (await k('regions').orderBy('id').first('id')).id;
    const [branch] = await k('branches')
      .insert({
        code: 'FR-1',
        name: JSON.stringify({ uz: 'Sinov filiali', uk: 'Синов филиали', ru: 'Тестовый филиал' }),
        region_id: region,
      })
      .returning('id');
    const path = '/api/ecofund/branchs-plans';
    const plan = (period: string, year = 2026, amount = '1000.00') =>
      api.post(path, { branch_id: branch.id, year, period, plan_amount: amount }, { lang: 'ru' });
    expect((await plan('q1')).status).toBe(201);
    const again = await plan('q1', 2026, '2000.00');
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({ period: 'Такое значение уже существует' });
    expect((await plan('q2')).status).toBe(201);
    expect((await plan('year')).status).toBe(201);
    expect((await plan('q1', 2025)).status).toBe(201);
    expect(Number((await k('branch_plans').where({ branch_id: branch.id }).count({ n: '*' }))[0].n)).toBe(4);
  });
});
