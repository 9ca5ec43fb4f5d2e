import type { TestProject } from 'vitest/node';
import { assertChromium, CHROMIUM, cli, ensureBuilt, freshEnvironment, startServer, testDatabase } from './server';

/**
 * Starts what the browser tests drive: the back-office bundle (built if missing), a fresh demo
 * database with an extra inspector and an ecology staff user (e2e/server.ts `testDatabase`), and
 * `ecofond serve` on a free port.
 */
export { CHROMIUM };
export const INSPECTOR = { username: 'inspector1', password: 'secret12' };
/** a user of the ecology staff role, whose access the access-managing test closes and reopens */
export const ECOSTAFF = { username: 'ecostaff1', password: 'secret12', role: 'ecology_staff' };
/**
 * the field app's user (e2e/field.e2e.test.ts): the demo data's `field` (seeds/demo-users.ts), an
 * inspector of the demo region who also keeps tree passports (ecology staff), with the demo password
 */
export const FIELD_USER = { username: 'field', password: 'ecofond-demo' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** The back-office's test database: migrated, the demo data, and the two extra users above. */
export function prepareDemo(env: NodeJS.ProcessEnv): void {
  cli(['migrate'], env);
  cli(['seed', '--demo'], env);
  cli(['user:create', INSPECTOR.username, '--password', INSPECTOR.password, '--role', 'inspector', '--fio', 'Inspektor Sinov'], env);
  cli(['user:create', ECOSTAFF.username, '--password', ECOSTAFF.password, '--role', ECOSTAFF.role, '--fio', 'Ekolog Sinov'], env);
}

export default async function setup(project: TestProject) {
  assertChromium();
  ensureBuilt('build:admin', 'admin/dist');
  ensureBuilt('build:field', 'field/dist');
  const fresh = freshEnvironment('ecofond-e2e-');
  // an embedded database is single-process: it is prepared before the server opens it
  const { env, drop } = await testDatabase(fresh.env, prepareDemo);
  const dataDir = fresh.dataDir;
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(dataDir, env);
  } catch (err) {
    await drop();
    throw err;
  }
  const { baseUrl } = server;
  const stop = async () => {
    await server.stop();
    await drop();
  };
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  return stop;
}
