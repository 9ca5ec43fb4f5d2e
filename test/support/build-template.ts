import { writeFileSync } from 'node:fs';
import knexFactory from 'knex';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { PGLITE_TEMPLATE, PG_TEMPLATE_DB, TEST_ADMIN_PASSWORD } from './template.ts';
import { withDatabase } from './pg-url.ts';

/**
 * Builds the run's migrated, seeded template: a template database on the server named by
 * TEST_DATABASE_URL, or a dumped PGlite data directory without it. Run as its own process by the
 * global setup, outside the test runner's module transforms.
 */
const model = loadMetadata();
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw(`DROP DATABASE IF EXISTS ${PG_TEMPLATE_DB} WITH (FORCE)`);
  await admin.raw(`CREATE DATABASE ${PG_TEMPLATE_DB}`);
  await admin.destroy();
  const db = openDatabase({ url: withDatabase(url, PG_TEMPLATE_DB), poolMax: 2 });
  await migrate(db.knex, model);
  await seed(db.knex, model, { adminPassword: TEST_ADMIN_PASSWORD });
  await db.close();
} else {
  const db = openDatabase({ dataDir: 'memory' });
  await migrate(db.knex, model);
  await seed(db.knex, model, { adminPassword: TEST_ADMIN_PASSWORD });
  const dump = await db.pglite!.dumpDataDir('gzip');
  writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  await db.close();
}
