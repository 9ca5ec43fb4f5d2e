import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * What every browser-test project needs before its tests: Debian's Chromium, a built site, and
 * `ecofond serve --migrate --seed --demo` on a free port over a fresh database — a copy of a demo
 * database prepared once per run on TEST_DATABASE_URL's PostgreSQL (CI's), or else a fresh
 * embedded one.
 */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Debian's Chromium: the browser (`apt-get install chromium`). */
export const CHROMIUM_BROWSER = '/usr/bin/chromium';
/** Debian's Chromium without the browser's own frame (`apt-get install chromium-headless-shell`): the same build. */
export const CHROMIUM_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The Chromium the browser tests drive (docs/decisions/0089): `E2E_CHROMIUM` if set, else Debian's
 * headless shell where it is installed — the same Chromium's old headless mode, the one Playwright
 * itself runs headless, about a quarter less processor a test — else Debian's browser.
 */
export const CHROMIUM = process.env.E2E_CHROMIUM || (existsSync(CHROMIUM_HEADLESS_SHELL) ? CHROMIUM_HEADLESS_SHELL : CHROMIUM_BROWSER);

export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium chromium-headless-shell); the tests never download a browser`,
    );
  }
}

/** Builds a site with `npm run <script>` unless `<dist>/index.html` is there. */
export function ensureBuilt(script: string, dist: string): void {
  if (existsSync(join(ROOT, dist, 'index.html'))) return;
  const b = spawnSync('npm', ['run', script], { cwd: ROOT, stdio: 'inherit', timeout: 300_000 });
  if (b.status !== 0) throw new Error(`npm run ${script} failed`);
}

/**
 * A global set-up's own time in seconds, kept in artifacts/e2e/setup-times.json by the set-up's file
 * (relative to the root): e2e/run.mjs writes it into the timings beside the files' and places the
 * lanes with it.
 */
export function recordSetup(file: string, ms: number): void {
  const out = join(ROOT, 'artifacts', 'e2e');
  const path = join(out, 'setup-times.json');
  mkdirSync(out, { recursive: true });
  const times = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>) : {};
  times[file] = Math.round(ms / 100) / 10;
  writeFileSync(path, `${JSON.stringify(times, null, 2)}\n`);
}

/** A fresh data folder and an environment for the CLI and the server on it (embedded database, demo password). */
export function freshEnvironment(prefix: string): { dataDir: string; env: NodeJS.ProcessEnv } {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const env: NodeJS.ProcessEnv = { ...process.env, ECOFOND_DATA_DIR: dataDir };
  for (const k of ['DATABASE_URL', 'ECOFOND_ADMIN_PASSWORD', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) delete env[k];
  return { dataDir, env };
}

/** Runs `ecofond <args>` to completion (before the server opens the single-process embedded database). */
export function cli(args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(process.execPath, ['cli/bin.mjs', ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`ecofond ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
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

/**
 * Starts the server on a free port and waits for /api/health. `stop` ends it (SIGTERM, then
 * SIGKILL after 10 s) and removes the data folder; it is called here too if the start fails.
 */
export async function startServer(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  args: string[] = ['--migrate', '--seed', '--demo'],
): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  let output = '';
  const server = spawn(process.execPath, ['cli/bin.mjs', 'serve', ...args], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => {
    output += d;
  });
  server.stderr!.on('data', (d) => {
    output += d;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      // the wait's timer cleared once the server is gone: left running, it held the process that
      // stopped the server (a lane's vitest) open for its ten seconds after every run
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
      clearTimeout(timer);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`the server exited with ${server.exitCode}:\n${output}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { baseUrl, stop };
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer /api/health in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * The PostgreSQL server the browser tests' databases live on: TEST_DATABASE_URL's, unless
 * E2E_EMBEDDED=1 asks for the embedded database (what `npm run dev` uses) — the public site's
 * tests run on that one in any case, so the README's command is driven by a browser too.
 */
export function testServerUrl(): string | undefined {
  return process.env.E2E_EMBEDDED === '1' ? undefined : process.env.TEST_DATABASE_URL || undefined;
}

const databaseUrl = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

/** The run's template database: one name for every process of one `npm run test:e2e` (E2E_RUN_ID, set by e2e/run.mjs). */
export function templateName(run = process.env.E2E_RUN_ID ?? String(process.pid)): string {
  return `ecofond_e2e_tpl_${run.replace(/\W/g, '')}`;
}

/**
 * The run's template database (`templateName`), made and prepared by `prepare` unless it is there:
 * under an advisory lock held by `client` until it ends, so that of the processes of one run that
 * ask at once one prepares it and the others wait for it. `.ci/run` has it made beside `npm test`
 * (e2e/prepare.ts), so that the browser step starts with it.
 */
export async function ensureTemplate(
  client: pg.Client,
  url: string,
  env: NodeJS.ProcessEnv,
  prepare: (env: NodeJS.ProcessEnv) => void,
): Promise<void> {
  const template = templateName();
  await client.query('select pg_advisory_lock(hashtext($1))', [template]);
  const made = (await client.query('select 1 from pg_database where datname = $1', [template])).rowCount;
  if (made) return;
  await client.query(`create database ${template}`);
  try {
    prepare({ ...env, DATABASE_URL: databaseUrl(url, template) });
  } catch (err) {
    await client.query(`drop database if exists ${template} with (force)`);
    throw err;
  }
}

/**
 * A database for one test server, prepared by `prepare` (migrate, seed, extra users — run with the
 * CLI before the server starts). On a PostgreSQL server: `prepare` runs once per run, into the
 * run's template database (under an advisory lock, so the runner's processes do it once between
 * them — on two loaded cores it takes a minute, a copy a second), and each server gets a copy
 * (`CREATE DATABASE … TEMPLATE`), dropped by `drop` (in a runner's run, by the runner at its end:
 * e2e/run.mjs). Without one: the embedded database in the environment's data folder, prepared in place.
 */
export async function testDatabase(
  env: NodeJS.ProcessEnv,
  prepare: (env: NodeJS.ProcessEnv) => void,
): Promise<{ env: NodeJS.ProcessEnv; drop: () => Promise<void> }> {
  const url = testServerUrl();
  if (!url) {
    prepare(env);
    return { env, drop: async () => undefined };
  }
  const template = templateName();
  const name = `${template.replace('_tpl_', '_')}_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await ensureTemplate(client, url, env, prepare);
    await client.query(`create database ${name} template ${template}`);
  } finally {
    await client.end();
  }
  const drop = async () => {
    // a runner's run (e2e/run.mjs) drops its databases together at its end: each DROP DATABASE
    // waits for a checkpoint, and those that wait together share one
    if (process.env.E2E_RUN_ID) return;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(`drop database if exists ${name} with (force)`);
      // run by hand (no runner to drop it): the template goes with the last of this process's databases
      const left = await c.query('select 1 from pg_database where datname like $1', [`${template.replace('_tpl_', '_')}\\_%`]);
      if (!left.rowCount) await c.query(`drop database if exists ${template} with (force)`);
    } finally {
      await c.end();
    }
  };
  return { env: { ...env, DATABASE_URL: databaseUrl(url, name) }, drop };
}
