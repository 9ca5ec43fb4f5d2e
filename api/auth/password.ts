import { scrypt, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt, a memory-hard KDF built into Node: N=2^15, r=8, p=1 (32 MiB
 * per hash). Stored as `scrypt$N$r$p$salt$hash` so the cost can be raised later: a check reads N, r
 * and p from the stored hash, never from here.
 */
export const PRODUCTION_LOG2_N = 15;
const R = 8,
  P = 1,
  KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/**
 * The cost new hashes get: 2^15, except in the tests. `ECOFOND_TEST_PASSWORD_COST` (log2 of N, 1–15)
 * lowers it, and is honoured only where `NODE_ENV` is `test` – vitest's own setting; anywhere else
 * it is ignored, so a copied environment file cannot weaken a real installation. `npm test` hashes
 * some 460 passwords and checks one at every sign-in: at 2^15 (about 146 ms of processor each) that
 * was a fifth of its processor (decisions/0090). Read at each call, so a test can set it for itself.
 */
export function passwordCostN(): number {
  const raw = process.env.ECOFOND_TEST_PASSWORD_COST;
  if (raw === undefined || raw === '' || process.env.NODE_ENV !== 'test') return 1 << PRODUCTION_LOG2_N;
  const log2 = Number(raw);
  if (!Number.isInteger(log2) || log2 < 1 || log2 > PRODUCTION_LOG2_N) {
    throw new Error(`ECOFOND_TEST_PASSWORD_COST must be a whole number from 1 to ${PRODUCTION_LOG2_N} (log2 of scrypt's N), not "${raw}"`);
  }
  return 1 << log2;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const n = passwordCostN();
  const salt = randomBytes(16);
  const key = await derive(password, salt, n, R, P);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // spend the same time as a real check so that unknown users cannot be told apart
    await derive(password, randomBytes(16), passwordCostN(), R, P);
    return false;
  }
  const [, n, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}
