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
import { publicColumns, publicEntity, selectPublic, visible } from '../../engine/public-read.ts';
import {
  cellsInView,
  publicAggregates,
  treesByRegionCentre,
  yearByRegion,
  yearBySource,
  yearBySpecies,
  type PublicAggregates,
} from '../../read-models/public-stats.ts';
import { formUploads } from '../../read-models/files.ts';
import { benefitsOf, benefitsPerTree, BENEFITS_SOURCE, dbhClassOf, dbhFromCircumference } from '../../domain/ecosystem-benefits.ts';
import type { EntityMeta, MetaModel } from '../../meta/types.ts';
import { verifyDocument } from '../../engine/documents.ts';

/** The national aim: trees and bushes planted a year. */
export const ANNUAL_GOAL = 200_000_000;
const MAX_TREES_IN_VIEW = 3000;

/** Public submissions (and photo uploads) per address an hour, counted in the database: every server process shares them. */
const limiters = new WeakMap<Knex, RateLimiter>();
/** The public forms' one per-address limit (the planting form, people facts, uploads, suggestions). */
export const limiter = (knex: Knex) => {
  let l = limiters.get(knex);
  if (!l) limiters.set(knex, (l = new RateLimiter(knex, 'public-form', Number(process.env.ECOFOND_PUBLIC_FORM_PER_HOUR || 10), 3600_000)));
  return l;
};
/** Document checks per address an hour (decision 0075): a person checks a few, a guesser is stopped long before a hit. */
const verifyLimiters = new WeakMap<Knex, RateLimiter>();
const verifyLimiter = (knex: Knex) => {
  let l = verifyLimiters.get(knex);
  if (!l)
    verifyLimiters.set(
      knex,
      (l = new RateLimiter(knex, 'public-verify', Number(process.env.ECOFOND_PUBLIC_VERIFY_PER_HOUR || 120), 3600_000)),
    );
  return l;
};
const cache = (ctx: AppContext, seconds: number) => ctx.set('Cache-Control', `public, max-age=${seconds}`);
const yearOf = (raw: unknown) => {
  const year = raw === undefined ? currentYearTashkent() : typeof raw === 'string' && /^\d{4}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw badRequest('errors.bad_param', { name: 'year' });
  return year;
};
/** An entity's public block, or a 404: every read here is of what a block opens (api/engine/public-read.ts). */
const exposed = (model: MetaModel, name: string): EntityMeta => {
  const e = publicEntity(model, name);
  if (!e) throw notFound();
  return e;
};
/** The public's scope over the plantings' aggregates, or a 404 (api/read-models/public-stats.ts). */
const aggregates = (model: MetaModel): PublicAggregates => {
  const scope = publicAggregates(model);
  if (!scope) throw notFound();
  return scope;
};
/** The active rows among the public ones, when the block opens `is_active` (it says which the forms offer). */
const active = (e: EntityMeta, qb: Knex.QueryBuilder): Knex.QueryBuilder =>
  e.public!.fields.includes('is_active') ? qb.where('t.is_active', true) : qb;
const validators = new WeakMap<EntityMeta, PayloadValidator>();
const formValidator = (e: EntityMeta) => {
  let v = validators.get(e);
  if (!v) validators.set(e, (v = compilePayloadValidator(e, 'create')));
  return v;
};

/**
 * The public site's calls, without sign-in (metadata/modules/public-site.json): statistics from
 * the aggregates, the map's viewport, a planting's public passport, the species and regions, and
 * the public planting form (rate-limited per address; saved for moderation). Entities are read
 * through their public blocks (api/engine/public-read.ts: the block's rows and fields only, as the
 * generic public routes read them), the aggregates through api/read-models/public-stats.ts.
 */
export const PUBLIC_HANDLERS: Record<string, RouteHandler> = {
  /**
   * An issued document checked by its code (the QR code on the paper opens the public page that
   * asks this): what was issued, by which office, when, the file's hash, the signature and whether
   * it still stands; no personal data (api/engine/documents.ts verifyDocument). Limited per address.
   */
  'public-site.verifyDocument': async (ctx, { knex, model }) => {
    if (!(await verifyLimiter(knex).take(ctx.ip))) throw new ApiError('tooManyAttempts', 'errors.too_many_checks');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await verifyDocument(knex, model, ctx.params.code);
  },

  /** The active public regions in their order, each name in the three languages, its centre as { lat, lng }. */
  'public-site.regions': async (ctx, { knex, model }) => {
    const e = exposed(model, 'regions');
    const cols: (string | Knex.Raw)[] = publicColumns(e, ['id', 'soato', 'name']);
    if (e.public!.fields.includes('centre')) cols.push(knex.raw(`json_build_object('lat', t.centre[1], 'lng', t.centre[0]) as centre`));
    const qb = active(e, visible(knex, e));
    if (e.public!.fields.includes('ordering')) qb.orderBy('t.ordering');
    cache(ctx, 3600);
    ctx.body = await qb.orderBy('t.id').select(cols);
  },

  /** The active public species by latin name, each name in the three languages. */
  'public-site.species': async (ctx, { knex, model }) => {
    const e = exposed(model, 'tree-species');
    const qb = active(e, visible(knex, e));
    if (e.public!.fields.includes('latin_name')) qb.orderBy('t.latin_name');
    cache(ctx, 3600);
    ctx.body = await qb.orderBy('t.id').select(publicColumns(e, ['id', 'code', 'latin_name', 'name', 'kind']));
  },

  /** This year's count against the 200 million aim, by region, from the aggregates. */
  'public-site.statsSummary': async (ctx, { knex, model }) => {
    const scope = aggregates(model);
    const year = yearOf(ctx.query.year);
    const [byRegion, bySource] = await Promise.all([yearByRegion(knex, scope, year), yearBySource(knex, scope, year)]);
    const trees = byRegion.reduce((s, r) => s + r.trees, 0);
    cache(ctx, 60);
    ctx.body = {
      year,
      goal: ANNUAL_GOAL,
      trees,
      progress: trees / ANNUAL_GOAL,
      plantings: byRegion.reduce((s, r) => s + r.plantings, 0),
      by_source: bySource,
      by_region: byRegion,
    };
  },

  /** Trees by species for a year (and a region). */
  'public-site.statsSpecies': async (ctx, { knex, model }) => {
    const scope = aggregates(model);
    const year = yearOf(ctx.query.year);
    let region: number | undefined;
    if (ctx.query.region_id !== undefined) {
      region = Number(ctx.query.region_id);
      if (!Number.isSafeInteger(region)) throw badRequest('errors.bad_param', { name: 'region_id' });
    }
    cache(ctx, 60);
    ctx.body = await yearBySpecies(knex, scope, year, region);
  },

  /**
   * One viewport of the map: `bbox=minLng,minLat,maxLng,maxLat&zoom=z`. Counts per region at low
   * zoom, cells of a grid at middle zoom, single plantings (at most 3 000) when zoomed in — always
   * from the aggregates or an index, never a scan of the registry.
   */
  'public-site.mapPlantings': async (ctx, { knex, model }) => {
    const scope = aggregates(model);
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
      const rows = await versionedCache(knex, PUBLIC_DATA).get(`map-regions:${irrigated}`, () =>
        treesByRegionCentre(knex, scope, irrigated),
      );
      ctx.body = { layer, items: rows.filter((r) => r.trees > 0).map((r) => [r.lng, r.lat, r.trees, r.id]) };
      return;
    }
    if (layer === 'cells') {
      const size = cellSize(level!);
      const view: [number, number, number, number] = [
        Math.floor(minLng / size),
        Math.floor(minLat / size),
        Math.floor(maxLng / size),
        Math.floor(maxLat / size),
      ];
      const rows = await cellsInView(knex, scope, level!, view, irrigated);
      ctx.body = {
        layer,
        size,
        items: rows.map((r: { trees: number; irrigated: number; lng_sum: number; lat_sum: number }) => {
          const n = Number(r.trees);
          return [round(r.lng_sum / n), round(r.lat_sum / n), irrigated ? Number(r.irrigated) : n];
        }),
      };
      return;
    }
    // single plantings: the public rows of the plantings' block, its fields only
    const e = scope.plantings;
    if (
      !['location', 'count', 'species_id'].every((f) => e.public!.fields.includes(f)) ||
      (irrigated && !e.public!.fields.includes('irrigation'))
    )
      throw notFound();
    const trees = visible(knex, e).whereRaw('t.location <@ box(point(?, ?), point(?, ?))', [minLng, minLat, maxLng, maxLat]);
    if (irrigated) trees.where('t.irrigation', true);
    const rows = await trees
      .limit(MAX_TREES_IN_VIEW + 1)
      .select('t.id', knex.raw('t.location[0] as lng'), knex.raw('t.location[1] as lat'), 't.count', 't.species_id');
    ctx.body = {
      layer,
      truncated: rows.length > MAX_TREES_IN_VIEW,
      items: rows
        .slice(0, MAX_TREES_IN_VIEW)
        .map((r: { id: number; lng: number; lat: number; count: number; species_id: number }) => [
          round(r.lng),
          round(r.lat),
          r.count,
          r.id,
          r.species_id,
        ]),
    };
  },

  /**
   * A planting's public passport: what the `plantings` entity's public block opens (never the
   * responsible person's name), its species in three languages, region and organisation, its trunk
   * diameter and what it gives a year (estimates after the benefit tables, source named).
   */
  'public-site.passport': async (ctx, { knex, model, id, lang }) => {
    const e = exposed(model, 'plantings');
    const row = await selectPublic(knex, model, e, visible(knex, e).where('t.id', id!), lang).first();
    if (!row) throw notFound();
    // the species and the region through their own public blocks (names in the three languages);
    // the organisation has none: its title is what the plantings' block opens (`org_id_name`)
    const speciesE = exposed(model, 'tree-species');
    const regionE = publicEntity(model, 'regions');
    const [species, region] = await Promise.all([
      visible(knex, speciesE)
        .where('t.id', row.species_id ?? null)
        .first(publicColumns(speciesE, ['code', 'latin_name', 'name', 'kind'])),
      regionE && row.region_id != null
        ? visible(knex, regionE)
            .where('t.id', row.region_id)
            .first(publicColumns(regionE, ['name']))
        : undefined,
    ]);
    if (!species) throw notFound();
    const circumference = row.circumference_cm === null || row.circumference_cm === undefined ? null : Number(row.circumference_cm);
    const dbhClass = dbhClassOf(circumference);
    const perTree = benefitsPerTree({ code: species.code, kind: species.kind }, dbhClass);
    const all = benefitsOf([{ species: { code: species.code, kind: species.kind }, dbhClass, trees: row.count }]);
    cache(ctx, 300);
    ctx.body = {
      ...row,
      id: Number(row.id),
      species: species.name,
      latin_name: species.latin_name,
      kind: species.kind,
      region: region?.name ?? null,
      organisation: row.org_id_name ?? null,
      images: row.images ?? [],
      dbh_cm: circumference === null ? null : Math.round(dbhFromCircumference(circumference) * 10) / 10,
      benefits: {
        dbh_class: dbhClass,
        co2_stored_kg: all.co2StoredKg,
        co2_sequestered_kg_year: all.co2SequesteredKgYear,
        rain_intercepted_m3_year: all.rainInterceptedM3Year,
        per_tree: {
          co2_stored_kg: perTree.co2StoredKg,
          co2_sequestered_kg_year: perTree.co2SequesteredKgYear,
          rain_intercepted_m3_year: perTree.rainInterceptedM3Year,
        },
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
    const e = exposed(model, 'plantings');
    const resource = params.resource as number;
    if (!e.public!.fields.includes('images')) throw notFound();
    const hit = await visible(knex, e).where('t.id', id!).whereRaw('t.images @> ARRAY[?]::bigint[]', [resource]).first('t.id');
    if (!hit) throw notFound();
    await sendResource(ctx, knex, resource, 'public, max-age=86400');
  },

  /**
   * A photo (5 MB) or a short video (MP4, WebM, MOV; 20 MB) for the public forms, counted against
   * the same per-address limit. A planting takes photos only; a people fact both.
   */
  'public-site.upload': async (ctx, { knex }) => {
    if (!(await limiter(knex).take(`upload:${ctx.ip}`))) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    ctx.status = 201;
    const row = await storeUpload(knex, ctx, { limitMb: 5, videoLimitMb: 20, userId: null, imagesOnly: true });
    ctx.body = { id: row.id, mime: row.mime, size: row.size };
  },

  /**
   * The public planting form: limited per address, validated like the entity, and saved for
   * moderation through the engine (as nobody: the submission's audit row has no user).
   */
  'public-site.plant': async (ctx, { knex, model, trustedRepo }) => {
    const key = ctx.ip;
    if (!(await limiter(knex).take(key))) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    const entity = model.entities.get('public-plantings')!;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const data = normalisePayload(entity, body);
    const errors = formValidator(entity)(data);
    if (errors) throw validationError(errors);
    // a species the public list offers: a public, active one
    const speciesE = exposed(model, 'tree-species');
    const species = await active(speciesE, visible(knex, speciesE))
      .where('t.id', data.species_id as number)
      .first('t.id');
    if (!species) throw validationError({ species_id: { key: 'validation.ref_not_found' } });
    if (data.photo && !(await formUploads(knex, [data.photo as number], null, ['image'])).has(Number(data.photo)))
      throw validationError({ photo: { key: 'validation.ref_not_found' } });
    const { lat, lng } = data.location as { lat: number; lng: number };
    // the public region whose centre is nearest: good enough to count the planting in a region's statistics
    const regionE = exposed(model, 'regions');
    const region = regionE.public!.fields.includes('centre')
      ? await visible(knex, regionE).orderByRaw('t.centre <-> point(?, ?)', [lng, lat]).first('t.id')
      : undefined;
    const row = await trustedRepo('public-plantings').create(
      { ...data, region_id: region?.id ?? null, ip: key.slice(0, 64) },
      { fields: ['ip'] },
    );
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
  'public-site.peopleFact': async (ctx, { knex, model, trustedRepo }) => {
    if (!(await limiter(knex).take(ctx.ip))) throw new ApiError('tooManyAttempts', 'errors.too_many_submissions');
    const entity = model.entities.get('people-facts')!;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const data = normalisePayload(entity, Object.fromEntries(PUBLIC_FACT_FIELDS.filter((f) => f in body).map((f) => [f, body[f]])));
    const errors = formValidator(entity)(data);
    if (errors) throw validationError(errors);
    const regionE = exposed(model, 'regions');
    if (
      !(await active(regionE, visible(knex, regionE))
        .where('t.id', data.region_id as number)
        .first('t.id'))
    )
      throw validationError({ region_id: { key: 'validation.ref_not_found' } });
    const files = ((data.files as number[] | null | undefined) ?? []).map(Number);
    if (files.length > MAX_PUBLIC_FILES)
      throw validationError({ files: { key: 'validation.too_many', args: { limit: MAX_PUBLIC_FILES } } });
    if (files.length) {
      const found = await formUploads(knex, files, null, ['image', 'video']);
      if (found.size !== new Set(files).size) throw validationError({ files: { key: 'errors.public_file' } });
    }
    const row = await trustedRepo('people-facts').create(data);
    ctx.status = 201;
    ctx.body = { id: row.id, number: row.number, status: row.status };
  },
};

/** What the public people-fact form may say; the rest of a fact is the staff's. */
const PUBLIC_FACT_FIELDS = [
  'description',
  'region_id',
  'area_id',
  'mahalla_id',
  'address',
  'location',
  'files',
  'informant_name',
  'informant_phone',
  'informant_email',
];
/** Photos and videos a public fact may carry. */
const MAX_PUBLIC_FILES = 5;

const round = (n: number) => Math.round(n * 1e6) / 1e6;
