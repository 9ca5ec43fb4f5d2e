import http from 'node:http';
import pg from 'pg';
import { serveUrl } from './setup.ts';

/**
 * The floor: node:http + pg running the same SQL the generic API runs for the bench's list call
 * (a page of rows and its total; for `?id=…`, a by-id read, the rows alone), with no framework, no
 * authentication and no permission checks. The total as the generic list finds it
 * (api/engine/repository/read.ts `cappedCount`): on a table the statistics say holds more than ten times
 * the cap, the planner's estimate first, the answer when it is past the cap; else a count capped at
 * 10 001, the estimate beyond it.
 */
pg.types.setTypeParser(1082, (v: string) => v);
pg.types.setTypeParser(20, (v: string) => Number(v));
const pool = new pg.Pool({ connectionString: serveUrl(), max: 10 });
const LIMIT = 10000;
const COLS =
  't.id, t.payer, t.amount, t.paid_on, t.region_id, t.income_code, t.version, t.created_at, t.updated_at, t.created_by, t.updated_by';

/** The table's rows by its statistics, kept a minute (as api/db/table-rows.ts does). */
let kept = { rows: 0, at: 0 };
async function tableRows(): Promise<number> {
  if (Date.now() - kept.at < 60_000) return kept.rows;
  const r = await pool.query(`select greatest(reltuples, 0)::float8 as n from pg_class where oid = 'bench_payments'::regclass`);
  kept = { rows: Number(r.rows[0].n), at: Date.now() };
  return kept.rows;
}

const server = http.createServer(async (req, res) => {
  try {
    const u = new URL(req.url ?? '/', 'http://x');
    const where: string[] = [];
    const args: unknown[] = [];
    const from = u.searchParams.get('from_paid_on');
    const to = u.searchParams.get('to_paid_on');
    const region = u.searchParams.get('region');
    if (region) {
      args.push(Number(region));
      where.push(`t.region_id = $${args.length}`);
    }
    if (from) {
      args.push(from);
      where.push(`t.paid_on >= $${args.length}`);
    }
    if (to) {
      args.push(to);
      where.push(`t.paid_on <= $${args.length}`);
    }
    const ids = u.searchParams.get('id');
    if (ids) {
      // a by-id read (react-admin's getMany): the rows only, their count is the ids'
      args.push(ids.split(',').map(Number));
      where.push(`t.id = any($${args.length})`);
    }
    const w = where.length ? `where ${where.join(' and ')}` : '';
    if (ids) {
      const rows = await pool.query(`select ${COLS} from bench_payments as t ${w} order by t.paid_on desc, t.id desc limit 25`, args);
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Range': `bench-payments 0-${rows.rows.length - 1}/${rows.rows.length}`,
      });
      res.end(JSON.stringify(rows.rows));
      return;
    }
    const planned = async () =>
      Math.round(
        (await pool.query(`explain (format json) select 1 from bench_payments as t ${w}`, args)).rows[0]['QUERY PLAN'][0].Plan[
          'Plan Rows'
        ] as number,
      );
    const counted = async () => {
      const estimate = (await tableRows()) > 10 * LIMIT ? await planned() : undefined;
      if (estimate !== undefined && estimate > LIMIT) return estimate;
      const n = (await pool.query(`select count(*)::int as n from (select 1 from bench_payments as t ${w} limit ${LIMIT + 1}) as c`, args))
        .rows[0].n as number;
      return n <= LIMIT ? n : Math.max(estimate ?? (await planned()), LIMIT + 1);
    };
    const [rows, total] = await Promise.all([
      pool.query(`select ${COLS} from bench_payments as t ${w} order by t.paid_on desc, t.id desc limit 25`, args),
      counted(),
    ]);
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

// ended by the bench (SIGTERM): exit normally, so that a CPU profile (BENCH_PROF) is written
process.on('SIGTERM', () => process.exit(0));
