import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Builds one migrated, seeded template database per run (see build-template.ts) so that each test
 * file gets a clean copy of its own quickly.
 */
export default function setup(): () => Promise<void> {
  process.env.ECOFOND_TEST_RUN = `${process.pid}`;
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./build-template.ts', import.meta.url))], {
    stdio: 'inherit',
    env: process.env,
  });
  return async () => {
    // the run's template is dropped with the run
    const url = process.env.TEST_DATABASE_URL;
    const { PG_TEMPLATE_DB, PGLITE_TEMPLATE } = await import('./template.ts');
    if (url) {
      const { default: knexFactory } = await import('knex');
      const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
      await admin.raw(`DROP DATABASE IF EXISTS ${PG_TEMPLATE_DB} WITH (FORCE)`).catch(() => undefined);
      await admin.destroy();
    } else {
      const { rmSync } = await import('node:fs');
      rmSync(PGLITE_TEMPLATE, { force: true });
    }
  };
}
