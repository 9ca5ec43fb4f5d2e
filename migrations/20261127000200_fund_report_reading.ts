import type { Knex } from 'knex';
import { FIRST_WHOLE_MONTH, month } from './20261127000100_fund_report_facts.ts';

/**
 * Two things the bench at full scale (docs/performance.md) showed the fund's reports still needed.
 *
 * `fund_split_facts` reads the days of a part month from the rows one payment at a time — its
 * split and its subject's category looked up by their indexes — rather than letting the planner
 * hash every split and every subject for a few thousand payments.
 *
 * A year's compensation reports are read from an index holding what the monitoring reports count.
 *
 * How each compensation report went through its workflow, one row a report, for the acceptance
 * analysis (metadata/reports/ecofund-reports/report-acceptance-analysis.json): when it was last sent,
 * when last accepted and how many times rejected — what that report read by grouping the whole
 * `flows` history each time. Kept by statement-level triggers on flows: the reports a statement
 * touched are summed again from their own flow rows (through the flows' (entity, record_id) index),
 * so the row always equals its history, whatever was inserted, changed or deleted.
 */
const ENTITY = 'subject-report-yearly';
const RESUM = (keys: string) => `
  DELETE FROM fund_report_flows f USING (${keys}) k WHERE f.record_id = k.record_id;
  INSERT INTO fund_report_flows (record_id, sent_at, accepted_at, rejections)
    SELECT x.record_id, max(x.created_at) FILTER (WHERE x.to_state = 'sent'), max(x.created_at) FILTER (WHERE x.to_state = 'accepted'),
           count(*) FILTER (WHERE x.to_state = 'rejected')
      FROM flows x WHERE x.entity = '${ENTITY}' AND x.record_id IN (SELECT record_id FROM (${keys}) k) GROUP BY x.record_id`;

const splitFacts = (lookups: boolean) => `CREATE OR REPLACE FUNCTION fund_split_facts(p_d0 date, p_d1 date, p_subject bigint)
    RETURNS TABLE (month date, region_id bigint, category_id bigint, income_type_id bigint, income_code text, splits bigint, amount numeric, budget numeric, fund numeric, organisation numeric)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT f.month, nullif(f.region_id, 0), nullif(f.category_id, 0), nullif(f.income_type_id, 0), CAST(nullif(f.income_code, '') AS text), f.splits, f.amount, f.budget, f.fund, f.organisation
        FROM fund_split_months f
       WHERE p_subject IS NULL AND f.month >= ${FIRST_WHOLE_MONTH} AND f.month < ${month('p_d1')}
      UNION ALL
      SELECT ${month('p.paid_on')}, p.region_id, ${lookups ? '(SELECT c.category_id FROM subjects c WHERE c.id = p.subject_id)' : 'c.category_id'}, p.income_type_id, CAST(s.income_code AS text), 1,
             coalesce(s.budget + s.fund + s.organisation, 0), coalesce(s.budget, 0), coalesce(s.fund, 0), coalesce(s.organisation, 0)
        FROM payments p ${
          lookups
            ? 'CROSS JOIN LATERAL (SELECT x.income_code, x.budget, x.fund, x.organisation FROM payment_splits x WHERE x.parent_id = p.id OFFSET 0) s'
            : 'JOIN payment_splits s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id'
        }
       WHERE p.status = 'confirmed' AND p.paid_on >= p_d0 AND p.paid_on < p_d1
         AND ((p_subject IS NOT NULL AND p.subject_id = p_subject)
              OR (p_subject IS NULL AND (p.paid_on < ${FIRST_WHOLE_MONTH} OR p.paid_on >= ${month('p_d1')})))
    $$`;

export async function up(knex: Knex): Promise<void> {
  for (const sql of [
    splitFacts(true),
    // a year's compensation reports with what the monitoring reports count, for index-only scans
    'CREATE INDEX IF NOT EXISTS subject_reports_year_cover ON subject_reports (year, region_id) INCLUDE (subject_id, status, period, month, amount, category_id)',
    `CREATE TABLE fund_report_flows (record_id bigint PRIMARY KEY, sent_at timestamptz, accepted_at timestamptz, rejections bigint NOT NULL)`,
    `CREATE FUNCTION flows_fund_report_flows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${RESUM(`SELECT DISTINCT record_id FROM new_rows WHERE entity = '${ENTITY}'`)};
      ELSIF TG_OP = 'UPDATE' THEN ${RESUM(`SELECT record_id FROM new_rows WHERE entity = '${ENTITY}' UNION SELECT record_id FROM old_rows WHERE entity = '${ENTITY}'`)};
      ELSE ${RESUM(`SELECT DISTINCT record_id FROM old_rows WHERE entity = '${ENTITY}'`)};
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER flows_fund_report_flows_insert AFTER INSERT ON flows REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION flows_fund_report_flows()`,
    `CREATE TRIGGER flows_fund_report_flows_update AFTER UPDATE ON flows REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION flows_fund_report_flows()`,
    `CREATE TRIGGER flows_fund_report_flows_delete AFTER DELETE ON flows REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION flows_fund_report_flows()`,
    // what the history holds already
    `INSERT INTO fund_report_flows (record_id, sent_at, accepted_at, rejections)
      SELECT x.record_id, max(x.created_at) FILTER (WHERE x.to_state = 'sent'), max(x.created_at) FILTER (WHERE x.to_state = 'accepted'),
             count(*) FILTER (WHERE x.to_state = 'rejected')
        FROM flows x WHERE x.entity = '${ENTITY}' GROUP BY x.record_id`,
  ])
    await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const sql of [
    splitFacts(false),
    'DROP INDEX IF EXISTS subject_reports_year_cover',
    ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS flows_fund_report_flows_${op} ON flows`),
    'DROP FUNCTION IF EXISTS flows_fund_report_flows()',
    'DROP TABLE IF EXISTS fund_report_flows',
  ])
    await knex.raw(sql);
}
