import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { withDatabase } from '../../test/support/pg-url.ts';
import { notify } from '../../api/notify/queue.ts';
import { NotificationWorker } from '../../api/notify/worker.ts';

/**
 * bench/notifications: an announcement to a role of BENCH_USERS (default 100 000) users, in-app —
 * queued (the notification row through the engine's write path, its deliveries expanded in the same
 * transaction) and sent by the worker (in-app deliveries marked sent in batches). Two workers run
 * at once on two connections, as two server processes would, to show that SKIP LOCKED hands each
 * delivery to one of them. Then: every user has exactly one delivery, every one sent, once.
 * On a fresh database of the PostgreSQL server named by BENCH_DATABASE_URL (default the local one).
 */
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_DB ?? 'notify_bench_notifications';
const USERS = Number(process.env.BENCH_USERS || 100_000);

const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
await admin.raw(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await admin.raw(`CREATE DATABASE ${DB}`);
await admin.destroy();
const db = openDatabase({ url: withDatabase(url, DB), poolMax: 6 });
const { knex } = db;
const model = loadMetadata();
await migrate(knex, model);
await seed(knex, model, { adminPassword: 'bench-password' });

const [{ id: role }] = await knex('roles')
  .insert({ code: 'bench_role', name: JSON.stringify({ uz: 'Bench' }) })
  .returning('id');
let t = Date.now();
await knex.raw(
  `INSERT INTO users (username, password, fio, lang_code)
  SELECT 'bench_' || g, 'x', 'Bench ' || g, (ARRAY['uz', 'uk', 'ru'])[1 + g % 3] FROM generate_series(1, ?) g`,
  [USERS],
);
await knex.raw("INSERT INTO user_roles (user_id, role_id) SELECT id, ? FROM users WHERE username LIKE 'bench\\_%'", [role]);
console.log(`${USERS} users of one role made in ${Date.now() - t} ms`);

t = Date.now();
const n = await knex.transaction((trx) =>
  notify(trx, model, { type: 'announcement', to: { role_id: role }, vars: { title: 'Bench', text: 'One hundred thousand' } }),
);
const queuedMs = Date.now() - t;
console.log(`queued: ${n!.recipients} deliveries in ${queuedMs} ms (one notification row, one audit row)`);

const workers = [new NotificationWorker(knex, { inAppBatch: 5000 }), new NotificationWorker(knex, { inAppBatch: 5000 })];
t = Date.now();
const handled = await Promise.all(workers.map((w) => w.drain()));
const sentMs = Date.now() - t;
console.log(
  `sent: ${handled.join(' + ')} = ${handled.reduce((a, b) => a + b, 0)} deliveries by two workers in ${sentMs} ms (${Math.round(USERS / (sentMs / 1000))}/s)`,
);

const [check] = (
  await knex.raw(
    `SELECT count(*)::int AS deliveries, count(DISTINCT user_id)::int AS users,
    count(*) FILTER (WHERE delivery_state = 'sent')::int AS sent, max(attempts)::int AS max_attempts, min(attempts)::int AS min_attempts
  FROM notification_recipients WHERE notification_id = ?`,
    [n!.id as number],
  )
).rows;
const expected = (await knex('user_roles').where({ role_id: role }).count({ c: '*' }).first())!.c;
console.log(`check: ${JSON.stringify(check)}, users of the role ${expected}`);
const ok =
  check.deliveries === Number(expected) &&
  check.users === Number(expected) &&
  check.sent === Number(expected) &&
  check.max_attempts === 1 &&
  check.min_attempts === 1;
console.log(ok ? 'every one arrived, once' : 'MISMATCH');
const [unread] = (
  await knex.raw(
    "SELECT count(*)::int AS n FROM notification_recipients WHERE user_id = (SELECT min(user_id) FROM notification_recipients WHERE notification_id = ?) AND channel = 'in_app' AND delivery_state = 'sent'",
    [n!.id as number],
  )
).rows;
t = Date.now();
for (let i = 0; i < 100; i++)
  await knex.raw("SELECT count(*) FROM notification_recipients WHERE user_id = ? AND channel = 'in_app' AND delivery_state = 'sent'", [
    1000 + i,
  ]);
console.log(`a user's unread count (the bell): ${((Date.now() - t) / 100).toFixed(2)} ms a query (${unread.n} unread for the first user)`);
await db.close();
if (process.env.BENCH_KEEP !== '1') {
  const a = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await a.raw(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await a.destroy();
}
process.exit(ok ? 0 : 1);
