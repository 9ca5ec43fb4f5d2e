import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { ApiError } from '../kernel/errors.ts';
import type { RenderInput, RenderOutput } from './document-render.ts';

/**
 * Printing off the event loop (docs/template-documents.md): a document is filled and drawn
 * (document-render.ts) in a worker thread of a small pool, so a large template never stalls the
 * server's other requests. At most `workers` prints run at once, at most `queue` more wait their
 * turn (beyond that a print is a 503 "busy, try again"); each runs within `timeoutMs` and an old
 * generation of `memoryMb` — past either its worker is ended and the print is a 422 in the
 * caller's language, nothing written. A filled document of more than `maxChars` characters is a 422
 * before anything is drawn. Workers are started on demand and end after `idleMs` unused; they
 * never keep the process alive.
 */
export interface PrintLimits {
  workers: number;
  queue: number;
  timeoutMs: number;
  memoryMb: number;
  maxChars: number;
  idleMs: number;
}

const num = (name: string, dflt: number, min: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= min && process.env[name] !== '' ? v : dflt;
};

/** The limits, read from the environment at each print (so an operator's change or a test's applies at once). */
export function printLimits(): PrintLimits {
  return {
    workers: Math.floor(num('ECOFOND_PRINT_WORKERS', Math.max(1, Math.min(2, availableParallelism() - 1)), 1)),
    queue: Math.floor(num('ECOFOND_PRINT_QUEUE', 8, 0)),
    timeoutMs: num('ECOFOND_PRINT_TIMEOUT_MS', 20_000, 1),
    memoryMb: num('ECOFOND_PRINT_MEMORY_MB', 256, 32),
    maxChars: Math.floor(num('ECOFOND_PRINT_MAX_CHARS', 400_000, 1)),
    idleMs: num('ECOFOND_PRINT_IDLE_MS', 60_000, 0),
  };
}

/** How long a worker may take to load its modules before its first print. */
const START_MS = 60_000;
const ENTRY = new URL('./document-worker.mjs', import.meta.url);

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  idle?: NodeJS.Timeout;
  /** the print in flight: settled by the worker's answer, its error or its exit */
  settle?: (r: { out?: RenderOutput; error?: unknown }) => void;
}

let running = 0;
let live = 0;
const idle: Slot[] = [];
const waiting: (() => void)[] = [];
let nextId = 0;

function spawn(memoryMb: number): Slot {
  const worker = new Worker(ENTRY, {
    // the entry registers tsx itself; the parent's flags (`--import tsx`, an inspector) are not for it
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(32, Math.ceil(memoryMb / 8)) },
    stdout: false,
    stderr: false,
  });
  worker.unref();
  live++;
  const slot: Slot = { worker, ready: Promise.resolve() };
  slot.ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('print worker did not start')), START_MS);
    timer.unref();
    const first = (m: { ready?: boolean }) => {
      if (!m?.ready) return;
      clearTimeout(timer);
      worker.off('message', first);
      worker.on('message', (a: { out?: RenderOutput; error?: string }) => slot.settle?.(a));
      resolve();
    };
    worker.on('message', first);
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`print worker exited (${code}) before it started`));
    });
  });
  slot.ready.catch(() => undefined);
  worker.on('error', (error) => slot.settle?.({ error }));
  worker.on('exit', (code) => {
    live--;
    slot.settle?.({ error: new Error(`print worker exited (${code})`) });
    const i = idle.indexOf(slot);
    if (i >= 0) idle.splice(i, 1);
  });
  return slot;
}

async function take(limits: PrintLimits): Promise<void> {
  if (running < limits.workers) {
    running++;
    return;
  }
  if (waiting.length >= limits.queue) throw new ApiError('busy', 'errors.print_busy');
  // a finishing print hands its place over: `running` stays as it was
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/**
 * Renders a document in a worker of the pool: its HTML, text and PDF, or `tooLong` with the filled
 * document's length. A print past its time or memory is an ApiError `unprocessable`; a full queue
 * an ApiError `busy`.
 */
export async function printInWorker(input: Omit<RenderInput, 'maxChars'>): Promise<Extract<RenderOutput, { ok: true }>> {
  const limits = printLimits();
  await take(limits);
  let slot: Slot | undefined;
  try {
    slot = idle.pop();
    if (slot?.idle) clearTimeout(slot.idle);
    slot ??= spawn(limits.memoryMb);
    try {
      await slot.ready;
    } catch (err) {
      void slot.worker.terminate();
      slot = undefined;
      throw err;
    }
    const s = slot;
    const answer = await new Promise<{ out?: RenderOutput; error?: unknown; timedOut?: boolean }>((resolve) => {
      const timer = setTimeout(() => resolve({ timedOut: true }), limits.timeoutMs);
      s.settle = (a) => {
        clearTimeout(timer);
        resolve(a);
      };
      s.worker.postMessage({ ...input, maxChars: limits.maxChars, id: ++nextId });
    });
    slot.settle = undefined;
    const heavy = () =>
      new ApiError('unprocessable', 'errors.print_too_heavy', { seconds: Math.ceil(limits.timeoutMs / 1000), mb: limits.memoryMb });
    if (answer.timedOut) {
      await slot.worker.terminate();
      slot = undefined;
      throw heavy();
    }
    if (answer.error !== undefined) {
      void slot.worker.terminate();
      slot = undefined;
      if ((answer.error as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY') throw heavy();
      throw answer.error instanceof Error ? answer.error : new Error(String(answer.error));
    }
    const out = answer.out!;
    if (!out.ok) throw new ApiError('unprocessable', 'errors.document_too_long', { count: out.tooLong, max: limits.maxChars });
    return out;
  } finally {
    if (slot) {
      const s = slot;
      s.idle = setTimeout(() => {
        const i = idle.indexOf(s);
        if (i >= 0) idle.splice(i, 1);
        void s.worker.terminate();
      }, limits.idleMs);
      s.idle.unref();
      idle.push(s);
    }
    release();
  }
}

/** The print workers alive now (started and not yet ended), and the prints running and waiting. */
export function printPool(): { workers: number; running: number; waiting: number } {
  return { workers: live, running, waiting: waiting.length };
}

/** Ends every idle print worker (a test's or a server's close; workers never hold a process open anyway). */
export async function stopPrintWorkers(): Promise<void> {
  const all = idle.splice(0);
  await Promise.all(
    all.map((s) => {
      if (s.idle) clearTimeout(s.idle);
      return s.worker.terminate();
    }),
  );
}
