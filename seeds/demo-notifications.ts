import type { Knex } from 'knex';
import type { MetaModel } from '../api/meta/types.ts';
import type { Principal } from '../api/auth/ability.ts';
import { Repository } from '../api/engine/repository.ts';
import { withModules } from './modules.ts';

/**
 * Demo notifications, written once (when no announcement is there yet): a few announcements from
 * the administrator — to everyone, to the inspectors, to the subjects' users, to the population —
 * each made through the engine's one write path (a `notification` row, its audit row, its in-app
 * deliveries queued by its hook), so the demo users' bells have something to count once the
 * server's worker has delivered them.
 */
export const DEMO_ANNOUNCEMENTS: { role?: string; title: string; text: string }[] = [
  {
    title: 'Ecofond tizimiga xush kelibsiz',
    text: 'Tizimda hisobotlar, toʻlovlar, huquqbuzarliklar va koʻkalamzorlashtirish maʼlumotlari bir joyda yuritiladi.',
  },
  { role: 'inspector', title: 'Huquqbuzarliklar xaritasi yangilandi', text: 'Xaritada endi davr va hudud boʻyicha saralash mumkin.' },
  { role: 'subject', title: 'Hisobot topshirish muddati', text: 'Choraklik kompensatsiya hisobotini muddatida yuborishni unutmang.' },
  {
    role: 'population',
    title: 'Takliflaringizni kutamiz',
    text: 'Mahallangizni koʻkalamzorlashtirish boʻyicha takliflaringizni saytdagi shakl orqali yuboring.',
  },
];

export async function seedNotificationsDemo(knex: Knex, given: MetaModel, log: (s: string) => void): Promise<void> {
  const model = withModules(given);
  const e = model.entities.get('notification');
  if (!e) return;
  const type = await knex('notification_types').where({ code: 'announcement' }).first('id');
  if (!type || (await knex('notifications').where({ type_id: type.id }).first('id'))) return;
  const admin = await knex('users')
    .whereRaw('lower(username) = ?', ['admin'])
    .first('id', 'username', 'region_id', 'branch_id', 'subject_id');
  if (!admin) return;
  const principal: Principal = {
    id: admin.id,
    username: admin.username,
    actions: new Set(),
    region_id: admin.region_id,
    branch_id: admin.branch_id,
    subject_id: admin.subject_id,
  };
  let deliveries = 0;
  await knex.transaction(async (trx) => {
    // the administrator's announcements: written on their behalf (trusted), audited under them
    const repo = new Repository({ knex, model, principal, lang: 'uz', trx, trusted: true }, e);
    for (const a of DEMO_ANNOUNCEMENTS) {
      const role = a.role ? await trx('roles').where({ code: a.role }).first('id') : null;
      if (a.role && !role) continue;
      const row = await repo.create({ type_id: type.id, role_id: role?.id ?? null, title: a.title, text: a.text });
      deliveries += Number(row.recipients ?? 0);
    }
  });
  log(`demo: ${DEMO_ANNOUNCEMENTS.length} announcements, ${deliveries} in-app deliveries queued`);
}
