import { pino, type Logger, type DestinationStream } from 'pino';

/**
 * The process's structured log (docs/operations.md): one JSON object a line on stdout, for a
 * collector (journald, Loki, Elasticsearch) to index. A request's line carries its request id (the
 * one error answers give the caller and app_errors keeps), the user id, the route's template —
 * never its path or query, which may hold a PINFL or an INN — the status and the duration.
 * Nothing a caller sends is logged: no bodies, headers, tokens, passwords or codes; an error's
 * message (which may quote the input) stays in app_errors, the log has its kind and stack.
 *
 * ECOFOND_LOG_LEVEL: fatal, error, warn, info (default), debug, silent — silent under the tests
 * unless set.
 */
export function logLevel(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ECOFOND_LOG_LEVEL) return env.ECOFOND_LOG_LEVEL;
  return env.VITEST || env.NODE_ENV === 'test' ? 'silent' : 'info';
}

/** Keys whose values never reach a line, wherever a caller of the logger puts them. */
export const REDACTED_KEYS = ['password', 'token', 'code', 'pinfl', 'authorization', 'cookie', 'secret', 'passport'];

export function createLogger(destination?: DestinationStream, level = logLevel()): Logger {
  return pino(
    {
      level,
      base: { service: 'ecofond', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_KEYS.flatMap((k) => [k, `*.${k}`]), censor: '[redacted]' },
    },
    destination,
  );
}

/** The logger every part of the process writes to; `useLogger` puts another in its place (a test's). */
export let log: Logger = createLogger();

export function useLogger(l: Logger): Logger {
  const before = log;
  log = l;
  return before;
}

/** What of an error goes to the log: its kind, PostgreSQL's code and constraint, and the stack without the message's line. */
export function errorFields(err: unknown): Record<string, unknown> {
  const e = err as { name?: string; code?: unknown; constraint?: unknown; stack?: string };
  const frames = String(e?.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .join('\n');
  return {
    type: e?.name ?? typeof err,
    ...(e?.code !== undefined ? { pgCode: String(e.code) } : {}),
    ...(e?.constraint ? { constraint: String(e.constraint) } : {}),
    stack: frames,
  };
}
