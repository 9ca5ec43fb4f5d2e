import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { openDatabase, type Database } from '../../api/db/connection.ts';
import { DONE, PGLITE_TEMPLATE, PG_TEMPLATE_DB } from './template.ts';
import { withDatabase } from './pg-url.ts';

/**
 * A clean, migrated and seeded database for one test file: a database of its own created from the
 * run's template on the server named by TEST_DATABASE_URL, or an embedded PGlite loaded from the
 * run's dump. Closing it marks it done; the run's reaper drops it (global-setup.ts).
 */
export async function testDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const blob = new Blob([readFileSync(PGLITE_TEMPLATE)]);
    return openDatabase({ dataDir: 'memory', loadDataDir: blob });
  }
  const name = `ecofond_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.raw(`CREATE DATABASE ${name} TEMPLATE ${PG_TEMPLATE_DB}`);
      break;
    } catch (err) {
      // another file is being created from the template at this moment
      if (attempt > 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  const db = openDatabase({ url: withDatabase(url, name), poolMax: 5 });
  return {
    ...db,
    close: async () => {
      await db.close();
      // dropped by the run's reaper (global-setup.ts), several at once: each DROP DATABASE waits for
      // a checkpoint of its own, and done one file at a time those waits were a third of the run
      await admin.raw(`COMMENT ON DATABASE ${name} IS '${DONE}'`);
      await admin.destroy();
    },
  };
}
