import { createApp } from '../../api/app.ts';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';

/** The API on the bench database, in a process of its own; prints its port. */
const db = openDatabase({ url: process.env.DATABASE_URL, poolMax: 10 });
const app = createApp({ knex: db.knex, model: loadMetadata() });
const server = app.listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : 0 }));
});
