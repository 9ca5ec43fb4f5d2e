import type { Knex } from 'knex';
import type { RouteHandler } from '../types.ts';
import type { AppContext } from '../../http/middleware.ts';
import { ApiError, badRequest, notFound, validationError } from '../../kernel/errors.ts';
import { compilePayloadValidator, type PayloadValidator } from '../../engine/payload-schema.ts';
import { normalisePayload } from '../../engine/normalise.ts';
import { layerForZoom, cellSize, parseBbox } from '../../map/grid.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { PUBLIC_DATA, versionedCache } from '../../db/data-version.ts';
import { currentYearTashkent } from '../../meta/today.ts';
import { sendResource, storeUpload } from '../../http/uploads.ts';
import { selectPublic, visible } from '../../http/public-entity-routes.ts';
import { benefitsOf, benefitsPerTree, BENEFITS_SOURCE, dbhClassOf, dbhFromCircumference } from '../../domain/ecosystem-benefits.ts';
import type { EntityMeta } from '../../meta/types.ts';
import { Repository } from '../../engine/repository.ts';
import { ANONYMOUS } from '../../auth/ability.ts';

/** The national aim: trees and bushes planted a year. */
export const ANNUAL_GOAL = 200_000_000;
const MAX_TREES_IN_VIEW = 3000;
/** the widest view asked column by column (a 4K screen at a level's lowest zoom spans ~300 columns of its cells) */
const MAX_CELL_COLUMNS = 1000;

/** Public submissions (and photo uploads) per address an hour, counted in the database: every server process shares them. */
const limiters = new WeakMap<Knex, RateLimiter>();
/** The public forms' one per-address limit (the planting form, people facts, uploads, suggestions). */
export const limiter = (knex: Knex) => {
  let l = limiters.get(knex);
  if (!l) limiters.set(knex, (l = new RateLimiter(knex, 'public-form', Number(process.env.ECOFOND_PUBLIC_FORM_PER_HOUR || 10), 3600_000)));
  return l;
};
const cache = (ctx: AppContext, seconds: number) => ctx.set('Cache-Control', `public, max-age=${seconds}`);
const yearOf = (raw: unknown) => {
  const year = raw === undefined ? currentYearTashkent() : typeof raw === 'string' && /^\d{4}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw badRequest('errors.bad_param', { name: 'year' });
  return year;
};
const validators = new WeakMap<EntityMeta, PayloadValidator>();
const formValidator = (e: EntityMeta) => {
  let v = validators.get(e);
  if (!v) validators.set(e, (v = compilePayloadValidator(e, 'create')));
  return v;
};

/**
 * The public site's calls, without sign-in (metadata/modules/public-site.json): statistics from
 * the aggregates, the map's viewport, a planting's public passport, the species and regions, and
 * the public planting form (rate-limited per address; saved for moderation).
 */
export const PUBLIC_HANDLERS: Record<string, RouteHandler> = {

  'public-site.regions': async (ctx, { knex }) => {
    cache(ctx, 3600);
    ctx.body = await knex('regions').where({ is_active: true }).orderBy('ordering')
      .select('id', 'soato', 'name', knex.raw(`json_build_object('lat', centre[1], 'lng', centre[0]) as centre`));
  },

  'public-site.species': async (ctx, { knex }) => {
    cache(ctx, 3600);
    ctx.body = await knex('tree_species').where({ is_active: true }).orderBy('latin_name').select('id', 'code', 'latin_name', 'name', 'kind');
  },

  /** This year's count against the 200 million aim, by region, from the aggregates. */
  'public-site.statsSummary': async (ctx, { knex }) => {
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
  },

  /** Trees by species for a year (and a region). */
  'public-site.statsSpecies': async (ctx, { knex }) => {
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
  },

  /**
   * One viewport of the map: `bbox=minLng,minLat,maxLng,maxLat&zoom=z`. Counts per region at low
   * zoom, cells of a grid at middle zoom, single plantings (at most 3 000) when zoomed in — always
   * from the aggregates or an index, never a scan of the registry.
   */
  'public-site.mapPlantings': async (ctx, { knex }) => {
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
      // the same fourteen counts for every viewport: kept while the plantings are unchanged (api/db/data-version.ts)
      const rows = await versionedCache(knex, PUBLIC_DATA).get(`map-regions:${irrigated}`, async () => irrigated
        ? await knex('regions as r').join('planting_year_facts as s', 's.region_id', 'r.id').where('s.irrigation', true).groupBy('r.id')
          .select('r.id', knex.raw('r.centre[0] as lng'), knex.raw('r.centre[1] as lat'), knex.raw('sum(s.trees)::bigint as trees'))
        : await knex('regions as r').join('planting_stats as s', 's.region_id', 'r.id').groupBy('r.id')
          .select('r.id', knex.raw('r.centre[0] as lng'), knex.raw('r.centre[1] as lat'), knex.raw('sum(s.trees)::bigint as trees')));
      ctx.body = { layer, items: rows.filter((r: { trees: number }) => Number(r.trees) > 0).map((r: { id: number; lng: number; lat: number; trees: number }) => [r.lng, r.lat, Number(r.trees), r.id]) };
      return;
    }
    if (layer === 'cells') {
      const size = cellSize(level!);
      // each column of cells its own range of the index (`cx = ANY`): a range of columns reads every
      // cell of those columns from the south of the country to its north, up to 50 times the view's
      // (zoom 13: 7 ms against 0.7 at 20 M plantings); a box wider than any screen keeps the range
      const [cx0, cx1] = [Math.floor(minLng / size), Math.floor(maxLng / size)];
      const q = knex('planting_cells').where({ level })
        .whereBetween('cy', [Math.floor(minLat / size), Math.floor(maxLat / size)])
        .select('trees', 'irrigated', 'lng_sum', 'lat_sum');
      if (cx1 - cx0 < MAX_CELL_COLUMNS) q.whereRaw('cx = ANY(?::int[])', [Array.from({ length: cx1 - cx0 + 1 }, (_, i) => cx0 + i)]);
      else q.whereBetween('cx', [cx0, cx1]);
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
  },

  /**
   * A planting's public passport: what the `plantings` entity's public block opens (never the
   * responsible person's name), its species in three languages, region and organisation, its trunk
   * diameter and what it gives a year (estimates after the benefit tables, source named).
   */
  'public-site.passport': async (ctx, { knex, model, id, lang }) => {
    const e = model.entities.get('plantings');
    if (!e?.public) throw notFound();
    const row = await selectPublic(knex, model, e, visible(knex, e).where('t.id', id!), lang).first();
    if (!row) throw notFound();
    const [species, region, org] = await Promise.all([
      knex('tree_species').where({ id: row.species_id }).first('code', 'latin_name', 'name', 'kind'),
      knex('regions').where({ id: row.region_id }).first('name'),
      row.org_id ? knex('planting_orgs').where({ id: row.org_id }).first('name') : undefined,
    ]);
    const circumference = row.circumference_cm === null || row.circumference_cm === undefined ? null : Number(row.circumference_cm);
    const dbhClass = dbhClassOf(circumference);
    const perTree = benefitsPerTree({ code: species.code, kind: species.kind }, dbhClass);
    const all = benefitsOf([{ species: { code: species.code, kind: species.kind }, dbhClass, trees: row.count }]);
    cache(ctx, 300);
    ctx.body = {
      ...row,
      id: Number(row.id),
      species: species.name, latin_name: species.latin_name, kind: species.kind, region: region?.name ?? null, organisation: org?.name ?? null,
      images: row.images ?? [],
      dbh_cm: circumference === null ? null : Math.round(dbhFromCircumference(circumference) * 10) / 10,
      benefits: {
        dbh_class: dbhClass,
        co2_stored_kg: all.co2StoredKg, co2_sequestered_kg_year: all.co2SequesteredKgYear, rain_intercepted_m3_year: all.rainInterceptedM3Year,
        per_tree: { co2_stored_kg: perTree.co2StoredKg, co2_sequestered_kg_year: perTree.co2SequesteredKgYear, rain_intercepted_m3_year: perTree.rainInterceptedM3Year },
        source: BENEFITS_SOURCE,
      },
    };
  },

  /** The benefit tables' source, for the statistics pages that show estimates. */
  'public-site.benefitsSource': async (ctx) => {
    cache(ctx, 3600);
    ctx.body = BENEFITS_SOURCE;
  },

  /** A passport's photo: only images a planting refers to. */
  'public-site.passportImage': async (ctx, { knex, model, id, params }) => {
    const e = model.entities.get('plantings');
    const resource = params.resource as number;
    if (!e?.public?.fields.includes('images')) throw notFound();
    const hit = await visible(knex, e).where('t.id', id!).whereRaw('t.images @> ARRAY[?]::bigint[]', [resource]).first('t.id');
    if (!hit) throw notFound();
    await sendResource(ctx, knex, resource, 'public, max-age=86400');
  },

  /**
   * A photo (5 MB) or a short video (MP4, WebM, MOV; 20 MB) for the public forms, counted against
   * the same per-address limit. A planting takes photos only; a people fact both.
   */
  'public-site.upload': async (ctx, { knex }) => {
    if (!await limiter(knex).take(`upload:${ctx.ip}`)) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    ctx.status = 201;
    const row = await storeUpload(knex, ctx, { limitMb: 5, videoLimitMb: 20, userId: null, imagesOnly: true });
    ctx.body = { id: row.id, mime: row.mime, size: row.size };
  },

  /**
   * The public planting form: limited per address, validated like the entity, and saved for
   * moderation through the engine (as nobody: the submission's audit row has no user).
   */
  'public-site.plant': async (ctx, { knex, model, lang }) => {
    const key = ctx.ip;
    if (!await limiter(knex).take(key)) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    const entity = model.entities.get('public-plantings')!;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const data = normalisePayload(entity, body);
    const errors = formValidator(entity)(data);
    if (errors) throw validationError(errors);
    const species = await knex('tree_species').where({ id: data.species_id, is_active: true }).first('id');
    if (!species) throw validationError({ species_id: { key: 'validation.ref_not_found' } });
    if (data.photo && !(await knex('resources').where({ id: data.photo }).whereNull('created_by').whereLike('mime', 'image/%').first('id'))) throw validationError({ photo: { key: 'validation.ref_not_found' } });
    const { lat, lng } = data.location as { lat: number; lng: number };
    // the region whose centre is nearest: good enough to count the planting in a region's statistics
    const region = await knex('regions').orderByRaw('centre <-> point(?, ?)', [lng, lat]).first('id');
    const row = await new Repository({ knex, model, principal: ANONYMOUS, lang, trusted: true }, entity)
      .create({ ...data, region_id: region?.id ?? null, ip: key.slice(0, 64) }, { fields: ['ip'] });
    ctx.status = 201;
    ctx.body = { id: row.id, status: row.status };
  },

  /**
   * The public's people fact: limited per address like the planting form (the same limiter and
   * window), only the form's fields taken, validated like the entity (a 400 names each field), the
   * photos and videos those uploaded through the public form, saved as a new fact from the public
   * site through the engine (as nobody: its audit row has no user). Answers its id and number, which
   * the informant quotes; nothing of it is readable publicly.
   */
  'public-site.peopleFact': async (ctx, { knex, model, lang }) => {
    if (!await limiter(knex).take(ctx.ip)) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    const entity = model.entities.get('people-facts')!;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const data = normalisePayload(entity, Object.fromEntries(PUBLIC_FACT_FIELDS.filter((f) => f in body).map((f) => [f, body[f]])));
    const errors = formValidator(entity)(data);
    if (errors) throw validationError(errors);
    if (!(await knex('regions').where({ id: data.region_id, is_active: true }).first('id'))) throw validationError({ region_id: { key: 'validation.ref_not_found' } });
    const files = ((data.files as number[] | null | undefined) ?? []).map(Number);
    if (files.length > MAX_PUBLIC_FILES) throw validationError({ files: { key: 'validation.too_many', args: { limit: MAX_PUBLIC_FILES } } });
    if (files.length) {
      const found = await knex('resources').whereIn('id', files).whereNull('created_by')
        .where((q) => q.whereLike('mime', 'image/%').orWhereLike('mime', 'video/%')).pluck('id');
      if (found.length !== new Set(files).size) throw validationError({ files: { key: 'errors.public_file' } });
    }
    const row = await new Repository({ knex, model, principal: ANONYMOUS, lang, trusted: true }, entity).create(data);
    ctx.status = 201;
    ctx.body = { id: row.id, number: row.number, status: row.status };
  },
};

/** What the public people-fact form may say; the rest of a fact is the staff's. */
const PUBLIC_FACT_FIELDS = ['description', 'region_id', 'area_id', 'mahalla_id', 'address', 'location', 'files', 'informant_name', 'informant_phone', 'informant_email'];
/** Photos and videos a public fact may carry. */
const MAX_PUBLIC_FILES = 5;

const round = (n: number) => Math.round(n * 1e6) / 1e6;
