import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The password the test template's administrator gets. */
export const TEST_ADMIN_PASSWORD = 'admin-test-password';
/** A migrated and seeded embedded database, dumped once per run and loaded by each test file. */
export const PGLITE_TEMPLATE = join(tmpdir(), `ecofond-test-template-${process.env.ECOFOND_TEST_RUN ?? 'dev'}.tgz`);
/** On a real server: the template database each test file's database is created from (one per run, so runs side by side do not meet). */
export const PG_TEMPLATE_DB = `ecofond_test_template_${(process.env.ECOFOND_TEST_RUN ?? 'dev').replace(/\W/g, '')}`;
/** The comment a test file's database gets when the file is done with it: the run's reaper drops it. */
export const DONE = 'ecofond test: done';
