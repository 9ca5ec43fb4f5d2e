import type { Knex } from 'knex';
import { readFileSync } from 'node:fs';
import type { MetaModel, Text3 } from '../api/meta/types.ts';
import { hashPassword } from '../api/auth/password.ts';
import { SYSTEM_ROLES, roleActions } from './roles.ts';
import { PLANTING_ORGS, REFERENCE_ROWS } from './reference-rows.ts';
import { seedDemo } from './demo.ts';
import { DEMO_CA_CERT_PEM } from '../api/esign/demo-ca.ts';
import { seedDemoUsers } from './demo-users.ts';
import { seedOffencesDemo } from './demo-offences.ts';
import { seedPeopleFactsDemo } from './demo-people-facts.ts';
import { seedSiteContent } from './site-content.ts';
import { seedSuggestionsDemo } from './demo-suggestions.ts';
import { seedBooksDemo } from './demo-books.ts';
import { seedNotificationsDemo } from './demo-notifications.ts';
import { seedNotifications } from './notifications.ts';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { translate } from '../api/meta/captions.ts';
import { LANGS } from '../api/meta/types.ts';
import { CONFIG_DEFAULTS, FUND_SETTINGS, SITE_SETTINGS, type FundSettingKey, type SiteSettingKey } from '../api/auth/config.ts';
import { CHAT_SETTINGS, JOB_SETTINGS, type ChatSettingKey, type JobSettingKey } from '../api/auth/config.ts';
import { refreshSpeciesBenefits } from './species-benefits.ts';
import { syncActions } from '../api/db/actions.ts';
import { withModules } from './modules.ts';

export { syncActions };

const data = (file: string) => JSON.parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8'));

export const DEMO_ADMIN_PASSWORD = 'ecofond-demo';

export interface SeedOptions {
  /** the administrator's password; without it the demo default is used only when `demo` is set */
  adminPassword?: string;
  demo?: boolean;
  log?: (line: string) => void;
}

/**
 * Brings a migrated database to a working state, and can be run again at any time: the action
 * catalogue follows the metadata (new ids added, the administrator role granted all of them), the
 * system roles exist, the administrator exists, and empty reference books get their reference data.
 * Rows an administrator has edited are never overwritten.
 */
export async function seed(knex: Knex, given: MetaModel, opts: SeedOptions = {}): Promise<void> {
  const model = withModules(given);
  const log = opts.log ?? (() => undefined);
  await syncActions(knex, model);
  const roleIds = await syncRoles(knex, model);
  await ensureAdmin(knex, roleIds.get('administrator')!, opts, log);
  await seedReferenceBooks(knex, model, log);
  if (model.entities.has('app-configs')) await seedESignSettings(knex, Boolean(opts.demo));
  // the notification methods, types and their templates (docs/notifications.md)
  if (model.entities.has('notification-templates')) await seedNotifications(knex);
  if (opts.demo && model.entities.has('subject-report-yearly')) {
    await seedDemo(knex, log);
    // one user of each role, bound to a demo region, subject and branch (docs/roles.md)
    await seedDemoUsers(knex, DEMO_ADMIN_PASSWORD, log);
    // offences, their payments and the districts' mahallas: the demo inspector's own among them
    await seedOffencesDemo(knex, log);
    // the public's facts across their states, some turned into those offences, one with its incentive
    await seedPeopleFactsDemo(knex, log);
    // suggestions from the public: new, answered, closed
    await seedSuggestionsDemo(knex, log);
    // announcements to the demo users, so their bells are not empty
    await seedNotificationsDemo(knex, model, log);
    // the screens the rest leaves empty: foundations, practical applications, expertise requests, branches, the public's trees, chats, files
    await seedBooksDemo(knex, log);
  }
}

async function syncRoles(knex: Knex, model: MetaModel): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const role of SYSTEM_ROLES) {
    const [row] = await knex('roles')
      .insert({ code: role.code, name: JSON.stringify(role.name), is_system: true })
      .onConflict('code')
      .merge(['is_system'])
      .returning('id');
    ids.set(role.code, row.id);
    const actions = roleActions(role, model);
    // only actions the role has never had a row for: a closed action stays closed
    const rows = actions.map((action_id) => ({ role_id: row.id, action_id, state: 1 }));
    for (let i = 0; i < rows.length; i += 500)
      await knex('role_actions')
        .insert(rows.slice(i, i + 500))
        .onConflict(['role_id', 'action_id'])
        .ignore();
  }
  return ids;
}

async function ensureAdmin(knex: Knex, roleId: number, opts: SeedOptions, log: (s: string) => void): Promise<void> {
  const existing = await knex('users').whereRaw('lower(username) = ?', ['admin']).first('id');
  if (existing) {
    await knex('user_roles').insert({ user_id: existing.id, role_id: roleId }).onConflict(['user_id', 'role_id']).ignore();
    return;
  }
  const password = opts.adminPassword || (opts.demo ? DEMO_ADMIN_PASSWORD : undefined);
  if (!password) {
    log('No administrator created: set ECOFOND_ADMIN_PASSWORD (the demo password is only for the embedded demo).');
    return;
  }
  const [user] = await knex('users')
    .insert({
      username: 'admin',
      password: await hashPassword(password),
      fio: 'Tizim administratori',
      lang_code: 'uz',
    })
    .returning('id');
  await knex('user_roles').insert({ user_id: user.id, role_id: roleId });
  log(`Administrator "admin" created${password === DEMO_ADMIN_PASSWORD ? ' with the demo password' : ''}.`);
}

const t3 = (r: { uz: string; uk?: string; ru?: string }): string =>
  JSON.stringify({ uz: r.uz, uk: r.uk ?? latinToCyrillic(r.uz), ru: r.ru ?? null });

async function fillIfEmpty(
  knex: Knex,
  model: MetaModel,
  entity: string,
  rows: Record<string, unknown>[],
  log: (s: string) => void,
): Promise<void> {
  const e = model.entities.get(entity);
  if (!e || !rows.length) return;
  const [{ n }] = await knex(e.table).count<{ n: number }[]>({ n: '*' });
  if (Number(n) > 0) return;
  for (let i = 0; i < rows.length; i += 500) await knex(e.table).insert(rows.slice(i, i + 500));
  log(`${entity}: ${rows.length} rows`);
}

/**
 * Books whose rows the code itself names (a document type an entity's `documents` block prints, the
 * reserved fields its templates fill): a new version's rows are added to an existing install's book
 * by their code, the rows there kept as the administrator left them.
 */
const ADDED_BY_CODE = new Set(['template-document-types', 'td-field-reserved-types']);

async function fillMissingCodes(
  knex: Knex,
  model: MetaModel,
  entity: string,
  rows: Record<string, unknown>[],
  log: (s: string) => void,
): Promise<void> {
  const e = model.entities.get(entity);
  if (!e || !rows.length) return;
  const have = new Set((await knex(e.table).select('code')).map((r: { code: string }) => r.code));
  const missing = rows.filter((r) => !have.has(r.code as string));
  if (!missing.length) return;
  await knex(e.table).insert(missing);
  log(`${entity}: ${missing.length} rows`);
}

/** A reference row's references by another book's code (`report_category: 'AIR'`) as the row's id there (`report_category_id`). */
const BY_CODE: Record<string, string> = { report_category: 'report_categories', report_type: 'report_types' };
async function byCode(knex: Knex, row: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out = { ...row };
  for (const [key, table] of Object.entries(BY_CODE)) {
    if (!(key in out)) continue;
    out[`${key}_id`] = (await knex(table).where({ code: out[key] }).first('id'))?.id ?? null;
    delete out[key];
  }
  return out;
}

async function seedReferenceBooks(knex: Knex, model: MetaModel, log: (s: string) => void): Promise<void> {
  const regions = data('regions.json').regions as {
    soato: string;
    uz: string;
    uk: string;
    ru: string;
    centre: { lat: number; lng: number };
  }[];
  await fillIfEmpty(
    knex,
    model,
    'regions',
    regions.map((r, i) => ({
      soato: r.soato,
      name: t3(r),
      centre: knex.raw('point(?, ?)', [r.centre.lng, r.centre.lat]),
      ordering: (i + 1) * 10,
    })),
    log,
  );
  const regionIds = new Map<string, number>(
    (await knex('regions').select('id', 'soato')).map((r: { id: number; soato: string }) => [r.soato, r.id]),
  );
  const areas = data('areas.json').areas as { region_soato: string; soato: string; uz: string; uk: string; ru: string }[];
  await fillIfEmpty(
    knex,
    model,
    'areas',
    areas
      .filter((a) => regionIds.has(a.region_soato))
      .map((a) => ({
        region_id: regionIds.get(a.region_soato),
        soato: a.soato,
        name: t3(a),
      })),
    log,
  );
  const banks = data('banks-mfo.json').banks as { mfo: string; uz: string; uk: string; ru: string }[];
  await fillIfEmpty(
    knex,
    model,
    'banks-mfo',
    banks.map((b) => ({ mfo: b.mfo, name: t3(b) })),
    log,
  );
  const oklads = data('min-oklads.json').rows as { start_date: string; amount: string; decree: string }[];
  await fillIfEmpty(
    knex,
    model,
    'min-oklads',
    oklads.map((o) => ({ start_date: o.start_date, amount: o.amount, decree: o.decree || null })),
    log,
  );
  await fillIfEmpty(
    knex,
    model,
    'planting-orgs',
    PLANTING_ORGS.map((o) => ({
      name: t3(o.name),
      kind: o.kind,
      region_id: o.region_soato ? (regionIds.get(o.region_soato) ?? null) : null,
      is_active: true,
    })),
    log,
  );
  await seedAccessBooks(knex, model, log);
  for (const [entity, rows] of Object.entries(REFERENCE_ROWS)) {
    const resolved: Record<string, unknown>[] = [];
    for (const r of rows)
      resolved.push(
        await byCode(
          knex,
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, v && typeof v === 'object' && 'uz' in (v as object) ? t3(v as Text3) : v]),
          ),
        ),
      );
    if (ADDED_BY_CODE.has(entity)) await fillMissingCodes(knex, model, entity, resolved, log);
    else await fillIfEmpty(knex, model, entity, resolved, log);
  }
  // the public site's menu, sections and texts (docs/site-content.md)
  await seedSiteContent(knex, model, log);
  // what one tree of each species gives, by trunk-diameter class (the region reports join it)
  if (await knex.schema.hasTable('species_benefits')) await refreshSpeciesBenefits(knex);
}

/** The action catalogue's categories (the menu's sections) and types (operations), and the settings. */
async function seedAccessBooks(knex: Knex, model: MetaModel, log: (s: string) => void): Promise<void> {
  const text = (key: string) => JSON.stringify(Object.fromEntries(LANGS.map((l) => [l, translate(model, l, key)])));
  await fillIfEmpty(
    knex,
    model,
    'app-action-categories',
    model.menu.map((s, i) => ({ code: s.route.slice(1), name: text(s.caption), ordering: (i + 1) * 10 })),
    log,
  );
  await fillIfEmpty(
    knex,
    model,
    'app-action-types',
    ['read', 'create', 'update', 'delete', 'export', 'workflow', 'menu'].map((k) => ({ code: k, name: text(`operations.${k}`) })),
    log,
  );
  await fillIfEmpty(
    knex,
    model,
    'app-configs-groups',
    [{ code: 'auth', name: JSON.stringify({ uz: 'Kirish va sessiyalar', uk: 'Кириш ва сессиялар', ru: 'Вход и сессии' }) }],
    log,
  );
  const groups = new Map<string, number>(
    (await knex('app_configs_groups').select('id', 'code')).map((g: { id: number; code: string }) => [g.code, g.id]),
  );
  await fillIfEmpty(
    knex,
    model,
    'app-configs',
    Object.entries(CONFIG_DEFAULTS).map(([key, value]) => ({
      key,
      value: String(value),
      group_id: groups.get(key.split('.')[0]) ?? null,
    })),
    log,
  );
  // the public site's settings, empty until the fund sets them (the environment's values apply till then)
  if (!(await knex('app_configs_groups').where({ code: 'site' }).first('id'))) {
    await knex('app_configs_groups').insert({
      code: 'site',
      name: JSON.stringify({ uz: 'Ommaviy sayt', uk: 'Оммавий сайт', ru: 'Публичный сайт' }),
    });
  }
  const site = (await knex('app_configs_groups').where({ code: 'site' }).first('id')).id;
  const descriptions: Record<SiteSettingKey, [string, string]> = {
    'site.hotline': [
      'Ishonch telefoni raqami (saytning pastida va «Aloqa» sahifasida)',
      'Номер горячей линии (внизу сайта и на странице контактов)',
    ],
    'site.email': ['Aloqa uchun elektron pochta', 'Электронная почта для связи'],
    'site.map_tiles': [
      'Xarita asosining manzili ({z}/{x}/{y}); boʻsh — OpenStreetMap',
      'Адрес подложки карты ({z}/{x}/{y}); пусто — OpenStreetMap',
    ],
    'esign.eimzo_api_key': [
      'Ushbu domen uchun E-IMZO API kaliti (dastur ishlab chiqaruvchisidan)',
      'API-ключ E-IMZO для этого домена (выдаёт разработчик программы)',
    ],
  };
  for (const key of Object.keys(SITE_SETTINGS) as SiteSettingKey[]) {
    const [uz, ru] = descriptions[key];
    await knex('app_configs')
      .insert({ key, value: '', group_id: site, description: JSON.stringify({ uz, uk: latinToCyrillic(uz), ru }) })
      .onConflict('key')
      .ignore();
  }
  // the fund's legal parameters, at their defaults until the fund changes them (docs/domain-rules.md)
  if (!(await knex('app_configs_groups').where({ code: 'fund' }).first('id'))) {
    await knex('app_configs_groups').insert({ code: 'fund', name: JSON.stringify({ uz: 'Jamgʻarma', uk: 'Жамғарма', ru: 'Фонд' }) });
  }
  const fund = (await knex('app_configs_groups').where({ code: 'fund' }).first('id')).id;
  const fundDescriptions: Record<FundSettingKey, [string, string]> = {
    'fund.late_report_fine_multiple': [
      'Muddatidan kech yuborilgan hisobot uchun jarima: yuborilgan kundagi bazaviy hisoblash miqdoriga karrali (4; «toʻrt baravar kam» oʻqilsa — 0.25)',
      'Штраф за отчёт, отправленный после срока: кратность базовой расчётной величины на день отправки (4; при прочтении «в четыре раза меньше» — 0.25)',
    ],
    'fund.report_deadline_days': [
      'Hisobot davri tugaganidan keyin hisobot topshirish muddati, kun',
      'Срок сдачи отчёта после окончания периода, дней',
    ],
    'fund.fact_incentive': [
      'Fuqaro xabari boʻyicha jarima toʻlanganda xabar beruvchiga ragʻbatlantirish: jarimaning ulushi («10%») yoki soʻmdagi qatʼiy summa («375000»)',
      'Поощрение заявителю, когда штраф по его сообщению оплачен: доля штрафа («10%») или твёрдая сумма в сумах («375000»)',
    ],
  };
  for (const key of Object.keys(FUND_SETTINGS) as FundSettingKey[]) {
    const [uz, ru] = fundDescriptions[key];
    await knex('app_configs')
      .insert({ key, value: FUND_SETTINGS[key].default, group_id: fund, description: JSON.stringify({ uz, uk: latinToCyrillic(uz), ru }) })
      .onConflict('key')
      .ignore();
  }
  await seedChatSettings(knex);
  await seedJobSettings(knex);
}

/**
 * A settings group (by its code, made once) and its settings at their defaults, each with its
 * description in uz and ru (uk derived); a setting already there is left as the fund set it.
 */
async function seedSettingsGroup(
  knex: Knex,
  code: string,
  name: { uz: string; uk?: string; ru: string },
  settings: [key: string, value: string, uz: string, ru: string][],
): Promise<void> {
  if (!(await knex('app_configs_groups').where({ code }).first('id'))) {
    await knex('app_configs_groups').insert({
      code,
      name: JSON.stringify({ uz: name.uz, uk: name.uk ?? latinToCyrillic(name.uz), ru: name.ru }),
    });
  }
  const group = (await knex('app_configs_groups').where({ code }).first('id')).id;
  for (const [key, value, uz, ru] of settings) {
    await knex('app_configs')
      .insert({ key, value, group_id: group, description: JSON.stringify({ uz, uk: latinToCyrillic(uz), ru }) })
      .onConflict('key')
      .ignore();
  }
}

/** The chat's flood guard and socket bounds (docs/chat.md), at their defaults until the fund changes it. */
async function seedChatSettings(knex: Knex): Promise<void> {
  const descriptions: Record<ChatSettingKey, [string, string]> = {
    'chat.messages_per_window': [
      'Bir manzildan oyna davomida yuborilishi mumkin boʻlgan xabarlar soni',
      'Сколько сообщений можно отправить с одного адреса за окно',
    ],
    'chat.chats_per_window': [
      'Bir manzildan oyna davomida ochilishi mumkin boʻlgan chatlar soni',
      'Сколько чатов можно открыть с одного адреса за окно',
    ],
    'chat.window_minutes': ['Chat cheklovi oynasi, daqiqa', 'Окно ограничения чата, минут'],
    'chat.sockets_per_address': [
      'Bir manzildan bir server jarayoniga bir vaqtda ochiq chat ulanishlari soni',
      'Сколько подключений к чату может держать один адрес в одном процессе сервера',
    ],
    'chat.sockets_total': [
      'Bir server jarayonidagi barcha ochiq chat ulanishlari soni',
      'Сколько подключений к чату держит один процесс сервера всего',
    ],
  };
  await seedSettingsGroup(
    knex,
    'chat',
    { uz: 'Operator bilan chat', uk: 'Оператор билан чат', ru: 'Чат с оператором' },
    (Object.keys(CHAT_SETTINGS) as ChatSettingKey[]).map((key) => [key, String(CHAT_SETTINGS[key]), ...descriptions[key]]),
  );
}

/** Background exports and the jobs' files (docs/jobs.md), at their defaults until the fund changes them. */
async function seedJobSettings(knex: Knex): Promise<void> {
  const descriptions: Record<JobSettingKey, [string, string]> = {
    'exports.background_rows': [
      'Shundan koʻp qatorli eksport fonda tayyorlanadi (jarayon chizigʻi va yuklab olish havolasi bilan)',
      'Экспорт большего числа строк готовится в фоне (с полосой хода и ссылкой на файл)',
    ],
    'jobs.keep_hours': ['Fonda tayyorlangan fayl necha soat saqlanadi', 'Сколько часов хранится файл, подготовленный в фоне'],
    'jobs.per_user': [
      'Bir foydalanuvchining navbatda turgan yoki bajarilayotgan fon eksportlari soni (undan ortigʻi rad etiladi)',
      'Сколько фоновых выгрузок одного пользователя может ждать или выполняться одновременно (сверх этого — отказ)',
    ],
  };
  await seedSettingsGroup(
    knex,
    'jobs',
    { uz: 'Fon vazifalari', ru: 'Фоновые задачи' },
    (Object.keys(JOB_SETTINGS) as JobSettingKey[]).map((key) => [key, String(JOB_SETTINGS[key]), ...descriptions[key]]),
  );
}

/**
 * The e-signature's settings (docs/e-signature.md): trusted CAs, the E-IMZO server, the TSA —
 * empty until set (the environment's values apply till then); the demo trusts the project's test CA
 * out of the box (decision 0074), which a deployment never does.
 */
async function seedESignSettings(knex: Knex, demo: boolean): Promise<void> {
  const esignDescriptions: Record<string, [string, string]> = {
    'esign.trusted_cas': [
      'Ishonchli tasdiqlovchi markazlar sertifikatlari (PEM); faqat ular bergan kalitlar bilan qoʻyilgan imzo qabul qilinadi',
      'Сертификаты доверенных удостоверяющих центров (PEM); принимаются только подписи ключами, выданными ими',
    ],
    'esign.eimzo_server_url': [
      'Oʻz DSt imzolarini tekshiradigan E-IMZO serverining manzili (masalan, http://e-imzo-server:8080); boʻsh — tekshirilmaydi',
      'Адрес сервера E-IMZO, проверяющего подписи O‘zDSt (например, http://e-imzo-server:8080); пусто — не проверяются',
    ],
    'esign.eimzo_host': ['E-IMZO serveriga yuboriladigan sayt domeni (Host)', 'Домен сайта, сообщаемый серверу E-IMZO (Host)'],
    'esign.tsa_url': [
      'Vaqt belgisi serverining manzili (RFC 3161); boʻsh — tizimning oʻz sinov serveri',
      'Адрес сервера штампов времени (RFC 3161); пусто — собственный тестовый сервер системы',
    ],
  };
  await seedSettingsGroup(
    knex,
    'esign',
    { uz: 'Elektron imzo', uk: 'Электрон имзо', ru: 'Электронная подпись' },
    Object.entries(esignDescriptions).map(([key, [uz, ru]]) => [key, key === 'esign.trusted_cas' && demo ? DEMO_CA_CERT_PEM : '', uz, ru]),
  );
}
