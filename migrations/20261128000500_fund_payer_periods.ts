import type { Knex } from 'knex';

/**
 * Who paid in a year or a quarter, for the information report's "paying subjects" (docs/reports.md,
 * docs/performance.md): `fund_payer_periods` holds one row per year or quarter ('year', 'q1'…'q4'),
 * region and subject of the confirmed payments (region and subject 0 where a payment has none), with
 * how many payments and how much. A period's paying subjects are then its rows counted — no
 * distinct count over a year's payments — and what they paid the rows' sum. A month's are read
 * from the payments themselves (a month's rows are few). Kept by statement-level triggers with
 * transition tables on payments: a payment confirmed, changed (date, region, subject, amount),
 * un-confirmed or deleted takes its old rows out and puts its new ones in; emptied rows are removed.
 * test/fund-report-facts.test.ts holds it to the payments after every kind of change.
 */
const delta = (rows: string, sign: '' | '-') => `
  INSERT INTO fund_payer_periods AS f (year, period, region_id, subject_id, n, amount)
    SELECT CAST(extract(year FROM p.paid_on) AS int), k.period, coalesce(p.region_id, 0), coalesce(p.subject_id, 0), ${sign}count(*), ${sign}sum(p.amount)
      FROM ${rows} p CROSS JOIN LATERAL (VALUES ('year'), ('q' || CAST(extract(quarter FROM p.paid_on) AS int))) AS k(period)
     WHERE p.status = 'confirmed' AND p.paid_on IS NOT NULL AND p.amount IS NOT NULL GROUP BY 1, 2, 3, 4
  ON CONFLICT (year, period, region_id, subject_id) DO UPDATE SET n = f.n + excluded.n, amount = f.amount + excluded.amount`;

export async function up(knex: Knex): Promise<void> {
  for (const sql of [
    `CREATE TABLE fund_payer_periods (
      year integer NOT NULL, period varchar(4) NOT NULL, region_id bigint NOT NULL, subject_id bigint NOT NULL, n bigint NOT NULL, amount numeric NOT NULL,
      PRIMARY KEY (year, period, region_id, subject_id))`,
    'CREATE INDEX fund_payer_periods_cover ON fund_payer_periods (year, period, region_id) INCLUDE (subject_id, amount)',
    'CREATE INDEX fund_payer_periods_emptied ON fund_payer_periods (year) WHERE n = 0',
    `CREATE FUNCTION payments_fund_payers() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN ${delta('old_rows', '-')}; END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${delta('new_rows', '')}; END IF;
      DELETE FROM fund_payer_periods WHERE n = 0;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER payments_fund_payers_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_fund_payers()`,
    `CREATE TRIGGER payments_fund_payers_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_fund_payers()`,
    `CREATE TRIGGER payments_fund_payers_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_fund_payers()`,
    // what the payments hold already
    delta('payments', ''),
  ])
    await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const sql of [
    ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS payments_fund_payers_${op} ON payments`),
    'DROP FUNCTION IF EXISTS payments_fund_payers()',
    'DROP TABLE IF EXISTS fund_payer_periods',
  ])
    await knex.raw(sql);
}
