import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/**
 * Starts what the browser tests drive: the back-office bundle (built if missing), a fresh embedded
 * database with an extra inspector and an ecology staff user, and `ecofond serve` on a free port.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const INSPECTOR = { username: 'inspector1', password: 'secret12' };
/** a user of the ecology staff role, whose access the access-managing test closes and reopens */
export const ECOSTAFF = { username: 'ecostaff1', password: 'secret12', role: 'ecology_staff' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function cli(args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(process.execPath, ['cli/bin.mjs', ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`ecofond ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

async function waitForHealth(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the server did not answer /api/health in time:\n${log()}`);
}

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium); the tests never download a browser`);
  }
  if (!existsSync(join(ROOT, 'admin/dist/index.html'))) {
    const b = spawnSync('npm', ['run', 'build:admin'], { cwd: ROOT, stdio: 'inherit', timeout: 300_000 });
    if (b.status !== 0) throw new Error('npm run build:admin failed');
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'ecofond-e2e-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ECOFOND_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.ECOFOND_ADMIN_PASSWORD;
  delete env.VITEST;
  delete env.VITEST_POOL_ID;
  delete env.VITEST_WORKER_ID;

  // the embedded database is single-process: prepare it before the server opens it
  cli(['migrate'], env);
  cli(['seed', '--demo'], env);
  cli(['user:create', INSPECTOR.username, '--password', INSPECTOR.password, '--role', 'inspector', '--fio', 'Inspektor Sinov'], env);
  cli(['user:create', ECOSTAFF.username, '--password', ECOSTAFF.password, '--role', ECOSTAFF.role, '--fio', 'Ekolog Sinov'], env);

  const port = await freePort();
  let output = '';
  const server = spawn(process.execPath, ['cli/bin.mjs', 'serve', '--migrate', '--seed', '--demo'], {
    cwd: ROOT, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => { output += d; });
  server.stderr!.on('data', (d) => { output += d; });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, server, () => output);
  } catch (err) {
    server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);

  return async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
