import type { Knex } from 'knex';

/**
 * The fund's reports (metadata/reports/ecofund-reports, docs/reports.md) choose a period the same
 * way; these two functions say it once:
 * - fund_period(year, quarter, month, date_from, date_to): the dates [d0, d1) a report reads — a
 *   date range when either end is given (the other defaulting to the year's bound), else the month,
 *   else the quarter, else the whole year;
 * - fund_report_in_period(period, month, quarter, month): whether a compensation report of the year
 *   (quarterly, monthly or yearly) belongs to the chosen quarter or month.
 * Both are immutable SQL, so the planner folds them into the constants the indexed date and year
 * columns are compared with.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION fund_period(p_year integer, p_quarter text, p_month text, p_from date, p_to date)
    RETURNS TABLE (d0 date, d1 date) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT
        CASE WHEN p_from IS NOT NULL OR p_to IS NOT NULL THEN coalesce(p_from, make_date(p_year, 1, 1))
             WHEN p_month IS NOT NULL THEN make_date(p_year, p_month::int, 1)
             WHEN p_quarter IS NOT NULL THEN make_date(p_year, 3 * substr(p_quarter, 2)::int - 2, 1)
             ELSE make_date(p_year, 1, 1) END,
        CASE WHEN p_from IS NOT NULL OR p_to IS NOT NULL THEN coalesce(p_to + 1, make_date(p_year + 1, 1, 1))
             WHEN p_month IS NOT NULL THEN (make_date(p_year, p_month::int, 1) + interval '1 month')::date
             WHEN p_quarter IS NOT NULL THEN (make_date(p_year, 3 * substr(p_quarter, 2)::int - 2, 1) + interval '3 months')::date
             ELSE make_date(p_year + 1, 1, 1) END
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION fund_report_in_period(r_period text, r_month integer, p_quarter text, p_month text)
    RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN p_month IS NOT NULL THEN r_period = 'month' AND r_month = p_month::int
        WHEN p_quarter IS NOT NULL THEN r_period = p_quarter OR (r_period = 'month' AND (r_month + 2) / 3 = substr(p_quarter, 2)::int)
        ELSE true END
    $$`);
  // "which subjects reported for a period" and the yearly analysis look reports up by subject and year
  await knex.raw('CREATE INDEX IF NOT EXISTS subject_reports_subject_year_idx ON subject_reports (subject_id, year)');
  await knex.raw('CREATE INDEX IF NOT EXISTS subject_reports_year_region_idx ON subject_reports (year, region_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS subject_reports_year_region_idx');
  await knex.raw('DROP INDEX IF EXISTS subject_reports_subject_year_idx');
  await knex.raw('DROP FUNCTION IF EXISTS fund_report_in_period(text, integer, text, text)');
  await knex.raw('DROP FUNCTION IF EXISTS fund_period(integer, text, text, date, date)');
}
