import { readFileSync } from 'node:fs';
import type { EntityMeta, FieldMeta, Lang, MetaModel, ReportColumnMeta, ReportMeta, ReportParamMeta, RouteMeta } from '../meta/types.ts';
import { SYSTEM_REFS } from '../meta/columns.ts';
import { filterMeta } from '../meta/load.ts';
import { translate } from '../meta/captions.ts';
import { allows, type Principal } from '../auth/ability.ts';
import { fieldSchema, MAX_ID, payloadSchema } from '../engine/payload-schema.ts';
import { actionParamsSchema } from '../engine/workflow.ts';
import { MAX_OFFSET, MAX_PAGE } from '../engine/list-params.ts';
import { GEOJSON_TYPE, geometryFields } from '../engine/geojson.ts';
import { publicFilters, MAX_LAYER_FEATURES } from './public-entity-routes.ts';
import { ERROR_CODES } from './errors.ts';
import { mayCall, routeCatalogue, type ApiRoute } from '../meta/catalogue.ts';

/**
 * The OpenAPI 3.1 document of the API, generated from the metadata for one caller: the routes of
 * the catalogue (catalogue.ts) they may call — every route someone signed in may call with their
 * actions, entities they cannot read left out; without a token, the public calls only. Bodies are
 * the payload schemas the engine validates with (payload-schema.ts, workflow.ts), so the field
 * rules exist once; what JSON Schema cannot say (exact decimals, "not after today") is written as
 * a pattern where one fits and as `x-` keywords and words otherwise. Built once per model, language
 * and set of actions.
 */

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const response = (name: string): Schema => ({ $ref: `#/components/responses/${name}` });
const nullable = (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] });
const ID: Schema = { type: 'integer', minimum: 1, maximum: MAX_ID };
const DECIMAL_TEXT: Schema = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', description: 'an exact decimal as text' };

// ------------------------------------------------------------------ the engine's schemas in OpenAPI's dialect

/** `?background=` of an export route (docs/exports.md, "Background exports"). */
/** A delete's dry run: everything checked and done, then rolled back. */
const DRY_RUN: Schema = {
  name: 'dryRun',
  in: 'query',
  required: false,
  schema: { type: 'string', enum: ['1', 'true'] },
  description: 'check only: the answer the delete would get (404, 409 …), with nothing deleted',
};

const BACKGROUND = {
  name: 'background',
  in: 'query',
  required: false,
  description:
    'absent: the export streams unless it holds more rows than the setting `exports.background_rows` (10 000), when it is queued as a job; `1`: always a job; `0`: always the stream',
  schema: { type: 'string', enum: ['0', '1', 'auto'] },
};
/** The answer of an export queued as a background job. */
const QUEUED = {
  description:
    'queued as a background job (`Location: /api/jobs/{id}`): follow it at `GET /api/jobs/{id}`, take its file from `GET /api/jobs/{id}/file` when `state` is `done` (docs/jobs.md)',
  headers: { Location: { schema: { type: 'string' }, description: '`/api/jobs/{id}`' } },
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['id', 'kind', 'state', 'progress'],
        properties: {
          id: { type: 'integer' },
          kind: { type: 'string' },
          title: { type: 'string' },
          state: { type: 'string', enum: ['queued', 'running', 'done', 'failed', 'cancelled'] },
          progress: { type: 'object', properties: { done: { type: 'integer' }, total: { type: ['integer', 'null'] } } },
        },
      },
    },
  },
};

/**
 * A schema of the engine (payload-schema.ts) in JSON Schema 2020-12 as OpenAPI 3.1 has it: tuple
 * `items` as `prefixItems`, and the engine's own keywords as a pattern, bounds or `x-` keywords
 * with a sentence saying what they check.
 */
export function openApiSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(openApiSchema);
  if (!s || typeof s !== 'object') return s;
  const out: Schema = {};
  const notes: string[] = [];
  for (const [k, v] of Object.entries(s as Schema)) {
    switch (k) {
      case 'xDecimal': {
        const { scale, precision } = v as { scale: number; precision: number };
        out.pattern = scale > 0 ? `^-?\\d{1,${precision - scale}}(\\.\\d{1,${scale}})?$` : `^-?\\d{1,${precision}}$`;
        out['x-precision'] = precision;
        out['x-scale'] = scale;
        notes.push(`an exact decimal (text, or a JSON number): at most ${precision - scale} digits before the point and ${scale} after`);
        break;
      }
      case 'xDecimalRange': {
        const { min, max } = v as { min?: number; max?: number };
        if (min !== undefined) {
          out.minimum = min;
          out['x-minimum'] = min;
        }
        if (max !== undefined) {
          out.maximum = max;
          out['x-maximum'] = max;
        }
        notes.push(`between ${min ?? '−∞'} and ${max ?? '∞'}`);
        break;
      }
      case 'xMaxToday':
        if (v) {
          out['x-maximum'] = 'today';
          notes.push('not after today in Tashkent (UTC+5)');
        }
        break;
      case 'xMaxCurrentYear':
        if (v) {
          out['x-maximum'] = 'current year';
          notes.push('not after the current year');
        }
        break;
      case 'xMinDate':
        out['x-minimum'] = v;
        notes.push(`not before ${String(v)}`);
        break;
      case 'xIsoDate':
        if (v) notes.push('a date in the years 1000–9999');
        break;
      case 'xIsoDateTime':
        if (v) notes.push('ISO 8601, years 1000–9999, a zone within ±14 h');
        break;
      case 'items':
        if (Array.isArray(v)) out.prefixItems = v.map(openApiSchema);
        else out.items = openApiSchema(v);
        break;
      case 'properties':
        out.properties = Object.fromEntries(Object.entries(v as Schema).map(([n, x]) => [n, openApiSchema(x)]));
        break;
      default:
        out[k] = openApiSchema(v);
    }
  }
  if (notes.length) out.description = [out.description, ...notes].filter(Boolean).join('; ');
  return out;
}

const bodyField = (f: FieldMeta): Schema => openApiSchema(fieldSchema(f)) as Schema;

// ------------------------------------------------------------------ what rows look like when read

/** A field's value as the engine answers it (lists, rows, exports' properties). */
function readField(f: FieldMeta, o: { text3AsText?: boolean } = {}): Schema {
  const base = ((): Schema => {
    switch (f.type) {
      case 'string':
      case 'text':
      case 'password':
        return { type: 'string' };
      case 'integer':
        return { type: 'integer' };
      case 'decimal':
      case 'money':
        return { ...DECIMAL_TEXT, ...(f.type === 'money' ? { description: 'money, exact, as text with its decimals' } : {}) };
      case 'boolean':
        return { type: 'boolean' };
      case 'date':
        return { type: 'string', format: 'date' };
      case 'datetime':
        return { type: 'string', format: 'date-time' };
      case 'enum':
        return { type: 'string', enum: f.values };
      case 'ref':
      case 'file':
      case 'image':
        return { ...ID, ...(f.ref ? { description: `the id of a row of ${f.ref}` } : {}) };
      case 'refs':
      case 'files':
        return { type: 'array', items: ID };
      case 'text3':
        return o.text3AsText ? { type: 'string', description: "in the caller's language" } : ref('Text3');
      case 'point':
        return ref('Point');
      case 'polygon':
        return ref('Ring');
      case 'json':
        return {};
      case 'children':
        return { type: 'array', items: childRow(f) };
    }
  })();
  // a through-table's references are always a list; what a form requires is there
  if (f.through) return base;
  if (f.personal && f.personal !== 'name') return personalField(f, base);
  const certain = f.required && !f.readOnly && !f.computedBy && !f.from;
  return certain ? base : nullable(base);
}

/** What a masked personal value looks like, by its kind (api/engine/personal.ts's maskValue). */
const MASK_EXAMPLES: Record<string, string | null> = {
  pinfl: '3*********1234',
  passport: 'AA *****67',
  phone: '+998 ** *** ** 67',
  email: 'a***@mail.uz',
  address: 'Toshkent, ***',
  birthdate: '1985-**-**',
  document: null,
};

/** A personal field as read: its value in clear for a caller holding the entity's `access.personal`, masked for others (docs/personal-data.md). */
function personalField(f: FieldMeta, base: Schema): Schema {
  const example = MASK_EXAMPLES[f.personal!];
  const description = `personal data (${f.personal}): in clear for a caller holding the entity's personal-data action, else masked${example ? ` ("${example}")` : ' (null)'}; a mask sent back on update leaves the value as it is`;
  // a masked birth date is no date
  const schema = f.personal === 'birthdate' ? { type: 'string' } : base;
  return nullable({ ...schema, description, examples: [example] });
}

function childRow(f: FieldMeta): Schema {
  return {
    type: 'object',
    properties: { id: ID, ...Object.fromEntries(Object.entries(f.fields ?? {}).map(([n, cf]) => [n, readField(cf)])) },
  };
}

/** The columns every row of a tracked entity carries besides its fields. */
function trackedColumns(e: EntityMeta): Record<string, Schema> {
  if (e.tracking === false) return { created_at: { type: 'string', format: 'date-time' } };
  return {
    version: { type: 'integer', minimum: 1, description: 'give it back on update: a row changed since is a 409' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: nullable({ type: 'string', format: 'date-time' }),
    created_by: nullable(ID),
    updated_by: nullable(ID),
  };
}

/** A row as lists and reads answer it: every column (child rows only when one row is read). */
function rowSchema(model: MetaModel, lang: Lang, e: EntityMeta): Schema {
  const properties: Record<string, Schema> = { id: ID };
  const required = ['id'];
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type === 'password') continue;
    properties[name] = { ...readField(f), title: translate(model, lang, f.label ?? `fields.${name}`) };
    if (f.type !== 'children') required.push(name);
  }
  for (const [name, s] of Object.entries(trackedColumns(e))) {
    properties[name] = s;
    required.push(name);
  }
  return { type: 'object', title: translate(model, lang, e.caption), properties, required, additionalProperties: false };
}

/** Each property of an object schema titled with its field's caption. */
function titled(model: MetaModel, lang: Lang, s: Schema, fields: Record<string, FieldMeta>): Schema {
  const properties = s.properties as Record<string, Schema>;
  for (const [name, p] of Object.entries(properties)) {
    const f = fields[name];
    if (f) properties[name] = { title: translate(model, lang, f.label ?? `fields.${name}`), ...p };
  }
  return s;
}

/** A body of create or update: the payload schema the engine validates with. */
function bodySchema(model: MetaModel, lang: Lang, e: EntityMeta, mode: 'create' | 'update'): Schema {
  const s = titled(model, lang, openApiSchema(payloadSchema(e, mode)) as Schema, e.fields);
  if (mode === 'update') {
    (s.properties as Schema).version = {
      type: 'integer',
      description: 'the version read; or send it as If-Match. Another is a 409 (-106)',
    };
  }
  return {
    ...s,
    description:
      mode === 'create'
        ? 'fields not given take their defaults; unknown fields are ignored'
        : 'the fields to change; unknown fields are ignored',
  };
}

/** A feature's properties: the list's columns by field name, references with their row's title. */
function featureProperties(e: EntityMeta, names: string[], text3AsText = true): Schema {
  const properties: Record<string, Schema> = {};
  for (const name of names) {
    const f = e.fields[name];
    if (!f) {
      properties[name] = name === 'id' ? ID : {};
      continue;
    }
    if (f.type === 'point' || f.type === 'polygon') continue;
    properties[name] = readField(f, { text3AsText });
    if (f.type === 'ref' && f.ref && !SYSTEM_REFS.includes(f.ref)) properties[`${name}_name`] = nullable({ type: 'string' });
  }
  return { type: 'object', properties, additionalProperties: false };
}

const featureCollection = (properties: Schema, members: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  required: ['type', 'features'],
  properties: {
    type: { const: 'FeatureCollection' },
    features: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'id', 'geometry', 'properties'],
        properties: { type: { const: 'Feature' }, id: ID, geometry: ref('Geometry'), properties },
      },
    },
    ...members,
  },
});

/** A public row: the public fields, a text in the caller's language, references' and enums' names beside them. */
function publicRow(e: EntityMeta): Schema {
  const properties: Record<string, Schema> = { id: ID };
  for (const name of e.public!.fields) {
    const f = e.fields[name];
    properties[name] = readField(f, { text3AsText: true });
    if (f.type === 'ref' && f.ref && !SYSTEM_REFS.includes(f.ref)) properties[`${name}_name`] = nullable({ type: 'string' });
    if (f.type === 'refs' && f.ref && !SYSTEM_REFS.includes(f.ref))
      properties[`${name}_names`] = { type: 'array', items: nullable({ type: 'string' }) };
    if (f.type === 'enum') properties[`${name}_name`] = { type: 'string' };
  }
  return { type: 'object', properties, required: ['id', ...e.public!.fields], additionalProperties: false };
}

// ------------------------------------------------------------------ list parameters, both protocols

/** A filter's value as a query parameter, typed as its column. */
function filterValue(f: FieldMeta | undefined, column: string): Schema {
  const type = f?.type ?? (column.endsWith('_at') ? 'datetime' : 'integer');
  switch (type) {
    case 'integer':
      return { type: 'integer', minimum: -2147483648, maximum: 2147483647 };
    case 'ref':
    case 'refs':
    case 'file':
    case 'image':
    case 'files':
      return ID;
    case 'decimal':
    case 'money':
      return { type: 'string', pattern: '^-?\\d{1,30}(\\.\\d{1,20})?$' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: f!.values };
    default:
      return { type: 'string', maxLength: 1000 };
  }
}

interface FilterParam {
  name: string;
  schema: Schema;
  description: string;
}

/** The list's declared filters as the plain parameters of the spec's protocol (the names `filter` JSON takes too). */
function filterParams(model: MetaModel, lang: Lang, e: EntityMeta, only?: Set<string>): FilterParam[] {
  const out: FilterParam[] = [];
  for (const [name, raw] of Object.entries(e.list.filters ?? {})) {
    if (only && !only.has(name)) continue;
    const m = filterMeta(raw);
    const column = (m.fields ?? [name])[0];
    const f = e.fields[column];
    const caption = translate(model, lang, m.label ?? (f ? (f.label ?? `fields.${name}`) : `filters.${name}`));
    switch (m.op) {
      case 'search':
        out.push({
          name,
          schema: { type: 'string', maxLength: 1000 },
          description: `${caption}: search in ${(m.fields ?? [name]).join(', ')} (case and apostrophes folded)`,
        });
        break;
      case 'range':
        out.push({ name: `from_${name}`, schema: filterValue(f, column), description: `${caption}: from (inclusive)` });
        out.push({ name: `to_${name}`, schema: filterValue(f, column), description: `${caption}: to (inclusive)` });
        break;
      case 'bool':
        out.push({ name, schema: { type: 'boolean' }, description: caption });
        break;
      case 'in':
        out.push({
          name,
          schema: { type: 'array', items: filterValue(f, column), maxItems: 1000 },
          description: `${caption}: any of (comma-separated, or the parameter repeated)`,
        });
        break;
      case 'eq':
        out.push({ name, schema: filterValue(f, column), description: f?.type === 'refs' ? `${caption}: rows holding this id` : caption });
        break;
    }
  }
  return out;
}

const query = (name: string, schema: Schema, description: string, extra: Schema = {}): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  ...extra,
});
const jsonQuery = (name: string, schema: Schema, description: string): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  content: { 'application/json': { schema } },
});

/** A list's query: react-admin's `sort`/`range`/`filter` and the spec's `options`/`sortBy`/`page`… with plain filters. */
function listParameters(model: MetaModel, lang: Lang, e: EntityMeta, o: { paging: boolean }): Schema[] {
  const sortable = [...new Set([...e.list.columns, ...(e.list.sortable ?? []), e.list.sort[0], 'id'])];
  const filters = filterParams(model, lang, e);
  const filterObject: Schema = {
    type: 'object',
    properties: {
      id: { anyOf: [ID, { type: 'array', items: ID }], description: 'these rows (getMany)' },
      ...Object.fromEntries(
        filters.map((f) => [f.name, f.schema.type === 'array' ? f.schema : { anyOf: [f.schema, { type: 'array', items: f.schema }] }]),
      ),
      ...Object.fromEntries(
        Object.entries(e.list.filters ?? {})
          .filter(([, raw]) => filterMeta(raw).op === 'range')
          .map(([name]) => [name, { type: 'array', minItems: 2, maxItems: 2, description: '[from, to]; either may be empty' }]),
      ),
    },
    additionalProperties: false,
  };
  const sortDefault = `${e.list.sort[0]} ${e.list.sort[1]}`;
  const out: Schema[] = [
    jsonQuery(
      'sort',
      { type: 'array', prefixItems: [{ enum: sortable }, { enum: ['ASC', 'DESC', 'asc', 'desc'] }], minItems: 2, maxItems: 2 },
      `react-admin's simple REST: \`["field","ASC"]\`; default ${sortDefault}`,
    ),
    ...(o.paging
      ? [
          jsonQuery(
            'range',
            {
              type: 'array',
              prefixItems: [
                { type: 'integer', minimum: 0, maximum: MAX_OFFSET },
                { type: 'integer', minimum: 0 },
              ],
              minItems: 2,
              maxItems: 2,
            },
            `react-admin's simple REST: \`[first, last]\`, both inclusive, at most ${MAX_PAGE} rows`,
          ),
        ]
      : []),
    jsonQuery('filter', filterObject, 'react-admin\'s simple REST: the filters below as one JSON object; `{"id":[1,2]}` reads those rows'),
    query('options', { type: 'string' }, "the spec's protocol in one parameter: `sortBy=name;descending=false;page=2;perPage=25`"),
    query(
      'sortBy',
      {
        type: 'string',
        pattern: `^(${sortable.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(,(${sortable.join('|')}))*$`,
      },
      `the spec's protocol: one or more of ${sortable.join(', ')}, comma-separated`,
    ),
    query(
      'descending',
      { type: 'string', pattern: '^(true|false)(,(true|false))*$' },
      "the spec's protocol: one per sortBy field (the last repeats)",
    ),
    ...(o.paging
      ? [
          query('page', { type: 'integer', minimum: 1 }, "the spec's protocol: from 1"),
          query('perPage', { type: 'integer', minimum: 1, maximum: MAX_PAGE }, `the spec's protocol; default ${e.list.perPage ?? 25}`),
        ]
      : []),
    query('id', { type: 'array', items: ID }, 'these rows only (comma-separated)', { style: 'form', explode: false }),
    ...filters.map((f) => query(f.name, f.schema, f.description, f.schema.type === 'array' ? { style: 'form', explode: false } : {})),
  ];
  return out;
}

// ------------------------------------------------------------------ the document

/** The groups of tags besides the entities' (which are grouped by their menu section). */
const GROUPS = { modules: "Modules: sign-in, files, the modules' own calls", reports: 'Reports', public: 'Public calls' };

const errorResponses = (codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), response(`E${c}`)]));

/** Which of an entity's generic routes a catalogue route is. */
function entityRouteKind(e: EntityMeta, r: ApiRoute): string {
  const rest = r.path.slice(e.path.length);
  if (r.method === 'get' && rest === '') return 'list';
  if (r.method === 'post' && rest === '') return 'create';
  if (rest === '/export') return 'export';
  if (rest === '/export.geojson') return 'geojson';
  if (rest === '/import') return 'import';
  if (rest === '/delete-many') return 'deleteMany';
  if (rest.startsWith('/actions/')) return 'bulkAction';
  if (rest.startsWith('/:id/actions/')) return 'action';
  if (rest === '/:id/flows') return 'flows';
  if (rest === '/:id/documents') return r.method === 'get' ? 'documents' : 'issueDocument';
  if (rest === '/:id/history') return 'history';
  if (rest === '/:id') return r.method === 'get' ? 'get' : r.method === 'put' ? 'update' : 'delete';
  return 'other';
}

const openApiPath = (path: string) => `/api${path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`;

class Builder {
  readonly paths: Record<string, Record<string, Operation>> = {};
  readonly schemas: Record<string, Schema> = {};
  readonly tags = new Map<string, { name: string; description: string; group: string; displayName?: string }>();

  constructor(
    readonly model: MetaModel,
    readonly lang: Lang,
  ) {}

  t(key: string): string {
    return translate(this.model, this.lang, key);
  }

  tag(name: string, description: string, group: string, displayName?: string): string {
    if (!this.tags.has(name)) this.tags.set(name, { name, description, group, displayName });
    return name;
  }

  entitySchemas(e: EntityMeta): void {
    this.schemas[e.name] ??= rowSchema(this.model, this.lang, e);
  }

  add(r: ApiRoute, op: Operation): void {
    const path = openApiPath(r.path);
    const params = [...r.path.matchAll(/:([A-Za-z_]\w*)/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: name === 'id' ? ID : r.params?.[name] ? bodyField(r.params[name] as FieldMeta) : { type: 'string' },
      ...(name === 'id' ? { description: r.entity ? `a row of ${r.entity}` : 'an id' } : {}),
    }));
    const security = r.auth === 'public' ? [] : r.auth === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }];
    (this.paths[path] ??= {})[r.method] = {
      ...op,
      parameters: [...params, { $ref: '#/components/parameters/Language' }, ...((op.parameters as Schema[]) ?? [])],
      security,
      ...(r.actions.length ? { 'x-actions': r.actions } : {}),
      ...(r.entity ? { 'x-entity': r.entity } : {}),
      ...(r.op ? { 'x-operation': r.op } : {}),
    };
  }

  /** Session routes answer 401 without a token and 403 without their actions; every route may answer 400. */
  errors(r: ApiRoute, more: number[] = []): Record<string, unknown> {
    const codes = new Set([400, ...more]);
    if (r.auth !== 'public') codes.add(401);
    if (r.auth === 'session' && (r.actions.length || r.op)) codes.add(403);
    if (r.path.includes('/:')) codes.add(404);
    return errorResponses([...codes].sort());
  }

  entityRoute(r: ApiRoute, e: EntityMeta): void {
    this.entitySchemas(e);
    const section = this.model.menu.find((m) => m.route === `/${e.module}`);
    const tag = this.tag(e.name, `${this.t(e.caption)} (\`${e.name}\`)`, section ? this.t(section.caption) : e.module, this.t(e.caption));
    const kind = entityRouteKind(e, r);
    const row = ref(e.name);
    const written = {
      anyOf: [row, ref('IdOnly')],
      description: 'the row as it now stands; only its id when the caller may no longer read it',
    };
    const json = (schema: Schema, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
    const base = { tags: [tag], operationId: `${e.name}.${kind}` };
    const caption = this.t(e.caption);
    switch (kind) {
      case 'list':
        return this.add(r, {
          ...base,
          summary: `${caption}: list`,
          description: 'The rows the caller may read, filtered and sorted, a page at a time; either protocol (or both) may be used.',
          parameters: listParameters(this.model, this.lang, e, { paging: true }),
          responses: {
            200: {
              description: 'a page of rows',
              content: { 'application/json': { schema: { type: 'array', items: row } } },
              headers: {
                'Content-Range': { schema: { type: 'string' }, description: `\`${e.name} 0-24/319\`` },
                'X-Total-Count': { schema: { type: 'integer' }, description: 'rows matching the filters' },
                'X-Total-Exact': {
                  schema: { type: 'string', enum: ['true', 'false'] },
                  description: "false: the total is the planner's estimate (beyond 10 000 rows, or estimated beyond them on a large table)",
                },
              },
            },
            ...this.errors(r),
          },
        });
      case 'export':
        return this.add(r, {
          ...base,
          summary: `${caption}: Excel export`,
          description: `The list with the same filters and sort as an .xlsx stream, captions in the caller's language, every matching row (streamed from one cursor; a sheet that reaches Excel's 1 048 576 rows continues on the next).`,
          parameters: [...listParameters(this.model, this.lang, e, { paging: false }), BACKGROUND],
          responses: { 200: { description: 'the workbook', content: { [XLSX]: {} } }, 202: QUEUED, ...this.errors(r) },
        });
      case 'geojson': {
        const name = `${e.name}.geojson`;
        this.schemas[name] = featureCollection(featureProperties(e, e.list.columns));
        return this.add(r, {
          ...base,
          summary: `${caption}: GeoJSON export`,
          description: `The list with the same filters and within the caller's scope as an RFC 7946 FeatureCollection, streamed: a feature a row, its geometry the row's polygon (closed, counterclockwise) or else its point (\`[lng, lat]\`), null when it has neither; its properties the list's columns by field name, references with \`<field>_name\`. Every matching row, streamed from one cursor.`,
          parameters: [...listParameters(this.model, this.lang, e, { paging: false }), BACKGROUND],
          responses: {
            200: { description: 'the features', content: { [GEOJSON_TYPE]: { schema: ref(name) } } },
            202: QUEUED,
            ...this.errors(r),
          },
        });
      }
      case 'import':
        return this.add(r, {
          ...base,
          summary: `${caption}: import from Excel`,
          description:
            "An .xlsx laid out as the export (its first row the captions, in any language, or the fields' names; references by their title or id) is the body; its header is checked now (400 naming an unknown column), its rows are imported by a background job (`entity-import`): all or nothing, as the caller, each row validated as a single create, the first hundred errors by row number and their count on the failed job.",
          requestBody: { required: true, content: { [XLSX]: { schema: { type: 'string', format: 'binary' } } } },
          responses: { 202: QUEUED, ...this.errors(r) },
        });
      case 'deleteMany':
        return this.add(r, {
          ...base,
          summary: `${caption}: delete several`,
          description:
            "All or nothing: one row outside the caller's scope is a 404 for all, one still referenced a 409. With `dryRun=1` nothing is deleted: the answer is the one the delete would get.",
          parameters: [DRY_RUN],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', required: ['ids'], properties: { ids: { type: 'array', items: ID, minItems: 1 } } },
              },
            },
          },
          responses: {
            200: json({
              type: 'object',
              required: ['data'],
              properties: { data: { type: 'array', items: ID }, dryRun: { type: 'boolean' } },
            }),
            ...this.errors(r, [404, 409]),
          },
        });
      case 'action':
      case 'bulkAction': {
        const name = r.path.split('/').pop()!;
        const a = e.workflow!.actions[name];
        const params = titled(this.model, this.lang, openApiSchema(actionParamsSchema(a)) as Schema, a.params ?? {});
        const properties: Schema = {
          comment: { type: 'string', maxLength: 2000, description: a.comment === 'required' ? 'required' : 'optional' },
          ...(params.properties as Schema),
        };
        const required = [...(params.required as string[]), ...(a.comment === 'required' ? ['comment'] : [])];
        const from = a.from.join(', ');
        const label = this.t(a.label ?? `actions.${name}`);
        if (kind === 'action') {
          return this.add(r, {
            ...base,
            operationId: `${e.name}.action.${name}`,
            summary: `${caption}: ${label}`,
            description: `From ${from}${a.to ? ` to ${a.to}` : ''}. A row in another state is a 409 (-113).`,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required,
                    properties: { ...properties, version: { type: 'integer', description: 'the version read: another is a 409 (-106)' } },
                  },
                },
              },
            },
            responses: { 200: json(written), ...this.errors(r, [404, 409]) },
          });
        }
        return this.add(r, {
          ...base,
          operationId: `${e.name}.bulk.${name}`,
          summary: `${caption}: ${label} (several rows)`,
          description: `On the rows named by \`ids\`, or with \`all: true\` on every row of the list's filters (given as the list's query) that is in ${from}; all or nothing.`,
          parameters: listParameters(this.model, this.lang, e, { paging: false }),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required,
                  properties: { ...properties, ids: { type: 'array', items: ID, minItems: 1 }, all: { type: 'boolean' } },
                },
              },
            },
          },
          responses: {
            200: json({
              type: 'object',
              required: ['ids', 'changed'],
              properties: { ids: { type: 'array', items: ID }, changed: { type: 'integer', minimum: 0 } },
            }),
            ...this.errors(r, [404, 409]),
          },
        });
      }
      case 'flows':
        return this.add(r, {
          ...base,
          summary: `${caption}: workflow history`,
          description: "The row's moves, oldest first.",
          responses: { 200: json({ type: 'array', items: ref('Flow') }), ...this.errors(r) },
        });
      case 'documents':
        return this.add(r, {
          ...base,
          summary: `${caption}: documents`,
          description:
            'The templates the row may print with the fields they ask for, and the documents issued from it (docs/template-documents.md).',
          responses: {
            200: json({ type: 'object', properties: { type: {}, templates: { type: 'array' }, issued: { type: 'array' } } }),
            ...this.errors(r),
          },
        });
      case 'issueDocument':
        return this.add(r, {
          ...base,
          summary: `${caption}: issue a document`,
          description:
            'A template filled from the row, stored with its PDF; drawn in a worker thread within bounds (docs/template-documents.md).',
          requestBody: {
            content: { 'application/json': { schema: { type: 'object', properties: { template_id: ID, values: { type: 'object' } } } } },
          },
          responses: { 201: json({ type: 'object' }, 'the issued document'), ...this.errors(r, [409, 422, 503]) },
        });
      case 'history':
        return this.add(r, {
          ...base,
          summary: `${caption}: audit trail`,
          description: 'Every change of the row, newest first, with the changed fields before and after.',
          responses: { 200: json({ type: 'array', items: ref('History') }), ...this.errors(r) },
        });
      case 'get':
        return this.add(r, {
          ...base,
          summary: `${caption}: one row`,
          description: "With its child rows. A row outside the caller's scope is a 404.",
          responses: { 200: json(row), ...this.errors(r) },
        });
      case 'create':
        this.schemas[`${e.name}.create`] = bodySchema(this.model, this.lang, e, 'create');
        return this.add(r, {
          ...base,
          summary: `${caption}: create`,
          description: 'Validated as the metadata says: a 400 names each field that is wrong.',
          requestBody: { required: true, content: { 'application/json': { schema: ref(`${e.name}.create`) } } },
          responses: { 201: json(written, 'created'), ...this.errors(r) },
        });
      case 'update':
        this.schemas[`${e.name}.update`] = bodySchema(this.model, this.lang, e, 'update');
        return this.add(r, {
          ...base,
          summary: `${caption}: update`,
          description: "The version read must be the row's, else a 409 (-106).",
          parameters: [
            {
              name: 'If-Match',
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description: 'the version read, instead of `version` in the body',
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: ref(`${e.name}.update`) } } },
          responses: { 200: json(written), ...this.errors(r, [409]) },
        });
      case 'delete':
        return this.add(r, {
          ...base,
          summary: `${caption}: delete`,
          description:
            'A row still referenced elsewhere, or one the system needs (a seeded role), is a 409 (-107). With `dryRun=1` nothing is deleted: the answer is the one the delete would get.',
          parameters: [DRY_RUN],
          responses: {
            200: json({ type: 'object', required: ['id'], properties: { id: ID, dryRun: { type: 'boolean' } } }),
            ...this.errors(r, [409]),
          },
        });
    }
  }

  publicRoute(r: ApiRoute): void {
    const segs = r.path.split('/').filter(Boolean);
    const tag = this.tag('public', 'What the public site reads without signing in', GROUPS.public, 'Public reads');
    const json = (schema: Schema, description = 'OK') => ({
      200: { description, content: { 'application/json': { schema } } },
      ...this.errors(r),
    });
    if (r.path === '/public/files/:id') {
      return this.add(r, {
        tags: [tag],
        operationId: 'public.file',
        summary: 'A public file',
        description: 'An image or file that a public field of a public row refers to; any other id is a 404.',
        responses: { 200: { description: 'the file', content: { '*/*': {} } }, ...this.errors(r) },
      });
    }
    const e = this.model.entities.get(segs[segs[1] === 'map' ? 3 : 2])!;
    const caption = this.t(e.caption);
    const name = `public.${e.name}`;
    this.schemas[name] ??= publicRow(e);
    const filters = filterParams(this.model, this.lang, e, publicFilters(e)).map((f) =>
      query(f.name, f.schema, f.description, f.schema.type === 'array' ? { style: 'form', explode: false } : {}),
    );
    if (segs[1] === 'map') {
      return this.add(r, {
        tags: [tag],
        operationId: `public.${e.name}.layer`,
        summary: `${caption}: map layer`,
        description: `The public rows within the viewport, at most ${MAX_LAYER_FEATURES} (\`truncated\` says there were more).`,
        parameters: [
          query('bbox', { type: 'string', pattern: '^-?[\\d.]+,-?[\\d.]+,-?[\\d.]+,-?[\\d.]+$' }, 'minLng,minLat,maxLng,maxLat', {
            required: true,
          }),
        ],
        responses: json({
          type: 'object',
          required: ['layer', 'truncated', 'items'],
          properties: {
            layer: { type: 'string' },
            truncated: { type: 'boolean' },
            items: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'lng', 'lat'],
                properties: {
                  id: ID,
                  lng: { type: 'number' },
                  lat: { type: 'number' },
                  title: nullable({ type: 'string' }),
                  kind: {},
                  shape: nullable(ref('Ring')),
                },
              },
            },
          },
        }),
      });
    }
    if (segs[3] === 'geojson') {
      const g = geometryFields(e, e.public!.fields)!;
      const schema = `public.${e.name}.geojson`;
      this.schemas[schema] = featureCollection(
        {
          ...publicRow(e),
          required: undefined,
          properties: Object.fromEntries(
            Object.entries(publicRow(e).properties as Schema).filter(([k]) => k !== g.point && k !== g.polygon),
          ),
        },
        { truncated: { type: 'boolean', description: 'more rows matched than were sent' } },
      );
      return this.add(r, {
        tags: [tag],
        operationId: `public.${e.name}.geojson`,
        summary: `${caption}: GeoJSON`,
        description: `The public rows as an RFC 7946 FeatureCollection, the public fields only as properties: within \`bbox\` when given, with the public filters, at most \`limit\` (${MAX_LAYER_FEATURES}) by id.`,
        parameters: [
          query('bbox', { type: 'string', pattern: '^-?[\\d.]+,-?[\\d.]+,-?[\\d.]+,-?[\\d.]+$' }, 'minLng,minLat,maxLng,maxLat'),
          query('limit', { type: 'integer', minimum: 1, maximum: MAX_LAYER_FEATURES }, `default ${MAX_LAYER_FEATURES}`),
          ...filters,
        ],
        responses: { 200: { description: 'the features', content: { [GEOJSON_TYPE]: { schema: ref(schema) } } }, ...this.errors(r) },
      });
    }
    if (segs.length === 4) {
      return this.add(r, {
        tags: [tag],
        operationId: `public.${e.name}.get`,
        summary: `${caption}: one public row`,
        responses: json(ref(name)),
      });
    }
    return this.add(r, {
      tags: [tag],
      operationId: `public.${e.name}.list`,
      summary: `${caption}: public list`,
      description: 'The public fields of the public rows; only the public filters.',
      parameters: [
        query('page', { type: 'integer', minimum: 1 }, 'from 1'),
        query('perPage', { type: 'integer', minimum: 1, maximum: MAX_PAGE }, 'default 20'),
        ...filters,
      ],
      responses: json({
        type: 'object',
        required: ['rows', 'total', 'exact'],
        properties: {
          rows: { type: 'array', items: ref(name) },
          total: { type: 'integer' },
          exact: { type: 'boolean' },
          ...(e.public!.totals
            ? {
                totals: {
                  type: 'object',
                  properties: Object.fromEntries(
                    e.public!.totals.map((f) => [f, e.fields[f].type === 'integer' ? { type: 'integer' } : DECIMAL_TEXT]),
                  ),
                },
              }
            : {}),
        },
      }),
    });
  }

  reportRoute(r: ApiRoute): void {
    const isPublic = r.path.startsWith('/public/');
    const segs = r.path.split('/').filter(Boolean);
    const report = this.model.reports.get(segs[isPublic ? 2 : 1])!;
    const exporting = segs[segs.length - 1] === 'export';
    const caption = this.t(report.caption);
    const tag = isPublic
      ? this.tag('public', 'What the public site reads without signing in', GROUPS.public, 'Public reads')
      : this.tag('reports', 'Reports (metadata/reports): parameters → one query → typed rows and exact totals', GROUPS.reports, 'Reports');
    const result = `report.${report.name}`;
    if (!exporting) this.schemas[result] ??= reportResult(report);
    return this.add(r, {
      tags: [tag],
      operationId: `${isPublic ? 'public.' : ''}report.${report.name}${exporting ? '.export' : ''}`,
      summary: `${caption}${exporting ? ' (Excel)' : ''}`,
      description: `${exporting ? 'The report as an .xlsx: title, parameters, header, rows, totals.' : 'Rows, exact totals, the chart and the drill-down.'}${report.scope ? " A user with a region, branch or subject has it forced into the report's scope parameter." : ''}`,
      parameters: [
        ...Object.entries(report.params).map(([name, p]) =>
          query(
            name,
            reportParam(p),
            this.t(p.caption ?? `report.${name}`),
            p.required && p.default === undefined ? { required: true } : {},
          ),
        ),
        ...(exporting && !isPublic ? [BACKGROUND] : []),
      ],
      responses: {
        200: exporting
          ? { description: 'the workbook', content: { [XLSX]: {} } }
          : { description: 'OK', content: { 'application/json': { schema: ref(result) } } },
        ...(exporting && !isPublic ? { 202: QUEUED } : {}),
        ...this.errors(r),
      },
    });
  }

  moduleRoute(r: ApiRoute, meta: RouteMeta | undefined): void {
    const [module, name] = (r.name ?? 'module.route').split('.');
    const tag = this.tag(module, `The ${module} module's routes (metadata/modules/${module}.json)`, GROUPS.modules);
    const answer = meta?.answer ?? 'json';
    const content =
      answer === 'html'
        ? { 'text/html': {} }
        : answer === 'file'
          ? { '*/*': {} }
          : answer === 'script'
            ? { 'text/javascript': {} }
            : { 'application/json': { schema: {} } };
    const body =
      r.body === 'file'
        ? { required: true, content: { 'application/octet-stream': {} }, description: 'the file as the request body; its name in `?name=`' }
        : r.body === 'json'
          ? { required: false, content: { 'application/json': { schema: { type: 'object' } } } }
          : undefined;
    return this.add(r, {
      tags: [tag],
      operationId: `${module}.${name}`,
      summary: meta?.caption ? this.t(meta.caption) : `${module}: ${name}`,
      description: [
        r.entity
          ? `Works on ${r.entity}${r.op ? ` (the caller must be allowed \`${r.op}\` on it; the row at \`{id}\` is read in their scope first)` : ''}.`
          : '',
        r.auth === 'optional' ? 'A token is read when one is sent.' : '',
        'See docs/api.md for its body and answer.',
      ]
        .filter(Boolean)
        .join(' '),
      ...(body ? { requestBody: body } : {}),
      responses: {
        '2XX': { description: "the handler's answer", content },
        ...this.errors(r),
        default: { description: 'another error', content: { 'application/json': { schema: ref('Error') } } },
      },
    });
  }

  issuedDocumentRoute(r: ApiRoute): void {
    const tag = this.tag('documents', 'Documents issued from records (docs/template-documents.md)', GROUPS.modules);
    const pdf = r.path.endsWith('/pdf');
    return this.add(r, {
      tags: [tag],
      operationId: pdf ? 'documents.pdf' : 'documents.get',
      summary: pdf ? "An issued document's PDF" : 'An issued document',
      description: "For whoever may read the document's record; a 404 to anyone else.",
      responses: {
        200: pdf
          ? { description: 'the PDF', content: { 'application/pdf': {} } }
          : { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } },
        ...this.errors(r),
      },
    });
  }
}

function reportParam(p: ReportParamMeta): Schema {
  const s = ((): Schema => {
    switch (p.type) {
      case 'year':
        return { type: 'integer', minimum: 2000 };
      case 'ref':
        return { ...ID, ...(p.ref ? { description: `a row of ${p.ref}` } : {}) };
      case 'integer':
        return { type: 'integer', minimum: 0 };
      case 'enum':
        return { type: 'string', enum: p.values };
      case 'date':
        return { type: 'string', format: 'date' };
      case 'string':
        return { type: 'string', maxLength: 200 };
    }
  })();
  if (p.default !== undefined) s.default = p.default === 'current' ? undefined : p.default;
  if (p.default === 'current') s.description = p.type === 'year' ? 'default: the current year' : 'default: today';
  return s;
}

function reportColumn(c: ReportColumnMeta): Schema {
  if (c.translate) return nullable({ type: 'string' });
  switch (c.type) {
    case 'integer':
      return nullable({ type: 'integer' });
    case 'decimal':
    case 'money':
    case 'percent':
      return nullable(DECIMAL_TEXT);
    case 'date':
      return nullable({ type: 'string', format: 'date' });
    default:
      return nullable({ type: 'string' });
  }
}

function reportResult(r: ReportMeta): Schema {
  return {
    type: 'object',
    required: ['name', 'title', 'params', 'columns', 'rows', 'totals', 'chart', 'drill'],
    properties: {
      name: { const: r.name },
      title: { type: 'string' },
      params: { type: 'object', description: 'the parameters the report ran with' },
      columns: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, type: { type: 'string' }, caption: { type: 'string' }, total: { type: 'boolean' } },
        },
      },
      rows: { type: 'array', items: { type: 'object', properties: Object.fromEntries(r.columns.map((c) => [c.name, reportColumn(c)])) } },
      totals: {
        type: 'object',
        properties: Object.fromEntries(
          r.columns.filter((c) => c.total).map((c) => [c.name, c.type === 'integer' ? { type: 'integer' } : DECIMAL_TEXT]),
        ),
      },
      chart: nullable({ type: 'object' }),
      drill: nullable({ type: 'object' }),
    },
  };
}

/** The schemas and responses every document shares. */
function commonComponents(model: MetaModel, lang: Lang) {
  const t = (k: string) => translate(model, lang, k);
  const error = (status: number, codes: (keyof typeof ERROR_CODES)[], text: string) => ({
    description: `${text} (${codes.map((c) => `${ERROR_CODES[c]} ${c}`).join(', ')})`,
    content: { 'application/json': { schema: ref('Error') } },
  });
  return {
    schemas: {
      Error: {
        type: 'object',
        required: ['code', 'message', 'description'],
        properties: {
          code: { type: 'integer', enum: Object.values(ERROR_CODES), description: 'stable: switch on it' },
          message: { type: 'string', description: "in the caller's language" },
          description: { type: 'string' },
          errors: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'a message per field (`name`, `title.ru`, `lines.0.mass`) or parameter (`range`, `from_paid_on`)',
          },
          requestId: { type: 'string', description: 'kept with the error on the server (500 and database-refused values)' },
          error_count: {
            type: 'integer',
            minimum: 1,
            description: 'an import refused: all its errors (`errors` holds the first 100 by row number, keyed `rows.<n>.<field>`)',
          },
          error_rows: { type: 'integer', minimum: 1, description: 'an import refused: the rows with an error' },
        },
        example: {
          code: ERROR_CODES.validation,
          message: t('errors.validation'),
          description: t('errors.validation_description'),
          errors: { name: t('validation.required') },
        },
      },
      IdOnly: { type: 'object', required: ['id'], properties: { id: ID }, additionalProperties: false },
      Text3: {
        type: 'object',
        description: 'a text in Uzbek (Latin), Uzbek Cyrillic and Russian',
        properties: { uz: nullable({ type: 'string' }), uk: nullable({ type: 'string' }), ru: nullable({ type: 'string' }) },
      },
      Point: {
        type: 'object',
        required: ['lat', 'lng'],
        properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
        additionalProperties: false,
      },
      Ring: {
        type: 'array',
        description: 'an open ring of [lng, lat] points (the first not repeated)',
        items: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2, maxItems: 2 },
      },
      Geometry: {
        description:
          'RFC 7946: a Point `[lng, lat]`, or a Polygon whose exterior ring is closed and counterclockwise; null for a row without one',
        anyOf: [
          { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'Point' }, coordinates: ref('Position') } },
          {
            type: 'object',
            required: ['type', 'coordinates'],
            properties: {
              type: { const: 'Polygon' },
              coordinates: { type: 'array', minItems: 1, items: { type: 'array', minItems: 4, items: ref('Position') } },
            },
          },
          { type: 'null' },
        ],
      },
      Position: {
        type: 'array',
        prefixItems: [
          { type: 'number', minimum: -180, maximum: 180 },
          { type: 'number', minimum: -90, maximum: 90 },
        ],
        minItems: 2,
        maxItems: 2,
      },
      Flow: {
        type: 'object',
        properties: {
          id: ID,
          action: { type: 'string' },
          from_state: nullable({ type: 'string' }),
          to_state: nullable({ type: 'string' }),
          comment: nullable({ type: 'string' }),
          created_at: { type: 'string', format: 'date-time' },
          user_id: nullable(ID),
          user_fio: nullable({ type: 'string' }),
          username: nullable({ type: 'string' }),
        },
      },
      History: {
        type: 'object',
        properties: {
          id: ID,
          entity: { type: 'string' },
          op: { enum: ['create', 'update', 'delete', 'action'] },
          action: nullable({ type: 'string' }),
          before: nullable({ type: 'object' }),
          after: nullable({ type: 'object' }),
          created_at: { type: 'string', format: 'date-time' },
          user_id: nullable(ID),
          user_fio: nullable({ type: 'string' }),
          username: nullable({ type: 'string' }),
        },
      },
    } as Record<string, Schema>,
    responses: {
      E400: error(400, ['validation', 'badRequest', 'tooLarge'], 'the request is wrong: `errors` names each field or parameter'),
      E401: error(401, ['unauthorized', 'sessionExpired'], 'no token, an unknown one, or an expired session'),
      E403: error(403, ['forbidden'], "the caller's roles lack the action this needs"),
      E404: error(404, ['notFound'], "no such row, or one outside the caller's scope"),
      E409: error(
        409,
        ['stale', 'inUse', 'workflow'],
        'the row changed since it was read, is referenced by other rows, or is in a state the action does not leave from',
      ),
      E422: error(422, ['unprocessable'], 'well-formed, but more than the server will do: a document too long or too heavy to print'),
      E503: error(503, ['busy'], 'the server is at its bound for this work now: try again after `Retry-After` seconds'),
    },
    parameters: {
      Language: {
        name: 'Language',
        in: 'header',
        required: false,
        schema: { type: 'string', enum: ['uz', 'uk', 'ru'], default: 'uz' },
        description: 'the language of captions and messages: `uk` is Uzbek Cyrillic; anything else is `uz`',
      },
    },
  };
}

/** Builds the document: for a signed-in caller their routes, for nobody the public ones. */
export function buildOpenApi(model: MetaModel, p: Principal | null, lang: Lang): Record<string, unknown> {
  const b = new Builder(model, lang);
  const readable = (r: ApiRoute) => {
    const e = r.entity ? model.entities.get(r.entity) : undefined;
    return !e || !p || allows(e, 'read', p);
  };
  const routes = routeCatalogue(model).filter((r) => (p ? mayCall(model, r, p) && readable(r) : r.auth !== 'session'));
  for (const r of routes) {
    if (r.source === 'module')
      b.moduleRoute(
        r,
        model.routes.find((m) => `${m.module}.${m.name}` === r.name),
      );
    else if (r.source === 'public') b.publicRoute(r);
    else if (r.source === 'report') b.reportRoute(r);
    else if (r.source === 'documents' && !r.entity) b.issuedDocumentRoute(r);
    else b.entityRoute(r, model.entities.get(r.entity!)!);
  }
  const common = commonComponents(model, lang);
  // the entities' sections in the menu's order, then reports, the modules' calls and the public ones
  const order = [
    ...[...model.menu].sort((x, y) => (x.ordering ?? 0) - (y.ordering ?? 0)).map((m) => translate(model, lang, m.caption)),
    GROUPS.reports,
    GROUPS.modules,
    GROUPS.public,
  ];
  const rank = (g: string) => (order.includes(g) ? order.indexOf(g) : order.length - 3);
  const tags = [...b.tags.values()].sort((x, y) => rank(x.group) - rank(y.group));
  const groups = new Map<string, string[]>();
  for (const tag of tags) groups.set(tag.group, [...(groups.get(tag.group) ?? []), tag.name]);
  return {
    openapi: '3.1.0',
    info: {
      title: 'ecofond API',
      version: VERSION,
      description: [
        p
          ? 'The routes the signed-in caller may call, with their rights.'
          : 'The public calls: sign in (`POST /api/admin/auth/login`) and send the token to see the routes your roles open.',
        "Generated from the metadata at every start: entities, their fields' rules, lists and filters, workflow actions, reports and the modules' routes. The concepts — both list protocols, counting, errors, scopes — are in docs/api.md.",
        "Every answer's error is `{code, message, description, errors?}` with the message in the `Language` asked for.",
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    tags: tags.map(({ name, description, displayName }) => ({
      name,
      description,
      ...(displayName ? { 'x-displayName': displayName } : {}),
    })),
    'x-tagGroups': [...groups.entries()].map(([name, names]) => ({ name, tags: names })),
    paths: b.paths,
    components: {
      schemas: { ...common.schemas, ...b.schemas },
      responses: common.responses,
      parameters: common.parameters,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'the token of `POST /api/admin/auth/login`' } },
    },
  };
}

const CACHE_SIZE = 16;
const cache = new WeakMap<MetaModel, Map<string, string>>();

/**
 * The document as JSON text, built once per model, language and set of actions (the rights are
 * all it depends on): most callers share a role's actions, and a document is a few hundred kB.
 */
export function openApiJson(model: MetaModel, p: Principal | null, lang: Lang): string {
  let byKey = cache.get(model);
  if (!byKey) cache.set(model, (byKey = new Map()));
  const key = `${lang}|${p ? [...p.actions].sort((a, b) => a - b).join(',') : 'public'}`;
  let text = byKey.get(key);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApi(model, p, lang));
    if (byKey.size >= CACHE_SIZE) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, text);
  }
  return text;
}
