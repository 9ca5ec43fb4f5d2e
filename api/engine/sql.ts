import type { Knex } from 'knex';
import type { EntityMeta, FieldMeta, Lang, MetaModel } from '../meta/types.ts';
import { SYSTEM_REFS } from '../meta/columns.ts';

/** SQL helpers shared by the schema builder, lists, exports and writes. Identifiers come from validated metadata only. */

export const q = (id: string) => `"${id.replace(/"/g, '""')}"`;

export function refTable(model: MetaModel, ref: string): string {
  if (SYSTEM_REFS.includes(ref)) return ref;
  const target = model.entities.get(ref);
  if (!target) throw new Error(`no entity "${ref}"`);
  return target.table;
}

/** Apostrophe-like characters typed for oʻ, gʻ and the tutuq belgisi, folded to one for searching. */
const APOSTROPHES = 'ʻʼ’‘`';

/** Folds a search term the same way searchExpression folds the columns. */
export function foldSearch(s: string): string {
  let out = s.toLowerCase();
  for (const ch of APOSTROPHES) out = out.split(ch).join("'");
  return out.replace(/\s+/g, ' ').trim();
}

function columnText(e: EntityMeta, col: string, alias?: string): string {
  const f = e.fields[col];
  const c = alias ? `${q(alias)}.${q(col)}` : q(col);
  if (f?.type === 'text3') return `coalesce(${c}->>'uz', '') || ' ' || coalesce(${c}->>'uk', '') || ' ' || coalesce(${c}->>'ru', '')`;
  if (f && !['string', 'text', 'enum'].includes(f.type)) return `coalesce(${c}::text, '')`;
  return `coalesce(${c}, '')`;
}

/**
 * The immutable expression a search filter looks in: the columns joined, lower-cased and with
 * apostrophes folded; the same text builds the trigram index, so the index is used.
 */
export function searchExpression(e: EntityMeta, cols: string[], alias?: string): string {
  const joined = cols.map((c) => columnText(e, c, alias)).join(` || ' ' || `);
  return `translate(lower(${joined}), '${APOSTROPHES}', '${"''".repeat(APOSTROPHES.length)}')`;
}

/** The ORDER BY expression of a field in the caller's language. */
export function sortExpression(e: EntityMeta, col: string, lang: Lang, alias?: string): string {
  const f = e.fields[col];
  const c = alias ? `${q(alias)}.${q(col)}` : q(col);
  if (f?.type === 'text3') return `coalesce(${c}->>'${lang}', ${c}->>'uz')`;
  // polygons have no order of their own: by their area (in square degrees), smallest first
  if (f?.type === 'polygon') return `area(${c}::path)`;
  return c;
}

/** The select list of an entity's own columns, with points as {lat, lng} and polygons as [[lng, lat], …]. */
export function selectColumns(e: EntityMeta, alias = 't'): readonly string[] {
  let byAlias = selected.get(e);
  if (!byAlias) selected.set(e, (byAlias = new Map()));
  let cols = byAlias.get(alias);
  if (!cols) byAlias.set(alias, (cols = Object.freeze(buildSelectColumns(e, alias))));
  return cols;
}

/** An entity's select lists, built once per model's entity (a reloaded model's entities are new objects). */
const selected = new WeakMap<EntityMeta, Map<string, readonly string[]>>();

function buildSelectColumns(e: EntityMeta, alias: string): string[] {
  const cols = [`${q(alias)}.${q('id')}`];
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type === 'children' || f.type === 'password') continue;
    cols.push(columnSelect(name, f, alias));
  }
  const tracked = e.tracking === false ? ['created_at'] : ['version', 'created_at', 'updated_at', 'created_by', 'updated_by'];
  for (const c of tracked) cols.push(`${q(alias)}.${q(c)}`);
  return cols;
}

export function columnSelect(name: string, f: FieldMeta, alias: string): string {
  const c = `${q(alias)}.${q(name)}`;
  if (f.through) {
    const { table, key, refKey, flag } = f.through;
    const member = flag ? ` and j.${q(flag)} = 1` : '';
    return `array(select j.${q(refKey)} from ${q(table)} j where j.${q(key)} = ${q(alias)}.${q('id')}${member} order by 1) AS ${q(name)}`;
  }
  if (f.type === 'point')
    return `CASE WHEN ${c} IS NULL THEN NULL ELSE json_build_object('lat', (${c})[1], 'lng', (${c})[0]) END AS ${q(name)}`;
  if (f.type === 'polygon') return `${polygonJson(c)} AS ${q(name)}`;
  return c;
}

/**
 * A polygon column as a JSON array of [lng, lat] pairs: its text form `((x1,y1),(x2,y2),…)` with
 * the parentheses turned into brackets is that array (floats print as JSON numbers, `1e-05`
 * included), so lists, rows, children and exports read it alike on PostgreSQL and PGlite.
 */
export function polygonJson(c: string): string {
  return `CASE WHEN ${c} IS NULL THEN NULL ELSE translate(${c}::text, '()', '[]')::json END`;
}

/** An open ring of [lng, lat] pairs as PostgreSQL's polygon text `((x1,y1),…)`; numbers only. */
export function polygonText(ring: unknown): string {
  if (!Array.isArray(ring) || ring.length < 3) throw new Error('polygonText: not a ring of 3 or more points');
  const pairs = ring.map((p) => {
    if (!Array.isArray(p) || p.length !== 2 || !p.every((n) => typeof n === 'number' && Number.isFinite(n)))
      throw new Error('polygonText: not a [lng, lat] pair');
    return `(${String(p[0])},${String(p[1])})`;
  });
  return `(${pairs.join(',')})`;
}

/** A JS value to what a column stores (points, polygons, arrays, jsonb). */
export function toColumnValue(knex: Knex, f: FieldMeta, v: unknown): unknown {
  if (v === undefined) return undefined;
  if (v === null) return null;
  switch (f.type) {
    case 'point': {
      const p = v as { lat: number; lng: number };
      return knex.raw('point(?, ?)', [p.lng, p.lat]);
    }
    case 'polygon':
      return knex.raw('?::polygon', [polygonText(v)]);
    case 'text3':
    case 'json':
      return JSON.stringify(v);
    case 'refs':
    case 'files':
      return knex.raw('?::bigint[]', [v as number[]] as unknown as Knex.RawBinding[]);
    default:
      return v;
  }
}
