/**
 * Ecosystem benefits of a tree, estimated from its species and trunk diameter: CO₂ stored, CO₂
 * sequestered per year and rain intercepted per year (docs/ecosystem-benefits.md).
 *
 *   DBH = circumference / π  →  DBH class (the nine i-Tree Streets classes)  →  the source's value
 *   for the species' row at that class.
 *
 * Source: i-Tree Streets (STRATUM) per-tree tables of the Temperate Interior West climate zone
 * (TpIntWBOI, reference city Boise, Idaho) — the research of the Temperate Interior West Community
 * Tree Guide, USDA Forest Service PSW-GTR-206 (Vargas et al. 2007). The numbers are in
 * ./data/itree-temperate-interior-west.ts, copied unchanged. What is ours: which source row each
 * of our species uses (SPECIES_ROWS below), the fallback by kind, and nothing else — no number is
 * derived, interpolated or scaled.
 *
 * Pure functions, no database. Sums are exact: per-tree values are held as integer grams and
 * litres, multiplied and added as bigints, and turned into kg / m³ once at the end.
 */
import { ITREE_DBH_CLASS_MIDPOINTS_CM, ITREE_REGION, ITREE_TPINTWBOI_ROWS, type ITreeRow } from './data/itree-temperate-interior-west.ts';

/**
 * Upper bounds (exclusive) of the DBH classes, cm: the i-Tree Streets classes 0–3, 3–6, 6–12, 12–18,
 * 18–24, 24–30, 30–36, 36–42 inches, converted exactly (1 in = 2.54 cm). Class n (1-based) holds
 * DBH in [DBH_CLASS_UPPER_CM[n-2], DBH_CLASS_UPPER_CM[n-1]); class 9 (≥ 106.68 cm) is open.
 */
export const DBH_CLASS_UPPER_CM: readonly number[] = Object.freeze([7.62, 15.24, 30.48, 45.72, 60.96, 76.2, 91.44, 106.68]);

/** Number of DBH classes (the last one open). */
export const DBH_CLASS_COUNT = DBH_CLASS_UPPER_CM.length + 1;

/** Midpoint of each class, cm: the diameter the source's value is given for. */
export const DBH_CLASS_MIDPOINT_CM: readonly number[] = Object.freeze([...ITREE_DBH_CLASS_MIDPOINTS_CM]);

/** Trunk diameter at breast height, cm, from the trunk's circumference, cm. */
export function dbhFromCircumference(cm: number): number {
  return cm / Math.PI;
}

/**
 * The DBH class (1…9) of a trunk circumference, cm. No circumference (null, undefined, 0, negative,
 * NaN) is class 1: a newly planted sapling. Same result as dbhClassSql for every value.
 */
export function dbhClassOf(circumferenceCm: number | null | undefined): number {
  if (circumferenceCm == null || Number.isNaN(circumferenceCm) || circumferenceCm <= 0) return 1;
  const dbh = dbhFromCircumference(circumferenceCm);
  let cls = 1;
  for (const upper of DBH_CLASS_UPPER_CM) if (dbh >= upper) cls++;
  return cls;
}

/**
 * A PostgreSQL expression giving dbhClassOf of a circumference column or expression (cm; any
 * numeric type). width_bucket counts the bounds ≤ DBH, like dbhClassOf; the division is done in
 * float8 with pi() (= Math.PI) so both round the same way; NULL, ≤ 0 and NaN give 1.
 */
export function dbhClassSql(circumferenceColumnSql: string): string {
  const c = `(${circumferenceColumnSql})::float8`;
  return (
    `(CASE WHEN ${c} IS NULL OR ${c} <= 0 OR ${c} = 'NaN'::float8 THEN 1 ` +
    `ELSE 1 + width_bucket(${c} / pi(), ARRAY[${DBH_CLASS_UPPER_CM.join(', ')}]::float8[]) END)`
  );
}

export type SpeciesKind = 'broadleaf' | 'conifer' | 'shrub';
export type SpeciesRef = { code?: string | null; kind: SpeciesKind };

export interface TreeBenefits {
  /** CO₂ stored in the tree, kg */
  co2StoredKg: number;
  /** CO₂ taken up per year (gross sequestration), kg/year */
  co2SequesteredKgYear: number;
  /** rainfall intercepted by the crown per year, m³/year */
  rainInterceptedM3Year: number;
}

/**
 * Which source row each species of our registry (seeds/reference-rows.ts, 'tree-species') uses.
 * `match`: 'species' — the source has the species; 'genus' — another species of the genus;
 * 'type' — the source has neither, so i-Tree's stand-in row for the tree type (broadleaf deciduous
 * large / medium / small, conifer evergreen medium / small), chosen by the species' mature size.
 */
export const SPECIES_ROWS: Readonly<Record<string, { row: string; match: 'species' | 'genus' | 'type' }>> = Object.freeze({
  PLA_OR: { row: 'PLAC', match: 'genus' }, //     Platanus orientalis → Platanus × hybrida (London plane; P. orientalis is a parent)
  MOR_AL: { row: 'BDM OTHER', match: 'type' }, // Morus alba, medium tree → broadleaf deciduous medium (= Acer platanoides values)
  ULM_PU: { row: 'ULPU', match: 'species' }, //   Ulmus pumila → Ulmus pumila (Siberian elm)
  SAL_AL: { row: 'BDL OTHER', match: 'type' }, // Salix alba, large tree → broadleaf deciduous large (= Fraxinus pennsylvanica values)
  POP_AL: { row: 'BDL OTHER', match: 'type' }, // Populus alba, large tree → broadleaf deciduous large
  JUN_SE: { row: 'CES OTHER', match: 'type' }, // Juniperus seravschanica, slow small conifer → conifer evergreen small (= Pinus edulis values)
  PIN_EL: { row: 'PISY', match: 'genus' }, //     Pinus eldarica → Pinus sylvestris (Scotch pine, the zone's medium conifer)
  PLT_OR: { row: 'CES OTHER', match: 'type' }, // Platycladus orientalis, small conifer → conifer evergreen small
  ROB_PS: { row: 'ROPS', match: 'species' }, //   Robinia pseudoacacia → Robinia pseudoacacia (black locust)
  QUE_RO: { row: 'QURU', match: 'genus' }, //     Quercus robur → Quercus rubra (northern red oak)
  JUG_RE: { row: 'JUNI', match: 'genus' }, //     Juglans regia → Juglans nigra (black walnut)
  PRU_AR: { row: 'BDS OTHER', match: 'type' }, // Prunus armeniaca, small tree → broadleaf deciduous small (= Malus values)
  MAL_DO: { row: 'MA2', match: 'genus' }, //      Malus domestica → Malus sp. (apple)
  PRU_DU: { row: 'BDS OTHER', match: 'type' }, // Prunus dulcis, small tree → broadleaf deciduous small
  PIS_VE: { row: 'BDS OTHER', match: 'type' }, // Pistacia vera, small tree → broadleaf deciduous small
  HAL_AP: { row: 'BDS OTHER', match: 'type' }, // Haloxylon aphyllum, shrub → broadleaf deciduous small (the shrub fallback)
  SAL_RI: { row: 'BDS OTHER', match: 'type' }, // Salsola richteri, shrub → broadleaf deciduous small
  GLE_TR: { row: 'GLTR', match: 'species' }, //   Gleditsia triacanthos → Gleditsia triacanthos (honeylocust)
  FRA_SO: { row: 'FRPE', match: 'genus' }, //     Fraxinus sogdiana → Fraxinus pennsylvanica (green ash)
  ACE_TU: { row: 'ACPL', match: 'genus' }, //     Acer turkestanicum → Acer platanoides (Norway maple, medium)
  AES_HI: { row: 'BDL OTHER', match: 'type' }, // Aesculus hippocastanum, large tree → broadleaf deciduous large
  AIL_AL: { row: 'BDL OTHER', match: 'type' }, // Ailanthus altissima, large tree → broadleaf deciduous large
  PAU_TO: { row: 'BDM OTHER', match: 'type' }, // Paulownia tomentosa, medium tree → broadleaf deciduous medium
  ELA_AN: { row: 'BDS OTHER', match: 'type' }, // Elaeagnus angustifolia, small tree → broadleaf deciduous small
  PUN_GR: { row: 'BDS OTHER', match: 'type' }, // Punica granatum, shrub → broadleaf deciduous small
  CAT_BI: { row: 'CASP', match: 'genus' }, //     Catalpa bignonioides → Catalpa speciosa (northern catalpa)
  BET_PE: { row: 'BDM OTHER', match: 'type' }, // Betula pendula, medium tree → broadleaf deciduous medium
});

/** Row of a species whose code has no entry above, by its kind. */
export const KIND_ROWS: Readonly<Record<SpeciesKind, string>> = Object.freeze({
  broadleaf: 'BDM OTHER', // broadleaf deciduous medium (= Acer platanoides values)
  conifer: 'CEM OTHER', //   conifer evergreen medium (= Pinus sylvestris values)
  shrub: 'BDS OTHER', //     broadleaf deciduous small (= Malus values); the source has no shrub row
});

interface UnitRow {
  row: ITreeRow;
  grams: bigint[];
  gramsYear: bigint[];
  litresYear: bigint[];
}

const toUnits = (values: readonly number[], factor: number) => values.map((v) => BigInt(Math.round(v * factor)));
const ROWS: ReadonlyMap<string, UnitRow> = new Map(
  ITREE_TPINTWBOI_ROWS.map((row) => [
    row.code,
    {
      row,
      grams: toUnits(row.co2StorageKg, 1000),
      gramsYear: toUnits(row.co2SequesteredKg, 1000),
      litresYear: toUnits(row.rainInterceptionM3, 1000),
    },
  ]),
);

/** The source row a species uses, and why (its code's entry, else its kind's stand-in). */
export function benefitsRowOf(species: SpeciesRef): { code: string; scientificName: string; match: 'species' | 'genus' | 'type' | 'kind' } {
  const key = species.code?.trim().toUpperCase();
  if (key && Object.hasOwn(SPECIES_ROWS, key)) {
    const own = SPECIES_ROWS[key];
    return { code: own.row, scientificName: unitRow(own.row).row.scientificName, match: own.match };
  }
  if (!Object.hasOwn(KIND_ROWS, species.kind)) throw new RangeError(`unknown species kind: ${String(species.kind)}`);
  const byKind = KIND_ROWS[species.kind];
  return { code: byKind, scientificName: unitRow(byKind).row.scientificName, match: 'kind' };
}

function unitRow(code: string): UnitRow {
  const r = ROWS.get(code);
  if (!r) throw new Error(`no source row ${code}`); // only a wrong table above gets here
  return r;
}

function classIndex(dbhClass: number): number {
  if (!Number.isInteger(dbhClass) || dbhClass < 1 || dbhClass > DBH_CLASS_COUNT) {
    throw new RangeError(`DBH class must be an integer 1…${DBH_CLASS_COUNT}, got ${dbhClass}`);
  }
  return dbhClass - 1;
}

/** thousandths (g, L) → units (kg, m³) */
const units = (thousandths: bigint) => Number(thousandths) / 1000;

/** What one tree of a species and DBH class gives, per the source's value at the class midpoint. */
export function benefitsPerTree(species: SpeciesRef, dbhClass: number): TreeBenefits {
  return benefitsOf([{ species, dbhClass, trees: 1 }]);
}

/** The benefits of groups of trees, summed exactly (kg to 1 g, m³ to 1 L). `trees`: integer ≥ 0. */
export function benefitsOf(rows: readonly { species: SpeciesRef; dbhClass: number; trees: number }[]): TreeBenefits {
  let grams = 0n,
    gramsYear = 0n,
    litresYear = 0n;
  for (const { species, dbhClass, trees } of rows) {
    if (!Number.isSafeInteger(trees) || trees < 0) throw new RangeError(`trees must be a whole number ≥ 0, got ${trees}`);
    const i = classIndex(dbhClass);
    const r = unitRow(benefitsRowOf(species).code);
    const n = BigInt(trees);
    grams += r.grams[i] * n;
    gramsYear += r.gramsYear[i] * n;
    litresYear += r.litresYear[i] * n;
  }
  return { co2StoredKg: units(grams), co2SequesteredKgYear: units(gramsYear), rainInterceptedM3Year: units(litresYear) };
}

/** The source, to name on the page and in the docs (docs/ecosystem-benefits.md). */
export const BENEFITS_SOURCE = Object.freeze({
  title:
    'Temperate Interior West Community Tree Guide: Benefits, Costs, and Strategic Planting (Gen. Tech. Rep. PSW-GTR-206); ' +
    'per-tree values from its model, i-Tree Streets (STRATUM), climate zone Temperate Interior West',
  authors:
    'Vargas, K.E.; McPherson, E.G.; Simpson, J.R.; Peper, P.J.; Gardner, S.L.; Xiao, Q. (USDA Forest Service, Pacific Southwest Research Station)',
  year: 2007,
  url: 'https://www.fs.usda.gov/treesearch/pubs/29059',
  dataUrl: 'https://github.com/OpenTreeMap/otm-ecoservice/tree/master/data',
  climateZone: `Temperate Interior West (i-Tree code ${ITREE_REGION}; reference city Boise, Idaho, USA)`,
  note:
    'Per-tree values by species and trunk-diameter class, copied unchanged from the i-Tree Streets tables of the zone ' +
    '(files output__TpIntWBOI__co2_storage, __co2_sequestered, __hydro_interception). Species the tables lack use the ' +
    "zone's stand-in row for their tree type. Measured in Boise, not Uzbekistan: an estimate, not a measurement.",
  /** The source alone, a proper name in any language (the pages put their own words around it). */
  citation: 'i-Tree Streets, Temperate Interior West (Boise, USA); USDA Forest Service PSW-GTR-206, 2007',
  /** Short wording for the public pages. */
  label: 'Estimate after i-Tree Streets, Temperate Interior West (Boise, USA); USDA Forest Service PSW-GTR-206, 2007',
});
