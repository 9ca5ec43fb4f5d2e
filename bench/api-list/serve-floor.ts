import http from 'node:http';
import pg from 'pg';
import { benchUrl } from './setup.ts';

/**
 * The floor: node:http + pg running the same SQL the generic API runs for the bench's list call
 * (a page of rows, a count capped at 10 001, the planner's estimate beyond it; for `?id=…`, a by-id
 * read, the rows alone), with no framework, no authentication and no permission checks.
 */
pg.types.setTypeParser(1082, (v: string) => v);
pg.types.setTypeParser(20, (v: string) => Number(v));
const pool = new pg.Pool({ connectionString: benchUrl(), max: 10 });
const LIMIT = 10000;
const COLS = 't.id, t.payer, t.amount, t.paid_on, t.region_id, t.income_code, t.version, t.created_at, t.updated_at, t.created_by, t.updated_by';

const server = http.createServer(async (req, res) => {
  try {
    const u = new URL(req.url ?? '/', 'http://x');
    const where: string[] = [];
    const args: unknown[] = [];
    const from = u.searchParams.get('from_paid_on');
    const to = u.searchParams.get('to_paid_on');
    const region = u.searchParams.get('region');
    if (region) { args.push(Number(region)); where.push(`t.region_id = $${args.length}`); }
    if (from) { args.push(from); where.push(`t.paid_on >= $${args.length}`); }
    if (to) { args.push(to); where.push(`t.paid_on <= $${args.length}`); }
    const ids = u.searchParams.get('id');
    if (ids) {
      // a by-id read (react-admin's getMany): the rows only, their count is the ids'
      args.push(ids.split(',').map(Number));
      where.push(`t.id = any($${args.length})`);
    }
    const w = where.length ? `where ${where.join(' and ')}` : '';
    if (ids) {
      const rows = await pool.query(`select ${COLS} from bench_payments as t ${w} order by t.paid_on desc, t.id desc limit 25`, args);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Range': `bench-payments 0-${rows.rows.length - 1}/${rows.rows.length}` });
      res.end(JSON.stringify(rows.rows));
      return;
    }
    const [rows, count] = await Promise.all([
      pool.query(`select ${COLS} from bench_payments as t ${w} order by t.paid_on desc, t.id desc limit 25`, args),
      pool.query(`select count(*)::int as n from (select 1 from bench_payments as t ${w} limit ${LIMIT + 1}) as c`, args),
    ]);
    let total = count.rows[0].n as number;
    if (total > LIMIT) {
      const plan = await pool.query(`explain (format json) select 1 from bench_payments as t ${w}`, args);
      total = Math.max(Math.round(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']), LIMIT + 1);
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Range': `bench-payments 0-${rows.rows.length - 1}/${total}` });
    res.end(JSON.stringify(rows.rows));
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : 0 }));
});
