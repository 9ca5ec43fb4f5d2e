import type { EntityMeta, Lang, MetaModel, WorkflowQueueMeta } from '../../meta/types.ts';
import type { Repository } from '../../engine/repository.ts';
import type { RouteHandler } from '../types.ts';
import { parseListParams } from '../../engine/list-params.ts';
import { filterMeta } from '../../meta/load.ts';
import { translate } from '../../meta/captions.ts';
import { todayTashkent } from '../../meta/today.ts';

/**
 * The back-office's start page: one's own work (docs/dashboard.md).
 *
 * The queues are the metadata's: an entity's `workflow.queues` says which rows wait (their states)
 * and for whom (whoever holds one of the actions that move them on). A caller sees a queue when
 * they may read the entity and hold one of those actions; its count is the entity's list count
 * with the queue's filter, through the repository's read path — their scope, row sets, soft
 * delete — so the list the count links to, with the same filter, shows exactly that many rows.
 * No role is named here: a role given an action later gets its queue with it.
 *
 * The figures are a few sums of the caller's scope over Tashkent's calendar (payments this month,
 * trees planted this year), read the same way over the same filter as the list each links to.
 */

/** A queue of the metadata: its key (`<entity>.<name>`), entity and declaration. */
export interface QueueDecl {
  key: string;
  name: string;
  entity: EntityMeta;
  queue: WorkflowQueueMeta;
}

/** Every queue the metadata declares, in the order of the entities and their workflows. */
export function queuesOf(model: MetaModel): QueueDecl[] {
  const out: QueueDecl[] = [];
  for (const e of model.entities.values())
    for (const [name, queue] of Object.entries(e.workflow?.queues ?? {})) out.push({ key: `${e.name}.${name}`, name, entity: e, queue });
  return out;
}

/** The list filter of a queue's rows: its states in the workflow field's filter (`in`, or `eq` for one state: the loader checks). */
export function queueFilter(e: EntityMeta, q: WorkflowQueueMeta): Record<string, unknown> {
  const field = e.workflow!.field;
  const op = filterMeta(e.list.filters![field]).op;
  return { [field]: op === 'in' ? [...q.states] : q.states[0] };
}

/** Whether the caller's queue it is: they read the entity and hold an action that moves its rows on. */
export function holdsQueue(repo: Repository, q: WorkflowQueueMeta): boolean {
  return repo.can('read') && q.actions.some((a) => repo.can(`wf:${a}`));
}

/** Tashkent's current month and year as date ranges (`YYYY-MM-DD`, both ends included). */
export function periodsOf(today: string): { month: { from: string; to: string }; year: { from: string; to: string } } {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  // day 0 of the next month is this month's last day (a calendar date: no time zone is involved)
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const ym = today.slice(0, 7);
  return {
    month: { from: `${ym}-01`, to: `${ym}-${String(last).padStart(2, '0')}` },
    year: { from: `${y}-01-01`, to: `${y}-12-31` },
  };
}

/** A figure of the caller's scope: a sum of a field over the rows of one period, by a date field. */
interface FigureDecl {
  key: string;
  entity: string;
  /** the date field the period filters on (a `range` filter of the list) */
  date: string;
  /** the number field summed */
  sum: string;
  period: 'month' | 'year';
  kind: 'money' | 'integer';
}

/** The figures: what the fund and the greening programme measure their month and year by. */
export const FIGURES: FigureDecl[] = [
  { key: 'payments-month', entity: 'payments', date: 'paid_on', sum: 'amount', period: 'month', kind: 'money' },
  { key: 'trees-year', entity: 'plantings', date: 'planted_on', sum: 'count', period: 'year', kind: 'integer' },
];

export interface QueueAnswer {
  key: string;
  entity: string;
  /** the caption's key (metadata/i18n `queues.<name>` unless the queue names one) and its text in the caller's language */
  label: string;
  caption: string;
  states: string[];
  /** the list filter the count was made with, for the link */
  filter: Record<string, unknown>;
  count: number;
  /** false past the lists' exact-count cap: then the count is the planner's estimate, as the list's total is */
  exact: boolean;
}

export interface FigureAnswer {
  key: string;
  entity: string;
  kind: 'money' | 'integer';
  period: 'month' | 'year';
  from: string;
  to: string;
  /** the sum, exact, as a decimal string ("1234567.50"; a whole number for `integer`) */
  value: string;
  /** the rows summed: the linked list's total */
  count: number;
  filter: Record<string, unknown>;
}

export interface DashboardAnswer {
  today: string;
  queues: QueueAnswer[];
  figures: FigureAnswer[];
}

type Repo = (entity: string) => Repository;

async function queueAnswer(repo: Repo, model: MetaModel, lang: Lang, d: QueueDecl): Promise<QueueAnswer> {
  const filter = queueFilter(d.entity, d.queue);
  const params = parseListParams(d.entity, { filter: JSON.stringify(filter) });
  const { total, exact } = await repo(d.entity.name).count(params);
  const label = d.queue.label ?? `queues.${d.name}`;
  return {
    key: d.key,
    entity: d.entity.name,
    label,
    caption: translate(model, lang, label),
    states: [...d.queue.states],
    filter,
    count: total,
    exact,
  };
}

async function figureAnswer(repo: Repository, f: FigureDecl, range: { from: string; to: string }): Promise<FigureAnswer> {
  const filter = { [`from_${f.date}`]: range.from, [`to_${f.date}`]: range.to };
  const params = parseListParams(repo.e, { filter: JSON.stringify(filter) });
  // the rows the list with this filter shows, summed in the database (numeric: exact)
  const row = await repo
    .applyFilters(repo.scoped('read'), params)
    .first(repo.ctx.knex.raw('count(*)::int AS n'), repo.ctx.knex.raw('coalesce(sum(??), 0)::text AS total', [`t.${f.sum}`]));
  const total = String(row?.total ?? '0');
  return {
    key: f.key,
    entity: f.entity,
    kind: f.kind,
    period: f.period,
    from: range.from,
    to: range.to,
    value: f.kind === 'money' ? toMoney(total) : total,
    count: Number(row?.n ?? 0),
    filter,
  };
}

/** "1234.5" → "1234.50": money always with its two decimals (numeric's sum keeps the column's scale, this only makes sure). */
function toMoney(s: string): string {
  const [i, f = ''] = s.split('.');
  return `${i}.${(f + '00').slice(0, Math.max(2, f.length))}`;
}

/** The dashboard of whoever asks: their queues and figures, every count in their scope, all asked at once. */
export async function dashboardOf(repo: Repo, model: MetaModel, lang: Lang, today: string = todayTashkent()): Promise<DashboardAnswer> {
  const mine = queuesOf(model).filter((d) => holdsQueue(repo(d.entity.name), d.queue));
  const periods = periodsOf(today);
  const figures = FIGURES.filter((f) => model.entities.has(f.entity) && repo(f.entity).can('read'));
  const [queues, sums] = await Promise.all([
    Promise.all(mine.map((d) => queueAnswer(repo, model, lang, d))),
    Promise.all(figures.map((f) => figureAnswer(repo(f.entity), f, periods[f.period]))),
  ]);
  return { today, queues, figures: sums };
}

export const DASHBOARD_HANDLERS: Record<string, RouteHandler> = {
  'dashboard.mine': async (ctx, rc) => {
    ctx.body = await dashboardOf((entity) => rc.repo(entity), rc.model, rc.lang);
  },
};
