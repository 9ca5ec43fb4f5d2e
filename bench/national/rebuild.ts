import os from 'node:os';
import pg from 'pg';
import { benchUrl } from '../support/http.ts';
import { checkAggregates, rebuildPlantingAggregates } from './aggregates.ts';

/**
 * Builds the plantings' aggregates of the national database afresh (rebuildPlantingAggregates),
 * analyzes them, checks every aggregate against its base table and, when all agree, marks the run
 * finished in `bench_national`. For a database whose plantings were loaded with their aggregate
 * triggers off (an older generate.ts, or one stopped after the load), or after a change to the
 * triggers' definitions. `npm run bench:national -- ` is not needed: `node --import tsx bench/national/rebuild.ts`.
 */
const DB = process.env.NATIONAL_DB || 'ecofond_national';
const client = new pg.Client({ connectionString: benchUrl(DB) });
await client.connect();
const q = async (sql: string) => (await client.query(sql)).rows;
const t0 = Date.now();
await q(`set work_mem = '256MB'`);
await rebuildPlantingAggregates(q);
const built = (Date.now() - t0) / 1000;
console.log(
  `planting aggregates built set-wise over the whole table in ${built.toFixed(1)} s (load ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ')})`,
);
await q('vacuum analyze planting_cells, planting_stats, planting_facts, planting_year_facts');
const failed = await checkAggregates(q, console.log);
if (failed) throw new Error(`${failed} aggregate check(s) failed`);
await client.query(`update bench_national set finished_at = now(), steps = coalesce(steps, '[]'::jsonb) || $1::jsonb`, [
  JSON.stringify([{ step: 'planting aggregates (rebuild.ts)', s: built }]),
]);
console.log(`${DB}: aggregates agree with the rows; marked finished`);
await client.end();
