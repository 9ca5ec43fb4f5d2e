import type { Knex } from 'knex';
import type { MigrationHelpers } from '../api/db/migrator.ts';

/**
 * People facts (issue 12, docs/offences.md): evidence the public sends, with their incentives (a
 * child table), and on the offence the fact it came from (the other end of the link). The status
 * book gets a row for each state of the facts' workflow — its code is the state's, upper case — so
 * a database whose book was filled before has them too (rows already there are left as they are).
 */
const STATUSES: { code: string; uz: string; uk: string; ru: string; color: string }[] = [
  { code: 'NEW', uz: 'Yangi', uk: 'Янги', ru: 'Новое', color: '#1976d2' },
  { code: 'CHECK', uz: 'Tekshirilmoqda', uk: 'Текширилмоқда', ru: 'На проверке', color: '#ed6c02' },
  { code: 'ASSIGNED', uz: 'Inspektorga biriktirilgan', uk: 'Инспекторга бириктирилган', ru: 'Передано инспектору', color: '#7b1fa2' },
  { code: 'REJECTED', uz: 'Rad etildi', uk: 'Рад этилди', ru: 'Отклонено', color: '#d32f2f' },
  {
    code: 'OFFENCE',
    uz: 'Huquqbuzarlik rasmiylashtirilgan',
    uk: 'Ҳуқуқбузарлик расмийлаштирилган',
    ru: 'Оформлено правонарушение',
    color: '#2e7d32',
  },
];

export async function up(knex: Knex, h: MigrationHelpers): Promise<void> {
  await h.createEntityTables(['people-facts']);
  await h.addEntityColumns('offences', ['people_fact_id']);
  // a region's facts by state, newest first (the reviewers' list)
  await knex.raw(
    'CREATE INDEX IF NOT EXISTS people_facts_region_status_received_idx ON people_facts (region_id, status, received_at DESC, id)',
  );
  for (const s of STATUSES) {
    await knex('people_fact_statuses')
      .insert({ code: s.code, name: JSON.stringify({ uz: s.uz, uk: s.uk, ru: s.ru }), color: s.color, is_active: true })
      .onConflict('code')
      .ignore();
  }
}

export async function down(knex: Knex, h: MigrationHelpers): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS people_facts_region_status_received_idx');
  await h.dropEntityColumns('offences', ['people_fact_id']);
  await h.dropEntityTables(['people-facts']);
}
