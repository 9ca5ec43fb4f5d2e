/**
 * Per-tree benefit tables ("resource units") of i-Tree Streets (formerly STRATUM), climate zone
 * Temperate Interior West, i-Tree region code TpIntWBOI, reference city Boise, Idaho (USA).
 *
 * Research behind them: USDA Forest Service, Pacific Southwest Research Station, Center for Urban
 * Forest Research, Boise reference-city study — published as
 *   Vargas, K.E.; McPherson, E.G.; Simpson, J.R.; Peper, P.J.; Gardner, S.L.; Xiao, Q. 2007.
 *   Temperate Interior West Community Tree Guide: Benefits, Costs, and Strategic Planting.
 *   Gen. Tech. Rep. PSW-GTR-206. Albany, CA: USDA Forest Service, Pacific Southwest Research Station. 108 p.
 *   https://www.fs.usda.gov/treesearch/pubs/29059
 * and Peper, P.J. et al. 2007, City of Boise, Idaho, Municipal Forest Resource Analysis (CUFR technical report).
 *
 * Where the numbers were read (machine-readable copies of the i-Tree Streets sheets, kept by the
 * OpenTreeMap project for its eco-benefits service, Azavea):
 *   https://github.com/OpenTreeMap/otm-ecoservice — data/output__TpIntWBOI__co2_storage.csv
 *     ("CO2 Storage (kg/tree)", by "Midpoint of DBH class (cm)"),
 *   data/output__TpIntWBOI__co2_sequestered.csv (gross CO2 sequestered, kg/tree/year),
 *   data/output__TpIntWBOI__hydro_interception.csv ("H2O Interception per tree (m3)", per year),
 *   data/output__TpIntWBOI__species_codes.csv (code, scientific name, tree type, value assignment).
 * The values below are copied as published (kg with one decimal, m³ with two); nothing here is
 * derived or adjusted. Data of a US federal agency (USDA Forest Service).
 *
 * Columns: the nine i-Tree Streets DBH classes, whose midpoints are 3.81, 11.43, 22.86, 38.10,
 * 53.34, 68.58, 83.82, 99.06 and 114.30 cm (classes 0–3, 3–6, 6–12, 12–18, 18–24, 24–30, 30–36,
 * 36–42 and > 42 inches).
 *
 * Quirks of the source, kept as they are: several rows share one storage curve (GLTR, MA2, PYCA,
 * ILOP start alike); beyond the largest trees measured for a species the source holds storage
 * flat and gross sequestration at 0 (e.g. ACSA1 from class 4, ACPL from class 7).
 */

/** i-Tree tree type: Broadleaf Deciduous / Broadleaf Evergreen / Conifer Evergreen; Large, Medium, Small. */
export type ITreeType = 'BDL' | 'BDM' | 'BDS' | 'BES' | 'CEL' | 'CEM' | 'CES';

export interface ITreeRow {
  /** i-Tree species code */
  code: string;
  scientificName: string;
  commonName: string;
  type: ITreeType;
  /** CO2 stored, kg per tree, at each DBH class (9 values) */
  co2StorageKg: readonly number[];
  /** gross CO2 sequestered, kg per tree per year, at each DBH class */
  co2SequesteredKg: readonly number[];
  /** rainfall intercepted, m³ per tree per year, at each DBH class */
  rainInterceptionM3: readonly number[];
}

export const ITREE_REGION = 'TpIntWBOI';

/** Midpoints of the nine DBH classes, cm, as in the source's header row. */
export const ITREE_DBH_CLASS_MIDPOINTS_CM: readonly number[] = [3.81, 11.43, 22.86, 38.1, 53.34, 68.58, 83.82, 99.06, 114.3];

const row = (
  code: string,
  scientificName: string,
  commonName: string,
  type: ITreeType,
  co2StorageKg: number[],
  co2SequesteredKg: number[],
  rainInterceptionM3: number[],
): ITreeRow => ({ code, scientificName, commonName, type, co2StorageKg, co2SequesteredKg, rainInterceptionM3 });

/**
 * Every row of the TpIntWBOI sheets. The "… OTHER" rows are i-Tree's stand-ins for a species the
 * zone has no row for, by tree type; their values are those of the species named in the comment
 * (species_codes.csv, column SppValueAssignment).
 */
export const ITREE_TPINTWBOI_ROWS: readonly ITreeRow[] = [
  //   code         scientific name             common name            type   storage kg / sequestered kg·yr⁻¹ / interception m³·yr⁻¹ by class 1..9
  row(
    'ACPL',
    'Acer platanoides',
    'Norway maple',
    'BDM',
    [7.6, 99.1, 499.2, 1643.9, 3603.9, 6477.3, 6477.3, 6477.3, 6477.3],
    [8.8, 29.1, 71.7, 121.3, 145.2, 114.3, 0.0, 0.0, 0.0],
    [0.06, 0.61, 1.98, 4.12, 6.38, 8.67, 8.67, 8.67, 8.67],
  ),
  row(
    'ACSA1',
    'Acer saccharinum',
    'Silver maple',
    'BDL',
    [7.6, 99.1, 499.2, 1643.9, 3603.9, 6477.3, 10344.4, 15274.2, 21327.7],
    [7.8, 32.5, 74.9, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [0.52, 1.0, 1.97, 3.65, 5.69, 7.97, 10.43, 12.97, 15.51],
  ),
  row(
    'ACSA2',
    'Acer saccharum',
    'Sugar maple',
    'BDL',
    [7.6, 99.1, 499.2, 1643.9, 3603.9, 6477.3, 6477.3, 6477.3, 6477.3],
    [5.7, 26.6, 59.8, 100.8, 123.5, 104.6, 0.0, 0.0, 0.0],
    [0.04, 0.42, 1.29, 2.63, 4.01, 5.38, 5.38, 5.38, 5.38],
  ),
  row(
    'CASP',
    'Catalpa speciosa',
    'Northern catalpa',
    'BDL',
    [1.5, 26.8, 156.7, 559.9, 1282.6, 2371.5, 3864.2, 5793.0, 5793.0],
    [2.4, 13.7, 28.3, 44.3, 54.6, 61.4, 65.1, 66.9, 0.0],
    [0.27, 0.55, 1.13, 2.14, 3.35, 4.67, 6.07, 7.46, 7.46],
  ),
  row(
    'CR',
    'Crataegus sp.',
    'Hawthorn',
    'BDS',
    [4.5, 79.2, 486.2, 1851.2, 1851.2, 1851.2, 1851.2, 1851.2, 1851.2],
    [4.6, 21.3, 44.8, 66.7, 0.0, 0.0, 0.0, 0.0, 0.0],
    [0.13, 0.73, 1.7, 2.9, 2.9, 2.9, 2.9, 2.9, 2.9],
  ),
  row(
    'FRAM',
    'Fraxinus americana',
    'White ash',
    'BDL',
    [3.5, 42.0, 245.7, 972.7, 2449.3, 4880.9, 8417.6, 13149.9, 13149.9],
    [2.9, 14.1, 44.7, 94.5, 149.3, 201.6, 247.2, 283.6, 0.0],
    [0.09, 0.82, 2.45, 4.89, 7.36, 9.79, 12.17, 14.48, 14.48],
  ),
  row(
    'FRPE',
    'Fraxinus pennsylvanica',
    'Green ash',
    'BDL',
    [3.2, 40.7, 244.3, 972.0, 2431.9, 4786.1, 8117.9, 8117.9, 8117.9],
    [2.4, 11.9, 34.1, 64.8, 94.3, 115.6, 129.9, 0.0, 0.0],
    [0.06, 0.64, 2.04, 4.26, 6.59, 8.94, 11.27, 11.27, 11.27],
  ),
  row(
    'GLTR',
    'Gleditsia triacanthos',
    'Honeylocust',
    'BDL',
    [6.3, 80.6, 411.8, 1377.6, 3058.4, 5554.2, 8948.5, 8948.5, 8948.5],
    [2.5, 22.8, 49.6, 71.8, 85.1, 91.1, 93.0, 0.0, 0.0],
    [0.11, 1.08, 3.3, 6.67, 10.13, 13.59, 16.96, 16.96, 16.96],
  ),
  row(
    'ILOP',
    'Ilex opaca',
    'American holly',
    'BES',
    [6.3, 80.6, 411.8, 411.8, 411.8, 411.8, 411.8, 411.8, 411.8],
    [2.7, 12.4, 36.9, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [0.24, 0.73, 2.4, 2.4, 2.4, 2.4, 2.4, 2.4, 2.4],
  ),
  row(
    'JUNI',
    'Juglans nigra',
    'Black walnut',
    'BDL',
    [1.8, 47.1, 326.5, 1300.7, 3178.8, 6149.7, 10372.2, 15985.5, 15985.5],
    [0.9, 16.2, 50.2, 94.2, 130.6, 160.2, 183.8, 201.2, 0.0],
    [0.11, 0.87, 2.39, 4.51, 6.6, 8.59, 10.5, 12.34, 12.34],
  ),
  row(
    'LIST',
    'Liquidambar styraciflua',
    'Sweetgum',
    'BDL',
    [1.6, 33.0, 204.9, 769.3, 1822.4, 3456.5, 3456.5, 3456.5, 3456.5],
    [1.5, 12.3, 26.7, 42.3, 51.8, 57.1, 0.0, 0.0, 0.0],
    [0.05, 0.36, 1.3, 3.14, 5.37, 7.68, 7.68, 7.68, 7.68],
  ),
  row(
    'MA2',
    'Malus sp.',
    'Apple',
    'BDS',
    [6.3, 80.6, 411.8, 1377.6, 3058.4, 3058.4, 3058.4, 3058.4, 3058.4],
    [3.8, 19.4, 55.5, 100.8, 142.0, 0.0, 0.0, 0.0, 0.0],
    [0.03, 0.19, 0.5, 0.9, 1.29, 1.29, 1.29, 1.29, 1.29],
  ),
  row(
    'PIED',
    'Pinus edulis',
    'Pinyon pine',
    'CES',
    [1.0, 21.2, 131.9, 492.7, 492.7, 492.7, 492.7, 492.7, 492.7],
    [0.8, 4.0, 9.1, 5.8, 0.0, 0.0, 0.0, 0.0, 0.0],
    [0.08, 0.55, 1.67, 3.48, 3.48, 3.48, 3.48, 3.48, 3.48],
  ),
  row(
    'PIPU',
    'Picea pungens',
    'Blue spruce',
    'CEL',
    [1.2, 19.7, 127.1, 517.7, 1314.4, 2637.6, 2637.6, 2637.6, 2637.6],
    [1.3, 6.9, 18.1, 31.9, 42.5, 49.3, 0.0, 0.0, 0.0],
    [0.28, 1.54, 3.93, 7.45, 11.06, 14.84, 14.84, 14.84, 14.84],
  ),
  row(
    'PISY',
    'Pinus sylvestris',
    'Scotch pine',
    'CEM',
    [0.8, 20.1, 134.3, 524.0, 1266.3, 2432.0, 2432.0, 2432.0, 2432.0],
    [1.1, 7.4, 21.3, 41.4, 62.2, 79.7, 0.0, 0.0, 0.0],
    [0.14, 1.01, 3.53, 8.83, 15.89, 23.97, 23.97, 23.97, 23.97],
  ),
  row(
    'PLAC',
    'Platanus hybrida',
    'London planetree',
    'BDL',
    [2.2, 37.0, 229.3, 894.1, 2195.3, 4281.8, 7267.3, 7267.3, 7267.3],
    [5.9, 20.7, 47.0, 69.8, 78.6, 78.5, 73.7, 0.0, 0.0],
    [0.17, 1.36, 3.78, 7.2, 10.56, 13.78, 16.88, 16.88, 16.88],
  ),
  row(
    'PLOC',
    'Platanus occidentalis',
    'American sycamore',
    'BDL',
    [1.7, 36.9, 240.8, 940.0, 2287.9, 4430.9, 7497.2, 11602.0, 11602.0],
    [2.1, 17.4, 44.3, 81.7, 112.3, 135.5, 153.2, 166.6, 0.0],
    [0.05, 0.71, 2.54, 5.65, 9.1, 12.68, 16.33, 20.0, 20.0],
  ),
  row(
    'PYCA',
    'Pyrus calleryana',
    'Callery pear',
    'BDM',
    [6.3, 80.6, 411.8, 1377.6, 3058.4, 3058.4, 3058.4, 3058.4, 3058.4],
    [3.9, 20.3, 66.3, 151.0, 288.0, 0.0, 0.0, 0.0, 0.0],
    [0.04, 0.61, 2.21, 4.96, 8.01, 8.01, 8.01, 8.01, 8.01],
  ),
  row(
    'QURU',
    'Quercus rubra',
    'Northern red oak',
    'BDL',
    [5.7, 84.6, 464.8, 1630.6, 3727.6, 6912.2, 11317.7, 11317.7, 11317.7],
    [7.0, 32.5, 67.3, 103.6, 124.3, 136.2, 142.0, 0.0, 0.0],
    [0.08, 0.8, 2.47, 5.0, 7.59, 10.18, 12.72, 12.72, 12.72],
  ),
  row(
    'ROPS',
    'Robinia pseudoacacia',
    'Black locust',
    'BDL',
    [4.3, 69.5, 383.1, 1320.3, 2959.7, 5390.2, 8682.8, 12897.6, 18086.9],
    [4.5, 23.9, 63.8, 115.0, 155.4, 189.3, 217.0, 239.6, 258.5],
    [0.06, 0.24, 0.48, 0.73, 0.95, 1.13, 1.3, 1.44, 1.58],
  ),
  row(
    'TIAM',
    'Tilia americana',
    'American basswood',
    'BDL',
    [3.4, 55.6, 321.5, 1172.4, 2749.1, 5195.6, 5195.6, 5195.6, 5195.6],
    [4.3, 25.2, 43.2, 54.9, 56.3, 53.0, 0.0, 0.0, 0.0],
    [0.1, 0.54, 1.74, 4.07, 6.9, 9.91, 9.91, 9.91, 9.91],
  ),
  row(
    'ULPU',
    'Ulmus pumila',
    'Siberian elm',
    'BDL',
    [2.0, 33.5, 215.3, 865.4, 2164.1, 4269.5, 7296.0, 11313.7, 16345.2],
    [1.6, 15.7, 49.3, 100.8, 148.7, 193.0, 230.4, 260.7, 280.1],
    [0.4, 1.04, 2.42, 4.79, 7.41, 9.99, 12.24, 13.98, 15.05],
  ),
  // stand-ins by tree type (values of FRPE, ACPL, MA2, PIPU, PISY, PIED respectively)
  row(
    'BDL OTHER',
    'Broadleaf Deciduous Large Other',
    'BDL OTHER',
    'BDL',
    [3.2, 40.7, 244.3, 972.0, 2431.9, 4786.1, 8117.9, 8117.9, 8117.9],
    [2.4, 11.9, 34.1, 64.8, 94.3, 115.6, 129.9, 0.0, 0.0],
    [0.06, 0.64, 2.04, 4.26, 6.59, 8.94, 11.27, 11.27, 11.27],
  ),
  row(
    'BDM OTHER',
    'Broadleaf Deciduous Medium Other',
    'BDM OTHER',
    'BDM',
    [7.6, 99.1, 499.2, 1643.9, 3603.9, 6477.3, 6477.3, 6477.3, 6477.3],
    [8.8, 29.1, 71.7, 121.3, 145.2, 114.3, 0.0, 0.0, 0.0],
    [0.06, 0.61, 1.98, 4.12, 6.38, 8.67, 8.67, 8.67, 8.67],
  ),
  row(
    'BDS OTHER',
    'Broadleaf Deciduous Small Other',
    'BDS OTHER',
    'BDS',
    [6.3, 80.6, 411.8, 1377.6, 3058.4, 3058.4, 3058.4, 3058.4, 3058.4],
    [3.8, 19.4, 55.5, 100.8, 142.0, 0.0, 0.0, 0.0, 0.0],
    [0.03, 0.19, 0.5, 0.9, 1.29, 1.29, 1.29, 1.29, 1.29],
  ),
  row(
    'CEL OTHER',
    'Conifer Evergreen Large Other',
    'CEL OTHER',
    'CEL',
    [1.2, 19.7, 127.1, 517.7, 1314.4, 2637.6, 2637.6, 2637.6, 2637.6],
    [1.3, 6.9, 18.1, 31.9, 42.5, 49.3, 0.0, 0.0, 0.0],
    [0.28, 1.54, 3.93, 7.45, 11.06, 14.84, 14.84, 14.84, 14.84],
  ),
  row(
    'CEM OTHER',
    'Conifer Evergreen Medium Other',
    'CEM OTHER',
    'CEM',
    [0.8, 20.1, 134.3, 524.0, 1266.3, 2432.0, 2432.0, 2432.0, 2432.0],
    [1.1, 7.4, 21.3, 41.4, 62.2, 79.7, 0.0, 0.0, 0.0],
    [0.14, 1.01, 3.53, 8.83, 15.89, 23.97, 23.97, 23.97, 23.97],
  ),
  row(
    'CES OTHER',
    'Conifer Evergreen Small Other',
    'CES OTHER',
    'CES',
    [1.0, 21.2, 131.9, 492.7, 492.7, 492.7, 492.7, 492.7, 492.7],
    [0.8, 4.0, 9.1, 5.8, 0.0, 0.0, 0.0, 0.0, 0.0],
    [0.08, 0.55, 1.67, 3.48, 3.48, 3.48, 3.48, 3.48, 3.48],
  ),
];
