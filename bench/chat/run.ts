import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import knexFactory from 'knex';
import WebSocket from 'ws';
import { openDatabase } from '../../api/db/connection.ts';
import { loadMetadata } from '../../api/meta/load.ts';
import { migrate } from '../../api/db/migrator.ts';
import { seed } from '../../seeds/index.ts';
import { withDatabase } from '../../test/support/pg-url.ts';
import { createSession } from '../../api/auth/sessions.ts';

/**
 * bench/chat: BENCH_CLIENTS (500) chat visitors connected at once, each writing one message a second
 * for BENCH_SECONDS (60) over loopback, to BENCH_SERVERS (2) server processes sharing one PostgreSQL
 * database (the events fan out through LISTEN/NOTIFY). Each visitor has its own WebSocket and its own
 * keep-alive HTTP connection from an address of its own (127.0.x.y: the flood guard counts per
 * address, as it would for real visitors); one operator socket on the first server hears every
 * message. Measured: message sent (POST starts) → the operator's socket receives it (delivery), and
 * → the visitor's own socket receives its echo; the POST's own time; how many were refused or lost.
 */
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'chat_bench';
const CLIENTS = Number(process.env.BENCH_CLIENTS || 500);
const SECONDS = Number(process.env.BENCH_SECONDS || 60);
const SERVERS = Number(process.env.BENCH_SERVERS || 2);

const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
await admin.raw(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await admin.raw(`CREATE DATABASE ${DB}`);
await admin.destroy();
const dbUrl = withDatabase(url, DB);
const db = openDatabase({ url: dbUrl, poolMax: 4 });
const model = loadMetadata();
await migrate(db.knex, model);
await seed(db.knex, model, { adminPassword: 'bench-password' });
// each visitor writes SECONDS messages from its own address in the window; the guard stays on
await db
  .knex('app_configs')
  .insert({ key: 'chat.messages_per_window', value: String(SECONDS + 20) })
  .onConflict('key')
  .merge(['value']);
const [role] = await db.knex('roles').where({ code: 'headquarters' }).pluck('id');
const [op] = await db.knex('users').insert({ username: 'bench_operator', password: 'x', fio: 'Bench operator' }).returning('id');
await db.knex('user_roles').insert({ user_id: op.id, role_id: role });
const session = await createSession(db.knex, op.id, {});

const servers: { proc: ChildProcess; port: number }[] = [];
for (let i = 0; i < SERVERS; i++) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/chat/serve.ts'], {
    env: { ...process.env, BENCH_URL: dbUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) =>
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    }),
  );
  servers.push({ proc, port });
}
const stop = () => {
  for (const s of servers) s.proc.kill('SIGTERM');
};
process.on('exit', stop);

const addressOf = (i: number) => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
function post(
  port: number,
  agent: http.Agent,
  localAddress: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        localAddress,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), Language: 'uz', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
function socket(port: number, hello: Record<string, unknown>, localAddress?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/chat/socket`, { localAddress });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', ...hello })));
    ws.once('message', (d) => (JSON.parse(String(d)).type === 'ready' ? resolve(ws) : reject(new Error(String(d)))));
    ws.on('error', reject);
  });
}

const sentAt = new Map<string, number>();
/** when the POST was answered (the write committed), and when the operator's socket had the message */
const answeredAt = new Map<string, number>();
const heardAt = new Map<string, number>();
const delivery: number[] = [];
const echo: number[] = [];
const postMs: number[] = [];
let refused = 0;
let failed = 0;
const operator = await socket(servers[0].port, { session });
operator.on('message', (d) => {
  const e = JSON.parse(String(d));
  if (e.type !== 'message') return;
  const t = sentAt.get(e.body);
  if (t !== undefined) {
    delivery.push(performance.now() - t);
    heardAt.set(e.body, performance.now());
  }
});

// the visitors: a chat each, a socket each, a keep-alive connection each, spread over the servers
const t0 = performance.now();
const visitors = await Promise.all(
  Array.from({ length: CLIENTS }, async (_, i) => {
    const { port } = servers[i % SERVERS];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const localAddress = addressOf(i);
    const chat = await post(port, agent, localAddress, '/api/public/chats', { name: `Bench ${i}` });
    if (chat.status !== 201) throw new Error(`open: ${chat.status} ${JSON.stringify(chat.body)}`);
    const ws = await socket(port, { chat: chat.body.id, token: chat.body.token }, localAddress);
    ws.on('message', (d) => {
      const e = JSON.parse(String(d));
      const t = e.type === 'message' ? sentAt.get(e.body) : undefined;
      if (t !== undefined) echo.push(performance.now() - t);
    });
    return { port, agent, localAddress, id: chat.body.id as number, token: chat.body.token as string, ws };
  }),
);
console.log(
  `${CLIENTS} chats opened and sockets connected in ${((performance.now() - t0) / 1000).toFixed(1)} s over ${SERVERS} server process(es)`,
);

const start = performance.now();
let sent = 0;
await Promise.all(
  visitors.map(async (v, i) => {
    await new Promise((r) => setTimeout(r, (i / CLIENTS) * 1000));
    for (let s = 0; s < SECONDS; s++) {
      const due = start + (i / CLIENTS) * 1000 + s * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const body = `m ${i} ${s}`;
      const at = performance.now();
      sentAt.set(body, at);
      sent++;
      try {
        const r = await post(v.port, v.agent, v.localAddress, `/api/public/chats/${v.id}/messages`, { body }, { 'X-Chat-Token': v.token });
        postMs.push(performance.now() - at);
        answeredAt.set(body, performance.now());
        if (r.status === 429) refused++;
        else if (r.status !== 201) failed++;
      } catch {
        failed++;
      }
    }
  }),
);
await new Promise((r) => setTimeout(r, 3000));
const elapsed = (performance.now() - start) / 1000;

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1) : '—');
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms (${s.length})`;
}
const stored = Number((await db.knex('messages').count('* as n').first())!.n);
console.log(
  `sent ${sent} messages in ${elapsed.toFixed(1)} s (${(sent / elapsed).toFixed(0)}/s); refused ${refused}, failed ${failed}; stored ${stored - 0}`,
);
console.log(`delivery to the operator's socket: ${stats(delivery)}; lost ${sent - refused - failed - delivery.length}`);
console.log(`echo to the visitor's own socket:  ${stats(echo)}`);
console.log(`POST …/messages answered:           ${stats(postMs)}`);
// the fan-out's own share: the operator's socket had the message this long after (negative: before) its POST was answered
const fanout = [...heardAt].flatMap(([body, t]) => (answeredAt.has(body) ? [t - answeredAt.get(body)!] : []));
console.log(`socket minus POST answer:           ${stats(fanout)}`);
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, Node ${process.version}`,
);
operator.close();
for (const v of visitors) {
  v.ws.close();
  v.agent.destroy();
}
stop();
await db.close();
process.exit(0);
