import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startTestApi, type TestApi } from './support/api.ts';
import { createUser } from '../cli/create-user.ts';
import { NotificationWorker, type WorkerOptions } from '../api/notify/worker.ts';
import { openDatabase, type Database } from '../api/db/connection.ts';
import { notify } from '../api/notify/queue.ts';

/**
 * Notifications (docs/notifications.md): templates checked against their type's variables, a
 * report's rejection queued to its subject's users by every method, the worker delivering e-mail
 * to a local SMTP server and SMS to a local HTTP gateway, retries with back-off ending in a failure
 * with its reason, and nothing lost across a restart between queueing and sending.
 */
let api: TestApi;
let smtp: SMTPServer;
let smtpPort: number;
let gateway: Server;
let gatewayUrl: string;
const mails: { to: string[]; raw: string }[] = [];
const sms: { to: string; text: string }[] = [];
let gatewayFails = false;
let gatewayCalls = 0;
let subjectId: number;
const REPORTS = '/api/ecofund/subject-report-yearly';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const worker = (knex = api.db.knex, over: WorkerOptions = {}) =>
  new NotificationWorker(knex, {
    transports: { smtpHost: '127.0.0.1', smtpPort, smtpIgnoreTls: true, smsUrl: gatewayUrl, timeoutMs: 5000 },
    backoffMs: 100,
    maxAttempts: 3,
    pollMs: 50,
    model: () => api.model,
    ...over,
  });

beforeAll(async () => {
  api = await startTestApi();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString('utf8');
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  smtpPort = ((smtp as unknown as { server: Server }).server.address() as AddressInfo).port;
  gateway = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      gatewayCalls++;
      if (gatewayFails) {
        res.writeHead(503).end('gateway busy');
        return;
      }
      sms.push(JSON.parse(body));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', () => r()));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;

  const region = (await api.db.knex('regions').first('id')).id;
  const category = (await api.db.knex('subject_categories').first('id')).id;
  subjectId = (
    await api.post('/api/ecofund/subject', { inn: '500000777', name: 'Gʻisht zavodi', region_id: region, category_id: category })
  ).body.id;
  // the subject's two users: one with e-mail and phone, one with a phone only (in Russian); a third user of another subject
  const a = await createUser(api.db.knex, { username: 'subj_mail', password: 'secret-pw', roles: ['subject'], subject_id: subjectId });
  const b = await createUser(api.db.knex, { username: 'subj_phone', password: 'secret-pw', roles: ['subject'], subject_id: subjectId });
  await api.db.knex('users').where({ id: a }).update({ email: 'director@zavod.uz', phone: '901234567', lang_code: 'uz' });
  await api.db.knex('users').where({ id: b }).update({ phone: '937654321', lang_code: 'ru' });
});
afterAll(async () => {
  await api?.close();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
  await new Promise<void>((r) => (gateway ? gateway.close(() => r()) : r()));
});

/** A report of the subject, already sent (its signing is the reports test's). */
async function sentReport(): Promise<number> {
  const r = await api.post(REPORTS, {
    subject_id: subjectId,
    year: 2025,
    period: 'q3',
    report_date: '2025-09-01',
    ingredients: [{ pollutant: 'Chang', mass: '1', norm: '0.1' }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  await api.db.knex('subject_reports').where({ id: r.body.id }).update({ status: 'sent' });
  return r.body.id;
}

const deliveries = (notificationId: number) =>
  api.db.knex('notification_recipients').where({ notification_id: notificationId }).orderBy('id');

describe("a suggestion's answer reaches its sender by the method they chose", () => {
  /** The mail's text: base64 or quoted-printable undone. */
  const decoded = (raw: string) => {
    const [head, ...rest] = raw.split(/\r?\n\r?\n/);
    const body = rest.join('\n\n');
    if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    return body.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
  };
  const suggest = (body: Record<string, unknown>, lang: string, ip: string) =>
    api.post(
      '/api/public/suggestions',
      {
        topic: 'greening',
        text: 'Mahallamizga koʻproq daraxt eking, iltimos',
        sender_name: 'Aziza Karimova',
        ...body,
      },
      { token: '', lang, headers: { 'X-Forwarded-For': ip } },
    );

  it('a visitor with no account gets the answer by e-mail or SMS, in the language they wrote in', async () => {
    await api.db.knex('notification_recipients').update({ delivery_state: 'failed' }).where({ delivery_state: 'queued' });
    const byMail = await suggest({ reply_method: 'email', email: 'aziza@example.uz' }, 'ru', '10.9.0.1');
    const bySms = await suggest({ reply_method: 'sms', phone: '971112233' }, 'uk', '10.9.0.2');
    expect(byMail.status, JSON.stringify(byMail.body)).toBe(201);
    expect(bySms.status, JSON.stringify(bySms.body)).toBe(201);
    const answer = (id: number, text: string) => api.post(`/api/notification/suggestion/${id}/actions/answer`, { answer: text });
    expect((await answer(byMail.body.id, 'Rahmat, bahorda ekamiz')).status).toBe(200);
    expect((await answer(bySms.body.id, 'Taklifingiz qabul qilindi')).status).toBe(200);

    // one address-only delivery each: no user, the address, the sender's language
    const rows = await api.db
      .knex('notification_recipients as r')
      .join('notifications as n', 'n.id', 'r.notification_id')
      .where({ 'n.source_entity': 'suggestion' })
      .whereIn('n.source_id', [byMail.body.id, bySms.body.id])
      .orderBy('r.id')
      .select('r.*', 'n.address as to_address', 'n.lang_code as to_lang');
    expect(rows.map((r) => [r.user_id, r.channel, r.address, r.lang_code, r.delivery_state])).toEqual([
      [null, 'email', 'aziza@example.uz', 'ru', 'queued'],
      [null, 'sms', '971112233', 'uk', 'queued'],
    ]);
    expect(rows.map((r) => [r.to_address, r.to_lang])).toEqual([
      ['aziza@example.uz', 'ru'],
      ['971112233', 'uk'],
    ]);

    mails.length = 0;
    sms.length = 0;
    expect(await worker().drain()).toBe(2);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(['aziza@example.uz']);
    const text = decoded(mails[0].raw);
    expect(text).toContain(`Спасибо за ваше предложение № ${byMail.body.id}. Наш ответ:`);
    expect(text).toContain('Rahmat, bahorda ekamiz');
    expect(sms).toEqual([{ to: '+998971112233', text: `Ecofond: ${bySms.body.id}-таклифга жавоб: Taklifingiz qabul qilindi` }]);
    expect(
      await api.db
        .knex('notification_recipients')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .pluck('delivery_state'),
    ).toEqual(['sent', 'sent']);
    // the suggestions are told: delivered, through the engine (one audit row each, by nobody)
    expect(await api.db.knex('suggestions').whereIn('id', [byMail.body.id, bySms.body.id]).orderBy('id').pluck('reply_state')).toEqual([
      'sent',
      'sent',
    ]);
    const audits = await api.db
      .knex('audit_log')
      .where({ entity: 'suggestion', action: 'reply-delivered' })
      .whereIn('record_id', [byMail.body.id, bySms.body.id])
      .select('user_id', 'before', 'after');
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => [a.user_id, a.before.reply_state, a.after.reply_state])).toEqual([
      [null, 'pending', 'sent'],
      [null, 'pending', 'sent'],
    ]);
    const read = await api.get(`/api/notification/suggestion/${bySms.body.id}`);
    expect(read.body.reply_state).toBe('sent');
  });

  it('an answer that cannot be delivered marks the suggestion failed; one never tried stays pending', async () => {
    await api.db.knex('notification_recipients').update({ delivery_state: 'failed' }).where({ delivery_state: 'queued' });
    const bySms = await suggest({ reply_method: 'sms', phone: '971112244' }, 'uz', '10.9.0.4');
    expect(bySms.status, JSON.stringify(bySms.body)).toBe(201);
    expect((await api.post(`/api/notification/suggestion/${bySms.body.id}/actions/answer`, { answer: 'Rahmat' })).status).toBe(200);
    expect((await api.get(`/api/notification/suggestion/${bySms.body.id}`)).body.reply_state).toBe('pending');
    gatewayFails = true;
    try {
      // a first failure is retried later: still pending
      await worker(api.db.knex, { backoffMs: 60_000 }).drain();
      expect((await api.get(`/api/notification/suggestion/${bySms.body.id}`)).body.reply_state).toBe('pending');
      await api.db.knex('notification_recipients').where({ delivery_state: 'queued' }).update({ next_at: api.db.knex.fn.now() });
      await worker(api.db.knex, { maxAttempts: 2 }).drain();
    } finally {
      gatewayFails = false;
    }
    expect((await api.get(`/api/notification/suggestion/${bySms.body.id}`)).body.reply_state).toBe('failed');
    // without the metadata the worker sends but tells nobody (a worker run apart from the API)
    const again = await suggest({ reply_method: 'sms', phone: '971112255' }, 'uz', '10.9.0.5');
    expect((await api.post(`/api/notification/suggestion/${again.body.id}/actions/answer`, { answer: 'Rahmat' })).status).toBe(200);
    await worker(api.db.knex, { model: undefined }).drain();
    expect((await api.get(`/api/notification/suggestion/${again.body.id}`)).body.reply_state).toBe('pending');
  });

  it('a signed-in sender who asked for it gets the answer in the back-office; a refused answer sends nothing', async () => {
    const uid = await createUser(api.db.knex, { username: 'resident_n', password: 'secret-pw', roles: ['population'] });
    await api.db.knex('users').where({ id: uid }).update({ kind: 'population', lang_code: 'ru', email: 'resident@example.uz' });
    const token = await api.login('resident_n', 'secret-pw');
    const s = await api.post(
      '/api/public/suggestions',
      { topic: 'site', text: 'Saytga xarita qoʻshing, iltimos', sender_name: 'Rustam', reply_method: 'in_app' },
      { token, headers: { 'X-Forwarded-For': '10.9.0.3' } },
    );
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    expect((await api.post(`/api/notification/suggestion/${s.body.id}/actions/answer`, { answer: 'x y' }, { token })).status).toBe(403);
    expect(
      Number((await api.db.knex('notifications').where({ source_entity: 'suggestion', source_id: s.body.id }).count({ n: '*' }))[0].n),
    ).toBe(0);
    expect((await api.post(`/api/notification/suggestion/${s.body.id}/actions/answer`, { answer: 'Xarita tayyorlanmoqda' })).status).toBe(
      200,
    );
    const rows = await api.db
      .knex('notification_recipients as r')
      .join('notifications as n', 'n.id', 'r.notification_id')
      .where({ 'n.source_entity': 'suggestion', 'n.source_id': s.body.id })
      .select('r.user_id', 'r.channel', 'r.subject');
    // in-app only, though the user has an e-mail: the method they chose
    expect(rows).toEqual([{ user_id: uid, channel: 'in_app', subject: 'На ваше предложение ответили' }]);
    await worker().drain();
    expect((await api.get(`/api/notification/suggestion/${s.body.id}`)).body.reply_state).toBe('sent');
  });

  it('an answer nothing can carry (its notification type switched off) is failed at once, not pending for ever', async () => {
    const k = api.db.knex;
    const s = await suggest({ reply_method: 'email', email: 'nobody-hears@example.uz' }, 'uz', '10.9.0.6');
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    await k('notification_types').where({ code: 'suggestion-answered' }).update({ is_active: false });
    try {
      const a = await api.post(`/api/notification/suggestion/${s.body.id}/actions/answer`, { answer: 'Rahmat' });
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.body.reply_state).toBe('failed');
    } finally {
      await k('notification_types').where({ code: 'suggestion-answered' }).update({ is_active: true });
    }
    expect(
      Number(
        (
          await k('notification_recipients as r')
            .join('notifications as n', 'n.id', 'r.notification_id')
            .where({ 'n.source_entity': 'suggestion', 'n.source_id': s.body.id })
            .count({ n: '*' })
        )[0].n,
      ),
    ).toBe(0);
  });
});

describe('templates', () => {
  it('refuses a placeholder its type does not declare, naming it, in any language', async () => {
    const type = await api.db.knex('notification_types').where({ code: 'report-rejected' }).first();
    const method = await api.db.knex('notification_methods').where({ channel: 'in_app' }).first();
    await api.db.knex('notification_templates').where({ type_id: type.id, method_id: method.id }).update({ is_active: false });
    const bad = await api.post(
      '/api/notification/notification-templates',
      {
        type_id: type.id,
        method_id: method.id,
        subject: { uz: 'Hisobot {id}', uk: 'Ҳисобот {id}', ru: 'Отчёт {id}' },
        body: { uz: '{year} yil: {comment}', uk: '{year} йил', ru: 'Отчёт за {year}: {colour}' },
      },
      { lang: 'ru' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('colour');
    expect(bad.body.errors.body).toContain('colour');
    expect(
      await api.db.knex('notification_templates').where({ type_id: type.id, method_id: method.id, is_active: true }).first(),
    ).toBeUndefined();
    const good = await api.post('/api/notification/notification-templates', {
      type_id: type.id,
      method_id: method.id,
      subject: { uz: 'Rad etildi', uk: 'Рад этилди', ru: 'Отклонён' },
      body: { uz: '{id}: {comment}', uk: '{id}: {comment}', ru: '{id}: {comment}' },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    // and a type cannot drop a variable its templates use
    const narrowed = await api.put(`/api/notification/notification-types/${type.id}`, { variables: 'id, year', version: type.version });
    expect(narrowed.status).toBe(400);
    expect(narrowed.body.errors.variables).toContain('comment');
    // back to the seeded template for the tests below
    await api.db.knex('notification_templates').where({ id: good.body.id }).delete();
    await api.db.knex('notification_templates').where({ type_id: type.id, method_id: method.id }).update({ is_active: true });
  });
});

describe('events', () => {
  it("queues one delivery per recipient and method when a report is rejected, in the recipient's language", async () => {
    const id = await sentReport();
    const r = await api.post(`${REPORTS}/${id}/actions/reject`, { comment: 'Massa xato' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const n = await api.db.knex('notifications').where({ source_entity: 'subject-report-yearly', source_id: id }).first();
    expect(n).toMatchObject({ subject_id: subjectId, recipients: 5 });
    const rows = await deliveries(n.id);
    const users = new Map(
      (await api.db.knex('users').whereIn('username', ['subj_mail', 'subj_phone']).select('id', 'username')).map(
        (u: { id: number; username: string }) => [u.id, u.username],
      ),
    );
    expect(rows.map((d) => [users.get(d.user_id), d.channel, d.address, d.delivery_state]).sort()).toEqual(
      [
        ['subj_mail', 'email', 'director@zavod.uz', 'queued'],
        ['subj_mail', 'in_app', null, 'queued'],
        ['subj_mail', 'sms', '901234567', 'queued'],
        ['subj_phone', 'in_app', null, 'queued'],
        ['subj_phone', 'sms', '937654321', 'queued'],
      ].sort(),
    );
    expect(rows.find((d) => d.channel === 'sms' && d.lang_code === 'ru')!.body).toBe(`Ecofond: отчёт № ${id} отклонён: Massa xato`);
    expect(rows.find((d) => d.channel === 'email')!.body).toContain('Sabab: Massa xato');
    // the notification row was written through the engine: one audit row
    expect(await api.db.knex('audit_log').where({ entity: 'notification', record_id: n.id }).count({ c: '*' }).first()).toMatchObject({
      c: 1,
    });
    // the admin's list shows it and its deliveries
    expect((await api.get(`/api/admin/notification-recipients?notification_id=${n.id}`)).body).toHaveLength(5);
  });

  it('queues nothing when the move is refused', async () => {
    const before = await api.db.knex('notifications').count({ c: '*' }).first();
    const id = await sentReport();
    await api.db.knex('subject_reports').where({ id }).update({ status: 'new' });
    expect((await api.post(`${REPORTS}/${id}/actions/reject`, { comment: 'x' })).status).toBe(409);
    expect(await api.db.knex('notifications').count({ c: '*' }).first()).toEqual(before);
  });
});

describe('the worker', () => {
  it('sends e-mail through SMTP, SMS through the gateway, and marks in-app deliveries sent', async () => {
    await api.db.knex('notification_recipients').update({ delivery_state: 'failed' }).where({ delivery_state: 'queued' });
    const id = await sentReport();
    await api.post(`${REPORTS}/${id}/actions/reject`, { comment: 'Hujjat yetishmaydi' });
    const n = await api.db.knex('notifications').where({ source_id: id, source_entity: 'subject-report-yearly' }).first();
    mails.length = 0;
    sms.length = 0;
    // one delivery a round: drain goes on until nothing is due
    expect(await worker(api.db.knex, { inAppBatch: 1, batch: 1 }).drain()).toBe(5);
    const rows = await deliveries(n.id);
    expect(rows.map((d) => [d.channel, d.delivery_state, d.attempts, d.error])).toEqual(
      expect.arrayContaining([
        ['email', 'sent', 1, null],
        ['sms', 'sent', 1, null],
        ['in_app', 'sent', 1, null],
      ]),
    );
    expect(rows.every((d) => d.delivery_state === 'sent' && d.sent_at)).toBe(true);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(['director@zavod.uz']);
    expect(mails[0].raw).toContain('Sabab: Hujjat yetishmaydi');
    expect(sms.map((m) => m.to).sort()).toEqual(['+998901234567', '+998937654321']);
    expect(sms.find((m) => m.to === '+998937654321')!.text).toBe(`Ecofond: отчёт № ${id} отклонён: Hujjat yetishmaydi`);
  });

  it('retries a failing gateway with back-off, then fails the delivery with its reason', async () => {
    const user = (await api.db.knex('users').where({ username: 'subj_phone' }).first('id')).id;
    const n = await notify(api.db.knex, api.model, {
      type: 'report-rejected',
      to: { user_id: user },
      channels: ['sms'],
      vars: { id: 1, year: 2025, comment: 'x' },
    });
    expect(n!.recipients).toBe(1);
    gatewayFails = true;
    gatewayCalls = 0;
    const w = worker();
    const times: number[] = [];
    let row;
    try {
      for (let i = 0; i < 200; i++) {
        if (await w.runOnce()) times.push(Date.now());
        row = (await deliveries(n!.id as number))[0];
        if (row.delivery_state !== 'queued') break;
        await sleep(25);
      }
    } finally {
      gatewayFails = false;
    }
    expect(row).toMatchObject({ delivery_state: 'failed', attempts: 3, error: 'SMS gateway answered 503: gateway busy' });
    expect(gatewayCalls).toBe(3);
    // 100 ms, then 200 ms between the tries
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(90);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(190);
  });

  it('fails at once, saying why, when no gateway is configured', async () => {
    const user = (await api.db.knex('users').where({ username: 'subj_phone' }).first('id')).id;
    const n = await notify(api.db.knex, api.model, {
      type: 'report-rejected',
      to: { user_id: user },
      channels: ['sms'],
      vars: { id: 2, year: 2025, comment: 'x' },
    });
    await new NotificationWorker(api.db.knex, { transports: {} }).drain();
    expect((await deliveries(n!.id as number))[0]).toMatchObject({
      delivery_state: 'failed',
      attempts: 1,
      error: 'no SMS gateway configured (ECOFOND_SMS_URL)',
    });
  });
});

describe('the bell', () => {
  it("counts one's unread in-app notifications and marks them read", async () => {
    const token = await api.login('subj_mail', 'secret-pw');
    const other = await api.login('subj_phone', 'secret-pw');
    const before = (await api.get('/api/notification/my/unread', { token })).body.count;
    const id = await sentReport();
    await api.post(`${REPORTS}/${id}/actions/reject`, { comment: 'Yana xato' });
    // queued is not yet delivered
    expect((await api.get('/api/notification/my/unread', { token })).body.count).toBe(before);
    await worker().drain();
    const unread = (await api.get('/api/notification/my/unread', { token })).body;
    expect(unread.count).toBe(before + 1);
    const list = (await api.get('/api/notification/my?perPage=5', { token })).body;
    expect(list.data[0]).toMatchObject({ subject: 'Hisobot rad etildi', read: false });
    expect(list.data[0].body).toContain('Yana xato');
    // another's notification is not found
    expect((await api.post('/api/notification/my/read', { ids: [list.data[0].id] }, { token: other })).status).toBe(404);
    expect((await api.post('/api/notification/my/read', { ids: ['x'] }, { token })).body.errors).toHaveProperty('ids');
    const read = await api.post('/api/notification/my/read', { ids: [list.data[0].id] }, { token });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect((await api.get('/api/notification/my/unread', { token })).body.count).toBe(before);
    expect(await api.db.knex('audit_log').where({ entity: 'notification-recipients', record_id: list.data[0].id }).first()).toMatchObject({
      action: 'read',
    });
    await api.post('/api/notification/my/read-all', undefined, { token });
    expect((await api.get('/api/notification/my/unread', { token })).body.count).toBe(0);
    expect((await api.get('/api/notification/my/unread', { token: '' })).status).toBe(401);
  });
});

describe('a restart', () => {
  it('loses nothing queued before it, nor what a worker took and never finished', async () => {
    await api.db.knex('notification_recipients').update({ delivery_state: 'failed' }).where({ delivery_state: 'queued' });
    const id = await sentReport();
    await api.post(`${REPORTS}/${id}/actions/reject`, { comment: 'Qayta ishga tushirish' });
    const n = await api.db.knex('notifications').where({ source_id: id, source_entity: 'subject-report-yearly' }).first();
    // a worker takes the e-mail and SMS and dies before sending them (its sends never return)
    const dying = worker(api.db.knex, {
      leaseMs: 300,
      send: { email: () => new Promise(() => undefined), sms: () => new Promise(() => undefined) },
    });
    void dying.runOnce();
    await sleep(100);
    expect((await deliveries(n.id)).filter((d) => d.channel !== 'in_app').map((d) => [d.delivery_state, d.attempts])).toEqual([
      ['queued', 1],
      ['queued', 1],
      ['queued', 1],
    ]);
    // the server stops, and starts again on the same database
    await new Promise<void>((r) => api.server.close(() => r()));
    const db = await reopen(api.db);
    try {
      mails.length = 0;
      sms.length = 0;
      await sleep(250);
      const w = worker(db.knex);
      await w.drain();
      const rows = await db.knex('notification_recipients').where({ notification_id: n.id }).orderBy('id');
      expect(rows.map((d) => d.delivery_state)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
      expect(mails).toHaveLength(1);
      expect(sms).toHaveLength(2);
    } finally {
      await db.knex.destroy();
    }
  });
});

/** The same database in a new process's connection: the server's pool closed and opened again (PGlite: its files reloaded). */
async function reopen(db: Database): Promise<Database> {
  if (db.kind === 'pglite') {
    const dump = await db.pglite!.dumpDataDir('gzip');
    const again = openDatabase({ dataDir: 'memory', loadDataDir: dump });
    return again;
  }
  await db.knex.destroy();
  return openDatabase({ url: db.url!, poolMax: 2 });
}
