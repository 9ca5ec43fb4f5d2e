import type { TestProject } from 'vitest/node';
import { assertChromium, ensureBuilt, freshEnvironment, recordSetup, startServer } from '../../e2e/server';

/**
 * What the public site's browser tests drive: the site's bundle (built if missing), and
 * `ecofond serve --migrate --seed --demo` on a free port over a fresh embedded database, with a
 * few plantings added through the API as the administrator.
 */

export interface SeededPlanting {
  id: number;
  region_id: number;
  species_id: number;
  count: number;
  lat: number;
  lng: number;
  planted_on: string;
}
export interface Seed {
  target: SeededPlanting;
  plantings: SeededPlanting[];
  year: number;
  lastYearTrees: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    publicBaseUrl: string;
    publicSeed: Seed;
  }
}

const tashkentToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

async function seed(baseUrl: string): Promise<Seed> {
  const login = await fetch(`${baseUrl}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'ecofond-demo' }),
  });
  if (!login.ok) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const today = tashkentToday();
  const year = Number(today.slice(0, 4));
  // one planting alone in Karakalpakstan, on the Ustyurt far from the demo data's towns (the map
  // test zooms down to it), others elsewhere, one last year
  const rows = [
    { region_id: 1, species_id: 0, count: 777, lat: 43.5, lng: 58.2, planted_on: today },
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
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`seeding a planting: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: number };
    made.push({ ...r, species_id: body.species_id, id });
  }
  return { target: made[0], plantings: made, year, lastYearTrees: 5000 };
}

export default async function setup(project: TestProject) {
  const t0 = Date.now();
  assertChromium();
  ensureBuilt('build:public', 'public-site/dist');
  const { dataDir, env } = freshEnvironment('ecofond-public-e2e-');
  // the contacts come from the settings; unset, the site shows none (public-site/src/config.ts)
  env.ECOFOND_HOTLINE ??= '+998 71 239-41-10';
  env.ECOFOND_CONTACT_EMAIL ??= 'info@test.ecofond.uz';
  const { baseUrl, stop } = await startServer(dataDir, env);
  try {
    project.provide('publicSeed', await seed(baseUrl));
  } catch (err) {
    await stop();
    throw err;
  }
  project.provide('publicBaseUrl', baseUrl);
  // the set-up's own time, a minute of processor that no file's time holds: e2e/run.mjs plans the
  // lanes with it (the public site's files go together into the lane that starts this server)
  recordSetup('public-site/e2e/global-setup.ts', Date.now() - t0);
  return stop;
}
