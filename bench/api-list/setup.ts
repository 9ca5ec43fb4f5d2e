import { readFileSync } from 'node:fs';
import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { migrate } from '../../api/db/migrator.ts';
import { createEntityTables } from '../../api/db/entity-tables.ts';
import { seed } from '../../seeds/index.ts';
import { createUser } from '../../cli/create-user.ts';
import { fixtureModel } from '../../test/support/fixture-model.ts';
import type { MetaModel } from '../../api/meta/types.ts';

export const ROWS = Number(process.env.BENCH_ROWS || 1_000_000);
export const BENCH_DB = 'ecofond_bench';
export const ADMIN_PASSWORD = 'bench-admin-pw';
export const SCOPED_PASSWORD = 'bench-scoped-pw';

export function benchModel(): MetaModel {
  const entity = JSON.parse(readFileSync(new URL('./entity.json', import.meta.url), 'utf8'));
  return fixtureModel([entity]);
}

export function benchUrl(): string {
  const u = new URL(process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  u.pathname = `/${BENCH_DB}`;
  return u.toString();
}

/**
 * The connection string both servers' pools use: the bench database, or what `BENCH_SERVE_URL`
 * names (run.ts sets it to a PgBouncer in transaction mode before it with `BENCH_BOUNCER`).
 */
export function serveUrl(): string {
  return process.env.BENCH_SERVE_URL || benchUrl();
}

/** A database with ROWS payments over five years and fourteen regions; reused when it is already there. */
export async function prepare(log: (s: string) => void): Promise<{ scopedRegion: number }> {
  const model = benchModel();
  const server = new URL(benchUrl());
  server.pathname = '/postgres';
  const admin = knexFactory({ client: 'pg', connection: server.toString(), pool: { min: 0, max: 1 } });
  const exists = await admin.raw('select 1 from pg_database where datname = ?', [BENCH_DB]);
  if (exists.rows.length) {
    const db = openDatabase({ url: benchUrl(), poolMax: 1 });
    const ok = await db.knex
      .raw(`select (select count(*) from bench_payments) as n`)
      .then((r) => r.rows[0].n === ROWS)
      .catch(() => false);
    const region = ok ? (await db.knex('users').where({ username: 'bench_scoped' }).first('region_id'))?.region_id : undefined;
    await db.close();
    if (ok && region) {
      await admin.destroy();
      log(`reusing ${BENCH_DB} (${ROWS} rows)`);
      return { scopedRegion: region };
    }
    await admin.raw(`DROP DATABASE ${BENCH_DB} WITH (FORCE)`);
  }
  await admin.raw(`CREATE DATABASE ${BENCH_DB}`);
  await admin.destroy();
  const db = openDatabase({ url: benchUrl(), poolMax: 2 });
  await migrate(db.knex, model);
  await createEntityTables(db.knex, ['bench-payments'], model);
  await seed(db.knex, model, { adminPassword: ADMIN_PASSWORD });
  const t0 = Date.now();
  await db.knex.raw(
    `
    insert into bench_payments (payer, amount, paid_on, region_id, income_code)
    select 'Payer ' || g, round((random() * 100000000)::numeric, 2), date '2021-01-01' + (g % 1826),
           (select id from regions order by id offset (g % 14) limit 1), (array['3450715','3422225','3430153'])[1 + g % 3]
      from generate_series(1, ?) g`,
    [ROWS],
  );
  await db.knex.raw('analyze bench_payments');
  log(`inserted ${ROWS} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const region = (await db.knex('regions').orderBy('id').offset(5).first('id')).id as number;
  const [role] = await db
    .knex('roles')
    .insert({ code: 'bench_scoped', name: JSON.stringify({ uz: 'bench' }) })
    .returning('id');
  await db.knex('role_actions').insert({ role_id: role.id, action_id: 9901, state: 1 });
  await createUser(db.knex, { username: 'bench_scoped', password: SCOPED_PASSWORD, roles: ['bench_scoped'], region_id: region });
  await db.close();
  return { scopedRegion: region };
}
