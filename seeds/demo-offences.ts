import type { Knex } from 'knex';
import { todayTashkent } from '../api/meta/today.ts';
import { toColumnValue } from '../api/engine/sql.ts';
import type { FieldMeta } from '../api/meta/types.ts';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { fineOfRow } from '../api/modules/fund/fine-rule.ts';
import { entityReads } from './entity-reads.ts';
import { splitIncome } from '../api/domain/income-split.ts';
import { formatTiyin, parseTiyin } from '../api/domain/money.ts';
import { offencePaymentStatus } from '../api/domain/offence-payments.ts';
import { random } from './random.ts';

type T3 = { uz: string; ru: string };

/**
 * Articles of the fine book for the demo (the Code of Administrative Responsibility's ecological
 * chapter, as an example: article numbers and intervals are to be checked against the Code before
 * real use) and the offence types that point at them.
 */
const FINES: { code: string; article: string; part?: string; min: string; max: string; type: string; name: T3 }[] = [
  {
    code: 'MJtK-65-1',
    article: '65',
    part: '1',
    min: '5',
    max: '10',
    type: 'FELLING',
    name: { uz: 'Daraxt va butalarni qonunsiz kesish', ru: 'Незаконная вырубка деревьев и кустарников' },
  },
  {
    code: 'MJtK-65-2',
    article: '65',
    part: '2',
    min: '10',
    max: '20',
    type: 'FELLING',
    name: { uz: 'Daraxtlarni takroran qonunsiz kesish', ru: 'Повторная незаконная вырубка деревьев' },
  },
  {
    code: 'MJtK-70',
    article: '70',
    min: '2',
    max: '5',
    type: 'WATER',
    name: { uz: 'Suv obyektlarini ifloslantirish', ru: 'Загрязнение водных объектов' },
  },
  {
    code: 'MJtK-79',
    article: '79',
    min: '3',
    max: '7',
    type: 'AIR',
    name: { uz: 'Atmosfera havosiga ifloslantiruvchi moddalarni chiqarish', ru: 'Выброс загрязняющих веществ в атмосферный воздух' },
  },
  {
    code: 'MJtK-91-1',
    article: '91',
    part: '1',
    min: '1',
    max: '3',
    type: 'WASTE',
    name: { uz: 'Chiqindilarni belgilanmagan joyga tashlash', ru: 'Выброс отходов в неустановленном месте' },
  },
];
const TYPES: { code: string; name: T3 }[] = [
  { code: 'FELLING', name: { uz: 'Daraxtlarni noqonuniy kesish', ru: 'Незаконная рубка' } },
  { code: 'WATER', name: { uz: 'Suvni ifloslantirish', ru: 'Загрязнение воды' } },
  { code: 'AIR', name: { uz: 'Havoni ifloslantirish', ru: 'Загрязнение воздуха' } },
  { code: 'WASTE', name: { uz: 'Chiqindilar bilan bogʻliq huquqbuzarlik', ru: 'Нарушение обращения с отходами' } },
];
const MAHALLAS = [
  'Navroʻz',
  'Istiqlol',
  'Mustaqillik',
  'Bogʻishamol',
  'Guliston',
  'Doʻstlik',
  'Yangi hayot',
  'Tinchlik',
  'Bunyodkor',
  'Obod',
];
const SURNAMES = [
  'Aliyev',
  'Karimov',
  'Rahimov',
  'Yusupov',
  'Toshmatov',
  'Ergashev',
  'Nazarov',
  'Qodirov',
  'Mirzayev',
  'Saidov',
  'Xoliqov',
  'Abdullayev',
];
const NAMES = ['Vali', 'Anvar', 'Jamshid', 'Sardor', 'Otabek', 'Bekzod', 'Farrux', 'Rustam', 'Akmal', 'Doston'];
const WITNESSES = ['Saidova Gulnora', 'Tursunova Malika', 'Jurayev Sherzod', 'Hamidova Nodira', 'Usmonov Ilhom'];
/** the states the demo spreads offences over, and what moved each there */
const PATHS: { status: string; steps: [string, string, string][] }[] = [
  { status: 'draft', steps: [] },
  { status: 'review', steps: [['send-for-review', 'draft', 'review']] },
  {
    status: 'returned',
    steps: [
      ['send-for-review', 'draft', 'review'],
      ['return-to-inspector', 'review', 'returned'],
    ],
  },
  {
    status: 'mvd',
    steps: [
      ['send-for-review', 'draft', 'review'],
      ['send-to-mvd', 'review', 'mvd'],
    ],
  },
  {
    status: 'closed',
    steps: [
      ['send-for-review', 'draft', 'review'],
      ['close', 'review', 'closed'],
    ],
  },
  {
    status: 'closed',
    steps: [
      ['send-for-review', 'draft', 'review'],
      ['send-to-mvd', 'review', 'mvd'],
      ['mvd-close', 'mvd', 'closed'],
    ],
  },
];

const t3 = (n: T3) => JSON.stringify({ uz: n.uz, uk: latinToCyrillic(n.uz), ru: n.ru });

/**
 * The demo's fine book (FINES), if the book is empty: run before the other demo data, so that the
 * demo protocols (seeds/demo-users.ts, seeds/demo-templates.ts) and offences name their article.
 */
export async function seedFineArticles(knex: Knex, admin: number | null = null): Promise<void> {
  if (!(await knex.schema.hasTable('fine')) || (await knex('fine').first('id'))) return;
  await knex('fine').insert(
    FINES.map((f) => ({
      code: f.code,
      article: f.article,
      part: f.part ?? null,
      min_multiple: f.min,
      max_multiple: f.max,
      name: t3(f.name),
      is_active: true,
      created_by: admin,
      updated_by: admin,
    })),
  );
}

/**
 * Demo data of the enforcement side, written once (when there are no offences yet): the fine book's
 * articles and offence types when empty, three mahallas in every district, a dozen offences in every
 * region in every state with their offenders, witnesses and flows — the demo inspector's own in the
 * demo region — and fine payments: confirmed ones split 26 / 74 that make some offences paid or
 * partly paid, and one waiting to be attached by its decree number. The demo inspector and police
 * officer get a position and a rank.
 */
export async function seedOffencesDemo(knex: Knex, log: (s: string) => void = () => undefined): Promise<void> {
  if (!(await knex.schema.hasTable('offences')) || (await knex('offences').first('id'))) return;
  const rnd = random(20261212);
  const admin = (await knex('users').where({ username: 'admin' }).first('id'))?.id ?? null;
  const by = { created_by: admin, updated_by: admin };
  const year = Number(todayTashkent().slice(0, 4));
  await knex.transaction(async (trx) => {
    await seedFineArticles(trx, admin);
    const fines = await trx('fine').where({ is_active: true }).orderBy('id').select('id', 'code', 'min_multiple', 'max_multiple');
    if (!(await trx('offence_type').first('id'))) {
      const byCode = new Map(FINES.map((f) => [f.type, f.code]));
      await trx('offence_type').insert(
        TYPES.map((t) => ({
          code: t.code,
          name: t3(t.name),
          fine_id: fines.find((f: { code: string }) => f.code === byCode.get(t.code))?.id ?? null,
          is_active: true,
          ...by,
        })),
      );
    }
    const types = await trx('offence_type').orderBy('id').select('id', 'fine_id');
    const areas = await trx('areas').orderBy('id').select('id', 'region_id', 'soato');
    if (!(await trx('mahallas').first('id'))) {
      const rows = areas.flatMap((a: { id: number; region_id: number; soato: string }, i: number) =>
        [0, 1, 2].map((k) => {
          const name = MAHALLAS[(i * 3 + k) % MAHALLAS.length];
          return {
            area_id: a.id,
            region_id: a.region_id,
            code: `${a.soato}-${k + 1}`,
            name: JSON.stringify({ uz: name, uk: latinToCyrillic(name), ru: latinToCyrillic(name) }),
            is_active: true,
            ...by,
          };
        }),
      );
      for (let i = 0; i < rows.length; i += 500) await trx('mahallas').insert(rows.slice(i, i + 500));
    }
    const mahallas = await trx('mahallas').select('id', 'area_id', 'name');
    const inspector = await trx('users').where({ username: 'inspector' }).first('id', 'region_id');
    const police = await trx('users').where({ username: 'police' }).first('id');
    const reviewer = (await trx('users').where({ username: 'confirming' }).first('id'))?.id ?? admin;
    // the demo inspector and police officer with a position and a rank
    const pos = async (code: string) => (await trx('position').where({ code }).first('id'))?.id ?? null;
    const rank = async (code: string) => (await trx('rank').where({ code }).first('id'))?.id ?? null;
    if (inspector)
      await trx('users')
        .where({ id: inspector.id })
        .whereNull('position_id')
        .update({ position_id: await pos('LEAD'), rank_id: await rank('CPT') });
    if (police)
      await trx('users')
        .where({ id: police.id })
        .whereNull('position_id')
        .update({ position_id: await pos('INSP'), rank_id: await rank('MAJ') });

    const me = inspector ? await trx('users').where({ id: inspector.id }).first('fio', 'position_id', 'rank_id') : null;
    const regions = await trx('regions').orderBy('id').select('id', 'soato', trx.raw('centre[0] AS lng'), trx.raw('centre[1] AS lat'));
    const subjects = await trx('subjects').select('id', 'inn', 'name', 'region_id');
    const point = (lng: number, lat: number) => toColumnValue(trx, { type: 'point' } as FieldMeta, { lng, lat });
    let n = 0;
    const sent: { id: number; fine: string | null; decree: string; region: number; status: string }[] = [];
    for (const region of regions) {
      if (region.lng == null) continue;
      const regionAreas = areas.filter((a: { region_id: number }) => a.region_id === region.id);
      const own = inspector && Number(inspector.region_id) === Number(region.id);
      for (let k = 0; k < 12; k++) {
        const path = PATHS[k % PATHS.length];
        const type = rnd.pick(types) as { id: number; fine_id: number | null };
        const fine = fines.find((f: { id: number }) => f.id === type.fine_id) ?? rnd.pick(fines);
        const multiple = String(rnd.int(Number(fine.min_multiple), Number(fine.max_multiple)));
        const month = rnd.int(1, 10);
        const date = `${year - (k % 3 === 0 ? 1 : 0)}-${String(month).padStart(2, '0')}-${String(rnd.int(1, 27)).padStart(2, '0')}`;
        const area = regionAreas.length ? (rnd.pick(regionAreas) as { id: number }) : null;
        const mahalla = area
          ? (mahallas.find((m: { area_id: number }) => m.area_id === area.id) as { id: number; name: { uz: string } } | undefined)
          : undefined;
        n++;
        const decree = path.status === 'draft' ? null : `${region.soato.slice(-2)}-${String(n).padStart(5, '0')}`;
        let amount: string | null;
        try {
          amount = await fineOfRow(entityReads(trx), { fineId: fine.id, multiple, date, dateField: 'offence_date' });
        } catch {
          amount = null;
        }
        const [row] = await trx('offences')
          .insert({
            number: `HB-${region.soato.slice(-4)}-${k + 1}`,
            offence_date: date,
            opened_on: date,
            status: path.status,
            region_id: region.id,
            area_id: area?.id ?? null,
            mahalla_id: mahalla?.id ?? null,
            address: `${mahalla?.name?.uz ?? MAHALLAS[n % MAHALLAS.length]} mahallasi, ${rnd.int(1, 90)}-uy`,
            location: point(Number(region.lng) + rnd.real(-0.08, 0.08), Number(region.lat) + rnd.real(-0.06, 0.06)),
            offence_type_id: type.id,
            fine_id: fine.id,
            fine_multiple: multiple,
            fine_amount: amount,
            decree_series: decree ? 'EK' : null,
            decree_number: decree,
            decree_date: decree ? date : null,
            protocol_series: 'BN',
            protocol_number: `${n}`,
            protocol_date: date,
            inspector_id: own ? inspector.id : null,
            inspector_fio: own ? me.fio : null,
            inspector_position_id: own ? me.position_id : null,
            inspector_rank_id: own ? me.rank_id : null,
            description: 'Reyd davomida aniqlandi',
            paid_amount: '0.00',
            payment_status: 'unpaid',
            mvd_sent: path.steps.some((s) => s[0] === 'send-to-mvd'),
            mvd_result: path.steps.some((s) => s[0] === 'mvd-close') ? 'fine_enforced' : null,
            ...by,
          })
          .returning('id');
        const person = `${rnd.pick(SURNAMES)} ${rnd.pick(NAMES)}`;
        const subject = subjects.find((s: { region_id: number }) => s.region_id === region.id);
        const offenders = [
          {
            parent_id: row.id,
            ordering: 0,
            offender_kind: 'person',
            full_name: person,
            citizenship: 'Oʻzbekiston',
            nationality: 'oʻzbek',
            passport: `A${String.fromCharCode(65 + (n % 26))}${String(1000000 + n * 7919).slice(-7)}`,
            address: `${rnd.int(1, 90)}-uy`,
          },
        ];
        if (subject && k % 4 === 1)
          offenders.push({
            parent_id: row.id,
            ordering: 1,
            offender_kind: 'organisation',
            full_name: subject.name,
            inn: subject.inn,
            subject_id: subject.id,
          } as never);
        await trx('offence_offenders').insert(offenders);
        if (k % 3)
          await trx('offence_witnesses').insert({
            parent_id: row.id,
            ordering: 0,
            full_name: rnd.pick(WITNESSES),
            passport: `AB${String(2000000 + n * 31).slice(-7)}`,
          });
        for (const [action, from, to] of path.steps) {
          await trx('flows').insert({
            entity: 'offences',
            record_id: row.id,
            action,
            from_state: from,
            to_state: to,
            user_id: action.startsWith('mvd')
              ? (police?.id ?? admin)
              : action === 'send-for-review'
                ? own
                  ? inspector.id
                  : admin
                : reviewer,
            comment: action === 'return-to-inspector' ? 'Guvoh maʼlumotlarini toʻldiring' : null,
          });
        }
        if (decree && ['mvd', 'closed'].includes(path.status))
          sent.push({ id: row.id, fine: amount, decree, region: region.id, status: path.status });
      }
    }
    log(`demo: ${n} offences in every region`);

    // fine payments: the closed offences paid in full, those with the ministry in part, one waiting to be attached by decree
    const income = await trx('income_types')
      .where({ group: 'fine' })
      .orderBy('id')
      .first('id', 'code', 'budget_percent', 'fund_percent', 'organisation_percent');
    if (!income) return;
    let payments = 0;
    for (const [i, o] of sent.entries()) {
      if (!o.fine) continue;
      const fine = parseTiyin(o.fine);
      const paid = o.status === 'closed' ? fine : i % 2 ? fine / 3n : 0n;
      if (paid > 0n) {
        const parts = splitIncome(paid, income);
        await trx('offence_payments').insert({
          paid_on: `${year}-11-${String((i % 20) + 1).padStart(2, '0')}`,
          number: `JT-${i + 1}`,
          amount: formatTiyin(paid),
          payer: 'Jarima toʻlovchisi',
          purpose: `Ekologik jarima, qaror № ${o.decree}`,
          decree_number: o.decree,
          income_type_id: income.id,
          income_code: income.code,
          offence_id: o.id,
          region_id: o.region,
          status: 'confirmed',
          budget_amount: formatTiyin(parts.budget),
          fund_amount: formatTiyin(parts.fund),
          ...by,
        });
        payments++;
      }
      await trx('offences')
        .where({ id: o.id })
        .update({ paid_amount: formatTiyin(paid), payment_status: offencePaymentStatus(fine, paid) });
    }
    const waiting = sent.find((o) => o.status === 'mvd');
    if (waiting?.fine) {
      await trx('offence_payments').insert({
        paid_on: `${year}-11-25`,
        number: 'JT-W',
        amount: waiting.fine,
        payer: 'Jarima toʻlovchisi',
        purpose: `Jarima, qaror № ${waiting.decree}`,
        income_type_id: income.id,
        income_code: income.code,
        region_id: waiting.region,
        status: 'undefined',
        ...by,
      });
      payments++;
    }
    log(`demo: ${payments} fine payments`);
  });
}
