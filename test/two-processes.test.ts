import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Database } from '../api/db/connection.ts';
import { createUser } from '../cli/create-user.ts';
import { testDatabase } from './support/db.ts';
import { freePort } from './support/ports.ts';
import { TEST_ADMIN_PASSWORD } from './support/template.ts';
import { needsPostgres, skipBecause } from './support/skip.ts';

/**
 * Two API processes (`node cli/bin.mjs serve`) on one fresh PostgreSQL database behind one port — a
 * round-robin TCP proxy giving each new connection to the next process — hold one state between
 * them (docs/sessions.md): a session made through one works through the other and its sign-out
 * ends it in both, a sign-in lockout counted through both holds in both, and the public forms'
 * flood guard counts the attempts made through both.
 */
const noServer = needsPostgres('two processes need one; embedded PGlite is a single process');

const CLI = fileURLToPath(new URL('../cli/bin.mjs', import.meta.url));
const PER_HOUR = 4;

/** `ecofond serve` on a port, resolved once it says it listens. */
function serve(port: number, databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      ECOFOND_NOTIFY_WORKER: 'off',
      ECOFOND_PUBLIC_FORM_PER_HOUR: String(PER_HOUR),
      ECOFOND_TRUST_PROXY: '',
      // the start-up line it waits for is in the JSON log, which is silent under the tests unless asked
      ECOFOND_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const seen = (d: Buffer) => {
      out += d.toString();
      if (out.includes('is listening on')) resolve(child);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) => reject(new Error(`serve on ${port} exited ${code}: ${out.slice(-2000)}`)));
  });
}

/** The proxy: each connection to the next process in turn; `served` records which took each. */
function roundRobin(ports: number[]): Promise<{ server: net.Server; port: number; served: number[] }> {
  const served: number[] = [];
  let next = 0;
  const server = net.createServer((client) => {
    const i = next++ % ports.length;
    served.push(i);
    const upstream = net.connect(ports[i], '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as net.AddressInfo).port, served })),
  );
}

/** One request on a connection of its own (so the proxy hands it to the next process). */
function call(
  port: number,
  method: string,
  path: string,
  o: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const body = o.body === undefined ? undefined : JSON.stringify(o.body);
  const headers: Record<string, string> = { Language: 'uz', Connection: 'close' };
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  if (body) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let data = '';
      res.on('data', (c) => {
        data += c;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: data.startsWith('{') || data.startsWith('[') ? JSON.parse(data) : data }),
      );
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

describe('two API processes behind one port share sessions, sign-in lockout and rate limits', skipBecause(noServer), () => {
  let db: Database;
  const children: ChildProcess[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobin>>;
  const via = (method: string, path: string, o?: { token?: string; body?: unknown }) => call(proxy.port, method, path, o);

  beforeAll(async () => {
    db = await testDatabase();
    const ports = [await freePort(), await freePort()];
    children.push(...(await Promise.all(ports.map((p) => serve(p, db.url!)))));
    proxy = await roundRobin(ports);
  }, 180_000);

  afterAll(async () => {
    await new Promise<void>((r) => (proxy ? proxy.server.close(() => r()) : r()));
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((r) => {
            if (c.exitCode !== null) {
              r();
              return;
            }
            c.once('exit', () => r());
            c.kill('SIGTERM');
            setTimeout(() => {
              c.kill('SIGKILL');
              r();
            }, 10_000).unref();
          }),
      ),
    );
    await db?.close();
  }, 60_000);

  it('a session made through one process works through the other; its sign-out ends it in both', async () => {
    const start = proxy.served.length;
    const login = await via('POST', '/api/admin/auth/login', { body: { username: 'admin', password: TEST_ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    // each process serves the session (the second and third requests are the other process's, then the first's)
    expect((await via('GET', '/api/ecofund-sprav/regions', { token })).status).toBe(200);
    expect((await via('GET', '/api/ecofund-sprav/regions', { token })).status).toBe(200);
    expect(proxy.served.slice(start)).toEqual([start % 2, (start + 1) % 2, start % 2]);
    // signed out through one: the other (which has the session cached) refuses it once the NOTIFY reaches it
    expect((await via('POST', '/api/admin/auth/logout', { token })).status).toBe(200);
    const after: number[] = [];
    for (let i = 0; i < 2; i++) after.push((await via('GET', '/api/ecofund-sprav/regions', { token })).status);
    expect(after).toEqual([401, 401]);
  });

  it('a sign-in lockout counted through both processes holds in both', async () => {
    await createUser(db.knex, { username: 'two_proc', password: 'right-pw', roles: [] });
    // five wrong passwords, alternately through each process
    for (let i = 0; i < 5; i++)
      expect((await via('POST', '/api/admin/auth/login', { body: { username: 'two_proc', password: 'wrong-pw' } })).status).toBe(401);
    // the right password now, through each of the two: locked in both
    for (let i = 0; i < 2; i++) {
      const r = await via('POST', '/api/admin/auth/login', { body: { username: 'two_proc', password: 'right-pw' } });
      expect(r.status).toBe(429);
      expect(r.body.code).toBe(-112);
    }
  }, 60_000);

  it("the public forms' flood guard counts the attempts made through both processes", async () => {
    const statuses: number[] = [];
    // an empty suggestion is refused by its validation, but counted first, as a flood's would be
    for (let i = 0; i < PER_HOUR + 2; i++) statuses.push((await via('POST', '/api/public/suggestions', { body: {} })).status);
    // a limit kept in each process's memory would have let 2 × PER_HOUR through
    expect(statuses).toEqual([...Array(PER_HOUR).fill(400), 429, 429]);
  });
});
