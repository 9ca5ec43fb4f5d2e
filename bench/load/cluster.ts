import cluster from 'node:cluster';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServer } from '../../api/server.ts';

/**
 * The API as production runs it, `BENCH_PROCESSES` times behind one port: a Node cluster whose
 * workers each run `startServer` (what `ecofond serve` runs: the session cache and its LISTEN, the
 * chat hub, the notification and job workers) on DATABASE_URL, PORT. The primary hands each new
 * connection to the next worker (round-robin, Node's default on Linux) and then stays out of the
 * way — the kernel passes the socket, no byte goes through it. Prints
 * `{"port":…,"primary":pid,"workers":[pid…]}` once every worker listens. A worker given SIGUSR2
 * prints its event loop's delays since the last one (`event-loop {"pid","p50","p99","max"}`, ms).
 */
const N = Math.max(1, Number(process.env.BENCH_PROCESSES || 2));
const PORT = Number(process.env.PORT);

if (cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  // BENCH_CPU_PROF=<dir>: each worker writes a V8 CPU profile there when it stops
  if (process.env.BENCH_CPU_PROF)
    cluster.setupPrimary({ execArgv: [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] });
  const pids: number[] = [];
  // one after another: each start makes the year partitions and reloads the books; no need to race them
  for (let i = 0; i < N; i++) {
    const w = cluster.fork();
    await new Promise<void>((resolve, reject) => {
      w.once('message', (m: { listening?: boolean }) => (m.listening ? resolve() : reject(new Error(String(m)))));
      w.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
    });
    pids.push(w.process.pid!);
  }
  cluster.on('exit', (w, code, signal) => {
    if (!stopping) console.error(`worker ${w.process.pid} exited ${code ?? signal}`);
  });
  let stopping = false;
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 10_000).unref();
    cluster.on('exit', () => {
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  console.log(JSON.stringify({ port: PORT, primary: process.pid, workers: pids }));
} else {
  const running = await startServer({ port: PORT, host: '127.0.0.1', log: (s) => console.error(`[${process.pid}] ${s}`) });
  // SIGUSR2: the event loop's delays since the last SIGUSR2, as one line on stderr (bench/load asks at the run's start and end)
  const delays = monitorEventLoopDelay({ resolution: 5 });
  delays.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    console.error(
      `event-loop ${JSON.stringify({ pid: process.pid, p50: ms(delays.percentile(50)), p99: ms(delays.percentile(99)), max: ms(delays.max) })}`,
    );
    delays.reset();
  });
  process.send!({ listening: true });
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
