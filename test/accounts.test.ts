import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { clearConfigCache } from '../api/auth/config.ts';

/**
 * Accounts people run themselves (issue 28, docs/accounts.md): sign-in by a code, a resident's
 * sign-up by e-mail or phone confirmed with a code, what is answered when no code can be
 * delivered, the limits, and the population's own rows (their gardens, their volunteering).
 */
let api: TestApi;
let regionId: number;
const P = '/api/ecofund-plantings';
const location = { lat: 41.31, lng: 69.27 };
const setConfig = async (key: string, value: number) => {
  await api.db
    .knex('app_configs')
    .insert({ key, value: String(value) })
    .onConflict('key')
    .merge(['value']);
  clearConfigCache(api.db.knex);
};
/** The code in the last message queued to an address (or to a user). */
const lastMessage = async (where: Record<string, unknown>) =>
  api.db.knex('notification_recipients').where(where).orderBy('id', 'desc').first();
const codeIn = (body: string) => /(\d{6})/.exec(body)?.[1] ?? null;
const anon = { token: '' };
const other = (code: string) => (code === '000000' ? '111111' : '000000');
const saved = { smtp: process.env.ECOFOND_SMTP_HOST, sms: process.env.ECOFOND_SMS_URL };

beforeAll(async () => {
  api = await startTestApi();
  await setConfig('auth.slow_after_failures', 100);
  await setConfig('auth.ip_lock_after_failures', 1000);
  regionId = Number((await api.db.knex('regions').orderBy('id').first('id')).id);
});
afterAll(async () => {
  await api?.close();
});
afterEach(() => {
  process.env.ECOFOND_SMTP_HOST = saved.smtp;
  process.env.ECOFOND_SMS_URL = saved.sms;
});

/** Signs a resident up through the two calls, answering the confirm's answer. */
async function signUp(contact: string, extra: Record<string, unknown> = {}) {
  const sent = await api.post('/api/admin/auth/sign-up', { contact }, anon);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const address = contact.includes('@') ? contact.toLowerCase() : contact.replace(/\D/g, '').slice(-9);
  const code = codeIn((await lastMessage({ address })).body)!;
  return api.post(
    '/api/admin/auth/sign-up/confirm',
    { contact, code, fio: 'Aholi Vakili', region_id: regionId, password: 'garden-pass', password_repeat: 'garden-pass', ...extra },
    anon,
  );
}

describe('sign-in by code', () => {
  it('sends a code to the named user and opens a session for the right one, once', async () => {
    const made = await api.post('/api/managing/users', {
      username: 'by_code',
      password: 'first-pass',
      email: 'by.code@example.uz',
      lang_code: 'uz',
      kind: 'staff',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await api.post('/api/admin/auth/send-confirm', { username: 'by_code' }, anon)).body).toEqual({ sent: true });
    const code = codeIn((await lastMessage({ user_id: made.body.id })).body)!;
    const wrong = await api.post('/api/admin/auth/check-code', { username: 'by_code', code: other(code) }, { token: '', lang: 'ru' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ code: 'Неверный код подтверждения' });
    expect(wrong.body.token).toBeUndefined();
    const ok = await api.post('/api/admin/auth/check-code', { username: 'BY_CODE', code }, anon);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ confirmed: true, user: { username: 'by_code' } });
    expect((await api.get('/api/meta', { token: ok.body.token })).status).toBe(200);
    // the sign-in log has it, like a login
    expect(await api.db.knex('login_logs').where({ user_id: made.body.id, success: true }).first('id')).toBeTruthy();
    // a used code does not open another session
    expect((await api.post('/api/admin/auth/check-code', { username: 'by_code', code }, anon)).status).toBe(400);
  });

  it('refuses an expired code and a blocked user', async () => {
    const made = await api.post('/api/managing/users', {
      username: 'blocked_code',
      password: 'first-pass',
      phone: '(91) 222-33-44',
      lang_code: 'uz',
      kind: 'staff',
    });
    await api.post('/api/admin/auth/send-confirm', { username: 'blocked_code' }, anon);
    await api.db
      .knex('one_time_codes')
      .where({ user_id: made.body.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await api.post(
      '/api/admin/auth/check-code',
      { username: 'blocked_code', code: codeIn((await lastMessage({ user_id: made.body.id })).body) },
      { token: '', lang: 'ru' },
    );
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('Срок действия кода истёк');
    await api.post('/api/admin/auth/send-confirm', { username: 'blocked_code' }, anon);
    const code = codeIn((await lastMessage({ user_id: made.body.id })).body)!;
    expect((await api.post(`/api/managing/users/${made.body.id}/actions/block`, {})).status).toBe(200);
    const blocked = await api.post('/api/admin/auth/check-code', { username: 'blocked_code', code }, anon);
    expect(blocked.status).toBe(401);
    expect(blocked.body.token).toBeUndefined();
  });
});

describe('with no way to deliver a code', () => {
  it("says so plainly instead of {sent: true}, alike for every name, in the caller's language", async () => {
    delete process.env.ECOFOND_SMTP_HOST;
    delete process.env.ECOFOND_SMS_URL;
    const codes = async () => Number((await api.db.knex('one_time_codes').count({ n: '*' }).first())!.n);
    const before = await codes();
    const known = await api.post('/api/admin/auth/forgot-password', { username: 'admin' }, { token: '', lang: 'ru' });
    const unknown = await api.post('/api/admin/auth/forgot-password', { username: 'ghost-of-nobody' }, { token: '', lang: 'ru' });
    expect(known.status).toBe(422);
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    expect(known.body.message).toBe(
      'Код не может быть отправлен: в системе не настроены ни эл. почта, ни SMS. Обратитесь к администратору',
    );
    expect((await api.post('/api/admin/auth/send-confirm', { username: 'admin' }, anon)).status).toBe(422);
    // no code was made
    expect(await codes()).toBe(before);
  });

  it("names the one method missing for a signed-in user's contact and for a visitor's address", async () => {
    delete process.env.ECOFOND_SMTP_HOST;
    const made = await api.post('/api/managing/users', {
      username: 'mail_only',
      password: 'first-pass',
      email: 'mail.only@example.uz',
      lang_code: 'uz',
      kind: 'staff',
    });
    const token = (await api.post('/api/admin/auth/login', { username: 'mail_only', password: 'first-pass' }, anon)).body.token;
    const mine = await api.post('/api/admin/auth/send-confirm', {}, { token });
    expect(mine.status).toBe(422);
    expect(mine.body.message).toBe('Kodni yuborib boʻlmaydi: elektron pochta orqali yuborish sozlanmagan. Administratorga murojaat qiling');
    expect(await api.db.knex('one_time_codes').where({ user_id: made.body.id }).first()).toBeUndefined();
    expect((await api.post('/api/admin/auth/sign-up', { contact: 'someone@example.uz' }, anon)).status).toBe(422);
    // the phone is deliverable: the visitor with a phone goes on
    expect((await api.post('/api/admin/auth/sign-up', { contact: '+998 (97) 100-00-01' }, anon)).body).toEqual({ sent: true });
  });
});

describe('a resident signs up', () => {
  it('confirms an e-mail with its code, becomes a population user and is signed in', async () => {
    const form = await api.post(
      '/api/admin/auth/sign-up/confirm',
      { contact: 'nope', password: '123', password_repeat: '124' },
      { token: '', lang: 'ru' },
    );
    expect(form.status).toBe(400);
    expect(Object.keys(form.body.errors).sort()).toEqual(['code', 'contact', 'fio', 'password', 'password_repeat', 'region_id']);
    expect((await api.post('/api/admin/auth/sign-up', { contact: 'Resident.One@Example.uz' }, anon)).body).toEqual({ sent: true });
    const message = await lastMessage({ address: 'resident.one@example.uz' });
    expect(message).toMatchObject({ channel: 'email', user_id: null });
    const code = codeIn(message.body)!;
    // a mistake in the form costs no code; a wrong code is named
    const bad = await api.post(
      '/api/admin/auth/sign-up/confirm',
      {
        contact: 'resident.one@example.uz',
        code,
        fio: 'Vali',
        region_id: regionId,
        password: 'garden-pass',
        password_repeat: 'other-pass',
      },
      anon,
    );
    expect(Object.keys(bad.body.errors)).toEqual(['password_repeat']);
    const wrong = await api.post(
      '/api/admin/auth/sign-up/confirm',
      {
        contact: 'resident.one@example.uz',
        code: other(code),
        fio: 'Vali',
        region_id: regionId,
        password: 'garden-pass',
        password_repeat: 'garden-pass',
      },
      { token: '', lang: 'ru' },
    );
    expect(wrong.body.errors).toEqual({ code: 'Неверный код подтверждения' });
    const ok = await api.post(
      '/api/admin/auth/sign-up/confirm',
      {
        contact: 'resident.one@example.uz',
        code,
        fio: 'Vali Valiyev',
        region_id: regionId,
        password: 'garden-pass',
        password_repeat: 'garden-pass',
        lang_code: 'ru',
      },
      anon,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.user).toMatchObject({
      username: 'resident.one@example.uz',
      email: 'resident.one@example.uz',
      fio: 'Vali Valiyev',
      lang_code: 'ru',
    });
    const user = await api.db.knex('users').where({ id: ok.body.user.id }).first('kind', 'status', 'region_id');
    expect(user).toMatchObject({ kind: 'population', status: 'active' });
    expect(Number(user.region_id)).toBe(regionId);
    const roles = await api.db
      .knex('user_roles as ur')
      .join('roles as r', 'r.id', 'ur.role_id')
      .where('ur.user_id', ok.body.user.id)
      .pluck('r.code');
    expect(roles).toEqual(['population']);
    // written through the one path: an audit row names the sign-up
    expect(await api.db.knex('audit_log').where({ entity: 'users', record_id: ok.body.user.id }).pluck('action')).toContain('sign-up');
    expect((await api.get('/api/meta', { token: ok.body.token })).status).toBe(200);
    expect((await api.post('/api/admin/auth/login', { username: 'resident.one@example.uz', password: 'garden-pass' }, anon)).status).toBe(
      200,
    );
    // the code is used up
    const again = await api.post(
      '/api/admin/auth/sign-up/confirm',
      { contact: 'resident.one@example.uz', code, fio: 'X', region_id: regionId, password: 'garden-pass', password_repeat: 'garden-pass' },
      anon,
    );
    expect(again.status).toBe(400);
    expect(Object.keys(again.body.errors)).toEqual(['code']);
  });

  it('confirms a phone typed with its mask, and refuses an expired code', async () => {
    await api.post('/api/admin/auth/sign-up', { contact: '+998 (93) 700-11-22' }, anon);
    const message = await lastMessage({ address: '937001122' });
    expect(message.channel).toBe('sms');
    await api.db
      .knex('sign_up_codes')
      .where({ address: '937001122' })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await api.post(
      '/api/admin/auth/sign-up/confirm',
      {
        contact: '937001122',
        code: codeIn(message.body),
        fio: 'Sora',
        region_id: regionId,
        password: 'garden-pass',
        password_repeat: 'garden-pass',
      },
      anon,
    );
    expect(expired.status).toBe(400);
    expect(expired.body.errors).toEqual({ code: 'Tasdiqlash kodi muddati tugagan' });
    const ok = await signUp('(93) 700-11-22');
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.user).toMatchObject({ username: '937001122', phone: '937001122' });
  });

  it('answers an address an account holds exactly like a new one, telling the address instead of sending a code', async () => {
    await api.post('/api/managing/users', {
      username: 'has_mail',
      password: 'first-pass',
      email: 'taken@example.uz',
      lang_code: 'uz',
      kind: 'staff',
    });
    const taken = await api.post('/api/admin/auth/sign-up', { contact: 'taken@example.uz' }, anon);
    const fresh = await api.post('/api/admin/auth/sign-up', { contact: 'fresh@example.uz' }, anon);
    expect([taken.status, taken.body]).toEqual([fresh.status, fresh.body]);
    const told = await lastMessage({ address: 'taken@example.uz' });
    expect(codeIn(told.body)).toBeNull();
    expect(told.body).toContain('allaqachon bor');
    // no code the visitor could know opens it: every guess is a wrong code, as for any address
    const guess = await api.post(
      '/api/admin/auth/sign-up/confirm',
      {
        contact: 'taken@example.uz',
        code: '123456',
        fio: 'X',
        region_id: regionId,
        password: 'garden-pass',
        password_repeat: 'garden-pass',
      },
      anon,
    );
    const guessFresh = await api.post(
      '/api/admin/auth/sign-up/confirm',
      {
        contact: 'fresh@example.uz',
        code: other(codeIn((await lastMessage({ address: 'fresh@example.uz' })).body)!),
        fio: 'X',
        region_id: regionId,
        password: 'garden-pass',
        password_repeat: 'garden-pass',
      },
      anon,
    );
    expect([guess.status, guess.body]).toEqual([guessFresh.status, guessFresh.body]);
  });

  it('limits code requests per address typed and per client address, alike for known and unknown addresses', async () => {
    await setConfig('auth.code_requests_per_account', 3);
    await setConfig('auth.code_requests_per_address', 1000);
    const ask = (contact: string) => api.post('/api/admin/auth/sign-up', { contact }, { token: '', lang: 'ru' });
    const answers = async (contact: string) => {
      const out: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await ask(contact);
        out.push([r.status, r.body.message ?? r.body]);
      }
      return out;
    };
    await api.post('/api/managing/users', {
      username: 'limit_known',
      password: 'first-pass',
      email: 'limit.known@example.uz',
      lang_code: 'uz',
      kind: 'staff',
    });
    const known = await answers('limit.known@example.uz');
    const unknown = await answers('limit.nobody@example.uz');
    expect(known).toEqual(unknown);
    expect(known.slice(-1)).toEqual([[429, 'Слишком много запросов кода. Попробуйте позже']]);
    // one code at a time: the repeats sent no second code
    expect(Number((await api.db.knex('sign_up_codes').where({ address: 'limit.nobody@example.uz' }).count({ n: '*' }).first())!.n)).toBe(1);
    await setConfig('auth.code_requests_per_account', 1000);
    await setConfig('auth.code_requests_per_address', 2);
    await api.db.knex('rate_limits').where('key', 'like', 'code-request-ip:%').delete();
    expect((await ask('ip.one@example.uz')).status).toBe(200);
    expect((await ask('ip.two@example.uz')).status).toBe(200);
    expect((await ask('ip.three@example.uz')).status).toBe(429);
    await setConfig('auth.code_requests_per_address', 1000);
  });

  it("sends at most the hour's codes to an address, however the limits are set", async () => {
    await setConfig('auth.codes_per_hour', 2);
    for (let i = 0; i < 4; i++) {
      await api.post('/api/admin/auth/sign-up', { contact: 'hourly@example.uz' }, anon);
      await api.db
        .knex('sign_up_codes')
        .where({ address: 'hourly@example.uz' })
        .update({ expires_at: new Date(Date.now() - 1000) });
    }
    expect(Number((await api.db.knex('sign_up_codes').where({ address: 'hourly@example.uz' }).count({ n: '*' }).first())!.n)).toBe(2);
    await setConfig('auth.codes_per_hour', 5);
  });
});

describe("the population's own rows", () => {
  it("a resident registers a garden and reads it back; other residents' gardens stay out of sight", async () => {
    const one = (await signUp('gardener.one@example.uz')).body.token;
    const two = (await signUp('gardener.two@example.uz')).body.token;
    const garden = await api.post(`${P}/my-gardens`, { owner_name: 'Gardener One', trees: 12, location }, { token: one });
    expect(garden.status, JSON.stringify(garden.body)).toBe(201);
    // the cause of issue 28's 403: the resident may read what they registered, and only that
    const back = await api.get(`${P}/my-gardens/${garden.body.id}`, { token: one });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ owner_name: 'Gardener One', trees: 12 });
    expect(Number(back.body.region_id)).toBe(regionId);
    await api.post(`${P}/my-gardens`, { owner_name: 'Gardener Two', trees: 3, location }, { token: two });
    const mine = await api.get(`${P}/my-gardens`, { token: one });
    expect(mine.body.map((g: { owner_name: string }) => g.owner_name)).toEqual(['Gardener One']);
    expect((await api.get(`${P}/my-gardens/${garden.body.id}`, { token: two })).status).toBe(404);
    // not theirs to give away, nor to change
    const bob = await api.db.knex('users').where({ username: 'gardener.two@example.uz' }).first('id');
    expect(
      (await api.post(`${P}/my-gardens`, { owner_name: 'Forged', trees: 1, location, owner_user_id: bob.id }, { token: one })).status,
    ).toBe(403);
    expect((await api.put(`${P}/my-gardens/${garden.body.id}`, { trees: 99 }, { token: one })).status).toBe(403);
    // the administrator sees every garden
    expect((await api.get(`${P}/my-gardens/${garden.body.id}`)).status).toBe(200);
  });

  it('a resident signs up as a volunteer and sees their own record only', async () => {
    const token = (await signUp('volunteer.one@example.uz')).body.token;
    const v = await api.post(`${P}/volunteers`, { full_name: 'Volunteer One', phone: '901112233' }, { token });
    expect(v.status, JSON.stringify(v.body)).toBe(201);
    const me = await api.db.knex('users').where({ username: 'volunteer.one@example.uz' }).first('id');
    expect(Number(v.body.user_id)).toBe(Number(me.id));
    await api.post(`${P}/volunteers`, { full_name: 'Someone Else', region_id: regionId });
    expect((await api.get(`${P}/volunteers`, { token })).body.map((x: { full_name: string }) => x.full_name)).toEqual(['Volunteer One']);

    // their own plantings and their place in the rating, through their own volunteer row only
    const species = Number((await api.db.knex('tree_species').orderBy('id').first('id')).id);
    for (const count of [7, 5]) {
      const p = await api.post(`${P}/plantings`, {
        species_id: species,
        count,
        planted_on: '2026-03-15',
        location: { lat: 41.3, lng: 69.25 },
        place_type: 'street',
        region_id: regionId,
        volunteer_id: v.body.id,
      });
      expect(p.status, JSON.stringify(p.body)).toBe(201);
    }
    const mine = await api.get(`${P}/volunteers/${v.body.id}/plantings`, { token });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.plantings.map((x: { count: number }) => Number(x.count)).sort()).toEqual([5, 7]);
    expect(mine.body.plantings[0].species).toEqual(expect.any(String));
    expect(mine.body.standing).toMatchObject({ plantings: 2, trees: 12 });
    expect(mine.body.standing.rank).toBeGreaterThanOrEqual(1);
    expect(mine.body.standing.rank).toBeLessThanOrEqual(mine.body.standing.of);
    const someone = (await api.get(`${P}/volunteers`)).body.find((x: { full_name: string }) => x.full_name === 'Someone Else');
    expect((await api.get(`${P}/volunteers/${someone.id}/plantings`, { token })).status).toBe(404);
    expect((await api.get(`${P}/volunteers/${v.body.id}/plantings`)).status).toBe(200);
  });
});
