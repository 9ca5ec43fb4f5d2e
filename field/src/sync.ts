import { call, getSession, HttpError } from './api';
import { photos, records, type FieldRecord } from './db';
import { payloadOf } from './payload';
import type { Lang } from './i18n';
import { uploadPhoto } from './tus';

/**
 * The sync queue (docs/field-app.md): records the user sent, oldest first — each record's photos
 * through tus, then the record itself with `Idempotency-Key: <its client id>`, so a retry whose
 * first answer was lost is answered the first result and never makes a second row. A network
 * failure or a 5xx retries with back-off (2 s doubling to 5 min) and at once on the `online` event
 * or when the app opens; a refusal (400, 403, 409, 422) stops that record with the server's message
 * by field for the user to fix; a 401 stops the queue until the user signs in again.
 */
export const ENDPOINTS: Record<FieldRecord['kind'], string> = {
  offences: '/api/ecofund-offences/offences',
  plantings: '/api/ecofund-plantings/plantings',
  'planting-inspections': '/api/ecofund-plantings/planting-inspections',
  'tree-cutting-violations': '/api/ecofund-plantings/tree-cutting-violations',
};

/** The Background Sync tag the page registers when a record is queued (public/sw.js, docs/decisions/0086). */
export const SYNC_TAG = 'ecofond-field-queue';

export interface SyncStatus {
  running: boolean;
  /** photos uploaded of those the run has to send */
  done: number;
  total: number;
  nextAt?: number;
  signIn: boolean;
}

const BACKOFF_MIN = 2000;
const BACKOFF_MAX = 300_000;

class Sync {
  status: SyncStatus = { running: false, done: 0, total: 0, signIn: false };
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  lang: Lang = 'uz';

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  private emit(patch: Partial<SyncStatus>) {
    this.status = { ...this.status, ...patch };
    for (const fn of this.listeners) fn();
  }

  /** Sends what is due now; `force` (the network is back, the user asked) sends what waits for its back-off too. */
  run(force = false): Promise<void> {
    // asked while a run is under way (a record queued meanwhile, the worker's sync): one more run after it
    if (this.current) {
      this.following ??= this.current.then(() => {
        this.following = undefined;
        return this.run(force);
      });
      return this.following;
    }
    this.current = this.runOnce(force).finally(() => (this.current = undefined));
    return this.current;
  }
  private current: Promise<void> | undefined;
  private following: Promise<void> | undefined;

  private async runOnce(force: boolean): Promise<void> {
    const session = getSession();
    if (!session || !navigator.onLine) return;
    clearTimeout(this.timer);
    this.emit({ running: true, signIn: false, done: 0, total: 0 });
    try {
      const now = Date.now();
      const due = (await records.all())
        .filter((r) => r.userId === session.user.id && (r.state === 'queued' || r.state === 'sending'))
        .filter((r) => force || (r.nextAt ?? 0) <= now)
        .sort((a, b) => a.updatedAt - b.updatedAt);
      let total = 0;
      for (const r of due) total += (await photos.of(r.id)).filter((p) => !p.resourceId).length;
      this.emit({ total });
      for (const r of due) {
        const stop = await this.send(r);
        if (stop) break;
      }
    } finally {
      const waiting = (await records.all()).filter((r) => r.state === 'queued' && r.nextAt);
      const nextAt = waiting.length ? Math.min(...waiting.map((r) => r.nextAt ?? 0)) : undefined;
      this.emit({ running: false, nextAt });
      if (nextAt) this.timer = setTimeout(() => void this.run(), Math.max(0, nextAt - Date.now()));
    }
  }

  /** One record: its photos, then its create. True when the queue must stop (signed out). */
  private async send(r: FieldRecord): Promise<boolean> {
    await records.put({ ...r, state: 'sending', updatedAt: r.updatedAt });
    const ps = await photos.of(r.id);
    try {
      for (const p of ps) {
        if (p.resourceId) continue;
        try {
          p.resourceId = await uploadPhoto(p, this.lang, photos.put);
          p.error = undefined;
          await photos.put(p);
        } catch (err) {
          if (err instanceof HttpError && err.status === 400) {
            p.error = err.message;
            await photos.put(p);
          }
          throw err;
        }
        this.emit({ done: this.status.done + 1 });
      }
      const res = await call(ENDPOINTS[r.kind], {
        method: 'POST',
        body: payloadOf(r, ps),
        headers: { 'Idempotency-Key': r.id },
        lang: this.lang,
      });
      const row = (await res.json()) as { id: number };
      await records.put({
        ...r,
        state: 'sent',
        serverId: row.id,
        sentAt: Date.now(),
        photoCount: ps.length,
        error: undefined,
        nextAt: undefined,
      });
      // the photos are on the server now: their bytes leave the device
      for (const p of ps) await photos.remove(p.id);
      return false;
    } catch (err) {
      if (err instanceof HttpError && err.status === 401) {
        await records.put({ ...r, state: 'queued' });
        this.emit({ signIn: true });
        return true;
      }
      if (err instanceof HttpError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429) {
        const fields = Object.fromEntries(Object.entries(err.body.errors ?? {}).map(([k, v]) => [k, String(v)]));
        await records.put({ ...r, state: 'error', error: { message: err.message, fields }, nextAt: undefined });
        return false;
      }
      // the network or the server: later, with back-off
      const attempts = r.attempts + 1;
      const wait = Math.min(BACKOFF_MAX, BACKOFF_MIN * 2 ** (attempts - 1));
      await records.put({ ...r, state: 'queued', attempts, nextAt: Date.now() + wait, error: undefined });
      return !navigator.onLine;
    }
  }

  /**
   * A record was queued: send now if there is a signal, and ask for Background Sync where the
   * browser has it (Chromium), so its service worker wakes this page to send when the signal
   * returns (public/sw.js, docs/decisions/0086). Without it the `online` event and the next
   * opening send, as before.
   */
  queued(): void {
    void this.run(true);
    void registerSync();
  }

  /** Waiting records of the signed-in user (queued or sending) once a run is over. */
  async left(): Promise<number> {
    const session = getSession();
    if (!session) return 0;
    return (await records.all()).filter((r) => r.userId === session.user.id && (r.state === 'queued' || r.state === 'sending')).length;
  }

  /** Starts the queue when the app opens and whenever the network comes back (or the worker's `sync` wakes it). */
  private started = false;
  start(): void {
    if (!this.started) {
      window.addEventListener('online', () => void this.run(true));
      // the service worker's `sync` event: send, then tell it how many still wait (it asks the browser to try again if any)
      navigator.serviceWorker?.addEventListener('message', (e: MessageEvent) => {
        if ((e.data as { type?: string } | null)?.type !== SYNC_TAG) return;
        void this.run(true).then(async () => e.ports[0]?.postMessage({ left: await this.left() }));
      });
    }
    this.started = true;
    void this.run(true);
  }
}

/** Asks for a one-off Background Sync of the queue; nothing where the browser has none (registration.sync is Chromium's). */
async function registerSync(): Promise<void> {
  try {
    const reg = (await navigator.serviceWorker?.getRegistration()) as
      | (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
      | undefined;
    await reg?.sync?.register(SYNC_TAG);
  } catch {
    // refused (no permission, a private window): the online event and the next opening still send
  }
}

export const sync = new Sync();
