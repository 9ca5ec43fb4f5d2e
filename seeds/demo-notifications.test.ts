import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../test/support/db.ts';
import type { Database } from '../api/db/connection.ts';
import { loadMetadata } from '../api/meta/load.ts';
import { createUser } from '../cli/create-user.ts';
import { NotificationWorker } from '../api/notify/worker.ts';
import { DEMO_ANNOUNCEMENTS, seedNotificationsDemo } from './demo-notifications.ts';

/** The demo's announcements: written through the one write path (audited), delivered in-app to the demo users, once. */
let db: Database;
const model = loadMetadata();
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe('demo notifications', () => {
  it('announce to the demo users through the write path, so their bells count them, and are written once', async () => {
    const inspector = await createUser(db.knex, { username: 'demo_inspector', password: 'secret-pw', roles: ['inspector'] });
    const resident = await createUser(db.knex, { username: 'demo_resident', password: 'secret-pw', roles: ['population'] });
    const lines: string[] = [];
    await seedNotificationsDemo(db.knex, model, (l) => lines.push(l));
    const rows = await db.knex('notifications').orderBy('id').select('id', 'title', 'role_id', 'recipients', 'created_by');
    expect(rows.map((r) => r.title)).toEqual(DEMO_ANNOUNCEMENTS.map((a) => a.title));
    const admin = (await db.knex('users').where({ username: 'admin' }).first('id')).id;
    expect(rows.map((r) => r.created_by)).toEqual(rows.map(() => admin));
    // everyone (the administrator and the two users at least), the inspectors, the population
    expect([rows[0].recipients >= 3, rows[1].recipients, rows[3].recipients]).toEqual([true, 1, 1]);
    // one audit row each, under the administrator
    const audit = await db
      .knex('audit_log')
      .where({ entity: 'notification', op: 'create' })
      .whereIn(
        'record_id',
        rows.map((r) => r.id),
      )
      .select('user_id');
    expect(audit).toHaveLength(rows.length);
    expect(audit.map((a) => a.user_id)).toEqual(rows.map(() => admin));
    expect(lines.join('\n')).toContain(`${DEMO_ANNOUNCEMENTS.length} announcements`);

    await new NotificationWorker(db.knex, { transports: {} }).drain();
    const bell = async (user: number) =>
      (
        await db.knex('notification_recipients').where({ user_id: user, channel: 'in_app', delivery_state: 'sent' }).pluck('subject')
      ).sort();
    // everyone's welcome and their role's own
    expect(await bell(inspector)).toEqual(['Ecofond tizimiga xush kelibsiz', 'Huquqbuzarliklar xaritasi yangilandi']);
    expect(await bell(resident)).toEqual(['Ecofond tizimiga xush kelibsiz', 'Takliflaringizni kutamiz']);
    expect(await bell(admin)).toEqual(['Ecofond tizimiga xush kelibsiz']);

    await seedNotificationsDemo(db.knex, model, () => undefined);
    expect(Number((await db.knex('notifications').count({ n: '*' }))[0].n)).toBe(rows.length);
  });
});
