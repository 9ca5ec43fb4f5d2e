/**
 * Before each test file: `process.env` as its worker began. The files of a worker share its process
 * and its modules (vitest.config.ts, `isolate: false`), so a setting one file makes for itself (a
 * rate, a limit, a data folder) must not reach the next. The engine reads such settings when it
 * uses them, not when its module loads, so that a file's own settings take effect.
 */
const held = globalThis as { __ecofondEnv?: Record<string, string | undefined> };
held.__ecofondEnv ??= { ...process.env };
const start = held.__ecofondEnv;
for (const k of Object.keys(process.env)) if (!(k in start) && !k.startsWith('VITEST')) delete process.env[k];
for (const [k, v] of Object.entries(start)) if (!k.startsWith('VITEST') && v !== undefined) process.env[k] = v;
