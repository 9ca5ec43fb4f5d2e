import type { Knex } from 'knex';
import { splitIncome } from '../api/domain/income-split.ts';
import { formatTiyin, parseTiyin } from '../api/domain/money.ts';
import { computeReport, lateness } from '../api/modules/fund/reports.ts';
import { entityReads } from './entity-reads.ts';
import { reportDeadline } from '../api/domain/periods.ts';
import { addDays } from '../api/domain/dates.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { seedGreeningDemo } from './demo-greening.ts';
import { seedZonesDemo } from './demo-zones.ts';
import { seedTemplateDemo } from './demo-templates.ts';
import { seedFineArticles } from './demo-offences.ts';
import { random } from './random.ts';

const NAMES = [
  'Sement',
  'Toʻqimachilik',
  'Kimyo',
  'Oziq-ovqat',
  'Gʻisht',
  'Metall',
  'Neft',
  'Energiya',
  'Qurilish',
  'Avto',
  'Qogʻoz',
  'Shisha',
  'Paxta',
  'Charm',
  'Mebel',
];
const FORMS = ['MChJ', 'AJ', 'QK', 'XK', 'DUK'];
const POLLUTANTS: [string, string][] = [
  ['Chang (PM10)', '0.12'],
  ['Azot dioksidi', '0.04'],
  ['Oltingugurt dioksidi', '0.05'],
  ['Uglerod oksidi', '0.002'],
  ['Maishiy chiqindilar', '0.015'],
  ['Oqava suv', '0.008'],
];
const REPORT_STATES = ['new', 'sent', 'in_process', 'accepted', 'rejected', 'invalid'] as const;

/**
 * Demo data for `npm start` on the embedded database: a few hundred subjects across the regions,
 * a year of bank statements with payments in every state (confirmed ones split exactly), and
 * compensation reports in every state, written only when there are no subjects yet; and the
 * greening registry's (seeds/demo-greening.ts), written only when there are no planting plans yet.
 */
export async function seedDemo(knex: Knex, log: (s: string) => void = () => undefined, count = 300): Promise<void> {
  // the fine book's articles first: the demo protocols (here, seeds/demo-users.ts) and offences name theirs
  await seedFineArticles(knex, (await knex('users').where({ username: 'admin' }).first('id'))?.id ?? null);
  await seedFundDemo(knex, log, count);
  await seedGreeningDemo(knex, log);
  await seedZonesDemo(knex, log);
  await seedTemplateDemo(knex, log);
}

async function seedFundDemo(knex: Knex, log: (s: string) => void, count: number): Promise<void> {
  if (await knex('subjects').first('id')) return;
  const rnd = random(20261122);
  const regions = await knex('regions').orderBy('id').select('id');
  const areas = await knex('areas').select('id', 'region_id');
  const categories = await knex('subject_categories').orderBy('id').pluck('id');
  const types = await knex('subject_types').pluck('id');
  const banks = await knex('banks_mfo').pluck('mfo');
  // one income code of each of the groups subjects pay most, as the income-types book has them
  const incomes = (
    await knex('income_types')
      .whereIn('group', ['compensation', 'tree_felling', 'fine'])
      .where({ is_active: true })
      .orderBy('id')
      .select('id', 'code', 'group', 'budget_percent', 'fund_percent', 'organisation_percent')
  ).filter((t: { group: string }, i: number, all: { group: string }[]) => all.findIndex((x) => x.group === t.group) === i);
  const admin = (await knex('users').where({ username: 'admin' }).first('id'))?.id ?? null;
  const today = todayTashkent();
  const year = Number(today.slice(0, 4)) - 1;

  await knex.transaction(async (trx) => {
    const subjects: { id: number; inn: string; region_id: number }[] = [];
    for (let i = 0; i < count; i++) {
      const region = regions[i % regions.length].id;
      const regionAreas = areas.filter((a: { region_id: number }) => a.region_id === region);
      const row = {
        inn: String(300000000 + i * 7 + 3),
        name: `“${rnd.pick(NAMES)} ${i + 1}” ${rnd.pick(FORMS)}`,
        region_id: region,
        area_id: regionAreas.length ? rnd.pick(regionAreas).id : null,
        category_id: rnd.pick(categories),
        subject_type_id: types.length ? rnd.pick(types) : null,
        address: `${rnd.int(1, 120)}-uy`,
        start_date: `${rnd.int(2005, 2022)}-0${rnd.int(1, 9)}-1${rnd.int(0, 9)}`,
        director: `Direktor ${i + 1}`,
        mfo: banks.length ? rnd.pick(banks) : null,
        account: `2020800${String(i).padStart(13, '0')}`,
        phone: `9${rnd.int(0, 9)}${String(rnd.int(1000000, 9999999))}`,
        status: i % 37 === 0 ? 'suspended' : i % 53 === 0 ? 'stopped' : 'active',
        created_by: admin,
        updated_by: admin,
      };
      const [s] = await trx('subjects').insert(row).returning(['id', 'inn', 'region_id']);
      subjects.push(s);
    }
    // the bank's name by the MFO, as the engine's writes copy it (`bank_name` from `banks-mfo`)
    await trx.raw('UPDATE subjects s SET bank_name = b.name FROM banks_mfo b WHERE b.mfo = s.mfo AND s.bank_name IS NULL');
    log(`demo: ${subjects.length} subjects`);

    let payments = 0;
    for (let month = 1; month <= 12; month++) {
      const date = `${year}-${String(month).padStart(2, '0')}-28`;
      const [stack] = await trx('payment_stacks')
        .insert({ number: `KV-${year}-${month}`, statement_date: date, bank_mfo: banks[0] ?? null, created_by: admin, updated_by: admin })
        .returning('id');
      let total = 0n;
      const rows = [];
      for (let k = 0; k < 40; k++) {
        const subject = rnd.pick(subjects);
        const income = rnd.pick(incomes);
        const amount = `${rnd.int(100, 50000000)}.${String(rnd.int(0, 99)).padStart(2, '0')}`;
        total += parseTiyin(amount);
        const state = rnd.next() < 0.15 ? 'undefined' : rnd.next() < 0.35 ? 'defined' : 'confirmed';
        rows.push({
          stack_id: stack.id,
          paid_on: `${year}-${String(month).padStart(2, '0')}-${String(rnd.int(1, 27)).padStart(2, '0')}`,
          number: `${month}-${k + 1}`,
          amount,
          payer: `Toʻlovchi ${subject.inn}`,
          payer_inn: subject.inn,
          payment_type: rnd.next() < 0.9 ? 'card' : 'cash',
          purpose: 'Kompensatsiya toʻlovi',
          income_type_id: income.id,
          income_code: income.code,
          subject_id: state === 'undefined' ? null : subject.id,
          region_id: state === 'undefined' ? null : subject.region_id,
          status: state,
          created_by: admin,
          updated_by: admin,
        });
      }
      const inserted = await trx('payments').insert(rows).returning(['id', 'amount', 'income_type_id', 'status']);
      const splits = inserted
        .filter((p: { status: string }) => p.status === 'confirmed')
        .map((p: { id: number; amount: string; income_type_id: number }) => {
          const income = incomes.find((x: { id: number }) => x.id === p.income_type_id);
          const parts = splitIncome(parseTiyin(p.amount), income);
          return {
            parent_id: p.id,
            ordering: 0,
            income_code: income.code,
            budget: formatTiyin(parts.budget),
            fund: formatTiyin(parts.fund),
            organisation: formatTiyin(parts.organisation),
          };
        });
      if (splits.length) await trx('payment_splits').insert(splits);
      await trx('payment_stacks')
        .where({ id: stack.id })
        .update({ rows_count: rows.length, total_amount: formatTiyin(total) });
      payments += rows.length;
    }
    log(`demo: ${payments} payments in 12 statements`);

    let reports = 0;
    for (const [i, subject] of subjects.entries()) {
      if (i % 2) continue;
      const quarter = (i % 4) + 1;
      const reportDate = `${year}-${String(quarter * 3).padStart(2, '0')}-25`;
      const status = REPORT_STATES[(i / 2) % REPORT_STATES.length];
      // a report is sent only with a verified signature (docs/report-workflow.md): every report past
      // "new" went through sending and carries its signer and time; a new one is not signed. One in
      // five sent reports went out 20 days after the deadline and carries the late-report fine.
      const sent = status !== 'new';
      const lateOn = addDays(reportDeadline({ kind: 'quarter', year, quarter: quarter as 1 | 2 | 3 | 4 }), 20);
      const sentOn = sent && (i / 2) % 5 === 1 && lateOn <= today ? lateOn : reportDate;
      const [r] = await trx('subject_reports')
        .insert({
          subject_id: subject.id,
          region_id: subject.region_id,
          year,
          period: `q${quarter}`,
          report_date: reportDate,
          status,
          signed: sent,
          signer: sent ? `Direktor ${i + 1} · ${subject.inn} · 7A${String(1000 + i)}` : null,
          signed_at: sent ? `${sentOn}T10:${String(i % 60).padStart(2, '0')}:00+05:00` : null,
          created_by: admin,
          updated_by: admin,
        })
        .returning(['id', 'year', 'period', 'month']);
      const lines = Array.from({ length: rnd.int(1, 3) }, (_, j) => {
        const [pollutant, norm] = POLLUTANTS[(i + j) % POLLUTANTS.length];
        return {
          parent_id: r.id,
          ordering: j,
          pollutant,
          norm,
          mass: `${rnd.int(1, 900)}.${rnd.int(0, 999)}`,
          coefficient1: '1',
          coefficient2: j ? '1.2' : '1',
        };
      });
      await trx('subject_report_ingredients').insert(lines);
      // the send hook's computation, written straight to the demo rows (users' changes go through the engine)
      const c = await computeReport({ trx, repo: entityReads(trx) }, r.id);
      for (const line of c.ingredients) await trx('subject_report_ingredients').where({ id: line.id }).update({ amount: line.amount });
      await trx('subject_reports').where({ id: r.id }).update({ base_value: c.base_value, amount: c.amount });
      // what its sending recorded: the day, and the fine when it was late (the send hook's rule)
      if (sent)
        await trx('subject_reports')
          .where({ id: r.id })
          .update(await lateness({ trx, repo: entityReads(trx) }, { ...r, sent_on: null }, sentOn));
      reports++;
    }
    log(`demo: ${reports} compensation reports`);
  });
}
