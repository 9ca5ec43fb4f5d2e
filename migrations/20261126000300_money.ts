import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * The fund's open money rules (docs/domain-rules.md):
 * - a subject's bank name, copied from `banks-mfo` by its MFO (`bank_name`, filled for the rows
 *   there are);
 * - a compensation report's first sending day, days late and late-report fine (`sent_on`,
 *   `late_days`, `late_fine`); reports sent before this migration get their first sending day
 *   from their flow history (Tashkent's date), and no fine: fines are applied by sendings, through
 *   the engine, from now on;
 * - protocols get stacks of their own (`protocol_stacks`, categorised by
 *   `stack-protocol-categories`): each act stack holding protocols gives a protocol stack of the
 *   same number, date, region and note per category of its protocols (the category moves from the
 *   protocol to its stack), and the protocols move there;
 * - a subject's ledger and balance as SQL functions, the one definition the subject page, the
 *   reports and their Excel read: `fund_subject_ledger(subject)` lists what counts and on which day
 *   — confirmed payments (paid), accepted compensation reports (accrued, on their period's last
 *   day), protocols' fines, late-report fines (on the sending day) and penya (on its due date) —
 *   and `fund_subject_balance(before, subject)` sums each before a day and nets them: paid less
 *   everything charged. A null subject means every subject.
 */
export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.addEntityColumns('subject', ['bank_name']);
  await knex.raw('UPDATE subjects s SET bank_name = b.name FROM banks_mfo b WHERE b.mfo = s.mfo AND s.bank_name IS NULL');

  await h.addEntityColumns('subject-report-yearly', ['sent_on', 'late_days', 'late_fine']);
  await knex.raw(`UPDATE subject_reports r SET sent_on = f.first
    FROM (SELECT record_id, CAST(min(created_at) AT TIME ZONE 'UTC' + interval '5 hours' AS date) AS first FROM flows
          WHERE entity = 'subject-report-yearly' AND action = 'send' GROUP BY record_id) f
    WHERE f.record_id = r.id AND r.sent_on IS NULL`);
  await knex.raw('CREATE INDEX IF NOT EXISTS subject_reports_sent_on_idx ON subject_reports (sent_on, id)');

  await h.createEntityTables(['stack-protocols']);
  if (await knex.schema.hasColumn('protocols', 'stack_id')) await moveProtocols(knex);
  else await h.addEntityColumns('subject-protocols', ['stack_id']);
  if (await knex.schema.hasColumn('protocols', 'category_id'))
    await knex.schema.alterTable('protocols', (t) => {
      t.dropColumn('category_id');
    });

  await knex.raw(`
    CREATE OR REPLACE FUNCTION fund_subject_ledger(p_subject bigint)
    RETURNS TABLE (subject_id bigint, on_date date, kind text, amount numeric) LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT p.subject_id, p.paid_on, 'paid', p.amount FROM payments p
        WHERE p.status = 'confirmed' AND p.subject_id IS NOT NULL AND (p_subject IS NULL OR p.subject_id = p_subject)
      UNION ALL
      SELECT r.subject_id,
             CASE r.period WHEN 'q1' THEN make_date(r.year, 3, 31) WHEN 'q2' THEN make_date(r.year, 6, 30) WHEN 'q3' THEN make_date(r.year, 9, 30)
                           WHEN 'month' THEN CAST(make_date(r.year, r.month, 1) + interval '1 month' - interval '1 day' AS date)
                           ELSE make_date(r.year, 12, 31) END,
             'accrued', r.amount FROM subject_reports r
        WHERE r.status = 'accepted' AND r.amount IS NOT NULL AND (p_subject IS NULL OR r.subject_id = p_subject)
      UNION ALL
      SELECT r.subject_id, r.sent_on, 'late_fine', r.late_fine FROM subject_reports r
        WHERE r.late_fine IS NOT NULL AND r.sent_on IS NOT NULL AND (p_subject IS NULL OR r.subject_id = p_subject)
      UNION ALL
      SELECT x.subject_id, x.protocol_date, 'fine', x.fine_amount FROM protocols x
        WHERE x.fine_amount IS NOT NULL AND (p_subject IS NULL OR x.subject_id = p_subject)
      UNION ALL
      SELECT x.subject_id, x.due_date, 'penya', x.amount FROM penya x
        WHERE x.amount IS NOT NULL AND (p_subject IS NULL OR x.subject_id = p_subject)
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION fund_subject_balance(p_before date, p_subject bigint)
    RETURNS TABLE (subject_id bigint, paid numeric, accrued numeric, fines numeric, late_fines numeric, penya numeric, balance numeric)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT l.subject_id,
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'paid'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'accrued'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'fine'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'late_fine'), 0.00),
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'penya'), 0.00),
             sum(CASE WHEN l.kind = 'paid' THEN l.amount ELSE -l.amount END)
      FROM fund_subject_ledger(p_subject) l WHERE l.on_date < p_before GROUP BY l.subject_id
    $$`);
}

/** Protocols out of act stacks into protocol stacks: one per act stack and category of its protocols. */
export async function moveProtocols(knex: Knex): Promise<void> {
  const hasCategory = await knex.schema.hasColumn('protocols', 'category_id');
  await knex.schema.alterTable('protocols', (t) => {
    t.dropForeign(['stack_id']);
  });
  const groups = (await knex('protocols as p')
    .join('akt_stacks as a', 'a.id', 'p.stack_id')
    .distinct(
      'p.stack_id',
      hasCategory ? 'p.category_id' : knex.raw('CAST(NULL AS bigint) AS category_id'),
      'a.number',
      'a.stack_date',
      'a.region_id',
      'a.note',
      'a.created_by',
    )
    .orderBy(['p.stack_id', 'category_id'])) as {
    stack_id: number;
    category_id: number | null;
    number: string;
    stack_date: string;
    region_id: number;
    note: string | null;
    created_by: number | null;
  }[];
  if (!groups.length) return;
  let fallback = (await knex('stack_protocol_categories').orderBy('id').first('id'))?.id as number | undefined;
  if (!fallback && groups.some((g) => g.category_id == null)) {
    [{ id: fallback }] = await knex('stack_protocol_categories')
      .insert({
        code: 'ADM',
        name: JSON.stringify({ uz: 'Maʼmuriy bayonnomalar', uk: 'Маъмурий баённомалар', ru: 'Административные протоколы' }),
        is_active: true,
      })
      .returning('id');
  }
  const perStack = new Map<number, number>();
  for (const g of groups) perStack.set(g.stack_id, (perStack.get(g.stack_id) ?? 0) + 1);
  for (const g of groups) {
    const category = g.category_id ?? fallback!;
    let number = g.number;
    if (perStack.get(g.stack_id)! > 1)
      number = `${g.number}-${(await knex('stack_protocol_categories').where({ id: category }).first('code')).code}`.slice(0, 50);
    const [{ id }] = await knex('protocol_stacks')
      .insert({
        number,
        stack_date: g.stack_date,
        category_id: category,
        region_id: g.region_id,
        note: g.note,
        created_by: g.created_by,
        updated_by: g.created_by,
      })
      .returning('id');
    const q = knex('protocols').where({ stack_id: g.stack_id });
    if (hasCategory) {
      if (g.category_id == null) q.whereNull('category_id');
      else q.where({ category_id: g.category_id });
    }
    await q.update({ stack_id: id });
  }
  await knex.schema.alterTable('protocols', (t) => {
    t.foreign('stack_id').references('id').inTable('protocol_stacks').onDelete('CASCADE');
  });
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS fund_subject_balance(date, bigint)');
  await knex.raw('DROP FUNCTION IF EXISTS fund_subject_ledger(bigint)');
  // protocols back into act stacks, each protocol stack becoming one (of the first act-stack category), its category on its protocols
  await knex.schema.alterTable('protocols', (t) => {
    t.dropForeign(['stack_id']);
    t.bigInteger('category_id').nullable().references('id').inTable('stack_protocol_categories').onDelete('RESTRICT');
  });
  const actCategory = (await knex('stack_akt_categories').orderBy('id').first('id'))?.id;
  for (const s of await knex('protocol_stacks').select('*')) {
    await knex('protocols').where({ stack_id: s.id }).update({ category_id: s.category_id });
    if (!actCategory) {
      await knex('protocols').where({ stack_id: s.id }).delete();
      continue;
    }
    const [{ id }] = await knex('akt_stacks')
      .insert({ number: s.number, stack_date: s.stack_date, category_id: actCategory, region_id: s.region_id, note: s.note })
      .returning('id');
    await knex('protocols').where({ stack_id: s.id }).update({ stack_id: id });
  }
  await knex.schema.alterTable('protocols', (t) => {
    t.foreign('stack_id').references('id').inTable('akt_stacks').onDelete('CASCADE');
  });
  await h.dropEntityTables(['stack-protocols']);
  await knex.raw('DROP INDEX IF EXISTS subject_reports_sent_on_idx');
  await knex.schema.alterTable('subject_reports', (t) => {
    t.dropColumn('sent_on');
    t.dropColumn('late_days');
    t.dropColumn('late_fine');
  });
  await knex.schema.alterTable('subjects', (t) => {
    t.dropColumn('bank_name');
  });
}
