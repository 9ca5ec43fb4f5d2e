import { createApp } from '../../api/app.ts';
import { openDatabase } from '../../api/db/connection.ts';
import { LiveModel } from '../../api/meta/live.ts';
import { benchModel, benchUrl, serveUrl } from './setup.ts';

/** The generic API on the bench database (its pool through BENCH_SERVE_URL when set, its LISTEN direct), in a process of its own, listening as a server does (its session cache told of changes); prints its port. */
const db = openDatabase({ url: serveUrl(), poolMax: 10 });
const model = benchModel();
const live = new LiveModel(model, db.knex);
await live.listen(benchUrl());
const app = createApp({ knex: db.knex, model, live });
const server = app.listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : 0 }));
});

// ended by the bench (SIGTERM): exit normally, so that a CPU profile (BENCH_PROF) is written
process.on('SIGTERM', () => process.exit(0));
