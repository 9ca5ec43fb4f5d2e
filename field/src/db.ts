/**
 * What the device keeps (docs/field-app.md), in IndexedDB `ecofond-field`: the records (drafts,
 * queued, sent) with their form values, their photos as resized JPEG blobs with their upload's
 * progress, and the reference data with its version. Raw IndexedDB, no library: four calls.
 */
import type { FieldRecord, Photo } from './types';

export type { FieldRecord, Kind, Photo, State } from './types';

const NAME = 'ecofond-field';
let opened: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(NAME, 1);
    req.onupgradeneeded = () => {
      const db = req.result;
      db.createObjectStore('records', { keyPath: 'id' });
      db.createObjectStore('photos', { keyPath: 'id' }).createIndex('recordId', 'recordId');
      db.createObjectStore('kv');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return opened;
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function store(name: 'records' | 'photos' | 'kv', mode: IDBTransactionMode = 'readonly'): Promise<IDBObjectStore> {
  return (await open()).transaction(name, mode).objectStore(name);
}

export const records = {
  all: async (): Promise<FieldRecord[]> => done((await store('records')).getAll() as IDBRequest<FieldRecord[]>),
  get: async (id: string): Promise<FieldRecord | undefined> =>
    done((await store('records')).get(id) as IDBRequest<FieldRecord | undefined>),
  put: async (r: FieldRecord): Promise<void> => {
    await done((await store('records', 'readwrite')).put(r));
  },
  remove: async (id: string): Promise<void> => {
    for (const p of await photos.of(id)) await photos.remove(p.id);
    await done((await store('records', 'readwrite')).delete(id));
  },
};

export const photos = {
  /** A record's photos in the order they were added (the index alone gives them by their random ids). */
  of: async (recordId: string): Promise<Photo[]> =>
    ((await done((await store('photos')).index('recordId').getAll(recordId) as IDBRequest<Photo[]>)) ?? []).sort(
      (a, b) => (a.addedAt ?? 0) - (b.addedAt ?? 0),
    ),
  put: async (p: Photo): Promise<void> => {
    await done((await store('photos', 'readwrite')).put(p));
  },
  remove: async (id: string): Promise<void> => {
    await done((await store('photos', 'readwrite')).delete(id));
  },
};

export const kv = {
  get: async <T>(key: string): Promise<T | undefined> => done((await store('kv')).get(key) as IDBRequest<T | undefined>),
  put: async (key: string, value: unknown): Promise<void> => {
    await done((await store('kv', 'readwrite')).put(value, key));
  },
};

/** How long a sent record stays in "my records" on the device: 30 days. */
export const SENT_KEPT_MS = 30 * 24 * 3600_000;

/**
 * Housekeeping when the app opens: photos of no record (a form left without saving) and sent
 * records older than SENT_KEPT_MS are removed.
 */
export async function tidy(now = Date.now()): Promise<void> {
  const all = await records.all();
  const ids = new Set(all.map((r) => r.id));
  for (const r of all) if (r.state === 'sent' && (r.sentAt ?? now) < now - SENT_KEPT_MS) await records.remove(r.id);
  const every = (await done((await store('photos')).getAll())) as Photo[];
  for (const p of every) if (!ids.has(p.recordId)) await photos.remove(p.id);
}

/** Everything the app keeps, gone (sign-out with nothing unsent, or "clear" in docs/field-app.md). */
export async function clearAll(): Promise<void> {
  const db = await open();
  const tx = db.transaction(['records', 'photos', 'kv'], 'readwrite');
  for (const n of ['records', 'photos', 'kv']) tx.objectStore(n).clear();
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}
