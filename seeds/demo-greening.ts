import type { Knex } from 'knex';
import { readFileSync } from 'node:fs';
import type { FieldMeta } from '../api/meta/types.ts';
import { toColumnValue } from '../api/engine/sql.ts';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { random, type Rnd } from './random.ts';

type Ring = [number, number][];
type Region = { id: number; soato: string; lng: number; lat: number; city: string; cityRu: string };

/** The aim the plans are measured against: 200 million trees and bushes a year. */
export const NATIONAL_AIM = 200_000_000;
/** What the demo's plans add up to (the rest of the aim is the public's and the volunteers'). */
export const DEMO_PLAN_TOTAL = 160_000_000;

/** Regions by SOATO: a weight (roughly the population) and the centre's name in Russian. */
const REGIONS: Record<string, { weight: number; cityRu: string; spread: number }> = {
  1735: { weight: 2.0, cityRu: 'Нукус', spread: 0.25 },
  1703: { weight: 3.3, cityRu: 'Андижан', spread: 0.2 },
  1706: { weight: 2.0, cityRu: 'Бухара', spread: 0.25 },
  1708: { weight: 1.5, cityRu: 'Джизак', spread: 0.25 },
  1710: { weight: 3.5, cityRu: 'Карши', spread: 0.25 },
  1712: { weight: 1.0, cityRu: 'Навои', spread: 0.25 },
  1714: { weight: 3.0, cityRu: 'Наманган', spread: 0.2 },
  1718: { weight: 4.1, cityRu: 'Самарканд', spread: 0.25 },
  1722: { weight: 2.8, cityRu: 'Термез', spread: 0.25 },
  1724: { weight: 0.9, cityRu: 'Гулистан', spread: 0.2 },
  1726: { weight: 3.0, cityRu: 'Ташкент', spread: 0.07 },
  1727: { weight: 3.0, cityRu: 'Нурафшан', spread: 0.25 },
  1730: { weight: 3.9, cityRu: 'Фергана', spread: 0.2 },
  1733: { weight: 2.0, cityRu: 'Ургенч', spread: 0.2 },
};
/** How the ministries share their part of a region's plan. */
const MINISTRY_SHARES = [0.2, 0.2, 0.1, 0.15, 0.12, 0.08, 0.1, 0.05];
const PLACE_TYPES = ['street', 'street', 'park', 'garden', 'school', 'roadside', 'roadside', 'forest', 'yard', 'riverbank'] as const;
/** Planting seasons: spring and autumn months come up more often. */
const MONTHS = [2, 3, 3, 3, 4, 4, 4, 5, 6, 9, 10, 10, 10, 11, 11, 11, 12];
const FIRST = [
  'Aziz',
  'Dilnoza',
  'Bekzod',
  'Madina',
  'Jasur',
  'Gulnora',
  'Sardor',
  'Nilufar',
  'Otabek',
  'Shahnoza',
  'Rustam',
  'Malika',
  'Sherzod',
  'Zarina',
  'Akmal',
];
const LAST = [
  'Karimov',
  'Rahimova',
  'Yusupov',
  'Toshmatova',
  'Abdullayev',
  'Ismoilova',
  'Qodirov',
  'Ergasheva',
  'Saidov',
  'Nazarova',
  'Xolmatov',
  'Mirzayeva',
];
const STREETS: [string, string][] = [
  ['Amir Temur koʻchasi', 'улица Амира Темура'],
  ['Alisher Navoiy koʻchasi', 'улица Алишера Навои'],
  ['Mustaqillik koʻchasi', 'улица Мустакиллик'],
  ['Bunyodkor koʻchasi', 'улица Бунёдкор'],
  ['Navroʻz koʻchasi', 'улица Навруз'],
  ['Doʻstlik koʻchasi', 'улица Дустлик'],
  ['Istiqlol koʻchasi', 'улица Истиклол'],
  ['Bogʻishamol koʻchasi', 'улица Богишамол'],
  ['Yoshlik koʻchasi', 'улица Ёшлик'],
  ['Tinchlik koʻchasi', 'улица Тинчлик'],
];

const text3 = (uz: string, ru: string) => JSON.stringify({ uz, uk: latinToCyrillic(uz), ru });
/** Rich text: only the text between tags is transliterated. */
const html3 = (uz: string, ru: string) =>
  JSON.stringify({
    uz,
    uk: uz
      .split(/(<[^>]*>)/)
      .map((x) => (x.startsWith('<') ? x : latinToCyrillic(x)))
      .join(''),
    ru,
  });
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const minDate = (a: string, b: string) => (a < b ? a : b);
const round = (n: number, step: number) => Math.max(step, Math.round(n / step) * step);

/** A simple (star-shaped) ring of `points` corners around a centre, covering about `ha` hectares. */
export function ringAround(rnd: Rnd, lng: number, lat: number, ha: number, points = 8): Ring {
  const r = Math.sqrt((ha * 10_000) / Math.PI); // metres
  const dLat = r / 111_320;
  const dLng = r / (111_320 * Math.cos((lat * Math.PI) / 180));
  return Array.from({ length: points }, (_, i) => {
    const a = (2 * Math.PI * i) / points + rnd.real(-0.15, 0.15);
    const k = rnd.real(0.85, 1.15);
    return [Number((lng + dLng * k * Math.cos(a)).toFixed(6)), Number((lat + dLat * k * Math.sin(a)).toFixed(6))] as [number, number];
  });
}

/**
 * The greening demo: this year's plans by region and organisation (160 million trees against the
 * 200 million aim) and the registry's plantings against them (with last year's for comparison),
 * volunteers and their plantings, green areas with outlines, model streets, residents' gardens,
 * felling permits and violations, inspections, places where residents may plant, trees over 100
 * years, the governors' decisions and the site's news. Written only while there are no plans.
 */
export async function seedGreeningDemo(knex: Knex, log: (s: string) => void = () => undefined): Promise<void> {
  if (!(await knex.schema.hasTable('planting_plans')) || (await knex('planting_plans').first('id'))) return;
  const rnd = random(20261123);
  const today = todayTashkent();
  const year = Number(today.slice(0, 4));
  const admin = (await knex('users').where({ username: 'admin' }).first('id'))?.id ?? null;
  const by = { created_by: admin, updated_by: admin };
  const regionRows = await knex('regions')
    .where({ is_active: true })
    .orderBy('ordering')
    .select('id', 'soato', knex.raw('centre[0] AS lng'), knex.raw('centre[1] AS lat'));
  const regionData = JSON.parse(readFileSync(new URL('./data/regions.json', import.meta.url), 'utf8')).regions as {
    soato: string;
    centre: { uz: string };
  }[];
  const centres = new Map(regionData.map((r) => [r.soato, r.centre.uz]));
  const regions: Region[] = regionRows
    .filter((r: { soato: string }) => REGIONS[r.soato])
    .map((r: { id: number; soato: string; lng: number; lat: number }) => ({
      id: Number(r.id),
      soato: r.soato,
      lng: Number(r.lng),
      lat: Number(r.lat),
      city: centres.get(r.soato) ?? r.soato,
      cityRu: REGIONS[r.soato].cityRu,
    }));
  if (!regions.length) return;
  const areas = await knex('areas').select('id', 'region_id');
  const areaOf = (region: number): number | null => {
    const own = areas.filter((a: { region_id: number }) => Number(a.region_id) === region);
    return own.length ? Number(rnd.pick(own).id) : null;
  };
  const species = (await knex('tree_species').orderBy('id').pluck('id')).map(Number);
  const orgs = await knex('planting_orgs').where({ is_active: true }).orderBy('id').select('id', 'kind', 'region_id');
  const types = (await knex('publication_types').orderBy('id').pluck('id')).map(Number);
  if (!species.length) return;
  const near = (r: Region, spread = REGIONS[r.soato].spread) => ({
    lng: r.lng + rnd.real(-spread, spread),
    lat: r.lat + rnd.real(-spread, spread) * 0.8,
  });
  const point = (p: { lng: number; lat: number }) => toColumnValue(knex, { type: 'point' } as FieldMeta, p);
  const polygon = (ring: Ring) => toColumnValue(knex, { type: 'polygon' } as FieldMeta, ring);
  const refs = (ids: number[]) => toColumnValue(knex, { type: 'refs' } as FieldMeta, ids);
  /** A day of `y` in a planting season, never after today. */
  const seasonDay = (y: number) => {
    const months = y < year ? MONTHS : MONTHS.filter((m) => m <= Number(today.slice(5, 7)));
    const m = months.length ? rnd.pick(months) : Number(today.slice(5, 7));
    return minDate(`${y}-${pad(m)}-${pad(rnd.int(1, 28))}`, today);
  };
  const thisYearDay = () => minDate(`${year}-${pad(rnd.int(1, 12))}-${pad(rnd.int(1, 28))}`, today);

  await knex.transaction(async (trx) => {
    // plans: every region's share of the total, split between its khokimiyat, the ministries and its forestry farm
    const weight = regions.reduce((s, r) => s + REGIONS[r.soato].weight, 0);
    const ministries = orgs.filter((o: { kind: string }) => o.kind === 'ministry');
    const plans: { year: number; region_id: number; org_id: number; trees: number; area_ha: string; note: string | null }[] = [];
    for (const r of regions) {
      const total = (DEMO_PLAN_TOTAL * REGIONS[r.soato].weight) / weight;
      const khokimiyat = orgs.find(
        (o: { kind: string; region_id: number | null }) => o.kind === 'khokimiyat' && Number(o.region_id) === r.id,
      );
      const forestry = orgs.find((o: { kind: string; region_id: number | null }) => o.kind === 'forestry' && Number(o.region_id) === r.id);
      const parts: [number, number][] = ministries.map((m: { id: number }, i: number) => [
        Number(m.id),
        total * 0.4 * (MINISTRY_SHARES[i] ?? 0.05),
      ]);
      if (forestry) parts.push([Number(forestry.id), total * 0.1]);
      const rest = total - parts.reduce((s, [, t]) => s + t, 0);
      if (khokimiyat) parts.unshift([Number(khokimiyat.id), rest]);
      for (const [org, trees] of parts) {
        const t = round(trees, 1000);
        plans.push({ year, region_id: r.id, org_id: org, trees: t, area_ha: (t / 1500).toFixed(2), note: null });
      }
    }
    for (let i = 0; i < plans.length; i += 500) await trx('planting_plans').insert(plans.slice(i, i + 500).map((p) => ({ ...p, ...by })));
    log(`demo: ${plans.length} planting plans for ${year}, ${plans.reduce((s, p) => s + p.trees, 0).toLocaleString('en')} trees`);

    // the registry's plantings against the plans: 45–95 % done by region, last year's for comparison
    const plantings: Record<string, unknown>[] = [];
    const regionById = new Map(regions.map((r) => [r.id, r]));
    const done = new Map(regions.map((r) => [r.id, rnd.real(0.45, 0.95)]));
    const planting = (r: Region, org: number | null, count: number, planted_on: string, extra: Record<string, unknown> = {}) => {
      const measured = rnd.next() < 0.3;
      const confirmed = rnd.next() < 0.5;
      plantings.push({
        species_id: rnd.pick(species),
        count,
        planted_on,
        region_id: r.id,
        area_id: areaOf(r.id),
        location: point(near(r)),
        place: null,
        place_type: rnd.pick(PLACE_TYPES),
        area_ha: (count / 1500).toFixed(4),
        height_m: measured ? rnd.real(0.8, 3.5).toFixed(2) : null,
        circumference_cm: measured ? rnd.real(4, 35).toFixed(1) : null,
        responsible: `${rnd.pick(FIRST)} ${rnd.pick(LAST)}`,
        org_id: org,
        executing_orgs: null,
        volunteer_id: null,
        act_required: count >= 1000,
        act_number: count >= 1000 ? `A-${planted_on.slice(0, 4)}-${plantings.length + 1}` : null,
        act_date: count >= 1000 ? planted_on : null,
        irrigation: rnd.next() < 0.65,
        confirmed_count: confirmed ? count : null,
        source: 'registry',
        ...by,
        ...extra,
      });
    };
    for (const p of plans) {
      const r = regionById.get(p.region_id)!;
      const target = p.trees * Math.min(1.2, done.get(r.id)! * rnd.real(0.7, 1.15));
      const n = Math.min(40, Math.max(3, Math.ceil(target / 800_000)));
      for (let i = 0; i < n; i++) planting(r, p.org_id, Math.max(1, Math.round((target / n) * rnd.real(0.85, 1.15))), seasonDay(year));
      planting(r, p.org_id, Math.min(1_000_000, Math.round(p.trees * rnd.real(0.2, 0.5))), seasonDay(year - 1));
    }

    // volunteers, each with a few plantings of their own (some this month, a few today)
    const volunteers: { id: number; region_id: number }[] = [];
    for (let i = 0; i < 30; i++) {
      const r = regions[i % regions.length];
      const joined = rnd.next() < 0.7 ? `${year - 1}-${pad(rnd.int(1, 12))}-${pad(rnd.int(1, 28))}` : thisYearDay();
      const [v] = await trx('volunteers')
        .insert({
          full_name: `${LAST[(i * 7) % LAST.length]} ${FIRST[(i * 5) % FIRST.length]}`,
          phone: `9${rnd.int(0, 9)}${rnd.int(1_000_000, 9_999_999)}`,
          region_id: r.id,
          area_id: areaOf(r.id),
          organisation: rnd.pick([`${rnd.int(1, 300)}-maktab`, 'Yoshlar ittifoqi', 'Mahalla faollari', 'Universitet talabalari', null]),
          user_id: null,
          joined_on: joined,
          ...by,
        })
        .returning(['id', 'region_id']);
      volunteers.push({ id: Number(v.id), region_id: Number(v.region_id) });
    }
    let volunteerPlantings = 0;
    for (const [i, v] of volunteers.entries()) {
      const r = regionById.get(v.region_id)!;
      const n = rnd.int(1, 6);
      for (let k = 0; k < n; k++) {
        const when =
          i < 3 && k === 0
            ? today
            : k === 1
              ? minDate(`${today.slice(0, 8)}${pad(rnd.int(1, 28))}`, today)
              : seasonDay(rnd.next() < 0.85 ? year : year - 1);
        planting(r, null, rnd.int(1, 40), when, {
          volunteer_id: v.id,
          place_type: rnd.pick(['yard', 'school', 'street', 'park'] as const),
          act_required: false,
          act_number: null,
          act_date: null,
        });
        volunteerPlantings++;
      }
    }
    const plantingIds: {
      id: number;
      region_id: number;
      area_id: number | null;
      org_id: number | null;
      count: number;
      planted_on: string;
    }[] = [];
    for (let i = 0; i < plantings.length; i += 500) {
      const rows = await trx('plantings')
        .insert(plantings.slice(i, i + 500))
        .returning(['id', 'region_id', 'area_id', 'org_id', 'count', trx.raw("to_char(planted_on, 'YYYY-MM-DD') AS planted_on")]);
      plantingIds.push(
        ...rows.map((x: Record<string, unknown>) => ({
          id: Number(x.id),
          region_id: Number(x.region_id),
          area_id: x.area_id === null ? null : Number(x.area_id),
          org_id: x.org_id === null ? null : Number(x.org_id),
          count: Number(x.count),
          planted_on: String(x.planted_on),
        })),
      );
    }
    log(`demo: ${plantings.length} plantings (${volunteerPlantings} by ${volunteers.length} volunteers)`);

    // green areas: gardens, parks and public parks with their outlines
    const KINDS = ['park', 'garden', 'public_park'] as const;
    const greenAreas = Array.from({ length: 20 }, (_, i) => {
      const r = regions[i % regions.length];
      const kind = KINDS[i % 3];
      const ha = Number(rnd.real(kind === 'garden' ? 2 : 5, kind === 'park' ? 60 : 25).toFixed(2));
      const c = { lng: r.lng + rnd.real(-0.05, 0.05), lat: r.lat + rnd.real(-0.04, 0.04) };
      const ring = ringAround(rnd, c.lng, c.lat, ha);
      const name =
        kind === 'park'
          ? [`${r.city} madaniyat va istirohat bogʻi`, `Парк культуры и отдыха, ${r.cityRu}`]
          : kind === 'garden'
            ? [`${r.city} mevali bogʻi`, `Фруктовый сад, ${r.cityRu}`]
            : [`«Yangi Oʻzbekiston» jamoat parki, ${r.city}`, `Общественный парк «Новый Узбекистан», ${r.cityRu}`];
      return {
        name: text3(name[0], name[1]),
        kind,
        region_id: r.id,
        area_id: areaOf(r.id),
        address: `${r.city}, ${rnd.int(1, 40)}-mavze`,
        area_ha: ha.toFixed(4),
        trees: Math.round(ha * rnd.int(150, 400)),
        info: text3(
          `${ha} gektar maydonda daraxtlar, sayr yoʻlaklari va sugʻorish tizimi.`,
          `На ${ha} га деревья, прогулочные дорожки и система полива.`,
        ),
        founded_on: `${rnd.int(1965, year - 1)}-${pad(rnd.int(1, 12))}-${pad(rnd.int(1, 28))}`,
        location: point(c),
        shape: polygon(ring),
        images: refs([]),
        ...by,
      };
    });
    await trx('green_areas').insert(greenAreas);
    log(`demo: ${greenAreas.length} green areas with outlines`);

    await trx('green_streets').insert(
      STREETS.map(([uz, ru], i) => {
        const r = regions[(i * 3) % regions.length];
        const length = rnd.int(400, 3000);
        const houses = rnd.int(10, 120);
        return {
          name: text3(`${uz} (${r.city})`, `${ru} (${r.cityRu})`),
          region_id: r.id,
          area_id: areaOf(r.id),
          length_m: length.toFixed(2),
          houses,
          apartments: houses * rnd.int(8, 60),
          founded_on: `${rnd.int(year - 4, year - 1)}-${pad(rnd.int(3, 11))}-${pad(rnd.int(1, 28))}`,
          builder: `«${rnd.pick(['Obod', 'Yashil', 'Zamin', 'Bunyod'])} qurilish» MChJ`,
          reason: 'Namunaviy koʻchalar dasturi doirasida obodonlashtirish',
          area_ha: ((length * 12) / 10_000).toFixed(4),
          trees: Math.round(length / rnd.int(5, 10)),
          location: point(near(r, 0.03)),
          images: refs([]),
          ...by,
        };
      }),
    );
    log(`demo: ${STREETS.length} green streets`);

    await trx('my_gardens').insert(
      Array.from({ length: 10 }, (_, i) => {
        const r = regions[(i * 5) % regions.length];
        const trees = rnd.int(5, 60);
        return {
          owner_name: `${LAST[(i * 3) % LAST.length]} ${FIRST[(i * 2 + 1) % FIRST.length]}`,
          phone: `9${rnd.int(0, 9)}${rnd.int(1_000_000, 9_999_999)}`,
          region_id: r.id,
          area_id: areaOf(r.id),
          address: `${rnd.int(1, 99)}-uy, ${rnd.pick(['Navbahor', 'Guliston', 'Bogʻbon', 'Obod'])} mahallasi`,
          area_ha: rnd.real(0.04, 0.5).toFixed(4),
          trees,
          fruit_trees: rnd.int(0, trees),
          location: point(near(r, 0.1)),
          images: refs([]),
          ...by,
        };
      }),
    );
    log('demo: 10 gardens');

    const REASONS = ['construction', 'sanitary', 'emergency', 'reconstruction', 'other'] as const;
    const permits: { id: number; region_id: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const r = regions[(i * 4) % regions.length];
      const issued = thisYearDay();
      const trees = rnd.int(1, 40);
      const person = i % 3 === 2;
      const [p] = await trx('tree_cutting_permits')
        .insert({
          number: `DK-${year}-${pad(i + 1, 3)}`,
          issued_on: issued,
          region_id: r.id,
          area_id: areaOf(r.id),
          applicant: person
            ? `${rnd.pick(LAST)} ${rnd.pick(FIRST)}`
            : `«${r.city} ${rnd.pick(['obodonlashtirish', 'yoʻllar', 'qurilish'])}» ${rnd.pick(['DUK', 'MChJ', 'AJ'])}`,
          applicant_inn: person
            ? String(rnd.int(3, 6)) + String(rnd.int(1e12, 9.99e12)).slice(0, 13)
            : String(rnd.int(200_000_000, 309_999_999)),
          address: `${r.city}, ${rnd.pick(STREETS)[0]}, ${rnd.int(1, 80)}`,
          location: point(near(r, 0.05)),
          species_id: rnd.pick(species),
          trees,
          reason: REASONS[i % REASONS.length],
          valid_from: issued,
          valid_to: addDays(issued, 90),
          compensation: (trees * 1_500_000).toFixed(2),
          status: i < 6 ? 'issued' : i < 9 ? 'closed' : 'revoked',
          file: null,
          ...by,
        })
        .returning(['id', 'region_id']);
      permits.push({ id: Number(p.id), region_id: Number(p.region_id) });
    }
    log('demo: 10 felling permits');

    const VIOLATION_STATES = ['registered', 'sent_to_police', 'fined', 'closed'] as const;
    await trx('tree_cutting_violations').insert(
      Array.from({ length: 10 }, (_, i) => {
        const permit = i < 2 ? permits[i] : null;
        const r = permit ? regionById.get(permit.region_id)! : regions[(i * 6 + 1) % regions.length];
        const organisation = i % 2 === 0;
        const trees = rnd.int(1, 25);
        const state = VIOLATION_STATES[i % VIOLATION_STATES.length];
        return {
          found_on: thisYearDay(),
          region_id: r.id,
          area_id: areaOf(r.id),
          address: `${r.city}, ${rnd.pick(STREETS)[0]}`,
          location: point(near(r, 0.05)),
          violator_kind: organisation ? 'organisation' : 'person',
          violator_name: organisation
            ? `«${rnd.pick(['Sharq', 'Baraka', 'Mega', 'Oltin'])} savdo» MChJ`
            : `${rnd.pick(LAST)} ${rnd.pick(FIRST)}`,
          violator_inn: organisation ? String(rnd.int(300_000_000, 309_999_999)) : null,
          species_id: rnd.pick(species),
          trees,
          permit_id: permit?.id ?? null,
          damage: (trees * 3_000_000).toFixed(2),
          protocol_number: state === 'registered' ? null : `BN-${year}-${pad(i + 1, 4)}`,
          status: state,
          description: permit ? 'Ruxsatnomada koʻrsatilganidan ortiq daraxt kesilgan' : 'Ruxsatnomasiz daraxt kesish holati aniqlangan',
          images: refs([]),
          ...by,
        };
      }),
    );
    log('demo: 10 felling violations');

    const checkable = plantingIds.filter(
      (p) => p.org_id !== null && p.planted_on.startsWith(String(year)) && addDays(p.planted_on, 30) <= today,
    );
    const inspections = Array.from({ length: Math.min(12, checkable.length) }, (_, i) => {
      const p = checkable[Math.floor((i * checkable.length) / 12)];
      const checked = Math.min(p.count, rnd.int(100, 2000));
      const alive = Math.round(checked * rnd.real(0.7, 0.99));
      const share = alive / checked;
      const result = share >= 0.9 ? 'ok' : share >= 0.8 ? 'deficiencies' : 'violation';
      return {
        inspected_on: minDate(addDays(p.planted_on, rnd.int(30, 120)), today),
        inspector_id: admin,
        region_id: p.region_id,
        area_id: p.area_id,
        org_id: p.org_id,
        planting_id: p.id,
        trees_checked: checked,
        trees_alive: alive,
        trees_dead: checked - alive,
        result,
        findings:
          result === 'ok'
            ? 'Koʻchatlar yaxshi koʻkargan, sugʻorish yoʻlga qoʻyilgan'
            : result === 'deficiencies'
              ? 'Ayrim koʻchatlar qurigan, sugʻorish jadvaliga rioya qilinmagan'
              : 'Koʻchatlarning katta qismi qurigan, oʻrniga yangilari ekilmagan',
        images: refs([]),
        ...by,
      };
    });
    if (inspections.length) await trx('planting_inspections').insert(inspections);
    log(`demo: ${inspections.length} inspections`);

    const STATES = ['open', 'open', 'full', 'open', 'closed', 'open'] as const;
    await trx('resident_planting_areas').insert(
      STATES.map((status, i) => {
        const r = regions[(i * 2 + 3) % regions.length];
        const ha = Number(rnd.real(0.5, 6).toFixed(2));
        const c = { lng: r.lng + rnd.real(-0.06, 0.06), lat: r.lat + rnd.real(-0.05, 0.05) };
        const capacity = Math.round(ha * 400);
        return {
          name: text3(
            `Aholi ekishi uchun maydon — ${r.city}, ${i + 1}-mavze`,
            `Участок для посадок жителей — ${r.cityRu}, массив ${i + 1}`,
          ),
          region_id: r.id,
          area_id: areaOf(r.id),
          address: `${r.city}, ${i + 1}-mavze`,
          shape: polygon(ringAround(rnd, c.lng, c.lat, ha, 6)),
          location: point(c),
          area_ha: ha.toFixed(4),
          capacity,
          planted: status === 'full' ? capacity : Math.round(capacity * rnd.real(0.05, 0.7)),
          recommended_species: refs([rnd.pick(species), rnd.pick(species), rnd.pick(species)].filter((s, k, a) => a.indexOf(s) === k)),
          status,
          contact_phone: `71${rnd.int(2_000_000, 2_999_999)}`,
          info: text3(
            'Koʻchatingizni olib keling: joy, suv va maslahat beriladi.',
            'Приносите свой саженец: место, вода и консультация предоставляются.',
          ),
          ...by,
        };
      }),
    );
    log('demo: 6 resident planting areas');

    const oldTrees = Array.from({ length: 6 }, (_, i) => {
      const r = regions[(i * 5 + 2) % regions.length];
      return {
        species_id: species[i % 2 === 0 ? 0 : Math.min(species.length - 1, 10)],
        age_years: rnd.int(120, 900),
        height_m: rnd.real(15, 35).toFixed(2),
        circumference_cm: rnd.real(300, 1100).toFixed(1),
        region_id: r.id,
        area_id: areaOf(r.id),
        address: `${r.city}, ${rnd.pick(['eski shahar', 'masjid hovlisi', 'mahalla guzari'])}`,
        location: point(near(r, 0.05)),
        description: text3('Mahalliy aholi eʼzozlaydigan keksa daraxt.', 'Старое дерево, которое бережёт местное население.'),
        images: refs([]),
        ...by,
      };
    });
    await trx('hundred_yo_trees').insert(oldTrees);

    const decisions = [1718, 1726, 1730].map((soato) => regions.find((r) => r.soato === String(soato))).filter((r): r is Region => !!r);
    await trx('governor_decisions').insert(
      decisions.map((r, i) => {
        const planned = plans.filter((p) => p.region_id === r.id).reduce((s, p) => s + p.trees, 0);
        return {
          region_id: r.id,
          area_id: null,
          number: `${rnd.int(100, 900)}-q`,
          decided_on: minDate(`${year}-0${i + 1}-1${i}`, today),
          title: text3(
            `${year} yilda ${r.city} hududini koʻkalamzorlashtirish toʻgʻrisida`,
            `Об озеленении территории (${r.cityRu}) в ${year} году`,
          ),
          trees_planned: planned,
          area_ha: (planned / 1500).toFixed(4),
          deadline: `${year}-12-31`,
          file: null,
          ...by,
        };
      }),
    );
    log(`demo: ${decisions.length} governor decisions`);

    const news: [string, string, string, string][] = [
      [
        'Bahorgi koʻchat ekish mavsumi boshlandi',
        'Начался весенний сезон посадок',
        'Respublika boʻylab ommaviy koʻchat ekish boshlandi.',
        'По всей республике начались массовые посадки саженцев.',
      ],
      [
        '«Yashil makon» loyihasi doirasida 1 million koʻchat ekildi',
        'В рамках проекта «Яшил макон» посажен миллион саженцев',
        'Bir kunda bir million koʻchat ekildi.',
        'За один день посажен миллион саженцев.',
      ],
      [
        'Volontyorlar haftaligi yakunlandi',
        'Завершилась неделя волонтёров',
        'Yoshlar va mahalla faollari bogʻlar barpo etdi.',
        'Молодёжь и активисты махаллей заложили сады.',
      ],
      [
        'Daraxt kesish ruxsatnomalari ochiq eʼlon qilinadi',
        'Разрешения на вырубку публикуются открыто',
        'Har bir ruxsatnoma saytda koʻrinadi.',
        'Каждое разрешение видно на сайте.',
      ],
      [
        'Yangi jamoat parklari ochildi',
        'Открыты новые общественные парки',
        'Viloyat markazlarida yangi parklar foydalanishga topshirildi.',
        'В областных центрах открыты новые парки.',
      ],
      [
        'Kuzgi ekish mavsumiga tayyorgarlik',
        'Подготовка к осеннему сезону посадок',
        'Koʻchatxonalarda 50 milliondan ortiq koʻchat tayyorlandi.',
        'В питомниках подготовлено более 50 миллионов саженцев.',
      ],
      [
        'Sugʻorish tizimlari uchun tanlov eʼlon qilindi',
        'Объявлен конкурс на системы полива',
        'Tomchilatib sugʻorish loyihalari qabul qilinmoqda.',
        'Принимаются проекты капельного орошения.',
      ],
      [
        'Koʻkalamzorlashtirish toʻgʻrisidagi qaror qabul qilindi',
        'Принято постановление об озеленении',
        'Har yili 200 million koʻchat ekish maqsadi belgilandi.',
        'Установлена цель — 200 миллионов саженцев в год.',
      ],
    ];
    const kindOf = [0, 0, 0, 1, 0, 1, 1, 2];
    const pubs = news.map(([uz, ru, suz, sru], i) => ({
      title: text3(uz, ru),
      summary: text3(suz, sru),
      body: html3(
        `<p>${suz}</p><p>Batafsil maʼlumot <strong>hududiy boshqarmalarda</strong>.</p>`,
        `<p>${sru}</p><p>Подробности — <strong>в территориальных управлениях</strong>.</p>`,
      ),
      type_id: types.length ? types[Math.min(types.length - 1, kindOf[i])] : null,
      published_at: `${addDays(today, -(i * 9 + 1))}T10:00:00+05:00`,
      image: null,
      is_published: true,
      status: 'published',
      ...by,
    }));
    pubs.push({
      title: text3('Qoralama: qishki ishlar rejasi', 'Черновик: план зимних работ'),
      summary: text3('Hali eʼlon qilinmagan', 'Ещё не опубликовано'),
      body: html3('<p>Qoralama</p>', '<p>Черновик</p>'),
      type_id: types[0] ?? null,
      published_at: `${today}T09:00:00+05:00`,
      image: null,
      is_published: false,
      status: 'draft',
      ...by,
    });
    await trx('publications').insert(pubs);
    log(`demo: ${pubs.length} publications (${pubs.filter((p) => p.is_published).length} published)`);
  });
}
