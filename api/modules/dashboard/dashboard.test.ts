import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { TEST_ADMIN_PASSWORD } from '../../../test/support/template.ts';
import { seed, DEMO_ADMIN_PASSWORD } from '../../../seeds/index.ts';
import { seedDemo } from '../../../seeds/demo.ts';
import { todayTashkent } from '../../meta/today.ts';
import { sumDecimals } from '../../../shared/numbers.ts';
import { periodsOf, queuesOf, type DashboardAnswer } from './dashboard.ts';

/**
 * The dashboard through the API on the demo data, as the demo users: each sees the queues of the
 * actions they hold and no other, every count equals the total of the list it links to (the same
 * filter, their scope) and the rows the database holds in their scope; the figures are exact sums of
 * the linked list over Tashkent's month and year.
 */
let api: TestApi;
const tokens: Record<string, string> = {};
let fundRegion = 0;
let subjectId = 0;
const USERS = ['fund', 'inspector', 'subject', 'police', 'ecology', 'confirming', 'admin'] as const;

const dashboard = async (who: string, lang = 'uz') => {
  const r = await api.get<DashboardAnswer>('/api/dashboard', { token: tokens[who], lang });
  expect(r.status, who).toBe(200);
  return r.body;
};
const pathOf = (entity: string) => `/api${api.model.entities.get(entity)!.path}`;
/** A list's total (Content-Range) with a filter, as the back-office asks for it. */
const listTotal = async (who: string, entity: string, filter: Record<string, unknown>) => {
  const r = await api.get(`${pathOf(entity)}?range=${encodeURIComponent('[0,0]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`, {
    token: tokens[who],
  });
  expect(r.status, `${who} ${entity}`).toBe(200);
  return Number(/\/(\d+)$/.exec(r.headers.get('content-range') ?? '')![1]);
};
/** Every row of a list with a filter, page by page. */
const listRows = async (who: string, entity: string, filter: Record<string, unknown>) => {
  const out: Record<string, unknown>[] = [];
  for (let from = 0; ; from += 100) {
    const range = encodeURIComponent(JSON.stringify([from, from + 99]));
    const r = await api.get(`${pathOf(entity)}?range=${range}&filter=${encodeURIComponent(JSON.stringify(filter))}`, {
      token: tokens[who],
    });
    out.push(...r.body);
    if (r.body.length < 100) return out;
  }
};

beforeAll(async () => {
  api = await startTestApi();
  await seedDemo(api.db.knex, () => undefined, 60);
  await seed(api.db.knex, api.model, { demo: true, adminPassword: TEST_ADMIN_PASSWORD });
  for (const u of USERS) tokens[u] = u === 'admin' ? api.adminToken : await api.login(u, DEMO_ADMIN_PASSWORD);
  fundRegion = Number((await api.db.knex('users').where({ username: 'fund' }).first('region_id')).region_id);
  subjectId = Number((await api.db.knex('users').where({ username: 'subject' }).first('subject_id')).subject_id);
}, 300_000);
afterAll(async () => {
  await api?.close();
});

describe('GET /api/dashboard', () => {
  it('answers 401 without a token, and nothing to someone who holds no action', async () => {
    expect((await api.get('/api/dashboard', { token: '' })).status).toBe(401);
    const none = await api.userWithActions('nobody', []);
    const r = await api.get('/api/dashboard', { token: none });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ today: todayTashkent(), queues: [], figures: [] });
  });

  it('shows each user the queues of the actions they hold, and only those', async () => {
    const keys = async (who: string) => (await dashboard(who)).queues.map((q) => q.key);
    expect(await keys('fund')).toEqual(
      expect.arrayContaining([
        'subject-report-yearly.reports-to-accept',
        'payments.payments-to-attach',
        'payments.payments-to-confirm',
        'offences-payment.fine-payments-to-attach',
      ]),
    );
    expect(await keys('fund')).not.toContain('subject-report-yearly.reports-to-send');
    expect(await keys('inspector')).toEqual(
      expect.arrayContaining([
        'subject-report-yearly.reports-to-accept',
        'offences.offences-to-send',
        'people-facts.people-facts-to-check',
        'expertise-requests-data.expertise-to-review',
      ]),
    );
    expect(await keys('inspector')).not.toContain('payments.payments-to-attach');
    expect(await keys('subject')).toEqual(['subject-report-yearly.reports-to-send']);
    expect(await keys('police')).toEqual(['offences.offences-at-mvd']);
    expect(await keys('ecology')).toEqual(['public-plantings.public-plantings-to-moderate']);
    expect(await keys('confirming')).toEqual(
      expect.arrayContaining(['payments.payments-to-confirm', 'offences.offences-to-review', 'offences-payment.fine-payments-to-confirm']),
    );
    expect(await keys('confirming')).not.toContain('payments.payments-to-attach');
    // the administrator holds every action: every queue of the metadata
    expect(await keys('admin')).toEqual(queuesOf(api.model).map((q) => q.key));
  });

  it("counts each queue as the list it links to shows it: the same filter, the user's scope", async () => {
    for (const who of USERS) {
      const d = await dashboard(who);
      for (const q of d.queues) {
        expect(q.exact, `${who} ${q.key}`).toBe(true);
        expect(await listTotal(who, q.entity, q.filter), `${who} ${q.key}`).toBe(q.count);
      }
    }
  });

  it("counts the rows of the user's own scope: the fund's region, the subject's own reports", async () => {
    const k = api.db.knex;
    const count = async (table: string, where: (q: ReturnType<typeof k>) => unknown) => {
      const q = k(table);
      where(q);
      return Number((await q.count<{ n: string }[]>({ n: '*' }))[0].n);
    };
    const fund = await dashboard('fund');
    const accept = fund.queues.find((q) => q.key === 'subject-report-yearly.reports-to-accept')!;
    const inRegion = await count('subject_reports', (q) => q.where({ region_id: fundRegion }).whereIn('status', ['sent', 'in_process']));
    const everywhere = await count('subject_reports', (q) => q.whereIn('status', ['sent', 'in_process']));
    expect(accept.count).toBe(inRegion);
    const admin = await dashboard('admin');
    expect(admin.queues.find((q) => q.key === accept.key)!.count).toBe(everywhere);
    expect(everywhere).toBeGreaterThan(inRegion);
    const send = (await dashboard('subject')).queues[0];
    expect(send.filter).toEqual({ status: ['new', 'rejected'] });
    expect(send.count).toBe(
      await count('subject_reports', (q) => q.where({ subject_id: subjectId }).whereIn('status', ['new', 'rejected'])),
    );
    expect(send.count).toBeGreaterThan(0);
  });

  it('names each queue in the language asked', async () => {
    const [uz, ru, uk] = await Promise.all([dashboard('subject', 'uz'), dashboard('subject', 'ru'), dashboard('subject', 'uk')]);
    expect(uz.queues[0].label).toBe('queues.reports-to-send');
    expect(uz.queues[0].caption).toBe('Yuborilishi kerak boʻlgan hisobotlar');
    expect(ru.queues[0].caption).toBe('Отчёты к отправке');
    expect(uk.queues[0].caption).toBe('Юборилиши керак бўлган ҳисоботлар');
  });
});

describe('the figures', () => {
  it("are this Tashkent month's payments and this year's trees, exact sums of the lists they link to", async () => {
    for (const who of ['fund', 'subject', 'inspector', 'ecology', 'admin']) {
      const d = await dashboard(who);
      for (const f of d.figures) {
        expect(f.from, who).toBe(periodsOf(d.today)[f.period].from);
        expect(f.to, who).toBe(periodsOf(d.today)[f.period].to);
        expect(await listTotal(who, f.entity, f.filter), `${who} ${f.key}`).toBe(f.count);
      }
      const keys = d.figures.map((f) => f.key);
      // the fund and the subject read payments, not plantings; the ecology staff the other way round
      if (who === 'fund' || who === 'subject') expect(keys, who).toEqual(['payments-month']);
      if (who === 'ecology') expect(keys, who).toEqual(['trees-year']);
      if (who === 'inspector' || who === 'admin') expect(keys, who).toEqual(['payments-month', 'trees-year']);
    }
    for (const who of ['fund', 'admin']) {
      const month = (await dashboard(who)).figures[0];
      const rows = await listRows(who, 'payments', month.filter);
      expect(month.value, who).toMatch(/^\d+\.\d{2}$/);
      expect(month.value, who).toBe(sumDecimals(['0.00', ...rows.map((r) => r.amount)]));
    }
  });

  it("grow by a payment of the fund's region attached today, to the tiyin", async () => {
    const before = await dashboard('fund');
    const month = before.figures[0];
    const confirm = before.queues.find((q) => q.key === 'payments.payments-to-confirm')!;
    const [stack] = (await api.get('/api/ecofund/stack-payments?range=[0,0]')).body;
    const subject = await api.db.knex('subjects').where({ region_id: fundRegion }).first('id');
    const today = todayTashkent();
    const created = await api.post('/api/ecofund/payments', {
      stack_id: stack.id,
      paid_on: today,
      number: 'DASH-1',
      amount: '1234567.89',
      payment_type: 'card',
    });
    expect(created.status).toBe(201);
    const attached = await api.post(`/api/ecofund/payments/${created.body.id}/actions/attach`, { subject_id: subject.id });
    expect(attached.status).toBe(200);
    const after = await dashboard('fund');
    expect(after.figures[0].count).toBe(month.count + 1);
    expect(after.figures[0].value).toBe(sumDecimals([month.value, '1234567.89']));
    expect(after.queues.find((q) => q.key === confirm.key)!.count).toBe(confirm.count + 1);
    const rows = await listRows('fund', 'payments', after.figures[0].filter);
    expect(rows.length).toBe(after.figures[0].count);
    expect(after.figures[0].value).toBe(sumDecimals(['0.00', ...rows.map((r) => r.amount)]));
  });

  it("take their month and year from Tashkent's calendar", () => {
    expect(periodsOf('2026-02-14')).toEqual({
      month: { from: '2026-02-01', to: '2026-02-28' },
      year: { from: '2026-01-01', to: '2026-12-31' },
    });
    expect(periodsOf('2024-02-29').month.to).toBe('2024-02-29');
    expect(periodsOf('2026-12-31').month).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    // 19:30 UTC on 30 November is already 1 December in Tashkent: December's figures
    expect(periodsOf(todayTashkent(new Date('2026-11-30T19:30:00Z'))).month.from).toBe('2026-12-01');
  });
});
