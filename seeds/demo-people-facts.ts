import type { Knex } from 'knex';
import { toColumnValue } from '../api/engine/sql.ts';
import type { FieldMeta } from '../api/meta/types.ts';
import { factNumber } from '../api/modules/offences/people-facts.ts';
import { incentiveAmount, incentiveRuleOr } from '../api/domain/fact-incentive.ts';
import { formatTiyin, parseTiyin } from '../api/domain/money.ts';
import { fundSetting } from '../api/auth/config.ts';
import { random } from './random.ts';

const WHAT = [
  'Bogʻda uchta chinor daraxti kesilmoqda, kesuvchilarda ruxsatnoma yoʻq',
  'Ariqqa qurilish chiqindilari tashlanmoqda',
  'Koʻcha boʻyidagi archalar kechasi ruxsatsiz kesildi',
  'Daryo boʻyida maishiy chiqindi yoqilmoqda, tutun mahallaga kirmoqda',
  'Korxona moʻrisidan kechasi qora tutun chiqmoqda',
  'Parkdagi yosh koʻchatlar sindirilgan va sugʻorilmayapti',
  'Yoʻl chetiga avtomobil moyi toʻkilgan, ariqqa oqmoqda',
  'Qabriston yonidagi qadimiy tut daraxti kesilmoqda',
];
const SURNAMES = ['Aliyev', 'Karimova', 'Rahimov', 'Yusupova', 'Toshmatov', 'Ergasheva', 'Nazarov', 'Qodirova', 'Mirzayev', 'Saidova'];
const NAMES = ['Vali', 'Dilnoza', 'Jamshid', 'Gulnora', 'Otabek', 'Malika', 'Farrux', 'Nodira', 'Akmal', 'Shahnoza'];
/** the states a region's facts are spread over, and what moved each there */
const PATHS: { status: string; steps: [string, string, string][] }[] = [
  { status: 'new', steps: [] },
  { status: 'check', steps: [['take', 'new', 'check']] },
  {
    status: 'rejected',
    steps: [
      ['take', 'new', 'check'],
      ['reject', 'check', 'rejected'],
    ],
  },
  {
    status: 'offence',
    steps: [
      ['take', 'new', 'check'],
      ['to-offence', 'check', 'offence'],
    ],
  },
];
const REASON = 'Suratda huquqbuzarlik koʻrinmaydi, joyida tasdiqlanmadi';
const ASSIGNED: { status: string; steps: [string, string, string][] } = {
  status: 'assigned',
  steps: [
    ['take', 'new', 'check'],
    ['assign', 'check', 'assigned'],
  ],
};
/** the demo region's: every state, the demo resident's first, two offences (one of them paid, with its incentive) */
const DEMO_PATHS = [PATHS[0], PATHS[1], ASSIGNED, PATHS[2], PATHS[3], PATHS[3]];

/**
 * Demo people facts, written once (when there are none, after the offences' demo): three in every
 * region and six in the demo region, from the public site and the demo population user, across the
 * workflow's states — in the demo region every state, one assigned to the demo inspector — some
 * turned into the region's offences (linked both ways), and one (the demo region's first) linked to
 * a paid offence, with the informant's incentive recorded by the setting as the engine would.
 */
export async function seedPeopleFactsDemo(knex: Knex, log: (s: string) => void = () => undefined): Promise<void> {
  if (!(await knex.schema.hasTable('people_facts')) || (await knex('people_facts').first('id')) || !(await knex('offences').first('id')))
    return;
  const rnd = random(20261126);
  await knex.transaction(async (trx) => {
    const statuses = new Map<string, number>(
      (await trx('people_fact_statuses').select('id', 'code')).map((s: { id: number; code: string }) => [s.code, s.id]),
    );
    const admin = (await trx('users').where({ username: 'admin' }).first('id'))?.id ?? null;
    const inspector = await trx('users').where({ username: 'inspector' }).first('id', 'fio', 'region_id');
    const reviewer = (await trx('users').where({ username: 'confirming' }).first('id'))?.id ?? admin;
    const population = await trx('users').where({ username: 'population' }).first('id', 'fio', 'phone', 'region_id');
    const demoRegion = Number(inspector?.region_id ?? population?.region_id ?? 0);
    // the demo region first: its offence takes the paid one
    const regions = (
      await trx('regions').orderBy('id').whereNotNull('centre').select('id', trx.raw('centre[0] AS lng'), trx.raw('centre[1] AS lat'))
    ).sort((a: { id: number }, b: { id: number }) => Number(Number(b.id) === demoRegion) - Number(Number(a.id) === demoRegion));
    const point = (lng: number, lat: number) => toColumnValue(trx, { type: 'point' } as FieldMeta, { lng, lat });
    const used = new Set<number>();
    let n = 0;
    let made = 0;
    let paidLinked = false;
    for (const [r, region] of regions.entries()) {
      const mahallas = await trx('mahallas').where({ region_id: region.id }).orderBy('id').limit(6).select('id', 'area_id', 'name');
      const own = inspector && Number(inspector.region_id) === Number(region.id);
      const paths = own ? DEMO_PATHS : [0, 1, 2].map((k) => PATHS[(r + k) % PATHS.length]);
      for (const [k, path] of paths.entries()) {
        n++;
        // the demo resident's region: theirs among them
        const fromResident = population && Number(population.region_id) === Number(region.id) && k === 0;
        const received = new Date(Date.now() - rnd.int(1, 120) * 86_400_000 - rnd.int(0, 86_399) * 1000);
        const mahalla = mahallas.length ? (rnd.pick(mahallas) as { id: number; area_id: number; name: { uz: string } }) : null;
        const offence =
          path.status === 'offence'
            ? await trx('offences')
                .where({ region_id: region.id })
                .whereNull('people_fact_id')
                .whereNotIn('id', [...used, 0])
                .orderByRaw(paidLinked ? "CASE status WHEN 'draft' THEN 0 ELSE 1 END" : "CASE payment_status WHEN 'paid' THEN 0 ELSE 1 END")
                .orderBy('id')
                .first('id', 'fine_amount', 'payment_status')
            : null;
        if (path.status === 'offence' && !offence) continue;
        const [row] = await trx('people_facts')
          .insert({
            number: null,
            received_at: received,
            fact_source: fromResident ? 'population' : 'public',
            status: path.status,
            status_id: statuses.get(path.status.toUpperCase()) ?? null,
            description: WHAT[n % WHAT.length],
            region_id: region.id,
            area_id: mahalla?.area_id ?? null,
            mahalla_id: mahalla?.id ?? null,
            address: mahalla ? `${mahalla.name.uz} mahallasi, ${rnd.int(1, 90)}-uy` : null,
            location: point(Number(region.lng) + rnd.real(-0.05, 0.05), Number(region.lat) + rnd.real(-0.04, 0.04)),
            informant_name: fromResident ? population.fio : `${rnd.pick(SURNAMES)} ${rnd.pick(NAMES)}`,
            informant_phone: fromResident && population.phone ? population.phone : `9${rnd.int(0, 9)}${String(rnd.int(1000000, 9999999))}`,
            informant_user_id: fromResident ? population.id : null,
            inspector_id: path.status === 'assigned' ? inspector.id : null,
            inspector_fio: path.status === 'assigned' ? inspector.fio : null,
            reject_reason: path.status === 'rejected' ? REASON : null,
            offence_id: offence?.id ?? null,
            payment_status: offence?.payment_status ?? null,
            created_at: received,
            updated_at: received,
            created_by: fromResident ? population.id : null,
            updated_by: reviewer,
          })
          .returning('id');
        made++;
        await trx('people_facts')
          .where({ id: row.id })
          .update({ number: factNumber(row.id, received) });
        for (const [action, from, to] of path.steps) {
          await trx('flows').insert({
            entity: 'people-facts',
            record_id: row.id,
            action,
            from_state: from,
            to_state: to,
            user_id: reviewer,
            comment: null,
          });
        }
        if (offence) {
          used.add(offence.id);
          await trx('offences').where({ id: offence.id }).update({ people_fact_id: row.id });
          if (offence.payment_status === 'paid') {
            // the incentive the engine records when the linked fine is paid
            paidLinked = true;
            const rule = incentiveRuleOr(await fundSetting(trx, 'fund.fact_incentive'));
            const basis = parseTiyin(String(offence.fine_amount));
            await trx('people_fact_incentives').insert({
              parent_id: row.id,
              ordering: 0,
              fine_amount: formatTiyin(basis),
              rule: rule.text,
              amount: formatTiyin(incentiveAmount(rule, basis)),
              recorded_at: new Date(),
              paid: false,
            });
          }
        }
      }
    }
    log(`demo: ${made} people facts`);
  });
}
