import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api.ts';
import { TEST_ADMIN_PASSWORD } from './support/template.ts';
import { createLogger, errorFields, useLogger } from '../api/observability/log.ts';
import { DEMO_ADMIN_PASSWORD } from '../seeds/index.ts';
import type { Logger } from 'pino';

/**
 * The structured log (docs/operations.md) of a run that signs in (rightly and wrongly, with the
 * demo users' password), asks for and checks a one-time code, and sends PINFLs in paths, queries
 * and bodies: every request is one JSON line with its request id (the X-Request-Id the caller
 * got), user id, route template, status and duration — and no password, token, code or PINFL is
 * anywhere in it.
 */
const PINFL = '31507853210047';
const PINFL2 = '42911764300128';
const lines: string[] = [];
let api: TestApi;
let before: Logger;
const secrets: Record<string, string> = {
  'admin password': TEST_ADMIN_PASSWORD,
  'demo password': DEMO_ADMIN_PASSWORD,
  'a wrong password': 'wrong-pw-7f3a',
  PINFL,
  'second PINFL': PINFL2,
};
let requestIds: string[] = [];
let code = '';

beforeAll(async () => {
  before = useLogger(
    createLogger(
      {
        write: (s: string) => {
          lines.push(s);
        },
      },
      'info',
    ),
  );
  api = await startTestApi();
  secrets['session token'] = api.adminToken!;
  const k = api.db.knex;
  await k('users').where({ username: 'admin' }).update({ email: 'admin@ecofond.test' });

  const answers = [
    await api.post('/api/admin/auth/login', { username: 'admin', password: DEMO_ADMIN_PASSWORD }, { token: '' }),
    await api.post('/api/admin/auth/login', { username: 'inspector', password: DEMO_ADMIN_PASSWORD }, { token: '' }),
    await api.post('/api/admin/auth/login', { username: 'admin', password: 'wrong-pw-7f3a' }, { token: '' }),
    await api.get('/api/meta'),
    await api.get(`/api/ecofund-plantings/tree-cutting-permits?q=${PINFL}&filter=${encodeURIComponent(JSON.stringify({ pinfl: PINFL }))}`),
    await api.get(`/api/ecofund-sprav/rank/${PINFL}`),
    await api.post('/api/ecofund-plantings/tree-cutting-permits', { pinfl: PINFL2, name: PINFL2 }),
    await api.post('/api/admin/auth/forgot-password', { username: 'admin' }, { token: '' }),
  ];
  const body = (
    await k('notification_recipients')
      .where({ user_id: (await k('users').where({ username: 'admin' }).first('id')).id })
      .orderBy('id', 'desc')
      .first('body')
  )?.body as string | undefined;
  code = /\b(\d{6})\b/.exec(body ?? '')?.[1] ?? '';
  answers.push(await api.post('/api/admin/auth/check-code', { username: 'admin', purpose: 'reset', code }, { token: '' }));
  secrets['one-time code'] = code;
  const fresh = await api.login('admin', TEST_ADMIN_PASSWORD);
  secrets['second session token'] = fresh;
  answers.push(await api.get('/api/admin/user-modules', { token: fresh }));
  requestIds = answers.map((a) => a.headers.get('x-request-id')!);
}, 120_000);

afterAll(async () => {
  useLogger(before);
  await api?.close();
});

describe('the structured log', () => {
  it('has one JSON line per request with its request id, user, route template, status and duration', () => {
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = parsed.filter((l) => l.msg === 'request');
    for (const id of requestIds)
      expect(
        requests.filter((r) => r.reqId === id),
        id,
      ).toHaveLength(1);
    const meta = requests.find((r) => r.reqId === requestIds[3])!;
    expect(meta).toMatchObject({ level: 'info', service: 'ecofond', method: 'GET', route: '/api/meta', status: 200 });
    expect(meta.userId).toEqual(expect.any(Number));
    expect(meta.ms).toEqual(expect.any(Number));
    expect(typeof meta.time).toBe('string');
    expect(requests.find((r) => r.reqId === requestIds[5])).toMatchObject({ route: '/api/ecofund-sprav/rank/:id' });
    expect(requests.find((r) => r.reqId === requestIds[0])).toMatchObject({ route: '/api/admin/auth/login', userId: null });
  });

  it('holds no password, token, one-time code or PINFL', () => {
    expect(code).toMatch(/^\d{6}$/);
    expect(lines.length).toBeGreaterThanOrEqual(requestIds.length);
    const text = lines.join('');
    for (const [what, value] of Object.entries(secrets)) {
      expect(value.length, what).toBeGreaterThan(5);
      // the code is six digits: looked for outside the request ids, times and numbers of the lines
      const where =
        what === 'one-time code'
          ? lines
              .map((l) => {
                const o = JSON.parse(l);
                delete o.reqId;
                delete o.time;
                delete o.pid;
                delete o.ms;
                return JSON.stringify(o);
              })
              .join('')
          : text;
      expect(where.includes(value), `${what} is in the log`).toBe(false);
    }
  });

  it("keeps an error's kind and stack, not its message (which may quote the input)", () => {
    const err = Object.assign(new Error(`duplicate key value violates unique constraint "x" Key (pinfl)=(${PINFL})`), {
      code: '23505',
      constraint: 'x',
    });
    const fields = errorFields(err);
    expect(fields).toMatchObject({ type: 'Error', pgCode: '23505', constraint: 'x' });
    expect(JSON.stringify(fields)).not.toContain(PINFL);
    expect(String(fields.stack)).toMatch(/^\s+at /);
  });
});
