import Router from '@koa/router';
import type { Knex } from 'knex';
import type { EntityMeta, Lang, MetaModel } from '../meta/types.ts';
import type { AppState, AppContext } from './middleware.ts';
import { badParam, notFound } from './errors.ts';
import { parseListParams, type ListParams } from '../engine/list-params.ts';
import { applyFilter } from '../engine/filters.ts';
import { columnSelect, q, sortExpression } from '../engine/sql.ts';
import { publicFilters, selectPublic, visible } from '../engine/public-read.ts';
import { translate } from '../meta/captions.ts';
import { sendResource } from './uploads.ts';
import { parseBbox } from '../map/grid.ts';
import { FeatureWriter, GEOJSON_TYPE, geometryFields, rowGeometry } from '../engine/geojson.ts';
import { PassThrough } from 'node:stream';
import { sanitizeRich } from '../engine/rich-html.ts';

/** A map layer answers at most this many features a viewport (zoom in for the rest). */
export const MAX_LAYER_FEATURES = 2000;
const COUNT_LIMIT = 10_000;

export { publicFilters } from '../engine/public-read.ts';

/**
 * What entities show the public (their metadata's `public`): a list and one row at
 * `/public/entities/:entity[/:id]`, their map layer at `/public/map/layers/:entity?bbox=`, and
 * the images their public rows refer to at `/public/files/:id`. Only the declared fields leave
 * the database, only rows matching `public.where` are seen, and only declared filters apply.
 * `knex` is the app's read pool: a read replica's when DATABASE_READ_URL is set (docs/scaling.md).
 */
/**
 * The spec's own names of public collections (§7 "sections") where the entity is named otherwise:
 * `/public/entities/sections` is the public site's sections, `site-section`, under either name.
 */
export const PUBLIC_COLLECTION_NAMES: Readonly<Record<string, string>> = { sections: 'site-section' };

export function publicEntityRoutes(model: MetaModel, knex: Knex): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/public' });
  const exposed = (ctx: AppContext): EntityMeta => {
    const name = String(ctx.params.entity);
    const e = model.entities.get(Object.hasOwn(PUBLIC_COLLECTION_NAMES, name) ? PUBLIC_COLLECTION_NAMES[name] : name);
    if (!e?.public) throw notFound();
    return e;
  };

  router.get('/entities/:entity', async (ctx) => {
    const e = exposed(ctx);
    const params = publicListParams(e, ctx.query, ['page', 'perPage']);
    const base = () => {
      const qb = visible(knex, e);
      for (const f of params.filters) applyFilter(qb, e, f);
      return qb;
    };
    const [sortField, dir] = e.public!.sort ?? [e.public!.fields.includes(e.list.sort[0]) ? e.list.sort[0] : 'id', e.list.sort[1]];
    const rowsQ = selectPublic(knex, model, e, base(), ctx.state.lang)
      .orderByRaw(
        `${sortExpression(e, sortField, ctx.state.lang, 't')} ${dir === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, t.id ${dir === 'desc' ? 'DESC' : 'ASC'}`,
      )
      .offset(params.offset)
      .limit(params.limit);
    const countQ = knex.select(knex.raw('count(*)::int as n')).from(
      base()
        .select(knex.raw('1'))
        .limit(COUNT_LIMIT + 1)
        .as('c'),
    );
    const sums = e.public!.totals ?? [];
    const totalsQ = sums.length
      ? base().first(knex.raw(sums.map((f) => `coalesce(sum(t.${q(f)}), 0) AS ${q(f)}`).join(', ')))
      : Promise.resolve(undefined);
    const [rows, [{ n }], totals] = await Promise.all([rowsQ, countQ, totalsQ]);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = {
      rows: rows.map((r: Record<string, unknown>) => shape(model, e, r, ctx.state.lang)),
      total: n,
      exact: n <= COUNT_LIMIT,
      ...(totals
        ? { totals: Object.fromEntries(sums.map((f) => [f, e.fields[f].type === 'integer' ? Number(totals[f]) : String(totals[f])])) }
        : {}),
    };
  });

  /**
   * The public rows of an entity with a public point or polygon field as an RFC 7946
   * FeatureCollection: the public fields as properties, within `bbox` when given, the public
   * filters applied, at most `limit` (≤ MAX_LAYER_FEATURES) features by id; `truncated` says more
   * rows matched. Written to the answer in batches.
   */
  router.get('/entities/:entity/geojson', async (ctx) => {
    const e = exposed(ctx);
    const g = geometryFields(e, e.public!.fields);
    if (!g) throw notFound();
    const params = publicListParams(e, ctx.query, ['bbox', 'limit']);
    const limitRaw = ctx.query.limit;
    const limit = limitRaw === undefined ? MAX_LAYER_FEATURES : Number(limitRaw);
    if (
      typeof limitRaw === 'object' ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > MAX_LAYER_FEATURES ||
      (typeof limitRaw === 'string' && !/^\d{1,5}$/.test(limitRaw))
    ) {
      throw badParam('limit', 'errors.page_size', { max: MAX_LAYER_FEATURES });
    }
    const bbox = ctx.query.bbox === undefined ? null : parseBbox(ctx.query.bbox);
    if (ctx.query.bbox !== undefined && !bbox) throw badParam('bbox');
    const base = () => {
      const qb = visible(knex, e);
      for (const f of params.filters) applyFilter(qb, e, f);
      if (bbox) {
        const box = knex.raw('box(point(?, ?), point(?, ?))', bbox);
        qb.where((w) => {
          if (g.point) w.orWhereRaw(`t.${q(g.point)} <@ ?`, [box]);
          if (g.polygon) w.orWhereRaw(`t.${q(g.polygon)} && polygon(?)`, [box]);
        });
      }
      return qb;
    };
    // built here, before the answer starts, so that a malformed filter value (checked as it is
    // applied) is a 400 naming it, not a 200 whose stream breaks off; each batch reads a clone
    const filtered = base();
    const lang = ctx.state.lang;
    const out = new PassThrough();
    const writer = new FeatureWriter(out);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.type = GEOJSON_TYPE;
    ctx.body = out;
    (async () => {
      try {
        await writer.begin();
        let last = 0;
        let sent = 0;
        let truncated = false;
        while (sent < limit) {
          const batch = Math.min(GEOJSON_BATCH, limit - sent);
          const rows: Record<string, unknown>[] = await selectPublic(knex, model, e, filtered.clone().where('t.id', '>', last), lang)
            .orderBy('t.id')
            .limit(batch + 1);
          const page = rows.slice(0, batch).map((r) => shape(model, e, r, lang));
          await writer.features(
            page.map((r) => ({
              id: r.id as number,
              geometry: rowGeometry(r, g),
              properties: Object.fromEntries(Object.entries(r).filter(([k]) => k !== g.point && k !== g.polygon)),
            })),
          );
          sent += page.length;
          if (rows.length <= batch) break;
          last = page[page.length - 1].id as number;
          if (sent >= limit) truncated = true;
        }
        await writer.end({ truncated });
      } catch (err) {
        out.destroy(err as Error);
      }
    })();
  });

  router.get('/entities/:entity/:id', async (ctx) => {
    const e = exposed(ctx);
    const id = Number(ctx.params.id);
    if (!Number.isSafeInteger(id) || id < 1) throw notFound();
    const row = await selectPublic(knex, model, e, visible(knex, e).where('t.id', id), ctx.state.lang).first();
    if (!row) throw notFound();
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = shape(model, e, row, ctx.state.lang);
  });

  router.get('/map/layers/:entity', async (ctx) => {
    const e = exposed(ctx);
    const map = e.public!.map;
    if (!map) throw notFound();
    const bbox = parseBbox(ctx.query.bbox);
    if (!bbox) throw badParam('bbox');
    const box = knex.raw('box(point(?, ?), point(?, ?))', bbox);
    const qb = visible(knex, e).where((w) => {
      if (map.point) w.orWhereRaw(`t.${q(map.point)} <@ ?`, [box]);
      if (map.shape) w.orWhereRaw(`t.${q(map.shape)} && polygon(?)`, [box]);
    });
    const cols = ['t.id'];
    if (map.point) cols.push(`(t.${q(map.point)})[0] AS lng`, `(t.${q(map.point)})[1] AS lat`);
    else cols.push(`(center(t.${q(map.shape!)}::circle))[0] AS lng`, `(center(t.${q(map.shape!)}::circle))[1] AS lat`);
    if (map.title) cols.push(`${sortExpression(e, map.title, ctx.state.lang, 't')} AS title`);
    if (map.kind) cols.push(`t.${q(map.kind)} AS kind`);
    if (map.shape) cols.push(`${columnSelect(map.shape, e.fields[map.shape], 't').replace(/ AS .*$/, '')} AS shape`);
    const rows = await qb
      .select(knex.raw(cols.join(', ')))
      .orderBy('t.id')
      .limit(MAX_LAYER_FEATURES + 1);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = {
      layer: e.name,
      truncated: rows.length > MAX_LAYER_FEATURES,
      items: rows.slice(0, MAX_LAYER_FEATURES).map((r: Record<string, unknown>) => ({
        id: Number(r.id),
        lng: round(Number(r.lng)),
        lat: round(Number(r.lat)),
        ...(map.title ? { title: r.title === null || r.title === undefined ? null : String(r.title) } : {}),
        ...(map.kind ? { kind: r.kind } : {}),
        ...(map.shape ? { shape: r.shape } : {}),
      })),
    };
  });

  /** A file is public when a public field of a public row refers to it. */
  router.get('/files/:id', async (ctx) => {
    const id = Number(ctx.params.id);
    if (!Number.isSafeInteger(id) || id < 1) throw notFound();
    for (const e of model.entities.values()) {
      if (!e.public) continue;
      const fileFields = e.public.fields.filter((f) => ['file', 'image', 'files'].includes(e.fields[f]?.type));
      if (!fileFields.length) continue;
      const hit = await visible(knex, e)
        .where((w) => {
          for (const f of fileFields) {
            if (e.fields[f].type === 'files') w.orWhereRaw(`t.${q(f)} @> ARRAY[?]::bigint[]`, [id]);
            else w.orWhere(`t.${f}`, id);
          }
        })
        .first('t.id');
      if (hit) {
        await sendResource(ctx, knex, id, 'public, max-age=86400');
        return;
      }
    }
    throw notFound();
  });

  return router;
}

/** Features a public GeoJSON answer reads at a time. */
const GEOJSON_BATCH = 500;

/**
 * A public list's parameters: the filters the public may use on the entity (publicFilters), and
 * the named others (`page`, `perPage`; `bbox`, `limit`); any other is a 400 naming it, so nothing
 * private is probed through a filter.
 */
function publicListParams(e: EntityMeta, raw: Record<string, string | string[] | undefined>, own: string[]): ListParams {
  const allowed = publicFilters(e);
  const query: Record<string, string | string[] | undefined> = {};
  for (const [k, v] of Object.entries(raw)) {
    const base = k.replace(/^(from|to)_/, '');
    if (k === 'page' || k === 'perPage') {
      if (own.includes(k)) query[k] = v;
      else throw badParam(k, 'errors.unknown_filter');
    } else if (own.includes(k)) continue;
    else if (allowed.has(base)) query[k] = v;
    else if (k !== 'lang') throw badParam(k, 'errors.unknown_filter');
  }
  if (own.includes('perPage') && query.perPage === undefined) query.perPage = '20';
  return parseListParams(e, query);
}

/** Enum values get their caption beside them as `<field>_name`; rich text is sanitised. */
function shape(model: MetaModel, e: EntityMeta, row: Record<string, unknown>, lang: Lang): Record<string, unknown> {
  for (const name of e.public!.fields) {
    const f = e.fields[name];
    if (f.type === 'enum' && row[name] !== null && row[name] !== undefined)
      row[`${name}_name`] = translate(model, lang, `enums.${name}.${row[name]}`);
    // rich text was sanitised when stored; again on the way out, for rows written around the engine (seeds, imports)
    if (f.html && row[name] != null) row[name] = sanitizeRich(row[name]);
  }
  row.id = Number(row.id);
  return row;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
