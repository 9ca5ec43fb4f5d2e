import type { Knex } from 'knex';

/**
 * What keeps the fund's reports fast over millions of rows (docs/performance.md, bench/fund-reports):
 * aggregates kept by statement-level triggers, as the greening reports keep planting_facts, and an
 * index the payment reports scan without touching the table.
 *
 * - `fund_split_months`: the confirmed payments' splits summed by month, region, the subject's
 *   category, income type and split income code (the split count, the whole, budget, fund and
 *   organisation parts). Kept by triggers on payments (a payment confirmed, changed, un-confirmed;
 *   a deleted payment's splits taken out before the cascade removes them), on payment_splits (a
 *   split made or removed) and on subjects (a subject moved to another category moves its money).
 *   `fund_split_facts(d0, d1, subject)` is what the reports read: whole months in [d0, d1) from the
 *   aggregate, the days of a part month at either end from the rows, and one subject's splits
 *   from the rows (through its index). The split count stands for count(DISTINCT payment): the
 *   confirm hook gives each payment one split (api/modules/fund/payments.ts).
 * - `fund_ledger_months`: each subject's ledger (`fund_subject_ledger`: paid, accrued, fines,
 *   late-report fines, penya) summed by month, kept by triggers on payments, subject_reports,
 *   protocols and penya; `fund_subject_balance(before, subject)` now sums the whole months before
 *   `before` from it and the days of `before`'s month from the ledger rows — the same figure, read
 *   without going over a subject's whole history; `fund_subject_balances(before, subjects[])` gives
 *   it for a set of subjects at once (the compensation report's).
 *   An index on the accrual day makes the part month's accruals a lookup.
 * - `payments_paid_on_cover`: payments by day with the columns the payments reports group and
 *   filter by, for index-only scans.
 */
/** The first day of a date's month (on timestamps without a zone: immutable). */
export const month = (d: string) => `CAST(date_trunc('month', CAST(${d} AS timestamp)) AS date)`;
/** The first whole month of a period starting on p_d0: its own month if p_d0 is a first, else the next. */
export const FIRST_WHOLE_MONTH = `CAST(date_trunc('month', CAST(p_d0 - 1 AS timestamp)) + interval '1 month' AS date)`;

/** The accrual day as the money migration wrote it inline (what `down` restores). */
const INLINE_ACCRUAL_DATE = `CASE x.period WHEN 'q1' THEN make_date(x.year, 3, 31) WHEN 'q2' THEN make_date(x.year, 6, 30) WHEN 'q3' THEN make_date(x.year, 9, 30)
  WHEN 'month' THEN CAST(make_date(x.year, x.month, 1) + interval '1 month' - interval '1 day' AS date) ELSE make_date(x.year, 12, 31) END`;

const ACCRUAL_DATE = `CREATE OR REPLACE FUNCTION fund_accrual_date(p_period text, p_year integer, p_month integer) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_period WHEN 'q1' THEN make_date(p_year, 3, 31) WHEN 'q2' THEN make_date(p_year, 6, 30) WHEN 'q3' THEN make_date(p_year, 9, 30)
                       WHEN 'month' THEN CAST(make_date(p_year, p_month, 1) + interval '1 month' - interval '1 day' AS date)
                       ELSE make_date(p_year, 12, 31) END
$$`;

/** The ledger's rows of each source table (`x`: the table or a transition table of it) — once, for the ledger function and the triggers. */
export const LEDGER: Record<'payments' | 'subject_reports' | 'protocols' | 'penya', (x: string) => string[]> = {
  payments: (x) => [
    `SELECT x.subject_id, x.paid_on AS on_date, 'paid' AS kind, x.amount FROM ${x} x WHERE x.status = 'confirmed' AND x.subject_id IS NOT NULL`,
  ],
  subject_reports: (x) => [
    `SELECT x.subject_id, fund_accrual_date(x.period, x.year, x.month) AS on_date, 'accrued' AS kind, x.amount FROM ${x} x WHERE x.status = 'accepted' AND x.amount IS NOT NULL`,
    `SELECT x.subject_id, x.sent_on AS on_date, 'late_fine' AS kind, x.late_fine AS amount FROM ${x} x WHERE x.late_fine IS NOT NULL AND x.sent_on IS NOT NULL`,
  ],
  protocols: (x) => [
    `SELECT x.subject_id, x.protocol_date AS on_date, 'fine' AS kind, x.fine_amount AS amount FROM ${x} x WHERE x.fine_amount IS NOT NULL`,
  ],
  penya: (x) => [`SELECT x.subject_id, x.due_date AS on_date, 'penya' AS kind, x.amount FROM ${x} x WHERE x.amount IS NOT NULL`],
};

const ledgerDelta = (table: keyof typeof LEDGER, rows: string, sign: '' | '-') => `
  INSERT INTO fund_ledger_months AS f (subject_id, month, kind, n, amount)
    SELECT l.subject_id, ${month('l.on_date')}, l.kind, ${sign}count(*), ${sign}sum(l.amount)
      FROM (${LEDGER[table](rows).join(' UNION ALL ')}) l GROUP BY 1, 2, 3
  ON CONFLICT (subject_id, month, kind) DO UPDATE SET n = f.n + excluded.n, amount = f.amount + excluded.amount`;

/** The splits of confirmed payments `p` (joined with splits `s` and the category source `c`), summed by month and key, added or taken out. */
const splitDelta = (from: string, sign: '' | '-', category = 'c.category_id') => `
  INSERT INTO fund_split_months AS f (month, region_id, category_id, income_type_id, income_code, splits, amount, budget, fund, organisation)
    SELECT ${month('p.paid_on')}, coalesce(p.region_id, 0), coalesce(${category}, 0), coalesce(p.income_type_id, 0), coalesce(s.income_code, ''),
           ${sign}count(*), ${sign}coalesce(sum(s.budget + s.fund + s.organisation), 0), ${sign}coalesce(sum(s.budget), 0), ${sign}coalesce(sum(s.fund), 0), ${sign}coalesce(sum(s.organisation), 0)
      FROM ${from} WHERE p.status = 'confirmed' GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (month, region_id, category_id, income_type_id, income_code) DO UPDATE SET splits = f.splits + excluded.splits, amount = f.amount + excluded.amount,
    budget = f.budget + excluded.budget, fund = f.fund + excluded.fund, organisation = f.organisation + excluded.organisation`;

const ledgerTrigger = (table: keyof typeof LEDGER) => [
  `CREATE OR REPLACE FUNCTION ${table}_fund_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN ${ledgerDelta(table, 'old_rows', '-')}; END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN ${ledgerDelta(table, 'new_rows', '')}; END IF;
    DELETE FROM fund_ledger_months WHERE n = 0;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER ${table}_fund_ledger_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_fund_ledger()`,
  `CREATE TRIGGER ${table}_fund_ledger_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_fund_ledger()`,
  `CREATE TRIGGER ${table}_fund_ledger_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_fund_ledger()`,
];

export async function up(knex: Knex): Promise<void> {
  // the ledger function: every source filtered by subject inside its branch (so one subject's rows are an index lookup)
  const branches = (Object.keys(LEDGER) as (keyof typeof LEDGER)[]).flatMap((t) =>
    LEDGER[t](t).map((q) => `${q} AND (p_subject IS NULL OR x.subject_id = p_subject)`),
  );
  for (const sql of [
    ACCRUAL_DATE,
    `CREATE OR REPLACE FUNCTION fund_subject_ledger(p_subject bigint)
    RETURNS TABLE (subject_id bigint, on_date date, kind text, amount numeric) LANGUAGE sql STABLE PARALLEL SAFE AS $$
      ${branches.join('\n      UNION ALL\n      ')}
    $$`,
    `CREATE INDEX IF NOT EXISTS subject_reports_accrual_date_idx ON subject_reports (fund_accrual_date(period, year, month)) WHERE status = 'accepted'`,
    `CREATE INDEX IF NOT EXISTS penya_subject_due_date_idx ON penya (subject_id, due_date)`,
    `CREATE INDEX IF NOT EXISTS subject_reports_subject_sent_on_idx ON subject_reports (subject_id, sent_on) WHERE late_fine IS NOT NULL`,
    `CREATE INDEX IF NOT EXISTS payments_paid_on_cover ON payments (paid_on) INCLUDE (status, region_id, subject_id, income_type_id, income_code, payment_type, amount)`,

    `CREATE TABLE fund_ledger_months (
      subject_id bigint NOT NULL, month date NOT NULL, kind varchar(10) NOT NULL, n bigint NOT NULL, amount numeric NOT NULL,
      PRIMARY KEY (subject_id, month, kind))`,
    'CREATE INDEX fund_ledger_months_emptied ON fund_ledger_months (subject_id) WHERE n = 0',
    ...(Object.keys(LEDGER) as (keyof typeof LEDGER)[]).flatMap(ledgerTrigger),
    ...(Object.keys(LEDGER) as (keyof typeof LEDGER)[]).map((t) => ledgerDelta(t, t, '')),
    // the balances of a set of subjects (null: every subject): whole months from the aggregate, the days of the last (part) month from the ledger rows
    `CREATE OR REPLACE FUNCTION fund_subject_balances(p_before date, p_subjects bigint[])
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
    $$`,
    // one subject's (null: every subject's) — what the subject page and the reports show
    `CREATE OR REPLACE FUNCTION fund_subject_balance(p_before date, p_subject bigint)
    RETURNS TABLE (subject_id bigint, paid numeric, accrued numeric, fines numeric, late_fines numeric, penya numeric, balance numeric)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT * FROM fund_subject_balances(p_before, CASE WHEN p_subject IS NULL THEN NULL ELSE ARRAY[p_subject] END)
    $$`,
    'CREATE INDEX fund_ledger_months_cover ON fund_ledger_months (subject_id, month) INCLUDE (kind, amount)',

    `CREATE TABLE fund_split_months (
      month date NOT NULL, region_id bigint NOT NULL, category_id bigint NOT NULL, income_type_id bigint NOT NULL, income_code varchar(10) NOT NULL,
      splits bigint NOT NULL, amount numeric NOT NULL, budget numeric NOT NULL, fund numeric NOT NULL, organisation numeric NOT NULL,
      PRIMARY KEY (month, region_id, category_id, income_type_id, income_code))`,
    'CREATE INDEX fund_split_months_region ON fund_split_months (region_id, month)',
    'CREATE INDEX fund_split_months_emptied ON fund_split_months (month) WHERE splits = 0',
    `CREATE FUNCTION payments_fund_splits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN ${splitDelta('old_rows p JOIN payment_splits s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id', '-')}; END IF;
      ${splitDelta('new_rows p JOIN payment_splits s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id', '')};
      DELETE FROM fund_split_months WHERE splits = 0;
      RETURN NULL;
    END $$`,
    // a deleted payment's splits go with it (ON DELETE CASCADE): taken out while they are still there
    `CREATE FUNCTION payments_fund_splits_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${splitDelta('(SELECT OLD.*) p JOIN payment_splits s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id', '-')};
      DELETE FROM fund_split_months WHERE splits = 0;
      RETURN OLD;
    END $$`,
    `CREATE FUNCTION payment_splits_fund_splits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN ${splitDelta('payments p JOIN old_rows s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id', '-')}; END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${splitDelta('payments p JOIN new_rows s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id', '')}; END IF;
      DELETE FROM fund_split_months WHERE splits = 0;
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION subjects_fund_splits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${splitDelta(`old_rows c JOIN new_rows n ON n.id = c.id AND n.category_id IS DISTINCT FROM c.category_id JOIN payments p ON p.subject_id = c.id JOIN payment_splits s ON s.parent_id = p.id`, '-')};
      ${splitDelta(`new_rows c JOIN old_rows o ON o.id = c.id AND o.category_id IS DISTINCT FROM c.category_id JOIN payments p ON p.subject_id = c.id JOIN payment_splits s ON s.parent_id = p.id`, '')};
      DELETE FROM fund_split_months WHERE splits = 0;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER payments_fund_splits_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_fund_splits()`,
    `CREATE TRIGGER payments_fund_splits_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_fund_splits()`,
    `CREATE TRIGGER payments_fund_splits_delete BEFORE DELETE ON payments FOR EACH ROW EXECUTE FUNCTION payments_fund_splits_delete()`,
    `CREATE TRIGGER payment_splits_fund_splits_insert AFTER INSERT ON payment_splits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_splits_fund_splits()`,
    `CREATE TRIGGER payment_splits_fund_splits_update AFTER UPDATE ON payment_splits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_splits_fund_splits()`,
    `CREATE TRIGGER payment_splits_fund_splits_delete AFTER DELETE ON payment_splits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_splits_fund_splits()`,
    `CREATE TRIGGER subjects_fund_splits_update AFTER UPDATE ON subjects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subjects_fund_splits()`,
    // what the ledgers hold already
    splitDelta('payments p JOIN payment_splits s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id', ''),
    // the reports' reading: whole months from the aggregate, part months and one subject's splits from the rows
    `CREATE FUNCTION fund_split_facts(p_d0 date, p_d1 date, p_subject bigint)
    RETURNS TABLE (month date, region_id bigint, category_id bigint, income_type_id bigint, income_code text, splits bigint, amount numeric, budget numeric, fund numeric, organisation numeric)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT f.month, nullif(f.region_id, 0), nullif(f.category_id, 0), nullif(f.income_type_id, 0), CAST(nullif(f.income_code, '') AS text), f.splits, f.amount, f.budget, f.fund, f.organisation
        FROM fund_split_months f
       WHERE p_subject IS NULL AND f.month >= ${FIRST_WHOLE_MONTH} AND f.month < ${month('p_d1')}
      UNION ALL
      SELECT ${month('p.paid_on')}, p.region_id, c.category_id, p.income_type_id, CAST(s.income_code AS text), 1, coalesce(s.budget + s.fund + s.organisation, 0),
             coalesce(s.budget, 0), coalesce(s.fund, 0), coalesce(s.organisation, 0)
        FROM payments p JOIN payment_splits s ON s.parent_id = p.id LEFT JOIN subjects c ON c.id = p.subject_id
       WHERE p.status = 'confirmed' AND p.paid_on >= p_d0 AND p.paid_on < p_d1
         AND ((p_subject IS NOT NULL AND p.subject_id = p_subject)
              OR (p_subject IS NULL AND (p.paid_on < ${FIRST_WHOLE_MONTH} OR p.paid_on >= ${month('p_d1')})))
    $$`,
  ])
    await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  for (const sql of [
    'DROP FUNCTION IF EXISTS fund_split_facts(date, date, bigint)',
    'DROP TRIGGER IF EXISTS subjects_fund_splits_update ON subjects',
    ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS payment_splits_fund_splits_${op} ON payment_splits`),
    ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS payments_fund_splits_${op} ON payments`),
    'DROP FUNCTION IF EXISTS subjects_fund_splits()',
    'DROP FUNCTION IF EXISTS payment_splits_fund_splits()',
    'DROP FUNCTION IF EXISTS payments_fund_splits_delete()',
    'DROP FUNCTION IF EXISTS payments_fund_splits()',
    'DROP TABLE IF EXISTS fund_split_months',
    ...Object.keys(LEDGER).flatMap((t) => [
      ...['insert', 'update', 'delete'].map((op) => `DROP TRIGGER IF EXISTS ${t}_fund_ledger_${op} ON ${t}`),
      `DROP FUNCTION IF EXISTS ${t}_fund_ledger()`,
    ]),
    'DROP FUNCTION IF EXISTS fund_subject_balances(date, bigint[])',
    'DROP TABLE IF EXISTS fund_ledger_months',
    'DROP INDEX IF EXISTS payments_paid_on_cover',
    'DROP INDEX IF EXISTS subject_reports_subject_sent_on_idx',
    'DROP INDEX IF EXISTS penya_subject_due_date_idx',
    'DROP INDEX IF EXISTS subject_reports_accrual_date_idx',
  ])
    await knex.raw(sql);
  // the ledger and balance as the money migration defined them
  await knex.raw(`
    CREATE OR REPLACE FUNCTION fund_subject_ledger(p_subject bigint)
    RETURNS TABLE (subject_id bigint, on_date date, kind text, amount numeric) LANGUAGE sql STABLE PARALLEL SAFE AS $$
      ${(Object.keys(LEDGER) as (keyof typeof LEDGER)[])
        .flatMap((t) => LEDGER[t](t).map((q) => `${q} AND (p_subject IS NULL OR x.subject_id = p_subject)`))
        .join(' UNION ALL ')
        .replace('fund_accrual_date(x.period, x.year, x.month)', INLINE_ACCRUAL_DATE)}
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION fund_subject_balance(p_before date, p_subject bigint)
    RETURNS TABLE (subject_id bigint, paid numeric, accrued numeric, fines numeric, late_fines numeric, penya numeric, balance numeric)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT l.subject_id,
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'paid'), 0.00), coalesce(sum(l.amount) FILTER (WHERE l.kind = 'accrued'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'fine'), 0.00), coalesce(sum(l.amount) FILTER (WHERE l.kind = 'late_fine'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'penya'), 0.00), sum(CASE WHEN l.kind = 'paid' THEN l.amount ELSE -l.amount END)
      FROM fund_subject_ledger(p_subject) l WHERE l.on_date < p_before GROUP BY l.subject_id
    $$`);
  await knex.raw('DROP FUNCTION IF EXISTS fund_accrual_date(text, integer, integer)');
}
