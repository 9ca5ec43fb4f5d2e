import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Builds one migrated, seeded template database per run (see build-template.ts) so that each test
 * file gets a clean copy of its own quickly.
 */
export default function setup(): void {
  process.env.ECOFOND_TEST_RUN = `${process.pid}`;
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./build-template.ts', import.meta.url))], {
    stdio: 'inherit', env: process.env,
  });
}
