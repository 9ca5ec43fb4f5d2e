import type { Knex } from 'knex';
import type { MetaModel } from '../meta/types.ts';

/**
 * Answers cached by the version of the data they read (migration 20261130000100_data_versions).
 *
 * The public statistics (public reports, the map's counts per region) read aggregates of the whole
 * registry — at 20 million plantings a report sums a million aggregate rows — and the public asks
 * the same few questions all day. Each set of tables has a version: a statement trigger on every
 * table in the set raises it in the writer's transaction, so a reader sees it change together with
 * the data. A cached answer is served while the version it was computed under is the current one;
 * reading the version is one primary-key lookup. Never stale: the version is read before the answer
 * is computed, so an answer may be cached under an older version than its data (computed again on
 * the next call), never under a newer one.
 */

/** The set the public statistics read: every table a public report's SQL names (api/http/report-routes.ts, the map's region layer). */
export const PUBLIC_DATA = 'public';

/** The tables an SQL text reads by name (after FROM or JOIN); the caller keeps those that are tables. */
export function tablesNamed(sql: string): string[] {
  const out = new Set<string>();
  for (const m of sql.matchAll(/\b(?:from|join)\s+([a-z_][a-z0-9_]*)/gi)) out.add(m[1].toLowerCase());
  return [...out];
}

/** The tables of the public data: what the public reports read, and the map's region layer (planting_stats, planting_year_facts, regions). */
export function publicTables(model: MetaModel): string[] {
  const out = new Set<string>(['planting_stats', 'planting_year_facts', 'regions']);
  for (const r of model.reports.values()) if (r.public) for (const t of tablesNamed(r.query)) out.add(t);
  return [...out].sort();
}

/**
 * Puts the version trigger of `name` on each of `tables` that is a table (a CTE's name is not):
 * idempotent, run after the migrations (api/db/migrator.ts), since the set follows the reports'
 * metadata. Answers the tables that carry it.
 */
export async function ensureVersionTriggers(knex: Knex, name: string, tables: string[]): Promise<string[]> {
  const found = await knex.raw(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname = ANY(?) ORDER BY c.relname`,
    [tables],
  );
  const names = (found.rows as { relname: string }[]).map((r) => r.relname);
  for (const t of names) {
    await knex.raw(
      `CREATE OR REPLACE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version(${knex.raw('?', [name]).toQuery()})`,
      [`${t}_version_${name}`, t],
    );
  }
  return names;
}

interface Entry {
  version: string;
  value: unknown;
  bytes: number;
}

/**
 * A process's cache of answers on one database (a pool) keyed by the version of one set of tables: at most `maxEntries`
 * answers of at most `maxBytes` together (least recently used go first), and one computation at a
 * time for the same key and version (the others wait for it).
 */
export class VersionedCache {
  private entries = new Map<string, Entry>();
  private running = new Map<string, Promise<unknown>>();
  private bytes = 0;

  constructor(
    readonly knex: Knex,
    readonly name: string,
    readonly maxEntries = 2000,
    readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  async version(): Promise<string> {
    const row = await this.knex('data_versions').where({ name: this.name }).first('version');
    return String(row?.version ?? 0);
  }

  /** The answer for `key` at the data's current version: the cached one, or `compute()`'s, kept. */
  async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const version = await this.version();
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as T;
    }
    const flight = `${version}\u0000${key}`;
    const running = this.running.get(flight);
    if (running) return running as Promise<T>;
    const p = compute()
      .then((value) => {
        this.put(key, { version, value, bytes: JSON.stringify(value)?.length ?? 0 });
        return value;
      })
      .finally(() => this.running.delete(flight));
    this.running.set(flight, p);
    return p;
  }

  private put(key: string, e: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    if (e.bytes > this.maxBytes / 8) return;
    this.entries.set(key, e);
    this.bytes += e.bytes;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<Knex, Map<string, VersionedCache>>();

/** The process's cache of `name`'s answers on one database (a pool): answers of two databases never mix. */
export function versionedCache(knex: Knex, name: string): VersionedCache {
  let byName = caches.get(knex);
  if (!byName) caches.set(knex, (byName = new Map()));
  let c = byName.get(name);
  if (!c) byName.set(name, (c = new VersionedCache(knex, name)));
  return c;
}
