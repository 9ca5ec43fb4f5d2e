import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/**
 * What the public site's browser tests drive: the site's bundle (built if missing), and
 * `ecofond serve --migrate --seed --demo` on a free port over a fresh embedded database, with a
 * few plantings added through the API as the administrator.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

export interface SeededPlanting { id: number; region_id: number; species_id: number; count: number; lat: number; lng: number; planted_on: string }
export interface Seed { target: SeededPlanting; plantings: SeededPlanting[]; year: number; lastYearTrees: number }

declare module 'vitest' {
  export interface ProvidedContext {
    publicBaseUrl: string;
    publicSeed: Seed;
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

async function waitForHealth(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}:\n${log()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the server did not answer /api/health in time:\n${log()}`);
}

const tashkentToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

async function seed(baseUrl: string): Promise<Seed> {
  const login = await fetch(`${baseUrl}/api/admin/auth/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'ecofond-demo' }),
  });
  if (!login.ok) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const today = tashkentToday();
  const year = Number(today.slice(0, 4));
  // one planting alone in Karakalpakstan (the map test zooms down to it), others elsewhere, one last year
  const rows = [
    { region_id: 1, species_id: 0, count: 777, lat: 42.47, lng: 59.62, planted_on: today },
    { region_id: 11, species_id: 1, count: 1200, lat: 41.3111, lng: 69.2797, planted_on: today },
    { region_id: 11, species_id: 2, count: 350, lat: 41.2995, lng: 69.2401, planted_on: today },
    { region_id: 8, species_id: 3, count: 2000, lat: 39.6542, lng: 66.9597, planted_on: today },
    { region_id: 13, species_id: 1, count: 640, lat: 40.3864, lng: 71.7864, planted_on: today },
    { region_id: 3, species_id: 4, count: 90, lat: 39.7747, lng: 64.4286, planted_on: today },
    { region_id: 2, species_id: 0, count: 5000, lat: 40.7821, lng: 72.3442, planted_on: `${year - 1}-10-01` },
  ];
  const species = (await (await fetch(`${baseUrl}/api/public/species`)).json()) as { id: number }[];
  const made: SeededPlanting[] = [];
  for (const r of rows) {
    const body = { ...r, species_id: species[r.species_id].id, location: { lat: r.lat, lng: r.lng }, place_type: 'street', place: 'E2E' };
    const res = await fetch(`${baseUrl}/api/ecofund-plantings/plantings`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`seeding a planting: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: number };
    made.push({ ...r, species_id: body.species_id, id });
  }
  return { target: made[0], plantings: made, year, lastYearTrees: 5000 };
}

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium); the tests never download a browser`);
  }
  if (!existsSync(join(ROOT, 'public-site/dist/index.html'))) {
    const b = spawnSync('npm', ['run', 'build:public'], { cwd: ROOT, stdio: 'inherit', timeout: 300_000 });
    if (b.status !== 0) throw new Error('npm run build:public failed');
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'ecofond-public-e2e-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ECOFOND_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
  delete env.DATABASE_URL;
  delete env.ECOFOND_ADMIN_PASSWORD;
  delete env.VITEST;
  delete env.VITEST_POOL_ID;
  delete env.VITEST_WORKER_ID;

  let output = '';
  const server = spawn(process.execPath, ['cli/bin.mjs', 'serve', '--migrate', '--seed', '--demo'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (d) => { output += d; });
  server.stderr!.on('data', (d) => { output += d; });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, server, () => output);
    project.provide('publicSeed', await seed(baseUrl));
  } catch (err) {
    await stop();
    throw err;
  }
  project.provide('publicBaseUrl', baseUrl);
  return stop;
}
