import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel } from '../meta/types.ts';
import { columnSelect, q, refTable, sortExpression } from './sql.ts';
import { filterMeta, SYSTEM_REFS } from '../meta/load.ts';

/**
 * The public read path: what an entity's `public` block opens (docs/decisions/0030), the one piece
 * the generic public routes (api/http/public-entity-routes.ts) and every module's public read (the
 * public site's regions, species, map and passport) go through. Rows are those of the entity's view
 * and `public.where`, not deleted; columns are the block's `fields` (and `id`) only.
 */

/** The entity when it has a public block; null otherwise (a public read of it is a 404). */
export function publicEntity(model: MetaModel, name: string): EntityMeta | null {
  const e = model.entities.get(name);
  return e?.public ? e : null;
}

/** The rows of an entity the public may see, aliased `t`: its view's and `public.where`'s column values, not deleted. */
export function visible(knex: Knex, e: EntityMeta): Knex.QueryBuilder {
  if (!e.public) throw new Error(`${e.name} has no public block`);
  const qb = knex(`${e.table} as t`);
  for (const [col, v] of Object.entries({ ...(e.view ?? {}), ...(e.public.where ?? {}) })) qb.where(`t.${col}`, v);
  if (e.softDelete) qb.whereNull('t.deleted_at');
  return qb;
}

/** Whether the public may read a field of the entity (`id` always; a personal field never — the loader refuses one in a block too). */
export function isPublicField(e: EntityMeta, field: string): boolean {
  return field === 'id' || (!!e.public?.fields.includes(field) && !e.fields[field]?.personal);
}

/**
 * The fields of `wanted` the public may read, as `t.<field>` columns: a field the block does not
 * open is left out of the answer (never read), so a module's public call shrinks with the block.
 */
export function publicColumns(e: EntityMeta, wanted: readonly string[]): string[] {
  return wanted.filter((f) => isPublicField(e, f)).map((f) => `t.${f}`);
}

/** Filters the public may use: those declared public, and region and search when their fields are public. */
export function publicFilters(e: EntityMeta): Set<string> {
  const pub = e.public!;
  const fields = new Set(pub.fields);
  const out = new Set(pub.filters ?? []);
  for (const name of ['region_id', 'q']) {
    const f = e.list.filters?.[name];
    if (f && (filterMeta(f).fields ?? [name]).every((c) => fields.has(c))) out.add(name);
  }
  return out;
}

/** The public fields: text3 in the caller's language, a reference's title beside its id as `<field>_name`, references' titles as `<field>_names`. */
export function selectPublic(knex: Knex, model: MetaModel, e: EntityMeta, qb: Knex.QueryBuilder, lang: Lang): Knex.QueryBuilder {
  const cols = ['t.id'];
  for (const name of e.public!.fields) {
    const f = e.fields[name];
    if (f.type === 'text3') cols.push(`${sortExpression(e, name, lang, 't')} AS ${q(name)}`);
    else cols.push(columnSelect(name, f, 't'));
    if (f.type === 'refs' && f.ref && !SYSTEM_REFS.includes(f.ref)) {
      const target = model.entities.get(f.ref)!;
      const ids = f.through
        ? `x.id IN (SELECT j.${q(f.through.refKey)} FROM ${q(f.through.table)} j WHERE j.${q(f.through.key)} = t.id)`
        : `x.id = ANY(t.${q(name)})`;
      cols.push(
        `(SELECT coalesce(json_agg(${sortExpression(target, target.titleField, lang, 'x')} ORDER BY x.id), '[]') FROM ${q(refTable(model, f.ref))} x WHERE ${ids}) AS ${q(`${name}_names`)}`,
      );
    }
    if (f.type === 'ref' && f.ref && !SYSTEM_REFS.includes(f.ref)) {
      const target = model.entities.get(f.ref)!;
      const alias = `r_${name}`;
      qb.leftJoin(`${refTable(model, f.ref)} as ${alias}`, `${alias}.id`, `t.${name}`);
      cols.push(`${sortExpression(target, target.titleField, lang, alias)} AS ${q(`${name}_name`)}`);
    }
  }
  return qb.select(knex.raw(cols.join(', ')));
}
