import type { ReportMeta } from '../meta/types.ts';
import type { ReportParams } from './params.ts';
import type { ReportResult } from './run.ts';

/** How many years before the asked one a report looks for figures when that one has none. */
export const LATEST_YEARS_BACK = 5;

/**
 * What a report's answer says of its period (`period` in the answer): the year it shows; `latest`,
 * the newest year up to it that has figures (null: none within LATEST_YEARS_BACK); `empty`, the
 * year shown has none; `moved`, the year was not asked for and the report opened on `latest`
 * instead of the current year, which had nothing.
 */
export interface ReportPeriod {
  year: number;
  latest: number | null;
  empty: boolean;
  moved: boolean;
}

/** The report's year parameter: a declared parameter of type `year` (the fund's and greening's reports have one, `year`). */
export function yearParam(r: Pick<ReportMeta, 'params'>): string | null {
  return Object.entries(r.params).find(([, p]) => p.type === 'year')?.[0] ?? null;
}

/**
 * A report answer has figures: rows, and when the report totals its columns, a total that is not
 * zero — a report of every region with nothing in any of them (a period with no payments) has
 * rows and no figures.
 */
export function hasFigures(res: Pick<ReportResult, 'rows' | 'total' | 'totals'>): boolean {
  if (!(res.total || res.rows.length)) return false;
  const totals = Object.values(res.totals);
  return totals.length === 0 || totals.some((v) => Number(v) !== 0);
}

/**
 * Runs a report on the latest period that has data. When the year shown has no figures, the years
 * before it are run (newest first, at most LATEST_YEARS_BACK) until one has: a year not asked for
 * (the default, this year) is then moved to it — the report opens on the newest data rather than on
 * an empty page; a year asked for stays, and the answer names the newest year with figures so the
 * screen can say the chosen period is empty and link to that one. A report without a year runs once.
 */
export async function runOnLatest(
  r: Pick<ReportMeta, 'params'>,
  params: ReportParams,
  yearAsked: boolean,
  run: (params: ReportParams) => Promise<ReportResult>,
): Promise<ReportResult & { period?: ReportPeriod }> {
  const name = yearParam(r);
  const first = await run(params);
  const year = name ? params[name] : null;
  if (!name || typeof year !== 'number') return first;
  if (hasFigures(first)) return { ...first, period: { year, latest: year, empty: false, moved: false } };
  for (let y = year - 1; y >= year - LATEST_YEARS_BACK; y--) {
    const earlier = await run({ ...params, [name]: y });
    if (!hasFigures(earlier)) continue;
    if (!yearAsked) return { ...earlier, period: { year: y, latest: y, empty: false, moved: true } };
    return { ...first, period: { year, latest: y, empty: true, moved: false } };
  }
  return { ...first, period: { year, latest: null, empty: true, moved: false } };
}
