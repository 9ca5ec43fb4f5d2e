import type { Server } from 'node:http';
import { createApp } from '../../api/app.ts';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { attachChat } from '../../api/modules/chat/hub.ts';

/** One server process of bench/chat: the app and the chat's socket on a database named by BENCH_URL; prints its port. */
const db = openDatabase({ url: process.env.BENCH_URL!, poolMax: Number(process.env.BENCH_POOL || 10) });
const model = loadMetadata();
const app = createApp({ knex: db.knex, model });
const server = await new Promise<Server>((r) => {
  const s = app.listen(0, '127.0.0.1', () => r(s));
});
server.keepAliveTimeout = 65_000;
server.maxConnections = 5000;
const hub = await attachChat(server, db, model);
const port = (server.address() as { port: number }).port;
process.stdout.write(`PORT ${port}\n`);
setInterval(() => process.stdout.write(`SOCKETS ${JSON.stringify(hub.counts)}\n`), 10_000).unref();
process.on('SIGTERM', async () => {
  await hub.close();
  server.close();
  await db.close();
  process.exit(0);
});
