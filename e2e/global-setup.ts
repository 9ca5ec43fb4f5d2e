import type { TestProject } from 'vitest/node';
import { assertChromium, CHROMIUM, cli, ensureBuilt, freshEnvironment, startServer } from './server';

/**
 * Starts what the browser tests drive: the back-office bundle (built if missing), a fresh embedded
 * database with an extra inspector and an ecology staff user, and `ecofond serve` on a free port.
 */
export { CHROMIUM };
export const INSPECTOR = { username: 'inspector1', password: 'secret12' };
/** a user of the ecology staff role, whose access the access-managing test closes and reopens */
export const ECOSTAFF = { username: 'ecostaff1', password: 'secret12', role: 'ecology_staff' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  assertChromium();
  ensureBuilt('build:admin', 'admin/dist');
  const { dataDir, env } = freshEnvironment('ecofond-e2e-');

  // the embedded database is single-process: prepare it before the server opens it
  cli(['migrate'], env);
  cli(['seed', '--demo'], env);
  cli(['user:create', INSPECTOR.username, '--password', INSPECTOR.password, '--role', 'inspector', '--fio', 'Inspektor Sinov'], env);
  cli(['user:create', ECOSTAFF.username, '--password', ECOSTAFF.password, '--role', ECOSTAFF.role, '--fio', 'Ekolog Sinov'], env);

  const { baseUrl, stop } = await startServer(dataDir, env);
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  return stop;
}
