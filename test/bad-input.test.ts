import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { errorHandler, language, securityHeaders, type AppState } from '../api/http/middleware.ts';
import { startTestApi, type TestApi } from './support/api.ts';
import { samplePayload } from './support/samples.ts';
import { translate } from '../api/meta/captions.ts';
import type { Lang } from '../api/meta/types.ts';

/**
 * Bad input, one small case of each class (NUL characters, lone surrogates, ids and filter values
 * out of range, values that would be silently changed or ignored, what the fuzzing found): every
 * one is a 400 naming the field or parameter, in the caller's language, and writes nothing — never
 * a 500. test/fuzz.test.ts throws such values at every entity.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const msg = (key: string, lang: Lang = 'uz', args: Record<string, unknown> = {}) => translate(api.model, lang, key, args);
const count = async (table: string) => Number((await api.db.knex(table).count({ n: '*' }))[0].n);

const AREAS = '/api/ecofund-sprav/areas';
const USERS = '/api/managing/users';

async function areaPayload(): Promise<Record<string, unknown>> {
  return samplePayload(api.db.knex, api.model, api.model.entities.get('areas')!);
}

describe('class 1: a NUL character in any text', () => {
  it('in the login: named, nothing logged', async () => {
    const logs = await count('login_logs');
    const r = await api.post('/api/admin/auth/login', { username: 'ad\u0000min', password: 'whatever' }, { token: '' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(-105);
    expect(r.body.errors).toEqual({ username: msg('validation.bad_characters') });
    expect(await count('login_logs')).toBe(logs);
  });

  it('in a search filter, as a parameter or inside filter JSON', async () => {
    const plain = await api.get('/api/ecofund-sprav/regions?q=Tosh%00kent');
    expect(plain.status).toBe(400);
    expect(plain.body.errors).toEqual({ q: msg('validation.bad_characters') });
    const json = await api.get(`/api/ecofund-sprav/regions?filter=${enc({ q: 'Tosh\u0000kent' })}`, { lang: 'uk' });
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual({ q: msg('validation.bad_characters', 'uk') });
  });

  it('in the public planting form, without a token: named, nothing saved', async () => {
    const form = await samplePayload(api.db.knex, api.model, api.model.entities.get('public-plantings')!);
    const before = await count('public_plantings');
    const r = await api.post('/api/public/plantings', { ...form, first_name: 'Ali\u0000' }, { token: '' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ first_name: msg('validation.bad_characters') });
    expect(await count('public_plantings')).toBe(before);
  });

  it('in an entity write, in a language of a three-language text: named by its path', async () => {
    const before = await count('areas');
    const r = await api.post(AREAS, { ...(await areaPayload()), name: { uz: 'Tuman', ru: 'Рай\u0000он' } }, { lang: 'ru' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ 'name.ru': 'Текст содержит недопустимый символ (NUL или повреждённый символ Unicode)' });
    expect(await count('areas')).toBe(before);
  });

  it('in a cell of an imported bank statement: an error of that row', async () => {
    const stack = await api.post('/api/ecofund/stack-payments', { number: 'KV-NUL', statement_date: '2025-03-31' });
    expect(stack.status, JSON.stringify(stack.body)).toBe(201);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Koʻchirma');
    ws.addRow(['Sana', 'Raqam', 'Summa', 'Toʻlovchi', 'STIR', 'Hisob', 'Maqsad', 'Tushum kodi', 'Turi']);
    // `_x0000_` is how a spreadsheet file writes a NUL character
    ws.addRow(['2025-03-01', 'P_x0000_1', 1000, 'Korxona', '', '', 'Kompensatsiya', '', '']);
    const res = await fetch(`${api.url}/api/ecofund/stack-payments/${stack.body.id}/import`, {
      method: 'POST',
      body: Buffer.from(await wb.xlsx.writeBuffer()),
      headers: { Authorization: `Bearer ${api.adminToken}`, Language: 'uz', 'Content-Type': 'application/octet-stream' },
    });
    const body = (await res.json()) as { errors: Record<string, string> };
    expect(res.status).toBe(400);
    expect(body.errors).toEqual({ 'rows.2.number': msg('validation.bad_characters') });
    expect(await api.db.knex('payments').where({ stack_id: stack.body.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });
});

describe('class 2: a lone UTF-16 surrogate', () => {
  it('is refused and named by its field, not under id', async () => {
    const before = await count('areas');
    const text3 = await api.post(AREAS, { ...(await areaPayload()), name: { uz: 'Tuman \ud800' } });
    expect(text3.status).toBe(400);
    expect(text3.body.errors).toEqual({ 'name.uz': msg('validation.bad_characters') });
    const plain = await api.post(AREAS, { ...(await areaPayload()), soato: '\udc00' });
    expect(plain.body.errors).toEqual({ soato: msg('validation.bad_characters') });
    expect(await count('areas')).toBe(before);
  });
});

describe('class 3: ids beyond bigint and beyond JS safe integers', () => {
  it('in a reference of a body', async () => {
    const before = await count('areas');
    for (const region_id of [1e20, '99999999999999999999', Number.MAX_SAFE_INTEGER + 1]) {
      const r = await api.post(AREAS, { ...(await areaPayload()), region_id }, { lang: 'ru' });
      expect(r.status, JSON.stringify(region_id)).toBe(400);
      expect(r.body.errors).toEqual({ region_id: 'Выбранная запись не найдена' });
    }
    expect(await count('areas')).toBe(before);
  });

  it('in range, page and perPage', async () => {
    const range = await api.get(`/api/ecofund-sprav/regions?range=${enc([0, 1e20])}`);
    expect(range.status).toBe(400);
    expect(range.body.errors).toEqual({ range: msg('errors.bad_param', 'uz', { name: 'range' }) });
    const far = await api.get(`/api/ecofund-sprav/regions?range=${enc([2e9, 2e9 + 9])}`);
    expect(far.status).toBe(400);
    expect(far.body.errors).toEqual({ range: msg('errors.offset_limit', 'uz', { max: 1_000_000_000 }) });
    const page = await api.get('/api/ecofund-sprav/regions?page=99999999999999999999');
    expect(page.status).toBe(400);
    expect(Object.keys(page.body.errors)).toEqual(['page']);
    const perPage = await api.get('/api/ecofund-sprav/regions?page=1&perPage=99999999999999999999');
    expect(perPage.status).toBe(400);
    expect(Object.keys(perPage.body.errors)).toEqual(['perPage']);
  });
});

describe("class 4: filter values out of their column's range", () => {
  it('2147483648 on an integer filter', async () => {
    const r = await api.get('/api/ecofund-plantings/planting-plans?year=2147483648');
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ year: msg('errors.bad_filter', 'uz', { name: 'year' }) });
  });

  it('year 0000 in a date filter and in a body', async () => {
    const filter = await api.get('/api/ecofund-sprav/min-oklads?from_start_date=0000-01-01', { lang: 'uk' });
    expect(filter.status).toBe(400);
    expect(filter.body.errors).toEqual({ from_start_date: msg('errors.bad_filter', 'uk', { name: 'from_start_date' }) });
    const e = api.model.entities.get('min-oklads')!;
    const before = await count(e.table);
    const body = await api.post(`/api${e.path}`, { ...(await samplePayload(api.db.knex, api.model, e)), start_date: '0000-01-01' });
    expect(body.status).toBe(400);
    expect(body.body.errors).toEqual({ start_date: msg('validation.interval', 'uz', { min: '1000-01-01', max: '9999-12-31' }) });
    expect(await count(e.table)).toBe(before);
  });

  it('date-times Date.parse takes but PostgreSQL does not, and absurdly long decimals', async () => {
    const logs = `/api${api.model.entities.get('login-logs')!.path}`;
    expect((await api.get(`${logs}?${new URLSearchParams({ from_created_at: '2024-01-15T10:00:00+05:00' })}`)).status).toBe(200);
    for (const v of ['March 7, 2024', '2024-01-15T10:00:00+23:00', '0000-01-01T00:00:00Z', '2024-01-01 25:00']) {
      const r = await api.get(`${logs}?${new URLSearchParams({ from_created_at: v })}`);
      expect(r.status, v).toBe(400);
      expect(Object.keys(r.body.errors), v).toEqual(['from_created_at']);
    }
    const payments = await api.get(`/api/ecofund/payments?from_amount=${'9'.repeat(5000)}`);
    expect(payments.status).toBe(400);
    expect(Object.keys(payments.body.errors)).toEqual(['from_amount']);
  });
});

describe('class 5: values silently changed or ignored', () => {
  let user: Record<string, unknown>;
  beforeAll(async () => {
    const payload = await samplePayload(api.db.knex, api.model, api.model.entities.get('users')!);
    const created = await api.post(USERS, { ...payload, phone: '+998 (90) 123-45-67' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    user = (await api.get(`${USERS}/${created.body.id}`)).body;
    expect(user.phone).toBe('901234567');
  });

  it('a phone of 100 000 letters is a wrong phone, not an empty one', async () => {
    const r = await api.put(`${USERS}/${user.id}`, { ...user, phone: 'x'.repeat(100_000) }, { lang: 'ru' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ phone: 'Телефон должен быть в виде (XX) XXX-XX-XX' });
    const after = (await api.get(`${USERS}/${user.id}`)).body;
    expect(after).toMatchObject({ phone: '901234567', version: user.version });
  });

  it('a password that is not a string is refused, not ignored', async () => {
    const r = await api.put(`${USERS}/${user.id}`, { ...user, password: 123456 });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ password: msg('validation.wrong_format') });
    expect((await api.get(`${USERS}/${user.id}`)).body.version).toBe(user.version);
    // the password the user was made with still signs in
    expect(await api.login(user.username as string, 'secret-123')).toBeTruthy();
  });
});

describe('also found by the fuzzing', () => {
  it("a map viewport beyond the world's edges is cut to them, not a 500 without sign-in", async () => {
    for (const zoom of [5, 8, 13, 16]) {
      const r = await api.get(`/api/public/map/plantings?bbox=-1e300,-1e300,1e300,1e300&zoom=${zoom}`, { token: '' });
      expect(r.status, `zoom ${zoom}`).toBe(200);
    }
  });

  it("a PostgreSQL data error a route lets through is a logged 400 in the caller's language, not a 500", async () => {
    const app = new Koa<AppState>();
    app.use(securityHeaders());
    app.use(language());
    app.use(errorHandler(api.model, api.db.knex));
    app.use(() => {
      throw Object.assign(new Error('invalid input syntax for type bigint: "NaN"'), { code: '22P02' });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/x`, { headers: { Language: 'ru' } });
      const body = (await res.json()) as { code: number; message: string; requestId: string };
      expect(res.status).toBe(400);
      expect(body).toMatchObject({ code: -108, message: 'Введённое значение неверно или вне допустимого диапазона' });
      // kept where system errors are, since the check that should have named the field is missing
      expect(await api.db.knex('app_errors').where({ request_id: body.requestId }).first('status', 'message')).toMatchObject({
        status: 400,
        message: expect.stringContaining('NaN'),
      });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
