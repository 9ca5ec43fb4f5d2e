import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { resolveReportParams } from '../../api/reports/params.ts';
import { benchUrl } from '../support/http.ts';

/**
 * The plan of one report's query as runReport sends it, with the parameters of a query string:
 *   node --import tsx bench/fund-reports/explain.ts fundbench_data pkm290 'year=2025&region_id=1' [analyze]
 */
const [database, name, qs = '', analyze] = process.argv.slice(2);
const db = openDatabase({ url: benchUrl(database), poolMax: 1 });
const model = loadMetadata(process.env.BENCH_META || undefined);
const r = model.reports.get(name);
if (!r) throw new Error(`no report ${name}`);
const { params, errors } = resolveReportParams(r, Object.fromEntries(new URLSearchParams(qs)), null);
if (errors) throw new Error(JSON.stringify(errors));
await db.knex.raw('SET jit = off');
const res = await db.knex.raw(`EXPLAIN (${analyze ? 'ANALYZE, BUFFERS, ' : ''}COSTS OFF) SELECT * FROM (${r.query}) AS report LIMIT 5001`, {
  ...params,
  lang: 'uz',
  today: new Date().toISOString().slice(0, 10),
  current_year: new Date().getFullYear(),
});
console.log(res.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n'));
await db.close();
