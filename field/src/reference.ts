import { call } from './api';
import { kv } from './db';
import type { Lang } from './i18n';
import type { Schema } from './validate';

/**
 * The reference data the forms need (GET /api/field/reference: regions, districts, species,
 * articles with their fine intervals, file types — in the user's scope — and the create schemas),
 * kept in IndexedDB with its version and asked again with `If-None-Match` on every start: an
 * unchanged answer is a 304 with no body.
 */
export interface Row {
  id: number;
  name?: unknown;
  [k: string]: unknown;
}
export interface Reference {
  version: string;
  books: Record<string, Row[]>;
  schemas: Record<string, Schema>;
  /** when it was last confirmed by the server (ms) */
  checkedAt: number;
  userId: number;
}

const KEY = 'reference';

export async function cachedReference(userId: number): Promise<Reference | undefined> {
  const r = await kv.get<Reference>(KEY);
  return r && r.userId === userId ? r : undefined;
}

/** The server's reference, or the kept one when it is unchanged or the network is down. */
export async function refreshReference(userId: number, lang: Lang): Promise<Reference | undefined> {
  const kept = await cachedReference(userId);
  try {
    const res = await call('/api/field/reference', { lang, headers: kept ? { 'If-None-Match': `"${kept.version}"` } : {} });
    if (res.status === 304 && kept) {
      const r = { ...kept, checkedAt: Date.now() };
      await kv.put(KEY, r);
      return r;
    }
    const body = (await res.json()) as Omit<Reference, 'checkedAt' | 'userId'>;
    const r: Reference = { ...body, schemas: body.schemas ?? {}, checkedAt: Date.now(), userId };
    await kv.put(KEY, r);
    return r;
  } catch {
    return kept;
  }
}
