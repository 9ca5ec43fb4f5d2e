import { readFileSync } from 'node:fs';
import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { migrate } from '../../api/db/migrator.ts';
import { createEntityTables } from '../../api/db/entity-tables.ts';
import { seed } from '../../seeds/index.ts';
import { fixtureModel } from '../../test/support/fixture-model.ts';
import type { MetaModel } from '../../api/meta/types.ts';

export const ROWS = Number(process.env.BENCH_ROWS || 1_000_000);
export const BENCH_DB = process.env.BENCH_DB || 'xlsxstream_bench_export';
export const ADMIN_PASSWORD = 'bench-admin-pw';

const CAPTIONS = {
  'bench.payer': 'Toʻlovchi',
  'bench.amount': 'Summa',
  'bench.paid_on': 'Toʻlov sanasi',
  'bench.income_code': 'Daromad kodi',
  'bench.trees': 'Daraxtlar',
  'bench.rate': 'Stavka',
  'bench.paid_at': 'Qayd vaqti',
  'bench.note': 'Izoh',
};

export function benchModel(): MetaModel {
  const entity = JSON.parse(readFileSync(new URL('./entity.json', import.meta.url), 'utf8'));
  return fixtureModel([entity], { uz: CAPTIONS, uk: CAPTIONS, ru: CAPTIONS });
}

export function benchUrl(): string {
  const u = new URL(process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  u.pathname = `/${BENCH_DB}`;
  return u.toString();
}

/** A database with ROWS rows of ten columns (text, money, date, reference, integer, decimal, time); reused when it is already there. */
export async function prepare(log: (s: string) => void): Promise<void> {
  const model = benchModel();
  const server = new URL(benchUrl());
  server.pathname = '/postgres';
  const admin = knexFactory({ client: 'pg', connection: server.toString(), pool: { min: 0, max: 1 } });
  const exists = await admin.raw('select 1 from pg_database where datname = ?', [BENCH_DB]);
  if (exists.rows.length) {
    const db = openDatabase({ url: benchUrl(), poolMax: 1 });
    const ok = await db.knex
      .raw('select (select count(*) from bench_exports) as n')
      .then((r) => r.rows[0].n === ROWS)
      .catch(() => false);
    await db.close();
    if (ok) {
      await admin.destroy();
      log(`reusing ${BENCH_DB} (${ROWS} rows)`);
      return;
    }
    await admin.raw(`DROP DATABASE ${BENCH_DB} WITH (FORCE)`);
  }
  await admin.raw(`CREATE DATABASE ${BENCH_DB}`);
  await admin.destroy();
  const db = openDatabase({ url: benchUrl(), poolMax: 2 });
  await migrate(db.knex, model);
  await createEntityTables(db.knex, ['bench-exports'], model);
  await seed(db.knex, model, { adminPassword: ADMIN_PASSWORD });
  const t0 = Date.now();
  await db.knex.raw(
    `
    insert into bench_exports (payer, amount, paid_on, region_id, income_code, trees, rate, paid_at, note)
    select 'Toʻlovchi MChJ № ' || g, round((random() * 100000000)::numeric, 2), date '2021-01-01' + (g % 1826),
           (select id from regions order by id offset (g % 14) limit 1), (array['3450715','3422225','3430153'])[1 + g % 3],
           (g % 5000), round((random() * 100)::numeric, 4), timestamptz '2021-01-01 09:00+05' + (g % 1826) * interval '1 day' + (g % 600) * interval '1 minute',
           case when g % 4 = 0 then 'Izoh <' || g || '> & "qoʻshtirnoq"' end
      from generate_series(1, ?) g`,
    [ROWS],
  );
  await db.knex.raw('analyze bench_exports');
  log(`inserted ${ROWS} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await db.close();
}
