import type { Knex } from 'knex';
import {
  emailTransport,
  PermanentFailure,
  smsTransport,
  transportConfigFromEnv,
  type Transport,
  type TransportConfig,
} from './transports.ts';
import { deliveriesSettled, onQueued } from './queue.ts';
import type { MetaModel } from '../meta/types.ts';
import { envNumber } from '../db/worker-support.ts';

export interface WorkerOptions {
  /** how often the queue is looked at when nothing wakes the worker (ms) */
  pollMs?: number;
  /** e-mails and SMS taken at once */
  batch?: number;
  /** in-app deliveries marked sent per statement */
  inAppBatch?: number;
  /** tries before a delivery is failed for good */
  maxAttempts?: number;
  /** the first retry's delay (ms); each next one doubles it */
  backoffMs?: number;
  /** how long a taken delivery is the worker's before another may take it again (a worker that died) */
  leaseMs?: number;
  transports?: TransportConfig;
  /** transports by channel, instead of those the config makes (tests) */
  send?: Partial<Record<'email' | 'sms', Transport>>;
  log?: (line: string) => void;
  /** the metadata as it is now (the server's live model), for telling the rows that caused notifications how their delivery ended (queue.ts `onDeliverySettled`); without it they are not told */
  model?: () => MetaModel;
}

/** The worker's settings from the environment (docs/notifications.md). */
export function workerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerOptions {
  return {
    pollMs: envNumber(env.ECOFOND_NOTIFY_POLL_MS, 1000),
    batch: envNumber(env.ECOFOND_NOTIFY_BATCH, 20),
    maxAttempts: envNumber(env.ECOFOND_NOTIFY_MAX_ATTEMPTS, 5),
    backoffMs: envNumber(env.ECOFOND_NOTIFY_BACKOFF_MS, 30_000),
    leaseMs: envNumber(env.ECOFOND_NOTIFY_LEASE_MS, 120_000),
    transports: transportConfigFromEnv(env),
  };
}

/**
 * The delivery worker. The queue is the deliveries table itself (notification_recipients): a
 * delivery is `queued` from the transaction that caused it until it is sent or failed. In-app
 * deliveries are marked sent in batches, one statement each. E-mails and SMS are taken with
 * `FOR UPDATE SKIP LOCKED` (so several workers, in one process or many, never take the same row)
 * under a lease, sent outside any transaction, and then marked sent, or — on a failure —
 * retried after `backoffMs · 2^(attempt-1)` until `maxAttempts`, then failed with the reason. A
 * worker that dies mid-send leaves its deliveries queued; they are taken again when the lease ends
 * (at least once). When a notification's deliveries have settled, the row that caused it is told
 * (queue.ts `deliveriesSettled`: a suggestion's `reply_state`), given the metadata. Runs the same
 * on PostgreSQL and on embedded PGlite.
 */
export class NotificationWorker {
  readonly o: Required<Omit<WorkerOptions, 'send' | 'transports' | 'log' | 'model'>>;
  private readonly model: (() => MetaModel) | null;
  private readonly transports: Record<'email' | 'sms', Transport>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  /** set by stop(): a drain in progress ends after its round */
  private halted = false;
  private unsubscribe: (() => void) | null = null;
  private readonly log: (line: string) => void;

  constructor(
    private readonly knex: Knex,
    opts: WorkerOptions = workerOptionsFromEnv(),
  ) {
    this.o = {
      pollMs: opts.pollMs ?? 1000,
      batch: opts.batch ?? 20,
      inAppBatch: opts.inAppBatch ?? 5000,
      maxAttempts: opts.maxAttempts ?? 5,
      backoffMs: opts.backoffMs ?? 30_000,
      leaseMs: opts.leaseMs ?? 120_000,
    };
    const cfg = opts.transports ?? {};
    this.transports = { email: opts.send?.email ?? emailTransport(cfg), sms: opts.send?.sms ?? smsTransport(cfg) };
    this.log = opts.log ?? (() => undefined);
    this.model = opts.model ?? null;
  }

  /** Polls the queue, and is woken when a transaction queueing deliveries commits in this process. */
  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    this.halted = false;
    this.unsubscribe = onQueued(() => this.wake());
    this.wake();
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.halted = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs the queue now (or again as soon as the current round ends). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.drain()
      .then(
        () => undefined,
        (err) => this.log(`notifications: ${(err as Error).message}`),
      )
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), this.o.pollMs);
        this.timer.unref?.();
      });
  }

  /** Rounds until nothing is due. Answers how many deliveries were handled. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.runOnce();
      total += n;
      if (!n || this.halted) return total;
    }
  }

  /** One round: a batch of in-app deliveries, then a batch of e-mails and SMS. Answers how many were handled. */
  async runOnce(): Promise<number> {
    return (await this.inApp()) + (await this.external());
  }

  private async inApp(): Promise<number> {
    const { rows } = await this.knex.raw(
      `WITH due AS (
        SELECT id FROM notification_recipients
        WHERE delivery_state = 'queued' AND channel = 'in_app' AND next_at <= now()
        ORDER BY next_at, id LIMIT ? FOR UPDATE SKIP LOCKED),
      done AS (
        UPDATE notification_recipients r SET delivery_state = 'sent', sent_at = now(), attempts = r.attempts + 1
        FROM due WHERE r.id = due.id RETURNING r.notification_id)
      SELECT count(*)::int AS n, coalesce(array_agg(DISTINCT notification_id), '{}') AS notifications FROM done`,
      [this.o.inAppBatch],
    );
    await this.settled((rows[0].notifications as (number | string)[]).map(Number));
    return rows[0].n;
  }

  /** Tells the rows that caused these notifications how their deliveries ended; a failure there is logged, the deliveries stay as they are. */
  private async settled(notificationIds: number[]): Promise<void> {
    if (!this.model || !notificationIds.length) return;
    await deliveriesSettled(this.knex, this.model(), notificationIds).catch((err) =>
      this.log(`notifications: telling the sources of ${notificationIds.length} notifications: ${(err as Error).message}`),
    );
  }

  private async external(): Promise<number> {
    const { rows } = await this.knex.raw(
      `WITH due AS (
        SELECT id FROM notification_recipients
        WHERE delivery_state = 'queued' AND channel <> 'in_app' AND next_at <= now()
        ORDER BY next_at, id LIMIT ? FOR UPDATE SKIP LOCKED)
      UPDATE notification_recipients r SET attempts = r.attempts + 1, next_at = now() + make_interval(secs => ?::float8 / 1000)
      FROM due WHERE r.id = due.id
      RETURNING r.id, r.notification_id, r.channel, r.address, r.subject, r.body, r.attempts`,
      [this.o.batch, this.o.leaseMs],
    );
    const settled = new Set<number>();
    // taking a row moves its next_at past the lease: it is not due again unless this worker dies
    await Promise.all(
      (
        rows as {
          id: number;
          notification_id: number | string;
          channel: 'email' | 'sms';
          address: string;
          subject: string;
          body: string;
          attempts: number;
        }[]
      ).map(async (d) => {
        try {
          await this.transports[d.channel]({ address: d.address, subject: d.subject, body: d.body });
          await this.knex('notification_recipients')
            .where({ id: d.id })
            .update({ delivery_state: 'sent', sent_at: this.knex.fn.now(), error: null });
          settled.add(Number(d.notification_id));
        } catch (err) {
          const reason = String((err as Error)?.message ?? err).slice(0, 2000);
          const last = err instanceof PermanentFailure || d.attempts >= this.o.maxAttempts;
          if (last) {
            await this.knex('notification_recipients').where({ id: d.id }).update({ delivery_state: 'failed', error: reason });
            settled.add(Number(d.notification_id));
            this.log(`notifications: delivery ${d.id} (${d.channel}) failed: ${reason}`);
          } else {
            const delay = this.o.backoffMs * 2 ** (d.attempts - 1);
            await this.knex.raw(
              'UPDATE notification_recipients SET error = ?, next_at = now() + make_interval(secs => ?::float8 / 1000) WHERE id = ?',
              [reason, delay, d.id],
            );
          }
        }
      }),
    );
    await this.settled([...settled]);
    return rows.length;
  }
}
