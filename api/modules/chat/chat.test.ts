import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { createUser } from '../../../cli/create-user.ts';
import { clearConfigCache } from '../../auth/config.ts';
import { attachChat, type ChatHub } from './hub.ts';
import { createApp } from '../../app.ts';
import { openDatabase } from '../../db/connection.ts';
import { needsPostgres, skipBecause } from '../../../test/support/skip.ts';

/**
 * Chat with an operator end to end (docs/chat.md): a visitor opens a chat and writes; an operator
 * (headquarters) sees it in the inbox with its unread count, answers, and the visitor's socket
 * receives the answer; nobody reads another's chat; the flood guard refuses the n+1-th message or
 * chat from an address with 429 in the caller's language and stores nothing; closing.
 */
const OPEN = '/api/public/chats';
const CHATS = '/api/notification/chats';

let api: TestApi;
let hub: ChatHub;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

/** A socket that said hello and got `ready`, with every event it receives after. */
interface Sock {
  ws: WebSocket;
  events: any[];
  next(pred: (e: any) => boolean, ms?: number): Promise<any>;
  closed: Promise<number>;
}
function socket(hello: Record<string, unknown>, base = api.url): Promise<Sock> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/chat/socket`);
  const events: any[] = [];
  const waiters: { pred: (e: any) => boolean; resolve: (e: any) => void }[] = [];
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  ws.on('message', (d) => {
    const e = JSON.parse(String(d));
    events.push(e);
    for (const w of [...waiters])
      if (w.pred(e)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
  });
  const next = (pred: (e: any) => boolean, ms = 5000) => {
    const found = events.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise<any>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no event within ${ms} ms; got ${JSON.stringify(events)}`)), ms);
      waiters.push({
        pred,
        resolve: (e) => {
          clearTimeout(t);
          resolve(e);
        },
      });
    });
  };
  return new Promise((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', ...hello })));
    ws.on('error', reject);
    const s = { ws, events, next, closed };
    next((e) => e.type === 'ready').then(
      () => resolve(s),
      () => resolve(s),
    );
    closed.then(() => resolve(s));
  });
}

const visitorGet = (id: number, token: string, o: { lang?: string; session?: string } = {}) =>
  api.get(`${OPEN}/${id}`, { token: o.session ?? '', lang: o.lang, headers: token ? { 'X-Chat-Token': token } : {} });
const visitorSend = (id: number, token: string, body: unknown, o: { lang?: string; session?: string } = {}) =>
  api.post(`${OPEN}/${id}/messages`, body, { token: o.session ?? '', lang: o.lang, headers: token ? { 'X-Chat-Token': token } : {} });
const setting = async (key: string, value: string) => {
  await api.db.knex('app_configs').insert({ key, value }).onConflict('key').merge(['value']);
  clearConfigCache(api.db.knex);
};

beforeAll(async () => {
  api = await startTestApi();
  hub = await attachChat(api.server, api.db, api.model);
  const k = api.db.knex;
  const region = Number((await k('regions').orderBy('id').first('id')).id);
  for (const [name, role, kind] of [
    ['operator1', 'headquarters', 'staff'],
    ['operator2', 'headquarters', 'staff'],
    ['pop1', 'population', 'population'],
    ['pop2', 'population', 'population'],
    ['insp', 'inspector', 'staff'],
  ] as const) {
    ids[name] = await createUser(k, { username: name, password: 'secret-pw', roles: [role], region_id: region });
    await k('users')
      .where({ id: ids[name] })
      .update({ kind, fio: `${name} fio` });
    tokens[name] = await api.login(name, 'secret-pw');
  }
  await setting('chat.messages_per_window', '1000');
  await setting('chat.chats_per_window', '1000');
});
afterAll(async () => {
  await hub?.close();
  await api?.close();
});

describe('a visitor and an operator', () => {
  let chat: { id: number; token: string };
  let operator: Sock;
  let visitor: Sock;

  it('the visitor opens a chat with a first message: its token answered once, only its hash stored', async () => {
    operator = await socket({ session: tokens.operator1 });
    expect(operator.events[0]).toEqual({ type: 'ready', role: 'operator' });
    const r = await api.post(OPEN, { name: 'Dilnoza', body: '  Salom! Daraxt ekish haqida savolim bor  ' }, { token: '' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      status: 'open',
      visitor_name: 'Dilnoza',
      messages: [{ author: 'visitor', body: 'Salom! Daraxt ekish haqida savolim bor' }],
    });
    expect(r.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    chat = { id: r.body.id, token: r.body.token };
    const row = await api.db.knex('chats').where({ id: chat.id }).first();
    expect(row).toMatchObject({ status: 'open', lang: 'uz', user_id: null });
    expect(row.token_hash).not.toContain(chat.token);
    // the operator's socket heard the first message as soon as it was committed
    const e = await operator.next((x) => x.type === 'message' && x.chat === chat.id);
    expect(e).toMatchObject({ author: 'visitor', body: 'Salom! Daraxt ekish haqida savolim bor' });
    expect(e).not.toHaveProperty('ip');
    // both writes went through the engine: one audit row each, as nobody
    expect(
      Number(
        (await api.db
          .knex('audit_log')
          .where({ entity: 'chats', record_id: chat.id, op: 'create' })
          .whereNull('user_id')
          .count('* as n')
          .first())!.n,
      ),
    ).toBe(1);
    expect(
      Number(
        (await api.db
          .knex('audit_log')
          .where({ entity: 'messages', record_id: e.id, op: 'create' })
          .whereNull('user_id')
          .count('* as n')
          .first())!.n,
      ),
    ).toBe(1);
  });

  it('the visitor writes again; the operator sees the chat in the inbox with two unread', async () => {
    visitor = await socket({ chat: chat.id, token: chat.token });
    expect(visitor.events[0]).toEqual({ type: 'ready', role: 'visitor' });
    const s = await visitorSend(chat.id, chat.token, { body: 'Qaysi koʻchatlar bepul?' });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    await operator.next((x) => x.type === 'message' && x.id === s.body.id);
    const inbox = await api.get(`${CHATS}/inbox`, { token: tokens.operator1 });
    expect(inbox.status).toBe(200);
    expect(inbox.body.find((c: any) => c.id === chat.id)).toMatchObject({
      visitor_name: 'Dilnoza',
      unread: 2,
      last: { body: 'Qaysi koʻchatlar bepul?', author: 'visitor' },
    });
  });

  it("the operator answers and the visitor's socket receives it; reading clears the unread count for every operator", async () => {
    const other = await socket({ session: tokens.operator2 });
    const a = await api.post(
      `${CHATS}/${chat.id}/answer`,
      { body: 'Assalomu alaykum! Koʻchatlar mahalla orqali beriladi.' },
      { token: tokens.operator1 },
    );
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const got = await visitor.next((x) => x.type === 'message' && x.author === 'operator');
    expect(got).toMatchObject({ chat: chat.id, id: a.body.id, body: 'Assalomu alaykum! Koʻchatlar mahalla orqali beriladi.' });
    await other.next((x) => x.type === 'message' && x.id === a.body.id);
    const read = await api.post(`${CHATS}/${chat.id}/read`, {}, { token: tokens.operator1 });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.operator_read_id).toBe(a.body.id);
    await other.next((x) => x.type === 'read' && x.chat === chat.id && x.upTo === a.body.id);
    expect((await api.get(`${CHATS}/inbox`, { token: tokens.operator2 })).body.find((c: any) => c.id === chat.id).unread).toBe(0);
    // the visitor's history: three messages in order; `after` gives the newer ones only
    const h = await visitorGet(chat.id, chat.token);
    expect(h.body.messages.map((m: any) => m.author)).toEqual(['visitor', 'visitor', 'operator']);
    const newer = await api.get(`${OPEN}/${chat.id}?after=${h.body.messages[1].id}`, {
      token: '',
      headers: { 'X-Chat-Token': chat.token },
    });
    expect(newer.body.messages.map((m: any) => m.id)).toEqual([a.body.id]);
    // the operator's conversation view
    const conv = await api.get(`${CHATS}/${chat.id}/conversation`, { token: tokens.operator2 });
    expect(conv.status).toBe(200);
    expect(conv.body.messages).toHaveLength(3);
    other.ws.close();
  });

  it('keeps the furthest of parallel read marks: a mark never moves back', async () => {
    const at = Number((await api.db.knex('chats').where({ id: chat.id }).first('operator_read_id')).operator_read_id);
    // sent furthest first: the earlier marks reach the row after it
    const marks = Array.from({ length: 40 }, (_, i) => at + 40 - i);
    const answers = await Promise.all(
      marks.map((upTo, i) => api.post(`${CHATS}/${chat.id}/read`, { upTo }, { token: i % 2 ? tokens.operator1 : tokens.operator2 })),
    );
    expect(answers.map((r) => r.status)).toEqual(marks.map(() => 200));
    expect(Number((await api.db.knex('chats').where({ id: chat.id }).first('operator_read_id')).operator_read_id)).toBe(at + 40);
    // an earlier mark afterwards changes nothing
    expect((await api.post(`${CHATS}/${chat.id}/read`, { upTo: at + 1 }, { token: tokens.operator1 })).body.operator_read_id).toBe(at + 40);
  });

  it('nobody else reads or writes the chat, nor listens to it', async () => {
    const other = (await api.post(OPEN, { name: 'Boshqa' }, { token: '' })).body;
    expect((await visitorGet(chat.id, other.token)).status).toBe(404);
    expect((await visitorGet(chat.id, '')).status).toBe(404);
    expect((await visitorSend(chat.id, other.token, { body: 'men ham' })).status).toBe(404);
    expect((await visitorGet(chat.id, '', { session: tokens.pop1 })).status).toBe(404);
    const spy = await socket({ chat: chat.id, token: other.token });
    expect(await spy.closed).toBe(4404);
    // the visitor of another chat does not hear this one
    const otherSock = await socket({ chat: other.id, token: other.token });
    await api.post(`${CHATS}/${chat.id}/answer`, { body: 'Faqat Dilnoza uchun' }, { token: tokens.operator1 });
    await visitor.next((x) => x.body === 'Faqat Dilnoza uchun');
    expect(otherSock.events.filter((e) => e.type === 'message')).toEqual([]);
    otherSock.ws.close();
    // the operators' calls are not the public's, nor a staff user's without the operator's actions
    expect((await api.get(`${CHATS}/inbox`, { token: '' })).status).toBe(401);
    expect((await api.get(`${CHATS}/inbox`, { token: tokens.insp })).status).toBe(403);
    expect((await api.post(`${CHATS}/${chat.id}/answer`, { body: 'x' }, { token: tokens.pop1 })).status).toBe(403);
    const staff = await socket({ session: tokens.insp });
    expect(await staff.closed).toBe(4403);
    const nobody = await socket({ session: 'not-a-session' });
    expect(await nobody.closed).toBe(4401);
    // the socket's address over plain HTTP says what it expects
    expect((await api.get('/api/chat/socket', { token: '' })).status).toBe(426);
  });

  it('a message is checked: empty, too long or not text is a 400 naming body', async () => {
    for (const body of [{ body: '   ' }, { body: 'x'.repeat(2001) }, { body: 42 }, {}]) {
      const r = await visitorSend(chat.id, chat.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['body']);
    }
  });

  it('closing: the visitor hears it, nothing more is written, the inbox drops it', async () => {
    const c = await api.post(`${CHATS}/${chat.id}/actions/close`, {}, { token: tokens.operator1 });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toMatchObject({ status: 'closed', closed_by: ids.operator1 });
    expect(c.body.closed_at).toBeTruthy();
    await visitor.next((x) => x.type === 'closed' && x.chat === chat.id);
    const before = await api.db.knex('messages').where({ chat_id: chat.id }).count('* as n').first();
    const s = await visitorSend(chat.id, chat.token, { body: 'Yana bir savol' }, { lang: 'ru' });
    expect(s.status).toBe(409);
    expect(s.body.message).toBe('Чат закрыт. Откройте новый чат');
    expect((await api.post(`${CHATS}/${chat.id}/answer`, { body: 'kech' }, { token: tokens.operator1 })).status).toBe(409);
    expect((await api.post(`${CHATS}/${chat.id}/actions/close`, {}, { token: tokens.operator1 })).status).toBe(409);
    expect(await api.db.knex('messages').where({ chat_id: chat.id }).count('* as n').first()).toEqual(before);
    expect((await api.get(`${CHATS}/inbox`, { token: tokens.operator1 })).body.some((x: any) => x.id === chat.id)).toBe(false);
    expect((await visitorGet(chat.id, chat.token)).body.status).toBe('closed');
    // the history stays in the admin collections
    expect((await api.get(`${CHATS}/${chat.id}`, { token: tokens.operator1 })).body).toMatchObject({ status: 'closed' });
    expect((await api.get(`/api/notification/messages?chat_id=${chat.id}`, { token: tokens.operator1 })).body).toHaveLength(4);
    visitor.ws.close();
    operator.ws.close();
  });
});

describe('several server processes', () => {
  it('a message written through one server reaches the sockets of another (LISTEN/NOTIFY)', async () => {
    // a second server on the same database, with its own listener: what a second process would be
    const app = createApp({ knex: api.db.knex, model: api.model });
    const server = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const second = await attachChat(server, api.db, api.model);
    const other = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const chat = (await api.post(OPEN, { name: 'Ikki server' }, { token: '' })).body;
      const visitor = await socket({ chat: chat.id, token: chat.token }, other);
      const operator = await socket({ session: tokens.operator2 }, other);
      expect(second.counts).toMatchObject({ operators: 1, visitors: 1 });
      const a = await api.post(`${CHATS}/${chat.id}/answer`, { body: 'Birinchi serverdan' }, { token: tokens.operator1 });
      expect((await visitor.next((e) => e.type === 'message' && e.id === a.body.id)).body).toBe('Birinchi serverdan');
      const s = await visitorSend(chat.id, chat.token, { body: 'Ikkinchisiga yetdi' });
      await operator.next((e) => e.type === 'message' && e.id === s.body.id);
      visitor.ws.close();
      operator.ws.close();
    } finally {
      await second.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('a population user', () => {
  it("opens a chat signed in: it is theirs by their session, no one else's", async () => {
    const r = await api.post(OPEN, { body: 'Bogʻimni roʻyxatdan oʻtkazdim, keyin nima?' }, { token: tokens.pop1, lang: 'uk' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(await api.db.knex('chats').where({ id: r.body.id }).first('user_id', 'lang')).toEqual({ user_id: ids.pop1, lang: 'uk' });
    expect((await visitorGet(r.body.id, '', { session: tokens.pop1 })).status).toBe(200);
    expect((await visitorSend(r.body.id, '', { body: 'Javob kutaman' }, { session: tokens.pop1 })).status).toBe(201);
    expect((await visitorGet(r.body.id, '', { session: tokens.pop2 })).status).toBe(404);
    const s = await socket({ chat: r.body.id, session: tokens.pop1 });
    expect(s.events[0]).toEqual({ type: 'ready', role: 'visitor' });
    s.ws.close();
    // their messages are recorded under them
    expect(await api.db.knex('messages').where({ chat_id: r.body.id }).pluck('created_by')).toEqual([ids.pop1, ids.pop1]);
  });
});

describe('the flood guard (spec §8: "Chat blocked for too many actions, try later")', () => {
  it("the n+1-th message from one address in the window is a 429 in the caller's language, and nothing is stored", async () => {
    const chat = (await api.post(OPEN, { name: 'Tez yozuvchi' }, { token: '' })).body;
    const k = api.db.knex;
    const already = Number(
      (await k('messages').where({ ip: '127.0.0.1' }).whereRaw("created_at > now() - interval '10 minutes'").count('* as n').first())!.n,
    );
    await setting('chat.messages_per_window', String(already + 2));
    await setting('chat.window_minutes', '10');
    expect((await visitorSend(chat.id, chat.token, { body: 'birinchi' })).status).toBe(201);
    expect((await visitorSend(chat.id, chat.token, { body: 'ikkinchi' })).status).toBe(201);
    const messages = await k('messages').count('* as n').first();
    const audits = await k('audit_log').count('* as n').first();
    const texts: Record<string, string> = {
      uz: 'Juda koʻp amal bajarilgani uchun chat bloklandi, keyinroq urinib koʻring',
      uk: 'Жуда кўп амал бажарилгани учун чат блокланди, кейинроқ уриниб кўринг',
      ru: 'Чат заблокирован из-за слишком большого количества действий, попробуйте позже',
    };
    for (const [lang, text] of Object.entries(texts)) {
      const r = await visitorSend(chat.id, chat.token, { body: 'uchinchi' }, { lang });
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ code: -112, message: text });
    }
    // a new chat with a first message is refused as a whole: neither the chat nor the message stays
    const chats = await k('chats').count('* as n').first();
    expect((await api.post(OPEN, { body: 'yangi chatda' }, { token: '' })).status).toBe(429);
    expect(await k('chats').count('* as n').first()).toEqual(chats);
    expect(await k('messages').count('* as n').first()).toEqual(messages);
    expect(await k('audit_log').count('* as n').first()).toEqual(audits);
    // operators are not limited
    expect((await api.post(`${CHATS}/${chat.id}/answer`, { body: 'Sekinroq, iltimos' }, { token: tokens.operator1 })).status).toBe(201);
    // the window passes (here: the limit is raised) and the visitor writes again
    await setting('chat.messages_per_window', String(already + 3));
    expect((await visitorSend(chat.id, chat.token, { body: 'endi boʻladimi?' })).status).toBe(201);
  });

  it('the n+1-th chat from one address is refused the same way', async () => {
    const k = api.db.knex;
    const already = Number(
      (await k('chats').where({ ip: '127.0.0.1' }).whereRaw("created_at > now() - interval '10 minutes'").count('* as n').first())!.n,
    );
    await setting('chat.chats_per_window', String(already + 1));
    expect((await api.post(OPEN, {}, { token: '' })).status).toBe(201);
    const before = await k('chats').count('* as n').first();
    const r = await api.post(OPEN, {}, { token: '', lang: 'ru' });
    expect(r.status).toBe(429);
    expect(r.body.message).toBe('Чат заблокирован из-за слишком большого количества действий, попробуйте позже');
    expect(await k('chats').count('* as n').first()).toEqual(before);
  });
});

describe('the flood guard under parallel requests', () => {
  it('15 chats opened at once with 3 left: exactly 3 are opened, 12 refused, nothing else stored', async () => {
    const k = api.db.knex;
    const already = Number(
      (await k('chats').where({ ip: '127.0.0.1' }).whereRaw("created_at > now() - interval '10 minutes'").count('* as n').first())!.n,
    );
    await setting('chat.chats_per_window', String(already + 3));
    await setting('chat.messages_per_window', '1000');
    await setting('chat.window_minutes', '10');
    const before = Number((await k('chats').count('* as n').first())!.n);
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => api.post(OPEN, { name: `Parallel ${i}`, body: 'bir vaqtda' }, { token: '', lang: 'uk' })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
    expect(answers.find((r) => r.status === 429)!.body).toMatchObject({
      code: -112,
      message: 'Жуда кўп амал бажарилгани учун чат блокланди, кейинроқ уриниб кўринг',
    });
    expect(Number((await k('chats').count('* as n').first())!.n)).toBe(before + 3);
    await setting('chat.chats_per_window', '1000');
  });

  it('15 messages sent at once with 3 left: exactly 3 are stored', async () => {
    const k = api.db.knex;
    const chat = (await api.post(OPEN, { name: 'Parallel xabarlar' }, { token: '' })).body;
    const already = Number(
      (await k('messages').where({ ip: '127.0.0.1' }).whereRaw("created_at > now() - interval '10 minutes'").count('* as n').first())!.n,
    );
    await setting('chat.messages_per_window', String(already + 3));
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => visitorSend(chat.id, chat.token, { body: `xabar ${i}` }, { lang: 'ru' })),
    );
    expect(
      answers.filter((r) => r.status === 201),
      JSON.stringify(answers.map((r) => [r.status, r.body.message])),
    ).toHaveLength(3);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(12);
    expect(Number((await k('messages').where({ chat_id: chat.id }).count('* as n').first())!.n)).toBe(3);
    await setting('chat.messages_per_window', '1000');
  });
});

/** A raw socket (no hello): opened (101) or refused at the upgrade with its status and JSON body. */
function rawSocket(
  o: { base?: string; headers?: Record<string, string>; query?: string } = {},
): Promise<{ ws: WebSocket; status: number; body?: any }> {
  const ws = new WebSocket(`${(o.base ?? api.url).replace('http', 'ws')}/api/chat/socket${o.query ?? ''}`, { headers: o.headers });
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, status: 101 }));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString('utf8');
      });
      res.on('end', () => resolve({ ws, status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    ws.on('error', reject);
  });
}
const until = async (cond: () => boolean, ms = 3000) => {
  for (const end = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > end) throw new Error('condition not met');
};

describe('the sockets one address may hold', () => {
  it("past chat.sockets_per_address the upgrade is refused with 429 in the caller's language; a closed socket frees its place", async () => {
    await until(() => hub.counts.sockets === 0);
    await setting('chat.sockets_per_address', '3');
    // ten at once: exactly three get through
    const open = await Promise.all(Array.from({ length: 10 }, () => rawSocket()));
    expect(open.filter((s) => s.status === 101)).toHaveLength(3);
    expect(open.filter((s) => s.status === 429)).toHaveLength(7);
    expect(open.find((s) => s.status === 429)!.body).toEqual({
      code: -112,
      message: 'Bu manzildan chatga ulanishlar juda koʻp, keyinroq urinib koʻring',
      description: '',
    });
    expect((await rawSocket({ headers: { Language: 'ru' } })).body.message).toBe(
      'Слишком много подключений к чату с этого адреса, попробуйте позже',
    );
    expect((await rawSocket({ query: '?lang=uk' })).body.message).toBe('Бу манзилдан чатга уланишлар жуда кўп, кейинроқ уриниб кўринг');
    expect(hub.counts.sockets).toBe(3);
    // X-Forwarded-For is not believed without ECOFOND_TRUST_PROXY: it does not make a new address
    expect((await rawSocket({ headers: { 'X-Forwarded-For': '203.0.113.7' } })).status).toBe(429);
    // a socket that said hello counts the same; one that closes frees its place
    const opened = open.filter((s) => s.status === 101);
    opened[0].ws.close();
    await until(() => hub.counts.sockets === 2);
    const again = await rawSocket();
    expect(again.status).toBe(101);
    for (const s of [again, ...opened.slice(1)]) s.ws.close();
    await until(() => hub.counts.sockets === 0);
    await setting('chat.sockets_per_address', '20');
  });

  it("behind a trusted proxy the address is X-Forwarded-For's, as for the HTTP routes; past chat.sockets_total every address is refused with 503", async () => {
    const trust = process.env.ECOFOND_TRUST_PROXY;
    process.env.ECOFOND_TRUST_PROXY = '1';
    const app = createApp({ knex: api.db.knex, model: api.model });
    const server = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const second = await attachChat(server, api.db, api.model);
    if (trust === undefined) delete process.env.ECOFOND_TRUST_PROXY;
    else process.env.ECOFOND_TRUST_PROXY = trust;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const from = (ip: string, lang = 'uz') => rawSocket({ base, headers: { 'X-Forwarded-For': `${ip}, 10.0.0.1`, Language: lang } });
    try {
      await setting('chat.sockets_per_address', '2');
      const a = [await from('198.51.100.1'), await from('198.51.100.1'), await from('198.51.100.1')];
      expect(a.map((s) => s.status)).toEqual([101, 101, 429]);
      const b = await from('198.51.100.2');
      expect(b.status).toBe(101);
      await setting('chat.sockets_total', '3');
      const c = await from('198.51.100.3', 'ru');
      expect(c.status).toBe(503);
      expect(c.body).toMatchObject({ message: 'Сервер чата перегружен, попробуйте позже' });
      for (const s of [...a, b]) s.ws.close();
    } finally {
      await setting('chat.sockets_per_address', '20');
      await setting('chat.sockets_total', '10000');
      await second.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('an operator who loses the chat', () => {
  /** The socket's close code and reason, and when it closed. */
  const closing = (s: Sock) =>
    new Promise<{ code: number; reason: string; at: number }>((r) =>
      s.ws.on('close', (code, reason) => r({ code, reason: String(reason), at: Date.now() })),
    );

  /** A fresh headquarters operator speaking `lang`, signed in, with a socket that said hello. */
  let n = 0;
  async function operator(lang: string, base = api.url) {
    const username = `chatop${++n}`;
    const id = await createUser(api.db.knex, { username, password: 'secret-pw', roles: ['headquarters'] });
    await api.db.knex('users').where({ id }).update({ kind: 'staff', lang_code: lang });
    const token = await api.login(username, 'secret-pw');
    const sock = await socket({ session: token }, base);
    expect(sock.events[0]).toEqual({ type: 'ready', role: 'operator' });
    return { id, token, sock, closed: closing(sock) };
  }

  /** Blocks the user (its answer's time), then a visitor writes at once: the blocked socket must not hear it. */
  async function blockAndWrite(id: number) {
    const version = (await api.db.knex('users').where({ id }).first('version')).version;
    const r = await api.post(`/api/managing/users/${id}/users-change-status`, { status: 'blocked', version });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const answered = Date.now();
    const chat = (await api.post(OPEN, { name: 'Bloklangandan keyin', body: 'bu xabarni u koʻrmasligi kerak' }, { token: '' })).body;
    return { answered, chat };
  }

  it("blocked: the socket hears nothing written after the block answers and is closed within 2 s, its reason in the operator's language", async () => {
    const op = await operator('ru');
    const witness = await operator('uz');
    const { answered, chat } = await blockAndWrite(op.id);
    // the other operator hears the message: it was sent
    await witness.sock.next((e) => e.type === 'message' && e.chat === chat.id);
    const c = await op.closed;
    expect(op.sock.events.filter((e) => e.type === 'message' && e.chat === chat.id)).toEqual([]);
    expect(c.code).toBe(4401);
    expect(c.reason).toBe('Требуется вход в систему');
    expect(c.at - answered).toBeLessThan(2000);
    witness.sock.ws.close();
  });

  it("signed out, or the operator's action closed on their role: the socket closes at once (4401, 4403)", async () => {
    const op = await operator('uk');
    const t0 = Date.now();
    expect((await api.post('/api/admin/auth/logout', {}, { token: op.token })).status).toBe(200);
    const c = await op.closed;
    expect(c.code).toBe(4401);
    expect(c.reason).toBe('Тизимга кириш талаб қилинади');
    expect(c.at - t0).toBeLessThan(2000);

    // a role of its own with the operator screen (6938) and reading chats (6931)
    const token = await api.userWithActions(`chatrole${n}`, [6938, 6931]);
    await api.db
      .knex('users')
      .where({ username: `chatrole${n}` })
      .update({ kind: 'staff', lang_code: 'uz' });
    const sock = await socket({ session: token });
    expect(sock.events[0]).toEqual({ type: 'ready', role: 'operator' });
    const closed = closing(sock);
    const role = (
      await api.db
        .knex('roles')
        .where({ code: `test_chatrole${n}` })
        .first('id')
    ).id;
    const t1 = Date.now();
    expect((await api.post('/api/user-role-access/update-access-status', { role_id: role, action_id: 6938, state: 0 })).status).toBe(200);
    const chat = (await api.post(OPEN, { body: 'huquqsiz operatorga emas' }, { token: '' })).body;
    const d = await closed;
    expect(d.code).toBe(4403);
    expect(d.reason).toBe('Bu amalga ruxsatingiz yoʻq');
    expect(d.at - t1).toBeLessThan(2000);
    expect(sock.events.filter((e) => e.type === 'message' && e.chat === chat.id)).toEqual([]);
  });

  it(
    "blocked through one process, the operator's socket on another (its own pool and LISTEN) closes within 2 s",
    skipBecause(needsPostgres('a second pool and LISTEN need a server; embedded PGlite has one connection')),
    async () => {
      const other = openDatabase({ url: api.db.url!, poolMax: 3 });
      const app = createApp({ knex: other.knex, model: api.model });
      const server = await new Promise<Server>((r) => {
        const s = app.listen(0, '127.0.0.1', () => r(s));
      });
      const second = await attachChat(server, other, api.model);
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const op = await operator('uz', base);
        const witness = await operator('uz', base);
        const { answered, chat } = await blockAndWrite(op.id);
        await witness.sock.next((e) => e.type === 'message' && e.chat === chat.id);
        const c = await op.closed;
        expect(c.code).toBe(4401);
        expect(c.at - answered).toBeLessThan(2000);
        expect(op.sock.events.filter((e) => e.type === 'message' && e.chat === chat.id)).toEqual([]);
        witness.sock.ws.close();
      } finally {
        await second.close();
        await new Promise<void>((r) => server.close(() => r()));
        await other.close();
      }
    },
  );
});
