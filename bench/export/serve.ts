import { createApp } from '../../api/app.ts';
import { openDatabase } from '../../api/db/connection.ts';
import { benchModel, benchUrl } from './setup.ts';

/** The generic API on the bench database, in a process of its own (its peak RSS is the export's); prints its port. */
const db = openDatabase({ url: benchUrl(), poolMax: 4 });
const app = createApp({ knex: db.knex, model: benchModel() });
const server = app.listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : 0, pid: process.pid }));
});
