import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, passwordCostN, verifyPassword } from './password.ts';

/** The password hash: production's cost, the tests' lower one and where it is refused. */
const saved = { cost: process.env.ECOFOND_TEST_PASSWORD_COST, env: process.env.NODE_ENV };
afterEach(() => {
  for (const [k, v] of [
    ['ECOFOND_TEST_PASSWORD_COST', saved.cost],
    ['NODE_ENV', saved.env],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('password hashes', () => {
  it('hash at N=2^15, r=8, p=1 without the tests’ setting', async () => {
    delete process.env.ECOFOND_TEST_PASSWORD_COST;
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct hors', stored)).toBe(false);
  });

  it('ignore the tests’ lower cost outside NODE_ENV=test, as in production', () => {
    process.env.ECOFOND_TEST_PASSWORD_COST = '4';
    for (const env of ['production', 'development', '']) {
      process.env.NODE_ENV = env;
      expect(passwordCostN()).toBe(32768);
    }
    delete process.env.NODE_ENV;
    expect(passwordCostN()).toBe(32768);
  });

  it('take the tests’ lower cost under NODE_ENV=test, and refuse a value out of range', () => {
    process.env.NODE_ENV = 'test';
    process.env.ECOFOND_TEST_PASSWORD_COST = '4';
    expect(passwordCostN()).toBe(16);
    for (const bad of ['0', '16', '2.5', 'low']) {
      process.env.ECOFOND_TEST_PASSWORD_COST = bad;
      expect(() => passwordCostN()).toThrow(/ECOFOND_TEST_PASSWORD_COST must be a whole number from 1 to 15/);
    }
  });

  it('check a hash by the cost it was made with, whatever the cost is now', async () => {
    process.env.NODE_ENV = 'test';
    process.env.ECOFOND_TEST_PASSWORD_COST = '4';
    const cheap = await hashPassword('пароль-1');
    expect(cheap).toMatch(/^scrypt\$16\$8\$1\$/);
    delete process.env.ECOFOND_TEST_PASSWORD_COST;
    const full = await hashPassword('пароль-1');
    expect(await verifyPassword('пароль-1', cheap)).toBe(true);
    process.env.ECOFOND_TEST_PASSWORD_COST = '4';
    expect(await verifyPassword('пароль-1', full)).toBe(true);
    expect(await verifyPassword('пароль-2', full)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});
