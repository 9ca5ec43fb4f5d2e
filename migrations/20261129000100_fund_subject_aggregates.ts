import type { Knex } from 'knex';
import { FIRST_WHOLE_MONTH, LEDGER, month } from './20261127000100_fund_report_facts.ts';

/**
 * What the compensation report (metadata/reports/ecofund-reports/compensation-report.json) reads
 * per subject, so that a year over the whole country is not 170 000 payments' splits looked up one
 * by one and every subject's ledger summed month by month (docs/performance.md, bench/fund-reports).
 * Both kept by statement-level triggers with transition tables, like `fund_ledger_months`;
 * test/fund-report-facts.test.ts holds them to the rows after every kind of change.
 *
 * - `fund_subject_split_months`: the confirmed payments' splits summed by month, split income code,
 *   the payment's region and subject (0 / '' where none): how many splits and their whole amount
 *   (budget + fund + organisation). Kept by triggers on payments (confirmed, changed, un-confirmed;
 *   a deleted payment's splits taken out before the cascade removes them) and on payment_splits.
 *   The income code, not its group, is the key: an income type moved to another group moves
 *   nothing here. `fund_subject_splits(d0, d1, subject)` reads it: whole months of [d0, d1) from the
 *   aggregate, the days of a part month at either end from the rows.
 * - `fund_ledger_years`: each subject's ledger (`fund_subject_ledger`) as a running summary by
 *   year — for each year the subject has ledger rows in, how many (`n`) and the sums of each kind
 *   (paid, accrued, fines, late-report fines, penya) over all its rows **up to the end of that
 *   year**. A change in year y adds its difference to the subject's rows of y and every later year
 *   (a row for y made from the one before it first); a row whose year has no ledger rows left is
 *   removed — the later rows carry the sums on. Kept by triggers on payments, subject_reports,
 *   protocols and penya (the ledger's sources, the same rows as `fund_ledger_months`).
 *   `fund_subject_balances(before, subjects[])` now reads each subject's latest row before
 *   `before`'s year (one index read), the whole months of that year before `before`'s month from
 *   `fund_ledger_months` and the days of `before`'s month from the ledger rows: the same figure.
 */
const KINDS = ['paid', 'accrued', 'fines', 'late_fines', 'penya'] as const;
const KIND: Record<(typeof KINDS)[number], string> = {
  paid: 'paid',
  accrued: 'accrued',
  fines: 'fine',
  late_fines: 'late_fine',
  penya: 'penya',
};
type Source = keyof typeof LEDGER;

const subjectSplitDelta = (from: string, sign: '' | '-') => `
  INSERT INTO fund_subject_split_months AS f (month, income_code, region_id, subject_id, splits, amount)
    SELECT ${month('p.paid_on')}, coalesce(s.income_code, ''), coalesce(p.region_id, 0), coalesce(p.subject_id, 0),
           ${sign}count(*), ${sign}coalesce(sum(s.budget + s.fund + s.organisation), 0)
      FROM ${from} WHERE p.status = 'confirmed' GROUP BY 1, 2, 3, 4
  ON CONFLICT (month, income_code, region_id, subject_id) DO UPDATE SET splits = f.splits + excluded.splits, amount = f.amount + excluded.amount`;

/** A statement's difference to the running summary, by subject and year: `rows` are the transition tables with their sign. */
const yearsDelta = (table: Source, rows: [string, 1 | -1][]) => `
  SELECT l.subject_id, CAST(extract(year FROM l.on_date) AS int) AS year, sum(l.s) AS n,
         ${KINDS.map((c) => `coalesce(sum(l.s * l.amount) FILTER (WHERE l.kind = '${KIND[c]}'), 0) AS ${c}`).join(', ')}
    FROM (${rows.flatMap(([r, s]) => LEDGER[table](r).map((q) => `SELECT z.*, ${s} AS s FROM (${q}) z`)).join(' UNION ALL ')}) l
   GROUP BY 1, 2`;

/** The difference applied: the missing years' rows made from the year before, the difference added to that year and every later one, emptied years removed. */
const yearsApply = (table: Source, rows: [string, 1 | -1][]) => `
    INSERT INTO fund_ledger_years (subject_id, year, n, ${KINDS.join(', ')})
      SELECT d.subject_id, d.year, 0, ${KINDS.map((c) => `coalesce(b.${c}, 0.00)`).join(', ')}
        FROM (${yearsDelta(table, rows)}) d
        LEFT JOIN LATERAL (SELECT * FROM fund_ledger_years y WHERE y.subject_id = d.subject_id AND y.year < d.year ORDER BY y.year DESC LIMIT 1) b ON true
    ON CONFLICT (subject_id, year) DO NOTHING;
    UPDATE fund_ledger_years f SET n = f.n + d.n, ${KINDS.map((c) => `${c} = f.${c} + d.${c}`).join(', ')}
      FROM (SELECT y.subject_id, y.year, coalesce(sum(d.n) FILTER (WHERE d.year = y.year), 0) AS n, ${KINDS.map((c) => `sum(d.${c}) AS ${c}`).join(', ')}
              FROM fund_ledger_years y JOIN (${yearsDelta(table, rows)}) d ON d.subject_id = y.subject_id AND d.year <= y.year GROUP BY 1, 2) d
     WHERE f.subject_id = d.subject_id AND f.year = d.year;
    DELETE FROM fund_ledger_years WHERE n = 0`;

const yearsTrigger = (table: Source) => [
  `CREATE FUNCTION ${table}_fund_ledger_years() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN ${yearsApply(table, [['new_rows', 1]])};
    ELSIF TG_OP = 'UPDATE' THEN ${yearsApply(table, [
      ['new_rows', 1],
      ['old_rows', -1],
    ])};
    ELSE ${yearsApply(table, [['old_rows', -1]])};
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER ${table}_fund_ledger_years_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_fund_ledger_years()`,
  `CREATE TRIGGER ${table}_fund_ledger_years_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_fund_ledger_years()`,
  `CREATE TRIGGER ${table}_fund_ledger_years_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_fund_ledger_years()`,
];

const SOURCES = Object.keys(LEDGER) as Source[];
const YEAR_OF = (d: string) => `CAST(extract(year FROM ${d}) AS int)`;

/** The balances as fund_report_facts defined them (what `down` restores). */
const MONTHLY_BALANCES = `CREATE OR REPLACE FUNCTION fund_subject_balances(p_before date, p_subjects bigint[])
    RETURNS TABLE (subject_id bigint, paid numeric, accrued numeric, fines numeric, late_fines numeric, penya numeric, balance numeric)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT l.subject_id,
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'paid'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'accrued'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'fine'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'late_fine'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'penya'), 0.00),
             sum(CASE WHEN l.kind = 'paid' THEN l.amount ELSE -l.amount END)
      FROM (
        SELECT f.subject_id, f.kind, f.amount FROM fund_ledger_months f WHERE p_subjects IS NULL AND f.month < ${month('p_before')}
        UNION ALL
        SELECT f.subject_id, f.kind, f.amount FROM fund_ledger_months f WHERE f.subject_id = ANY (p_subjects) AND f.month < ${month('p_before')}
        UNION ALL
        SELECT x.subject_id, x.kind, x.amount FROM fund_subject_ledger(CASE WHEN cardinality(p_subjects) = 1 THEN p_subjects[1] END) x
         WHERE x.on_date >= ${month('p_before')} AND x.on_date < p_before AND (p_subjects IS NULL OR x.subject_id = ANY (p_subjects))
      ) l GROUP BY l.subject_id
    $$`;

/** A ledger row (kind, amount) as the five columns of the running summary. */
const pivot = (kind: string, amount: string) =>
  KINDS.map((c) => `CASE WHEN ${kind} = '${KIND[c]}' THEN ${amount} ELSE 0.00 END AS ${c}`).join(', ');
const YEAR_START = `make_date(${YEAR_OF('p_before')}, 1, 1)`;

/** The years before `p_before`'s year (each subject's latest running row) joined with the rest (the year's whole months and the part month, summed): no second aggregate over every subject. */
export const RUNNING_BALANCES = `CREATE OR REPLACE FUNCTION fund_subject_balances(p_before date, p_subjects bigint[])
    RETURNS TABLE (subject_id bigint, paid numeric, accrued numeric, fines numeric, late_fines numeric, penya numeric, balance numeric)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT t.subject_id, ${KINDS.map((c) => `t.${c}`).join(', ')}, t.paid - t.accrued - t.fines - t.late_fines - t.penya
      FROM (
        SELECT coalesce(y.subject_id, m.subject_id) AS subject_id, ${KINDS.map((c) => `coalesce(y.${c}, 0.00) + coalesce(m.${c}, 0.00) AS ${c}`).join(', ')}
        FROM (
          (SELECT DISTINCT ON (y.subject_id) y.subject_id, ${KINDS.map((c) => `y.${c}`).join(', ')} FROM fund_ledger_years y
            WHERE p_subjects IS NULL AND y.year < ${YEAR_OF('p_before')} ORDER BY y.subject_id, y.year DESC)
          UNION ALL
          (SELECT DISTINCT ON (y.subject_id) y.subject_id, ${KINDS.map((c) => `y.${c}`).join(', ')} FROM fund_ledger_years y
            WHERE y.subject_id = ANY (p_subjects) AND y.year < ${YEAR_OF('p_before')} ORDER BY y.subject_id, y.year DESC)
        ) y
        FULL JOIN (
          SELECT l.subject_id, ${KINDS.map((c) => `sum(l.${c}) AS ${c}`).join(', ')}
          FROM (
            SELECT f.subject_id, ${pivot('f.kind', 'f.amount')} FROM fund_ledger_months f
             WHERE p_subjects IS NULL AND f.month >= ${YEAR_START} AND f.month < ${month('p_before')}
            UNION ALL
            SELECT f.subject_id, ${pivot('f.kind', 'f.amount')} FROM fund_ledger_months f
             WHERE f.subject_id = ANY (p_subjects) AND f.month >= ${YEAR_START} AND f.month < ${month('p_before')}
            UNION ALL
            SELECT x.subject_id, ${pivot('x.kind', 'x.amount')} FROM fund_subject_ledger(CASE WHEN cardinality(p_subjects) = 1 THEN p_subjects[1] END) x
             WHERE x.on_date >= ${month('p_before')} AND x.on_date < p_before AND (p_subjects IS NULL OR x.subject_id = ANY (p_subjects))
          ) l GROUP BY l.subject_id
        ) m ON m.subject_id = y.subject_id
      ) t
    $$`;

export async function up(knex: Knex): Promise<void> {
  for (const sql of [
    // compensation (and every code) paid by subject and month
    `CREATE TABLE fund_subject_split_months (
      month date NOT NULL, income_code text NOT NULL, region_id bigint NOT NULL, subject_id bigint NOT NULL, splits bigint NOT NULL, amount numeric NOT NULL,
      PRIMARY KEY (month, income_code, region_id, subject_id))`,
    'CREATE INDEX fund_subject_split_months_subject ON fund_subject_split_months (subject_id, month)',
    'CREATE INDEX fund_subject_split_months_emptied ON fund_subject_split_months (month) WHERE splits = 0',
    `CREATE FUNCTION payments_fund_subject_splits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN ${subjectSplitDelta('old_rows p JOIN payment_splits s ON s.parent_id = p.id', '-')}; END IF;
      ${subjectSplitDelta('new_rows p JOIN payment_splits s ON s.parent_id = p.id', '')};
      DELETE FROM fund_subject_split_months WHERE splits = 0;
      RETURN NULL;
    END $$`,
    // a deleted payment's splits go with it (ON DELETE CASCADE): taken out while they are still there
    `CREATE FUNCTION payments_fund_subject_splits_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${subjectSplitDelta('(SELECT OLD.*) p JOIN payment_splits s ON s.parent_id = p.id', '-')};
      DELETE FROM fund_subject_split_months WHERE splits = 0;
      RETURN OLD;
    END $$`,
    `CREATE FUNCTION payment_splits_fund_subject_splits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN ${subjectSplitDelta('payments p JOIN old_rows s ON s.parent_id = p.id', '-')}; END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${subjectSplitDelta('payments p JOIN new_rows s ON s.parent_id = p.id', '')}; END IF;
      DELETE FROM fund_subject_split_months WHERE splits = 0;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER payments_fund_subject_splits_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_fund_subject_splits()`,
    `CREATE TRIGGER payments_fund_subject_splits_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_fund_subject_splits()`,
    `CREATE TRIGGER payments_fund_subject_splits_delete BEFORE DELETE ON payments FOR EACH ROW EXECUTE FUNCTION payments_fund_subject_splits_delete()`,
    `CREATE TRIGGER payment_splits_fund_subject_splits_insert AFTER INSERT ON payment_splits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_splits_fund_subject_splits()`,
    `CREATE TRIGGER payment_splits_fund_subject_splits_update AFTER UPDATE ON payment_splits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_splits_fund_subject_splits()`,
    `CREATE TRIGGER payment_splits_fund_subject_splits_delete AFTER DELETE ON payment_splits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_splits_fund_subject_splits()`,
    subjectSplitDelta('payments p JOIN payment_splits s ON s.parent_id = p.id', ''),
    `CREATE FUNCTION fund_subject_splits(p_d0 date, p_d1 date, p_subject bigint)
    RETURNS TABLE (subject_id bigint, region_id bigint, income_code text, amount numeric)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT nullif(f.subject_id, 0), nullif(f.region_id, 0), nullif(f.income_code, ''), f.amount
        FROM fund_subject_split_months f
       WHERE f.month >= ${FIRST_WHOLE_MONTH} AND f.month < ${month('p_d1')} AND (p_subject IS NULL OR f.subject_id = p_subject)
      UNION ALL
      SELECT p.subject_id, p.region_id, CAST(s.income_code AS text), s.budget + s.fund + s.organisation
        FROM payments p CROSS JOIN LATERAL (SELECT x.income_code, x.budget, x.fund, x.organisation FROM payment_splits x WHERE x.parent_id = p.id OFFSET 0) s
       WHERE p.status = 'confirmed' AND p.paid_on >= p_d0 AND p.paid_on < p_d1
         AND (p.paid_on < ${FIRST_WHOLE_MONTH} OR p.paid_on >= ${month('p_d1')}) AND (p_subject IS NULL OR p.subject_id = p_subject)
    $$`,

    // each subject's ledger as a running summary by year
    `CREATE TABLE fund_ledger_years (
      subject_id bigint NOT NULL, year integer NOT NULL, n bigint NOT NULL,
      ${KINDS.map((c) => `${c} numeric NOT NULL`).join(', ')},
      PRIMARY KEY (subject_id, year))`,
    `CREATE INDEX fund_ledger_years_cover ON fund_ledger_years (subject_id, year DESC) INCLUDE (${KINDS.join(', ')})`,
    'CREATE INDEX fund_ledger_years_emptied ON fund_ledger_years (subject_id) WHERE n = 0',
    ...SOURCES.flatMap(yearsTrigger),
    // what the ledger holds already: its months summed by year, then run on
    `INSERT INTO fund_ledger_years (subject_id, year, n, ${KINDS.join(', ')})
      SELECT m.subject_id, m.year, m.n, ${KINDS.map((c) => `sum(m.${c}) OVER (PARTITION BY m.subject_id ORDER BY m.year)`).join(', ')}
        FROM (SELECT f.subject_id, ${YEAR_OF('f.month')} AS year, sum(f.n) AS n,
                     ${KINDS.map((c) => `coalesce(sum(f.amount) FILTER (WHERE f.kind = '${KIND[c]}'), 0.00) AS ${c}`).join(', ')}
                FROM fund_ledger_months f GROUP BY 1, 2) m`,
    'CREATE INDEX IF NOT EXISTS fund_ledger_months_month ON fund_ledger_months (month) INCLUDE (subject_id, kind, amount)',
    RUNNING_BALANCES,
  ])
    await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const sql of [
    MONTHLY_BALANCES,
    'DROP INDEX IF EXISTS fund_ledger_months_month',
    ...SOURCES.flatMap((t) => [
      ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS ${t}_fund_ledger_years_${op} ON ${t}`),
      `DROP FUNCTION IF EXISTS ${t}_fund_ledger_years()`,
    ]),
    'DROP TABLE IF EXISTS fund_ledger_years',
    'DROP FUNCTION IF EXISTS fund_subject_splits(date, date, bigint)',
    ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS payment_splits_fund_subject_splits_${op} ON payment_splits`),
    ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS payments_fund_subject_splits_${op} ON payments`),
    'DROP FUNCTION IF EXISTS payment_splits_fund_subject_splits()',
    'DROP FUNCTION IF EXISTS payments_fund_subject_splits_delete()',
    'DROP FUNCTION IF EXISTS payments_fund_subject_splits()',
    'DROP TABLE IF EXISTS fund_subject_split_months',
  ])
    await knex.raw(sql);
}
