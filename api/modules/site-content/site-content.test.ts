import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../../test/support/api.ts';
import { createUser } from '../../../cli/create-user.ts';
import { onSuggestionAnswered } from './suggestions.ts';

/**
 * The public site's content and the public's suggestions (docs/site-content.md): the public reads
 * only published / visible rows and only their public fields; rich text never carries a script or
 * an event handler, whether it came through the engine or around it; news is published and
 * withdrawn by the workflow; suggestions from the public form are validated, limited per address
 * and answered by staff, the answer stored for the sender and handed to the delivery hook.
 */
process.env.ECOFOND_PUBLIC_FORM_PER_HOUR = '10';

const PUB = '/api/public/entities';
const CONTENT = '/api/notification/site-content';
const MENU = '/api/notification/menu';
const NEWS = '/api/notification/publications';
const SUGGESTIONS = '/api/notification/suggestion';
const EVIL =
  '<p onclick="steal()">Salom <strong>dunyo</strong><script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a></p>';

let api: TestApi;
const pub = (path: string, lang = 'uz') => api.get(`${PUB}/${path}`, { token: '', lang });
const noScript = (s: string) => {
  expect(s).not.toMatch(/<script|onerror|onclick|javascript:|<img/i);
};

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('site content: what the public reads', () => {
  it('the seeded about page in three languages, only its public fields', async () => {
    const uz = await pub('site-content?section_code=about');
    expect(uz.status).toBe(200);
    expect(uz.body.rows.map((r: { code: string }) => r.code)).toEqual(['about-project', 'about-site', 'about-decree']);
    expect(Object.keys(uz.body.rows[0]).sort()).toEqual(['body', 'code', 'id', 'ordering', 'section_code', 'title']);
    expect(uz.body.rows[0].title).toBe('«Yashil makon» umummilliy loyihasi');
    expect(uz.body.rows[0].body).toContain('PF-46');
    expect((await pub('site-content?section_code=about', 'ru')).body.rows[0].body).toContain('УП-46');
    expect((await pub('site-content?section_code=about', 'uk')).body.rows[0].title).toBe('«Яшил макон» умуммиллий лойиҳаси');
    expect((await pub('site-content?code=contacts-hotline')).body.rows).toHaveLength(1);
    // no filter on what is not public
    expect((await pub('site-content?is_published=false')).status).toBe(400);
    expect((await pub('site-section')).body.rows.map((r: { code: string }) => r.code)).toEqual(['about', 'contacts', 'landing']);
    // under the spec's own name of the collection too (§7: "sections")
    expect((await pub('sections')).body.rows.map((r: { code: string }) => r.code)).toEqual(['about', 'contacts', 'landing']);
  });

  it('an unpublished text is not public, and comes back once published', async () => {
    const section = (await api.db.knex('site_sections').where({ code: 'about' }).first('id')).id;
    const made = await api.post(CONTENT, {
      section_id: section,
      code: 'about-draft',
      title: { uz: 'Qoralama' },
      body: { uz: '<p>Hali emas</p>' },
      ordering: 99,
      is_published: false,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.section_code).toBe('about');
    expect((await pub('site-content?section_code=about')).body.rows.map((r: { code: string }) => r.code)).not.toContain('about-draft');
    expect((await pub(`site-content/${made.body.id}`)).status).toBe(404);
    const put = await api.put(`${CONTENT}/${made.body.id}`, { is_published: true, version: made.body.version });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await pub(`site-content/${made.body.id}`)).body).toMatchObject({
      code: 'about-draft',
      title: 'Qoralama',
      body: '<p>Hali emas</p>',
    });
  });

  it("the menu: visible items only, in order, captions in the caller's language", async () => {
    const all = await pub('menu?perPage=100');
    expect(all.status).toBe(200);
    expect(all.body.rows[0]).toEqual({
      id: expect.any(Number),
      menu_group: 'main',
      menu_group_name: 'Asosiy',
      caption: 'Bosh sahifa',
      path: '/',
      ordering: 10,
    });
    expect(all.body.rows.map((r: { path: string }) => r.path)).toContain('/suggestion');
    const about = all.body.rows.find((r: { path: string }) => r.path === '/about');
    expect((await pub('menu?perPage=100', 'ru')).body.rows.find((r: { id: number }) => r.id === about.id).caption).toBe('О проекте');
    const row = (await api.get(`${MENU}/${about.id}`)).body;
    expect((await api.put(`${MENU}/${about.id}`, { is_visible: false, version: row.version })).status).toBe(200);
    expect((await pub('menu?perPage=100')).body.rows.map((r: { path: string }) => r.path)).not.toContain('/about');
    // a path is the site's own or https
    expect((await api.put(`${MENU}/${about.id}`, { path: 'javascript:alert(1)', version: row.version + 1 })).body.errors).toHaveProperty(
      'path',
    );
  });
});

describe('rich text is sanitised', () => {
  it('when stored through the engine: no script, no handler, no javascript: link', async () => {
    const section = (await api.db.knex('site_sections').where({ code: 'landing' }).first('id')).id;
    const r = await api.post(CONTENT, {
      section_id: section,
      code: 'landing-evil',
      title: { uz: 'X' },
      body: { uz: EVIL, ru: EVIL },
      is_published: true,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.body.uz).toBe('<p>Salom <strong>dunyo</strong><a>x</a></p>');
    const stored = (await api.db.knex('site_contents').where({ id: r.body.id }).first('body')).body;
    noScript(JSON.stringify(stored));
  });

  it('when served, even for a row written around the engine', async () => {
    const section = (await api.db.knex('site_sections').where({ code: 'landing' }).first('id')).id;
    const [{ id }] = await api.db
      .knex('site_contents')
      .insert({
        section_id: section,
        section_code: 'landing',
        code: 'landing-raw',
        title: JSON.stringify({ uz: 'R' }),
        body: JSON.stringify({ uz: EVIL }),
        is_published: true,
      })
      .returning('id');
    const r = await pub(`site-content/${id}`);
    expect(r.status).toBe(200);
    noScript(r.body.body);
    expect(r.body.body).toContain('<strong>dunyo</strong>');
  });
});

describe('news: publish and unpublish', () => {
  it('a new item is a draft the public does not see; publishing opens it, unpublishing closes it', async () => {
    const made = await api.post(NEWS, {
      title: { uz: 'Yangi park ochildi', ru: 'Открыт новый парк' },
      body: { uz: EVIL },
      published_at: '2026-11-20T10:00:00+05:00',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ status: 'draft', is_published: false });
    noScript(made.body.body.uz);
    const id = made.body.id;
    const ids = async () => (await pub('publications?perPage=100')).body.rows.map((r: { id: number }) => r.id);
    expect(await ids()).not.toContain(id);
    // the flag is the workflow's, not the form's
    const forced = await api.put(`${NEWS}/${id}`, { is_published: true, version: made.body.version });
    expect((await api.db.knex('publications').where({ id }).first('is_published')).is_published).toBe(false);
    expect([200, 400]).toContain(forced.status);
    const published = await api.post(`${NEWS}/${id}/actions/publish`, {});
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', is_published: true });
    expect(await ids()).toContain(id);
    const one = await pub(`publications/${id}`);
    expect(one.body.title).toBe('Yangi park ochildi');
    expect(Object.keys(one.body)).not.toContain('status');
    noScript(one.body.body);
    expect((await api.post(`${NEWS}/${id}/actions/publish`, {})).status).toBe(409);
    expect((await api.post(`${NEWS}/${id}/actions/unpublish`, {})).status).toBe(200);
    expect(await ids()).not.toContain(id);
    expect((await pub(`publications/${id}`)).status).toBe(404);
    const flows = await api.get(`${NEWS}/${id}/flows`);
    expect(flows.body.map((f: { action: string }) => f.action)).toEqual(expect.arrayContaining(['publish', 'unpublish']));
  });
});

describe('suggestions', () => {
  const good = (over: Record<string, unknown> = {}) => ({
    topic: 'greening',
    text: 'Mahallamizga koʻproq daraxt eking, iltimos',
    sender_name: 'Aziza Karimova',
    reply_method: 'email',
    email: 'aziza@example.uz',
    ...over,
  });
  const send = (body: unknown, token = '', ip?: string) =>
    api.post('/api/public/suggestions', body, { token, headers: ip ? { 'X-Forwarded-For': ip } : {} });

  it('a visitor sends one: stored as new from the public, nothing of it public', async () => {
    const r = await send(good());
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const row = await api.get(`${SUGGESTIONS}/${r.body.id}`);
    expect(row.body).toMatchObject({ status: 'new', source: 'public', sender_user_id: null, email: 'aziza@example.uz' });
    expect((await pub('suggestion')).status).toBe(404);
  });

  it('a bad one is a 400 naming each field, and fields the form has not are ignored', async () => {
    const r = await send({ topic: 'nope', text: 'short', reply_method: 'email' });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors)).toEqual(expect.arrayContaining(['topic', 'text', 'sender_name']));
    expect((await send(good({ email: null }))).body.errors).toHaveProperty('email');
    expect((await send(good({ reply_method: 'sms', email: null }))).body.errors).toHaveProperty('phone');
    expect((await send(good({ reply_method: 'in_app' }))).body.errors).toHaveProperty('reply_method');
    const sneaky = await send(good({ status: 'answered', answer: 'Ha', source: 'staff' }));
    expect(sneaky.status).toBe(201);
    expect((await api.get(`${SUGGESTIONS}/${sneaky.body.id}`)).body).toMatchObject({ status: 'new', answer: null, source: 'public' });
  });

  it('a signed-in population user sends one for the back-office, sees only their own and its answer', async () => {
    const region = (await api.db.knex('regions').orderBy('id').first('id')).id;
    const uid = await createUser(api.db.knex, { username: 'resident1', password: 'secret-pw', roles: ['population'], region_id: region });
    await api.db.knex('users').where({ id: uid }).update({ kind: 'population' });
    const token = await api.login('resident1', 'secret-pw');
    const r = await send(good({ reply_method: 'in_app', email: null }), token);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const own = await api.get(SUGGESTIONS, { token });
    expect(own.status).toBe(200);
    expect(own.body.map((x: { id: number }) => x.id)).toEqual([r.body.id]);
    expect(own.body[0]).toMatchObject({ source: 'population', sender_user_id: uid });
    // staff answer; the delivery hook receives the answered row in the same transaction
    const heard: Record<string, unknown>[] = [];
    const off = onSuggestionAnswered(async (_ctx, row) => {
      heard.push(row);
    });
    try {
      const a = await api.post(`${SUGGESTIONS}/${r.body.id}/actions/answer`, { answer: 'Rahmat, bahorda ekamiz' });
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.body).toMatchObject({ status: 'answered', answer: 'Rahmat, bahorda ekamiz', reply_state: 'pending' });
      expect(a.body.answered_by).toBeGreaterThan(0);
    } finally {
      off();
    }
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ id: r.body.id, reply_method: 'in_app', answer: 'Rahmat, bahorda ekamiz', reply_state: 'pending' });
    expect((await api.get(`${SUGGESTIONS}/${r.body.id}`, { token })).body.answer).toBe('Rahmat, bahorda ekamiz');
    // the answer is the staff's: not the sender's, and only once
    expect((await api.post(`${SUGGESTIONS}/${r.body.id}/actions/answer`, { answer: 'x y' }, { token })).status).toBe(403);
    expect((await api.post(`${SUGGESTIONS}/${r.body.id}/actions/answer`, { answer: 'yana bir' })).status).toBe(409);
    expect((await api.post(`${SUGGESTIONS}/${r.body.id}/actions/close`, {})).status).toBe(409);
  });

  it('answers 429 once an address has sent its suggestions for the hour, and stores nothing more', async () => {
    const before = Number((await api.db.knex('suggestions').count({ n: '*' }))[0].n);
    let status = 0;
    let sent = 0;
    for (let i = 0; i < 10 && status !== 429; i++) {
      status = (await send(good({ text: `Taklif raqami ${i}: daraxt ekish kerak` }))).status;
      if (status === 201) sent++;
    }
    expect(status).toBe(429);
    const after = Number((await api.db.knex('suggestions').count({ n: '*' }))[0].n);
    expect(after).toBe(before + sent);
    const blocked = await send(good());
    expect(blocked.status).toBe(429);
    expect(Number((await api.db.knex('suggestions').count({ n: '*' }))[0].n)).toBe(after);
  });
});
