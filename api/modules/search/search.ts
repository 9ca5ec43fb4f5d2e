import type { EntityMeta, FilterMeta, Lang, MetaModel } from '../../meta/types.ts';
import type { Repository } from '../../engine/repository.ts';
import type { RouteHandler } from '../types.ts';
import { parseListParams } from '../../engine/list-params.ts';
import { filterMeta } from '../../meta/load.ts';
import { translate } from '../../meta/captions.ts';
import { badParam } from '../../kernel/errors.ts';

/**
 * The back-office's global search (Ctrl+K; docs/global-search.md). The entities it looks in and
 * the fields of each are the metadata's: a list's search filter marked `"global": true`. Each is
 * asked for its first few rows with that filter through the repository's read path — the
 * caller's right and scope, soft delete, a search that leaves the personal fields masked to the
 * caller out, the masks on what is answered — so it finds nothing a list would not show.
 */

/** Hits of one entity at most: the dialog shows a few, the list holds the rest. */
export const HITS_PER_ENTITY = 5;
/** A term shorter than this finds too much to be of use; longer than the max is no one's search. */
export const MIN_TERM = 2;
export const MAX_TERM = 100;
/** Entities searched at once (each one query on the pool). */
const AT_ONCE = 4;

export interface SearchDecl {
  entity: EntityMeta;
  filter: string;
  meta: FilterMeta;
}

/** The entities the global search looks in, with their global search filter, in the metadata's order. */
export function searchables(model: MetaModel): SearchDecl[] {
  const out: SearchDecl[] = [];
  for (const e of model.entities.values())
    for (const [name, raw] of Object.entries(e.list.filters ?? {})) {
      const meta = filterMeta(raw);
      if (meta.op === 'search' && meta.global) {
        out.push({ entity: e, filter: name, meta });
        break;
      }
    }
  return out;
}

export interface SearchHit {
  id: number;
  /** the row's title: its title field, else the first searched field that holds a value */
  title: string;
  /** the other searched fields' values (masked as the caller sees them), joined */
  detail: string;
}

export interface SearchGroup {
  entity: string;
  caption: string;
  hits: SearchHit[];
}

export interface SearchAnswer {
  q: string;
  groups: SearchGroup[];
}

const text = (v: unknown): string => (v === null || v === undefined || typeof v === 'object' ? '' : String(v).trim());

function hitOf(d: SearchDecl, row: Record<string, unknown>): SearchHit {
  const e = d.entity;
  const fields = d.meta.fields ?? [d.filter];
  const titleField = e.fields[e.titleField];
  const own = titleField && titleField.type !== 'ref' && titleField.type !== 'refs' ? text(row[e.titleField]) : '';
  const title = own || fields.map((f) => text(row[f])).find(Boolean) || '';
  const detail = [...new Set(fields.map((f) => text(row[f])).filter((v) => v && v !== title))].slice(0, 3).join(' · ');
  return { id: Number(row.id), title, detail };
}

/** The term of `?q=`: one text, trimmed; a 400 naming `q` when it is not one or too long. */
export function termOf(raw: unknown): string {
  if (raw === undefined) return '';
  if (typeof raw !== 'string') throw badParam('q');
  const term = raw.replace(/\s+/g, ' ').trim();
  if (term.length > MAX_TERM) throw badParam('q', 'errors.bad_filter');
  return term;
}

/** The caller's hits of a term: each entity they may read, a few rows each; entities without a hit left out. */
export async function searchAll(repo: (entity: string) => Repository, model: MetaModel, lang: Lang, term: string): Promise<SearchAnswer> {
  if (term.length < MIN_TERM) return { q: term, groups: [] };
  const mine = searchables(model).filter((d) => repo(d.entity.name).can('read'));
  const groups: SearchGroup[] = [];
  for (let i = 0; i < mine.length; i += AT_ONCE) {
    const batch = await Promise.all(
      mine.slice(i, i + AT_ONCE).map(async (d) => {
        const params = parseListParams(d.entity, {
          filter: JSON.stringify({ [d.filter]: term }),
          range: JSON.stringify([0, HITS_PER_ENTITY - 1]),
        });
        const rows = await repo(d.entity.name).firstRows(params);
        return { entity: d.entity.name, caption: translate(model, lang, d.entity.caption), hits: rows.map((r) => hitOf(d, r)) };
      }),
    );
    groups.push(...batch.filter((g) => g.hits.length));
  }
  return { q: term, groups };
}

export const SEARCH_HANDLERS: Record<string, RouteHandler> = {
  'search.global': async (ctx, rc) => {
    ctx.body = await searchAll((entity) => rc.repo(entity), rc.model, rc.lang, termOf(ctx.query.q));
  },
};
