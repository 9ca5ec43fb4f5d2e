import Router from '@koa/router';
import type { Knex } from 'knex';
import type { MetaModel } from '../meta/types.ts';
import type { AppState, AppContext } from './middleware.ts';
import { ApiError, badRequest, notFound, validationError } from './errors.ts';
import { compilePayloadValidator } from '../engine/payload-schema.ts';
import { normalisePayload } from '../engine/normalise.ts';
import { layerForZoom, cellSize, parseBbox } from '../map/grid.ts';
import { RateLimiter } from './rate-limit.ts';
import { currentYearTashkent } from '../meta/today.ts';
import { sendResource, storeUpload } from './resource-routes.ts';
import { benefitsOf, benefitsPerTree, BENEFITS_SOURCE, dbhClassOf, dbhFromCircumference } from '../domain/ecosystem-benefits.ts';

/** The national aim: trees and bushes planted a year. */
export const ANNUAL_GOAL = 200_000_000;
const MAX_TREES_IN_VIEW = 3000;

/**
 * The public site's calls, without sign-in: statistics from the aggregates, the map's viewport,
 * a planting's public passport, the species and regions, and the public planting form
 * (rate-limited per address; saved for moderation).
 */
export function publicRoutes(model: MetaModel, knex: Knex): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/public' });
  const submissions = new RateLimiter(Number(process.env.ECOFOND_PUBLIC_FORM_PER_HOUR || 10), 3600_000);
  const entity = model.entities.get('public-plantings')!;
  const validate = compilePayloadValidator(entity, 'create');
  const cache = (ctx: AppContext, seconds: number) => ctx.set('Cache-Control', `public, max-age=${seconds}`);
  const yearOf = (raw: unknown) => {
    const year = raw === undefined ? currentYearTashkent() : Number(raw);
    if (!Number.isInteger(year) || year < 2000 || year > 2100) throw badRequest('errors.bad_param', { name: 'year' });
    return year;
  };

  router.get('/regions', async (ctx) => {
    cache(ctx, 3600);
    ctx.body = await knex('regions').where({ is_active: true }).orderBy('ordering')
      .select('id', 'soato', 'name', knex.raw(`json_build_object('lat', centre[1], 'lng', centre[0]) as centre`));
  });

  router.get('/species', async (ctx) => {
    cache(ctx, 3600);
    ctx.body = await knex('tree_species').where({ is_active: true }).orderBy('latin_name').select('id', 'code', 'latin_name', 'name', 'kind');
  });

  /** This year's count against the 200 million aim, by region, from the aggregates. */
  router.get('/stats/summary', async (ctx) => {
    cache(ctx, 60);
    const year = yearOf(ctx.query.year);
    const byRegion = await knex('regions as r').leftJoin('planting_stats as s', (j) => j.on('s.region_id', 'r.id').andOn('s.year', knex.raw('?', [year])))
      .groupBy('r.id').orderBy('r.ordering')
      .select('r.id as region_id', 'r.name', knex.raw('coalesce(sum(s.trees), 0)::bigint as trees'), knex.raw('coalesce(sum(s.plantings), 0)::bigint as plantings'));
    const trees = byRegion.reduce((s: number, r: { trees: number }) => s + Number(r.trees), 0);
    const bySource = await knex('planting_stats').where({ year }).groupBy('source').select('source', knex.raw('sum(trees)::bigint as trees'));
    ctx.body = {
      year, goal: ANNUAL_GOAL, trees, progress: trees / ANNUAL_GOAL,
      plantings: byRegion.reduce((s: number, r: { plantings: number }) => s + Number(r.plantings), 0),
      by_source: Object.fromEntries(bySource.map((r: { source: string; trees: number }) => [r.source, Number(r.trees)])),
      by_region: byRegion.map((r: { trees: number; plantings: number }) => ({ ...r, trees: Number(r.trees), plantings: Number(r.plantings) })),
    };
  });

  /** Trees by species for a year (and a region). */
  router.get('/stats/species', async (ctx) => {
    cache(ctx, 60);
    const year = yearOf(ctx.query.year);
    const q = knex('planting_stats as s').join('tree_species as t', 't.id', 's.species_id').where('s.year', year)
      .groupBy('t.id').orderBy('trees', 'desc')
      .select('t.id as species_id', 't.name', 't.latin_name', 't.kind', knex.raw('sum(s.trees)::bigint as trees'));
    if (ctx.query.region_id !== undefined) {
      const region = Number(ctx.query.region_id);
      if (!Number.isSafeInteger(region)) throw badRequest('errors.bad_param', { name: 'region_id' });
      q.where('s.region_id', region);
    }
    ctx.body = (await q).map((r: { trees: number }) => ({ ...r, trees: Number(r.trees) }));
  });

  /**
   * One viewport of the map: `bbox=minLng,minLat,maxLng,maxLat&zoom=z`. Counts per region at low
   * zoom, cells of a grid at middle zoom, single plantings (at most 3 000) when zoomed in — always
   * from the aggregates or an index, never a scan of the registry.
   */
  router.get('/map/plantings', async (ctx) => {
    const bbox = parseBbox(ctx.query.bbox);
    const zoom = Number(ctx.query.zoom);
    if (!bbox) throw badRequest('errors.bad_param', { name: 'bbox' });
    if (!Number.isFinite(zoom) || zoom < 0 || zoom > 22) throw badRequest('errors.bad_param', { name: 'zoom' });
    const [minLng, minLat, maxLng, maxLat] = bbox;
    const { layer, level } = layerForZoom(zoom);
    // irrigation=1: the irrigated trees only (the irrigation layer)
    const irrigated = ctx.query.irrigation === '1' || ctx.query.irrigation === 'true';
    cache(ctx, 30);
    if (layer === 'regions') {
      const rows = irrigated
        ? await knex('regions as r').join('planting_facts as s', 's.region_id', 'r.id').where('s.irrigation', true).groupBy('r.id')
          .select('r.id', knex.raw('r.centre[0] as lng'), knex.raw('r.centre[1] as lat'), knex.raw('sum(s.trees)::bigint as trees'))
        : await knex('regions as r').join('planting_stats as s', 's.region_id', 'r.id').groupBy('r.id')
          .select('r.id', knex.raw('r.centre[0] as lng'), knex.raw('r.centre[1] as lat'), knex.raw('sum(s.trees)::bigint as trees'));
      ctx.body = { layer, items: rows.filter((r: { trees: number }) => Number(r.trees) > 0).map((r: { id: number; lng: number; lat: number; trees: number }) => [r.lng, r.lat, Number(r.trees), r.id]) };
      return;
    }
    if (layer === 'cells') {
      const size = cellSize(level!);
      const q = knex('planting_cells').where({ level })
        .whereBetween('cx', [Math.floor(minLng / size), Math.floor(maxLng / size)])
        .whereBetween('cy', [Math.floor(minLat / size), Math.floor(maxLat / size)])
        .select('trees', 'irrigated', 'lng_sum', 'lat_sum');
      if (irrigated) q.where('irrigated', '>', 0);
      const rows = await q;
      ctx.body = {
        layer, size,
        items: rows.map((r: { trees: number; irrigated: number; lng_sum: number; lat_sum: number }) => {
          const n = Number(r.trees);
          return [round(r.lng_sum / n), round(r.lat_sum / n), irrigated ? Number(r.irrigated) : n];
        }),
      };
      return;
    }
    const trees = knex('plantings')
      .whereRaw('location <@ box(point(?, ?), point(?, ?))', [minLng, minLat, maxLng, maxLat]);
    if (irrigated) trees.where('irrigation', true);
    const rows = await trees
      .limit(MAX_TREES_IN_VIEW + 1)
      .select('id', knex.raw('location[0] as lng'), knex.raw('location[1] as lat'), 'count', 'species_id');
    ctx.body = {
      layer, truncated: rows.length > MAX_TREES_IN_VIEW,
      items: rows.slice(0, MAX_TREES_IN_VIEW).map((r: { id: number; lng: number; lat: number; count: number; species_id: number }) => [round(r.lng), round(r.lat), r.count, r.id, r.species_id]),
    };
  });

  /**
   * A planting's public passport: what the tree is, where, since when, by whom, its photos, its
   * trunk diameter and what it gives a year (estimates after the benefit tables, source named).
   */
  router.get('/plantings/:id', async (ctx) => {
    const id = Number(ctx.params.id);
    if (!Number.isSafeInteger(id)) throw notFound();
    const row = await knex('plantings as p').join('tree_species as s', 's.id', 'p.species_id').join('regions as r', 'r.id', 'p.region_id')
      .leftJoin('planting_orgs as o', 'o.id', 'p.org_id')
      .where('p.id', id)
      .first('p.id', 'p.count', 'p.planted_on', 'p.place', 'p.place_type', 'p.height_m', 'p.circumference_cm', 'p.responsible', 'p.irrigation', 'p.source', 'p.images',
        knex.raw(`json_build_object('lat', p.location[1], 'lng', p.location[0]) as location`),
        's.code as species_code', 's.latin_name', 's.name as species', 's.kind', 'r.name as region', 'o.name as organisation');
    if (!row) throw notFound();
    const circumference = row.circumference_cm === null ? null : Number(row.circumference_cm);
    const dbhClass = dbhClassOf(circumference);
    const perTree = benefitsPerTree({ code: row.species_code, kind: row.kind }, dbhClass);
    const all = benefitsOf([{ species: { code: row.species_code, kind: row.kind }, dbhClass, trees: row.count }]);
    cache(ctx, 300);
    ctx.body = {
      ...row,
      images: row.images ?? [],
      dbh_cm: circumference === null ? null : Math.round(dbhFromCircumference(circumference) * 10) / 10,
      benefits: {
        dbh_class: dbhClass,
        co2_stored_kg: all.co2StoredKg, co2_sequestered_kg_year: all.co2SequesteredKgYear, rain_intercepted_m3_year: all.rainInterceptedM3Year,
        per_tree: { co2_stored_kg: perTree.co2StoredKg, co2_sequestered_kg_year: perTree.co2SequesteredKgYear, rain_intercepted_m3_year: perTree.rainInterceptedM3Year },
        source: BENEFITS_SOURCE,
      },
    };
  });

  /** The benefit tables' source, for the statistics pages that show estimates. */
  router.get('/benefits-source', async (ctx) => {
    cache(ctx, 3600);
    ctx.body = BENEFITS_SOURCE;
  });

  /** A passport's photo: only images a planting refers to. */
  router.get('/plantings/:id/images/:resource', async (ctx) => {
    const id = Number(ctx.params.id);
    const resource = Number(ctx.params.resource);
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(resource)) throw notFound();
    const hit = await knex('plantings').where({ id }).whereRaw('? = ANY(images)', [resource]).first('id');
    if (!hit) throw notFound();
    await sendResource(ctx, knex, resource, 'public, max-age=86400');
  });

  /** A photo for the public form: images only, 5 MB, counted against the same per-address limit. */
  router.post('/uploads', async (ctx) => {
    if (!submissions.take(`upload:${ctx.ip}`)) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    ctx.status = 201;
    const row = await storeUpload(knex, ctx, { limitMb: 5, userId: null, imagesOnly: true });
    ctx.body = { id: row.id, mime: row.mime, size: row.size };
  });

  /** The public planting form: validated like the entity, limited per address, saved for moderation. */
  router.post('/plantings', async (ctx) => {
    const key = ctx.ip;
    if (!submissions.take(key)) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const data = normalisePayload(entity, body);
    const errors = validate(data);
    if (errors) throw validationError(errors);
    const species = await knex('tree_species').where({ id: data.species_id, is_active: true }).first('id');
    if (!species) throw validationError({ species_id: { key: 'validation.ref_not_found' } });
    if (data.photo && !(await knex('resources').where({ id: data.photo }).whereLike('mime', 'image/%').first('id'))) throw validationError({ photo: { key: 'validation.ref_not_found' } });
    const { lat, lng } = data.location as { lat: number; lng: number };
    // the region whose centre is nearest: good enough to count the planting in a region's statistics
    const region = await knex('regions').orderByRaw('centre <-> point(?, ?)', [lng, lat]).first('id');
    const [row] = await knex('public_plantings').insert({
      first_name: data.first_name, last_name: data.last_name, species_id: data.species_id, count: data.count, planted_on: data.planted_on,
      location: knex.raw('point(?, ?)', [lng, lat]), region_id: region?.id ?? null, photo: data.photo ?? null, ip: key.slice(0, 64), status: 'pending',
    }).returning('id');
    ctx.status = 201;
    ctx.body = { id: row.id, status: 'pending' };
  });

  return router;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
