#!/usr/bin/env node
// Checks the seed reference data in this folder: areas.json, banks-mfo.json,
// min-oklads.json. Plain Node ESM, no dependencies, reads nothing outside
// this folder. Run: node seeds/data/check-data.mjs  (exit code 1 on failure)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// SOATO codes of Uzbekistan's 14 first-level units (Republic of
// Karakalpakstan, 12 regions, Tashkent city), embedded on purpose.
const REGION_SOATO = new Map([
  ['1735', 'Qoraqalpogʻiston Respublikasi'],
  ['1703', 'Andijon viloyati'],
  ['1706', 'Buxoro viloyati'],
  ['1708', 'Jizzax viloyati'],
  ['1710', 'Qashqadaryo viloyati'],
  ['1712', 'Navoiy viloyati'],
  ['1714', 'Namangan viloyati'],
  ['1718', 'Samarqand viloyati'],
  ['1722', 'Surxondaryo viloyati'],
  ['1724', 'Sirdaryo viloyati'],
  ['1726', 'Toshkent shahri'],
  ['1727', 'Toshkent viloyati'],
  ['1730', 'Fargʻona viloyati'],
  ['1733', 'Xorazm viloyati'],
]);

const OKINA = '\u02BB'; // ʻ  modifier letter turned comma: oʻ, gʻ
const TUTUQ = '\u02BC'; // ʼ  modifier letter apostrophe: tutuq belgisi
// Stand-ins typed instead of ʻ / ʼ: ' ’ ‘ ` ´
const WRONG_APOSTROPHES = /['\u2019\u2018`\u00B4]/u;
const LATIN = /[A-Za-z]/;
const CYRILLIC = /[\u0400-\u04FF]/u;
const UZBEK_ONLY_CYRILLIC = /[ЎўҚқҒғҲҳ]/u;

let passed = 0;
const failures = [];
function check(ok, message) {
  if (ok) passed += 1;
  else failures.push(message);
}

function load(name) {
  const text = readFileSync(join(here, name), 'utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    failures.push(`${name}: not valid JSON (${err.message})`);
    return undefined;
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isText = (v) => typeof v === 'string' && v.trim() !== '' && v === v.trim();

function checkUzLatin(where, s) {
  check(
    !WRONG_APOSTROPHES.test(s),
    `${where}: uz "${s}" has a plain/typographic apostrophe; use ʻ (U+02BB) in oʻ/gʻ, ʼ (U+02BC) for the tutuq belgisi`,
  );
  check(!CYRILLIC.test(s), `${where}: uz "${s}" has Cyrillic letters`);
  for (let i = 0; i < s.length; i += 1) {
    const prev = (s[i - 1] ?? '').toLowerCase();
    if (s[i] === OKINA) check(prev === 'o' || prev === 'g', `${where}: uz "${s}" has ʻ not after o/g`);
    if (s[i] === TUTUQ) check(prev !== 'o' && prev !== 'g', `${where}: uz "${s}" has ʼ after o/g where ʻ belongs`);
  }
}

function checkUk(where, s) {
  check(!LATIN.test(s), `${where}: uk "${s}" has Latin letters`);
  check(CYRILLIC.test(s), `${where}: uk "${s}" has no Cyrillic letters`);
}

function checkRu(where, s) {
  check(!LATIN.test(s), `${where}: ru "${s}" has Latin letters`);
  check(CYRILLIC.test(s), `${where}: ru "${s}" has no Cyrillic letters`);
  check(!UZBEK_ONLY_CYRILLIC.test(s), `${where}: ru "${s}" has Uzbek-only letters (Ў Қ Ғ Ҳ)`);
}

function checkNames(where, row) {
  for (const key of ['uz', 'uk', 'ru']) check(isText(row[key]), `${where}: ${key} must be a non-empty trimmed string`);
  if (isText(row.uz)) checkUzLatin(where, row.uz);
  if (isText(row.uk)) checkUk(where, row.uk);
  if (isText(row.ru)) checkRu(where, row.ru);
}

// ---- areas.json ----------------------------------------------------------
const perRegion = new Map([...REGION_SOATO.keys()].map((k) => [k, 0]));
const areas = load('areas.json');
if (areas !== undefined) {
  check(isObject(areas), 'areas.json: top level must be an object');
  check(isText(areas?.about), 'areas.json: "about" must be a non-empty string');
  check(Array.isArray(areas?.uncertain_soato), 'areas.json: "uncertain_soato" must be an array');
  check(Array.isArray(areas?.areas) && areas.areas.length > 0, 'areas.json: "areas" must be a non-empty array');
  const seen = new Set();
  const seenNames = new Set();
  for (const [i, row] of (Array.isArray(areas?.areas) ? areas.areas : []).entries()) {
    const where = `areas.json areas[${i}]${isObject(row) && row.soato ? ` (${row.soato})` : ''}`;
    if (!isObject(row)) {
      check(false, `${where}: must be an object`);
      continue;
    }
    const keys = Object.keys(row).sort().join(',');
    check(keys === 'region_soato,ru,soato,uk,uz', `${where}: keys must be region_soato, soato, uz, uk, ru (got ${keys})`);
    check(REGION_SOATO.has(row.region_soato), `${where}: region_soato "${row.region_soato}" is not one of the 14 first-level codes`);
    check(typeof row.soato === 'string' && /^\d{7}$/.test(row.soato), `${where}: soato must be 7 digits`);
    check(
      typeof row.soato === 'string' && row.soato.startsWith(String(row.region_soato)),
      `${where}: soato must start with its region_soato`,
    );
    check(!seen.has(row.soato), `${where}: duplicate soato ${row.soato}`);
    seen.add(row.soato);
    const nameKey = `${row.region_soato}|${row.uz}`;
    check(!seenNames.has(nameKey), `${where}: duplicate name "${row.uz}" in region ${row.region_soato}`);
    seenNames.add(nameKey);
    checkNames(where, row);
    if (perRegion.has(row.region_soato)) perRegion.set(row.region_soato, perRegion.get(row.region_soato) + 1);
  }
  for (const [code, count] of perRegion) check(count > 0, `areas.json: region ${code} has no areas`);
  for (const code of Array.isArray(areas?.uncertain_soato) ? areas.uncertain_soato : []) {
    check(seen.has(code), `areas.json: uncertain_soato "${code}" is not an area's soato`);
  }
}

// ---- banks-mfo.json ------------------------------------------------------
const banks = load('banks-mfo.json');
if (banks !== undefined) {
  check(isObject(banks), 'banks-mfo.json: top level must be an object');
  check(isText(banks?.about), 'banks-mfo.json: "about" must be a non-empty string');
  check(Array.isArray(banks?.banks) && banks.banks.length > 0, 'banks-mfo.json: "banks" must be a non-empty array');
  const seen = new Set();
  for (const [i, row] of (Array.isArray(banks?.banks) ? banks.banks : []).entries()) {
    const where = `banks-mfo.json banks[${i}]${isObject(row) && row.mfo ? ` (${row.mfo})` : ''}`;
    if (!isObject(row)) {
      check(false, `${where}: must be an object`);
      continue;
    }
    const keys = Object.keys(row).sort().join(',');
    check(keys === 'mfo,ru,uk,uz', `${where}: keys must be mfo, uz, uk, ru (got ${keys})`);
    check(typeof row.mfo === 'string' && /^\d{5}$/.test(row.mfo), `${where}: mfo must be exactly 5 digits`);
    check(!seen.has(row.mfo), `${where}: duplicate mfo ${row.mfo}`);
    seen.add(row.mfo);
    checkNames(where, row);
  }
}

// ---- min-oklads.json -----------------------------------------------------
const oklads = load('min-oklads.json');
if (oklads !== undefined) {
  check(isObject(oklads), 'min-oklads.json: top level must be an object');
  check(isText(oklads?.about), 'min-oklads.json: "about" must be a non-empty string');
  check(Array.isArray(oklads?.rows) && oklads.rows.length > 0, 'min-oklads.json: "rows" must be a non-empty array');
  let prevDate = '';
  let prevAmount = -Infinity;
  for (const [i, row] of (Array.isArray(oklads?.rows) ? oklads.rows : []).entries()) {
    const where = `min-oklads.json rows[${i}]${isObject(row) && row.start_date ? ` (${row.start_date})` : ''}`;
    if (!isObject(row)) {
      check(false, `${where}: must be an object`);
      continue;
    }
    const keys = Object.keys(row).sort().join(',');
    check(keys === 'amount,decree,start_date', `${where}: keys must be start_date, amount, decree (got ${keys})`);
    const date = row.start_date;
    const validDate =
      typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date;
    check(validDate, `${where}: start_date must be a real YYYY-MM-DD date`);
    check(validDate && date > prevDate, `${where}: dates must be strictly ascending (after ${prevDate || 'nothing'})`);
    if (validDate) prevDate = date;
    const amountOk = typeof row.amount === 'string' && /^[1-9]\d*\.\d{2}$/.test(row.amount);
    check(amountOk, `${where}: amount must be a positive so'm amount as a string with 2 decimals`);
    if (amountOk) {
      check(Number(row.amount) >= prevAmount, `${where}: amount ${row.amount} is lower than the previous row`);
      prevAmount = Number(row.amount);
    }
    check(typeof row.decree === 'string' && row.decree === row.decree.trim(), `${where}: decree must be a string (empty if unknown)`);
  }
}

// ---- report --------------------------------------------------------------
if (areas !== undefined && Array.isArray(areas?.areas)) {
  console.log(`areas.json: ${areas.areas.length} rows`);
  for (const [code, count] of perRegion) console.log(`  ${code} ${REGION_SOATO.get(code).padEnd(30)} ${count}`);
  console.log(`  uncertain_soato: ${JSON.stringify(areas.uncertain_soato ?? [])}`);
}
if (banks !== undefined && Array.isArray(banks?.banks)) console.log(`banks-mfo.json: ${banks.banks.length} rows`);
if (oklads !== undefined && Array.isArray(oklads?.rows)) console.log(`min-oklads.json: ${oklads.rows.length} rows`);
for (const f of failures) console.error(`FAIL ${f}`);
console.log(`check-data: ${passed} passed, ${failures.length} failed`);
process.exitCode = failures.length === 0 ? 0 : 1;
