import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITREE_TPINTWBOI_ROWS } from './data/itree-temperate-interior-west.ts';
import {
  BENEFITS_SOURCE,
  DBH_CLASS_COUNT,
  DBH_CLASS_MIDPOINT_CM,
  DBH_CLASS_UPPER_CM,
  KIND_ROWS,
  SPECIES_ROWS,
  benefitsOf,
  benefitsPerTree,
  benefitsRowOf,
  dbhClassOf,
  dbhClassSql,
  dbhFromCircumference,
  type SpeciesRef,
} from './ecosystem-benefits.ts';

/** the adjacent doubles of a positive finite x */
function nextUp(x: number): number {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  v.setBigUint64(0, v.getBigUint64(0) + 1n);
  return v.getFloat64(0);
}
function nextDown(x: number): number {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  v.setBigUint64(0, v.getBigUint64(0) - 1n);
  return v.getFloat64(0);
}
/** the smallest circumference whose DBH (c / π) reaches `bound` */
function firstCircumferenceOf(bound: number): number {
  let c = bound * Math.PI;
  while (c / Math.PI >= bound) c = nextDown(c);
  while (c / Math.PI < bound) c = nextUp(c);
  return c;
}

// The seeded registry (seeds/reference-rows.ts, 'tree-species'): code and kind.
const SEEDED: SpeciesRef[] = [
  ['PLA_OR', 'broadleaf'],
  ['MOR_AL', 'broadleaf'],
  ['ULM_PU', 'broadleaf'],
  ['SAL_AL', 'broadleaf'],
  ['POP_AL', 'broadleaf'],
  ['JUN_SE', 'conifer'],
  ['PIN_EL', 'conifer'],
  ['PLT_OR', 'conifer'],
  ['ROB_PS', 'broadleaf'],
  ['QUE_RO', 'broadleaf'],
  ['JUG_RE', 'broadleaf'],
  ['PRU_AR', 'broadleaf'],
  ['MAL_DO', 'broadleaf'],
  ['PRU_DU', 'broadleaf'],
  ['PIS_VE', 'broadleaf'],
  ['HAL_AP', 'shrub'],
  ['SAL_RI', 'shrub'],
  ['GLE_TR', 'broadleaf'],
  ['FRA_SO', 'broadleaf'],
  ['ACE_TU', 'broadleaf'],
  ['AES_HI', 'broadleaf'],
  ['AIL_AL', 'broadleaf'],
  ['PAU_TO', 'broadleaf'],
  ['ELA_AN', 'broadleaf'],
  ['PUN_GR', 'shrub'],
  ['CAT_BI', 'broadleaf'],
  ['BET_PE', 'broadleaf'],
].map(([code, kind]) => ({ code, kind: kind as SpeciesRef['kind'] }));

describe('DBH classes', () => {
  it('are the nine i-Tree Streets classes, in cm', () => {
    expect(DBH_CLASS_UPPER_CM).toEqual([7.62, 15.24, 30.48, 45.72, 60.96, 76.2, 91.44, 106.68]);
    expect(DBH_CLASS_COUNT).toBe(9);
    // each source midpoint lies inside its class
    DBH_CLASS_MIDPOINT_CM.forEach((mid, i) => {
      expect(dbhClassOf(mid * Math.PI)).toBe(i + 1);
    });
  });

  it('DBH is circumference / π', () => {
    expect(dbhFromCircumference(Math.PI * 20)).toBe(20);
    expect(dbhFromCircumference(100)).toBeCloseTo(31.831, 3);
  });

  it('no circumference is a sapling: class 1', () => {
    for (const c of [null, undefined, 0, -3, Number.NaN]) expect(dbhClassOf(c)).toBe(1);
    expect(dbhClassOf(0.1)).toBe(1);
    expect(dbhClassOf(Number.POSITIVE_INFINITY)).toBe(9);
    expect(dbhClassOf(10_000)).toBe(9);
  });

  it('changes class exactly where DBH reaches a bound (lower bound inclusive)', () => {
    DBH_CLASS_UPPER_CM.forEach((bound, i) => {
      const first = firstCircumferenceOf(bound);
      expect(dbhClassOf(nextDown(first))).toBe(i + 1);
      expect(dbhClassOf(first)).toBe(i + 2);
    });
    // in whole millimetres of circumference: 23.9 cm → DBH 7.6076 (class 1), 24.0 cm → 7.639 (class 2)
    expect(dbhClassOf(23.9)).toBe(1);
    expect(dbhClassOf(24.0)).toBe(2);
    expect(dbhClassOf(335.1)).toBe(8); // DBH 106.666 cm
    expect(dbhClassOf(335.2)).toBe(9); // DBH 106.698 cm
  });

  it('dbhClassSql carries the same bounds, in the same order, with the same rule', () => {
    const sql = dbhClassSql('p.circumference_cm');
    expect(sql).toContain(`ARRAY[${DBH_CLASS_UPPER_CM.join(', ')}]::float8[]`);
    expect(sql).toContain('width_bucket((p.circumference_cm)::float8 / pi(),');
    expect(sql).toMatch(/IS NULL OR .* <= 0 OR .* = 'NaN'::float8 THEN 1/);
    expect(sql).toMatch(/ELSE 1 \+ width_bucket/);
  });
});

describe('dbhClassSql on PostgreSQL (PGlite) agrees with dbhClassOf', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = new PGlite();
    await pg.exec('CREATE TABLE t (id int, c_num numeric(7, 1), c_f8 float8)');
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  it('at and beside every class bound, for numeric(7,1) and float8 columns', async () => {
    const f8: number[] = [0, -1, 0.1, 1e6];
    const dec: string[] = ['0', '-1.0', '0.1', '23.9', '24.0', '99999.9'];
    for (const bound of DBH_CLASS_UPPER_CM) {
      const first = firstCircumferenceOf(bound);
      f8.push(nextDown(nextDown(first)), nextDown(first), first, nextUp(first), bound * Math.PI);
      const tenths = Math.floor(bound * Math.PI * 10);
      for (let k = tenths - 2; k <= tenths + 2; k++) dec.push((k / 10).toFixed(1));
    }
    let id = 0;
    const expected = new Map<number, number>();
    for (const x of f8) {
      id++;
      expected.set(id, dbhClassOf(x));
      await pg.query('INSERT INTO t (id, c_f8) VALUES ($1, $2::float8)', [id, String(x)]);
    }
    for (const s of dec) {
      id++;
      expected.set(id, dbhClassOf(Number(s)));
      await pg.query('INSERT INTO t (id, c_num) VALUES ($1, $2::numeric)', [id, s]);
    }
    id++;
    expected.set(id, 1);
    await pg.query('INSERT INTO t (id) VALUES ($1)', [id]); // both NULL
    id++;
    expected.set(id, 1);
    await pg.query(`INSERT INTO t (id, c_f8) VALUES ($1, 'NaN')`, [id]);

    const { rows } = await pg.query<{ id: number; cls: number }>(
      `SELECT id, ${dbhClassSql('coalesce(c_num::float8, c_f8)')} AS cls FROM t ORDER BY id`,
    );
    expect(rows).toHaveLength(expected.size);
    for (const r of rows) expect([r.id, r.cls]).toEqual([r.id, expected.get(r.id)]);
    // every class was reached
    expect(new Set(rows.map((r) => r.cls))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
  }, 60_000);

  it('works on a plain numeric column name too', async () => {
    const { rows } = await pg.query<{ cls: number }>(
      `SELECT ${dbhClassSql('c_num')} AS cls FROM t WHERE c_num IN (23.9, 24.0) GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([{ cls: 1 }, { cls: 2 }]);
  });
});

describe('benefits per tree', () => {
  it('hand-checked against the source table (Ulmus pumila, class 4: DBH 30.48–45.72 cm, midpoint 38.10)', () => {
    // output__TpIntWBOI__co2_storage.csv ULPU @38.10 = 865.4 kg; __co2_sequestered.csv = 100.8 kg;
    // __hydro_interception.csv = 4.79 m³. A trunk of 120 cm: DBH 38.2 cm → class 4.
    expect(dbhClassOf(120)).toBe(4);
    expect(benefitsPerTree({ code: 'ULM_PU', kind: 'broadleaf' }, 4)).toEqual({
      co2StoredKg: 865.4,
      co2SequesteredKgYear: 100.8,
      rainInterceptedM3Year: 4.79,
    });
    // Robinia pseudoacacia, sapling class: ROPS @3.81 = 4.3 kg, 4.5 kg/yr, 0.06 m³/yr
    expect(benefitsPerTree({ code: 'ROB_PS', kind: 'broadleaf' }, 1)).toEqual({
      co2StoredKg: 4.3,
      co2SequesteredKgYear: 4.5,
      rainInterceptedM3Year: 0.06,
    });
  });

  it('every seeded species has a row; the mapped ones use the named source rows', () => {
    for (const s of SEEDED) expect(Object.hasOwn(SPECIES_ROWS, s.code!)).toBe(true);
    expect(Object.keys(SPECIES_ROWS).sort()).toEqual(SEEDED.map((s) => s.code).sort());
    expect(benefitsRowOf({ code: 'ULM_PU', kind: 'broadleaf' })).toEqual({
      code: 'ULPU',
      scientificName: 'Ulmus pumila',
      match: 'species',
    });
    expect(benefitsRowOf({ code: 'PLA_OR', kind: 'broadleaf' })).toMatchObject({ code: 'PLAC', match: 'genus' });
    expect(benefitsRowOf({ code: 'gle_tr ', kind: 'broadleaf' })).toMatchObject({ code: 'GLTR', match: 'species' });
    expect(benefitsRowOf({ code: 'POP_AL', kind: 'broadleaf' })).toMatchObject({ code: 'BDL OTHER', match: 'type' });
    const codes = new Set(ITREE_TPINTWBOI_ROWS.map((r) => r.code));
    for (const { row } of Object.values(SPECIES_ROWS)) expect(codes.has(row)).toBe(true);
    for (const row of Object.values(KIND_ROWS)) expect(codes.has(row)).toBe(true);
  });

  it('an unknown species code falls back to its kind', () => {
    const unknownBroadleaf = { code: 'XYZ_NEW', kind: 'broadleaf' } as const;
    expect(benefitsRowOf(unknownBroadleaf)).toMatchObject({ code: 'BDM OTHER', match: 'kind' });
    // BDM OTHER = the values of Acer platanoides (ACPL) in the source
    expect(benefitsPerTree(unknownBroadleaf, 3)).toEqual({ co2StoredKg: 499.2, co2SequesteredKgYear: 71.7, rainInterceptedM3Year: 1.98 });
    expect(benefitsPerTree({ code: null, kind: 'conifer' }, 2)).toEqual({
      co2StoredKg: 20.1,
      co2SequesteredKgYear: 7.4,
      rainInterceptedM3Year: 1.01,
    });
    expect(benefitsPerTree({ kind: 'shrub' }, 1)).toEqual({ co2StoredKg: 6.3, co2SequesteredKgYear: 3.8, rainInterceptedM3Year: 0.03 });
    expect(benefitsPerTree({ code: 'toString', kind: 'conifer' }, 1)).toEqual(benefitsPerTree({ kind: 'conifer' }, 1));
  });

  it('stored CO2 grows with the class (never falls; rises over the first classes) for every row used', () => {
    const used = [...SEEDED, { kind: 'broadleaf' }, { kind: 'conifer' }, { kind: 'shrub' }] as SpeciesRef[];
    for (const s of used) {
      const stored = Array.from({ length: DBH_CLASS_COUNT }, (_, i) => benefitsPerTree(s, i + 1).co2StoredKg);
      for (let i = 1; i < stored.length; i++) expect(stored[i]).toBeGreaterThanOrEqual(stored[i - 1]);
      expect(stored[1]).toBeGreaterThan(stored[0]);
      expect(stored[2]).toBeGreaterThan(stored[1]);
      for (let k = 1; k <= DBH_CLASS_COUNT; k++) {
        const b = benefitsPerTree(s, k);
        expect(b.co2SequesteredKgYear).toBeGreaterThanOrEqual(0);
        expect(b.rainInterceptedM3Year).toBeGreaterThan(0);
      }
    }
  });

  it('rejects a class outside 1…9 and an unknown kind', () => {
    for (const k of [0, 10, 1.5, Number.NaN]) expect(() => benefitsPerTree({ kind: 'broadleaf' }, k)).toThrow(RangeError);
    expect(() => benefitsPerTree({ kind: 'palm' as never }, 1)).toThrow(RangeError);
  });
});

describe('sums', () => {
  it('adds groups exactly', () => {
    // 10 Siberian elms of class 4 + 3 trees of an unlisted conifer (CEM OTHER = Pinus sylvestris) of class 2:
    // stored 10 × 865.4 + 3 × 20.1 = 8714.3 kg; sequestered 10 × 100.8 + 3 × 7.4 = 1030.2 kg/yr;
    // rain 10 × 4.79 + 3 × 1.01 = 50.93 m³/yr
    expect(
      benefitsOf([
        { species: { code: 'ULM_PU', kind: 'broadleaf' }, dbhClass: 4, trees: 10 },
        { species: { code: 'NEW_CONIFER', kind: 'conifer' }, dbhClass: 2, trees: 3 },
      ]),
    ).toEqual({ co2StoredKg: 8714.3, co2SequesteredKgYear: 1030.2, rainInterceptedM3Year: 50.93 });
  });

  it('is empty for no rows or no trees, and the same in any order', () => {
    const zero = { co2StoredKg: 0, co2SequesteredKgYear: 0, rainInterceptedM3Year: 0 };
    expect(benefitsOf([])).toEqual(zero);
    expect(benefitsOf([{ species: { kind: 'shrub' }, dbhClass: 1, trees: 0 }])).toEqual(zero);
    const rows = SEEDED.flatMap((species, i) => [{ species, dbhClass: (i % 9) + 1, trees: 1000 + i }]);
    expect(benefitsOf([...rows].reverse())).toEqual(benefitsOf(rows));
  });

  it('does not drift where floating point would (0.1 m³ steps, many trees)', () => {
    // ROPS class 1: 0.06 m³; a million saplings = 60 000 m³ exactly, 4 300 000 kg stored
    const million = benefitsOf(
      Array.from({ length: 1000 }, () => ({ species: { code: 'ROB_PS', kind: 'broadleaf' as const }, dbhClass: 1, trees: 1000 })),
    );
    expect(million).toEqual({ co2StoredKg: 4_300_000, co2SequesteredKgYear: 4_500_000, rainInterceptedM3Year: 60_000 });
    // and Σ of single trees equals trees × per-tree
    const one = benefitsPerTree({ code: 'PLA_OR', kind: 'broadleaf' }, 5);
    const many = benefitsOf([{ species: { code: 'PLA_OR', kind: 'broadleaf' }, dbhClass: 5, trees: 7 }]);
    expect(many.co2StoredKg).toBe(Number((one.co2StoredKg * 7).toFixed(3)));
  });

  it('rejects a negative or fractional number of trees', () => {
    expect(() => benefitsOf([{ species: { kind: 'shrub' }, dbhClass: 1, trees: -1 }])).toThrow(RangeError);
    expect(() => benefitsOf([{ species: { kind: 'shrub' }, dbhClass: 1, trees: 1.5 }])).toThrow(RangeError);
  });
});

describe('source', () => {
  it('is named exactly', () => {
    expect(BENEFITS_SOURCE.year).toBe(2007);
    expect(BENEFITS_SOURCE.title).toContain('PSW-GTR-206');
    expect(BENEFITS_SOURCE.climateZone).toContain('TpIntWBOI');
    expect(BENEFITS_SOURCE.climateZone).toContain('Boise');
    expect(BENEFITS_SOURCE.url).toMatch(/^https:\/\//);
    expect(BENEFITS_SOURCE.label).toMatch(/^Estimate after /);
  });
});
