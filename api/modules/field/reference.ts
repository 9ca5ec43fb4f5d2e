import { createHash } from 'node:crypto';
import type { RouteHandler } from '../types.ts';
import type { ListParams } from '../../engine/list-params.ts';
import { badParam } from '../../kernel/errors.ts';
import { payloadSchema } from '../../engine/payload-schema.ts';

/**
 * The reference books a field form needs (issue 30, docs/field-app.md), each read through the
 * caller's repository — their scope applied as in any list: a region-scoped inspector gets their
 * region, its districts and its mahallas only — and a book they may not read is left out. The
 * answer's version is a hash of its content: sent back as `If-None-Match` (or `?since=`), an
 * unchanged answer is a 304 with no body, so a device asks on every start at almost no cost.
 */
export const FIELD_BOOKS = ['regions', 'areas', 'mahalla', 'tree-species', 'offence-type', 'fine', 'offence-files-type'] as const;

/**
 * The entities the field app's forms create (field/src/forms/: an offence, an inspector's finding
 * on a planting, a tree passport, a felling violation): for each the caller may create,
 * the create payload's JSON Schema — the server's own (api/engine/payload-schema.ts) — which the
 * device checks a draft against before it is queued (field/src/validate.ts).
 */
export const FIELD_FORMS = ['offences', 'planting-inspections', 'plantings', 'tree-cutting-violations'] as const;

/** Rows a page of a book is read in. */
const PAGE = 1000;

export const FIELD_HANDLERS: Record<string, RouteHandler> = {
  'field.reference': async (ctx, rc) => {
    const { repo } = rc;
    const since = ctx.query.since;
    if (since !== undefined && (typeof since !== 'string' || !/^[0-9a-f]{1,64}$/.test(since))) throw badParam('since');
    const books: Record<string, Record<string, unknown>[]> = {};
    for (const name of FIELD_BOOKS) {
      const r = repo(name);
      if (!r.can('read')) continue;
      const rows: Record<string, unknown>[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const params: ListParams = { sort: [{ field: 'id', desc: false }], offset, limit: PAGE, filters: [] };
        const page = (await r.list(params)).rows;
        rows.push(...page);
        if (page.length < PAGE) break;
      }
      books[name] = rows;
    }
    const schemas: Record<string, ReturnType<typeof payloadSchema>> = {};
    for (const name of FIELD_FORMS) {
      const e = rc.model.entities.get(name);
      if (e && repo(name).can('create')) schemas[name] = payloadSchema(e, 'create');
    }
    const version = createHash('sha256').update(JSON.stringify({ books, schemas })).digest('hex').slice(0, 32);
    const etag = `"${version}"`;
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', 'private, no-cache');
    if (since === version || ctx.get('If-None-Match') === etag) {
      ctx.status = 304;
      return;
    }
    ctx.body = { version, books, schemas };
  },
};
