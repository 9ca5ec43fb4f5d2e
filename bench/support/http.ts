import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

/**
 * What the map benches share: the bench database's URL, the API in a process of its own
 * (bench/map/serve.ts), keep-alive GETs, the extent of a screen at a zoom, and a timed run of
 * concurrent requests with its p50 / p99 latency and response sizes.
 */
export function benchUrl(db: string): string {
  const u = new URL(process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  u.pathname = `/${db}`;
  return u.toString();
}

/** The API on a database, in a process of its own; resolves with its port once it listens. */
export function startServer(databaseUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../map/serve.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, port: JSON.parse(d.toString()).port }));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

export class Client {
  readonly agent: http.Agent;
  constructor(
    readonly port: number,
    readonly concurrency: number,
    readonly headers: Record<string, string> = {},
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: this.port, path, agent: this.agent, headers: { ...this.headers, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, bytes: body.length, body });
          });
        })
        .on('error', reject);
    });
  }

  destroy(): void {
    this.agent.destroy();
  }
}

/** The extent of a 1280 × 800 px screen at a zoom (Web Mercator, degrees near 41° N). */
export function viewport(zoom: number, lng: number, lat: number): string {
  const degPerPx = 360 / (256 * 2 ** zoom);
  const w = 1280 * degPerPx;
  const h = 800 * degPerPx * Math.cos((lat * Math.PI) / 180);
  return [lng - w / 2, lat - h / 2, lng + w / 2, lat + h / 2].map((n) => n.toFixed(6)).join(',');
}

export interface Measured {
  n: number;
  p50: number;
  p99: number;
  sizeP50: number;
  sizeMax: number;
}

const pct = (list: number[], p: number) => list[Math.min(list.length - 1, Math.floor(list.length * p))];

/** `seconds` of requests from `next()` over the client's connections, after 20 to warm up: latency and size percentiles. */
export async function measure(
  client: Client,
  seconds: number,
  next: () => string,
  what: string,
  headers: Record<string, string> = {},
): Promise<Measured> {
  for (let k = 0; k < 20; k++) await client.get(next(), headers);
  const latencies: number[] = [];
  const sizes: number[] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: client.concurrency }, async () => {
      while (Date.now() < end) {
        const path = next();
        const t = process.hrtime.bigint();
        const r = await client.get(path, headers);
        if (r.status !== 200) throw new Error(`${what}: ${r.status} ${path} ${r.body.toString().slice(0, 300)}`);
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        sizes.push(r.bytes);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  return {
    n: latencies.length,
    p50: pct(latencies, 0.5),
    p99: pct(latencies, 0.99),
    sizeP50: pct(sizes, 0.5),
    sizeMax: sizes[sizes.length - 1],
  };
}
