import type { Knex } from 'knex';

/**
 * Settings the running system reads from `app_configs` (the admin's "settings" screen), with the
 * defaults below when a key is absent. Values are cached for a few seconds so that the hot path
 * (every request's session check) does not query them each time.
 */
export const CONFIG_DEFAULTS = {
  'auth.session_minutes': Number(process.env.ECOFOND_SESSION_TTL_MINUTES || 480),
  'auth.slow_after_failures': 3,
  'auth.lock_after_failures': 5,
  'auth.lock_minutes': 15,
  'auth.ip_lock_after_failures': 20,
  'auth.code_minutes': 5,
  'auth.code_tries': 3,
  'auth.codes_per_hour': 5,
  // anonymous code requests (forgot-password) an hour, from one address and for one account name
  'auth.code_requests_per_address': 30,
  'auth.code_requests_per_account': 20,
} as const;

export type ConfigKey = keyof typeof CONFIG_DEFAULTS;

const TTL_MS = 5000;
const cache = new WeakMap<Knex, { at: number; values: Map<string, string> }>();

async function values(knex: Knex): Promise<Map<string, string>> {
  let c = cache.get(knex);
  if (!c || Date.now() - c.at > TTL_MS) {
    const rows = await knex('app_configs')
      .select('key', 'value')
      .catch(() => [] as { key: string; value: string }[]);
    c = { at: Date.now(), values: new Map(rows.map((r: { key: string; value: string }) => [r.key, r.value])) };
    cache.set(knex, c);
  }
  return c.values;
}

/**
 * Settings the sites read (contacts, map tiles, the E-IMZO key of this domain), as text: the settings screen's value, else
 * the environment variable named here, else unset (the site then shows its own default).
 */
export const SITE_SETTINGS = {
  'site.hotline': 'ECOFOND_HOTLINE',
  'site.email': 'ECOFOND_CONTACT_EMAIL',
  'site.map_tiles': 'ECOFOND_MAP_TILES',
  'esign.eimzo_api_key': 'ECOFOND_EIMZO_API_KEY',
} as const;
export type SiteSettingKey = keyof typeof SITE_SETTINGS;

export async function configText(knex: Knex, key: SiteSettingKey): Promise<string | undefined> {
  const raw = (await values(knex)).get(key)?.trim();
  if (raw) return raw;
  const env = process.env[SITE_SETTINGS[key]]?.trim();
  return env || undefined;
}

export async function configNumber(knex: Knex, key: ConfigKey): Promise<number> {
  const raw = (await values(knex)).get(key);
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : CONFIG_DEFAULTS[key];
}

/**
 * The fund's legal parameters, exact decimals kept as text (never a float on the way to an
 * amount): the settings screen's value when it is well formed, else the default here.
 * - `fund.late_report_fine_multiple`: the late-report fine in multiples of the base value in force
 *   on the day the report is sent (spec §9: "four times the minimum wage"; one caption reads "four
 *   times less", i.e. 0.25 — docs/domain-rules.md);
 * - `fund.report_deadline_days`: days after a period's end by which its report is due.
 */
export const FUND_SETTINGS = {
  'fund.late_report_fine_multiple': { default: '4', pattern: /^\d{1,4}(\.\d{1,2})?$/ },
  'fund.report_deadline_days': { default: '15', pattern: /^\d{1,3}$/ },
  // the informant's incentive for a people fact whose fine is paid: a share of the fine or a fixed amount in soʻm (api/domain/fact-incentive.ts)
  'fund.fact_incentive': { default: '10%', pattern: /^(?:\d{1,3}(?:\.\d{1,4})?\s*%|\d{1,13}(?:\.\d{1,2})?)$/ },
} as const;
export type FundSettingKey = keyof typeof FUND_SETTINGS;

export async function fundSetting(knex: Knex, key: FundSettingKey): Promise<string> {
  const raw = (await values(knex)).get(key)?.trim();
  return raw && FUND_SETTINGS[key].pattern.test(raw) ? raw : FUND_SETTINGS[key].default;
}

/** Forget cached settings (after the settings screen changes one, and in tests). */
export function clearConfigCache(knex: Knex): void {
  cache.delete(knex);
}

/**
 * The chat's flood guard (spec §8 "Chat blocked for too many actions, try later"; docs/chat.md):
 * at most `chat.messages_per_window` messages and `chat.chats_per_window` new chats from one address
 * in `chat.window_minutes`; the next one is refused with 429 and nothing is stored. Its sockets: at
 * most `chat.sockets_per_address` open at once from one address and `chat.sockets_total` in all, in
 * one server process; the next upgrade is refused (429, 503).
 */
export const CHAT_SETTINGS = {
  'chat.messages_per_window': 30,
  'chat.chats_per_window': 3,
  'chat.window_minutes': 10,
  'chat.sockets_per_address': 20,
  'chat.sockets_total': 10_000,
} as const;
export type ChatSettingKey = keyof typeof CHAT_SETTINGS;

export async function chatSetting(knex: Knex, key: ChatSettingKey): Promise<number> {
  const raw = (await values(knex)).get(key)?.trim();
  const n = raw ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : CHAT_SETTINGS[key];
}

/**
 * Background jobs (docs/jobs.md): an export of more rows than `exports.background_rows` runs as a
 * job instead of streaming in the request; a job's file and row are kept `jobs.keep_hours` after
 * it ends, then removed by the worker; a user may have `jobs.per_user` exports queued or running at
 * once (counting every job of theirs queued or running), the next is refused.
 */
export const JOB_SETTINGS = {
  'exports.background_rows': Number(process.env.ECOFOND_EXPORT_BACKGROUND_ROWS || 10_000),
  'jobs.keep_hours': 24,
  'jobs.per_user': 3,
} as const;
export type JobSettingKey = keyof typeof JOB_SETTINGS;

/** A job setting: the settings screen's value when it is a whole number ≥ 0 (≥ 1 jobs a user; hours may be fractional), else the default. */
export async function jobSetting(knex: Knex, key: JobSettingKey): Promise<number> {
  const raw = (await values(knex)).get(key)?.trim();
  const n = raw ? Number(raw) : NaN;
  const ok = key === 'jobs.keep_hours' ? Number.isFinite(n) && n > 0 : Number.isSafeInteger(n) && n >= (key === 'jobs.per_user' ? 1 : 0);
  return ok ? n : JOB_SETTINGS[key];
}
