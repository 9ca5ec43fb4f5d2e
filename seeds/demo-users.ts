import type { Knex } from 'knex';
import { entityReads } from './entity-reads.ts';
import { hashPassword } from '../api/auth/password.ts';
import { PENALTY_HOOKS } from '../api/modules/fund/penalties.ts';
import type { HookContext } from '../api/modules/types.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { toColumnValue } from '../api/engine/sql.ts';
import type { FieldMeta } from '../api/meta/types.ts';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { SYSTEM_ROLES, type RoleScope } from './roles.ts';
import { ringAround } from './demo-greening.ts';
import { random } from './random.ts';

export type UserKind = 'staff' | 'mvd' | 'population' | 'subject' | 'branch';

export interface DemoUser {
  username: string;
  /** a role code of seeds/roles.ts */
  role: string;
  /** more roles the user holds besides `role` (of the same scope) */
  also?: string[];
  fio: string;
  kind: UserKind;
}

/**
 * One demo user of each role but the administrator (`admin`, created by the seed itself), all with
 * the demo password. Scoped roles are bound to one demo region: the first region (by id) whose
 * subjects have a report in state `new` and another in state `sent`; the subject user to the
 * region's subject with a `new` report and the most payments; the branch user to a branch of that
 * region (one is made, with this year's plans, when the region has none).
 */
export const DEMO_USERS: DemoUser[] = [
  { username: 'inspector', role: 'inspector', fio: 'Karimov Jasur Akmalovich', kind: 'staff' },
  { username: 'ecology', role: 'ecology_staff', fio: 'Yusupova Dilnoza Rustamovna', kind: 'staff' },
  { username: 'shtab', role: 'headquarters', fio: 'Rahimov Bahodir Odilovich', kind: 'staff' },
  { username: 'confirming', role: 'confirming_staff', fio: 'Toshmatova Nilufar Alisherovna', kind: 'staff' },
  { username: 'population', role: 'population', fio: 'Qodirov Sardor Baxtiyorovich', kind: 'population' },
  { username: 'police', role: 'police', fio: 'Mirzayev Otabek Shuhratovich', kind: 'mvd' },
  { username: 'fund', role: 'fund', fio: 'Ergasheva Malika Farhodovna', kind: 'staff' },
  { username: 'branch', role: 'branch', fio: 'Nazarov Ulugʻbek Ravshanovich', kind: 'branch' },
  { username: 'subject', role: 'subject', fio: '', kind: 'subject' },
  // the field app's user (docs/field-app.md): an inspector who also keeps tree passports, so every
  // field form is theirs — offences, planting inspections, felling violations and tree passports
  { username: 'field', role: 'inspector', also: ['ecology_staff'], fio: 'Sobirov Aziz Karimovich', kind: 'staff' },
];

/** Every role a demo user holds. */
export const rolesOf = (u: DemoUser): string[] => [u.role, ...(u.also ?? [])];

export const roleScope = (code: string): RoleScope => SYSTEM_ROLES.find((r) => r.code === code)?.scope ?? 'none';

interface DemoPlace {
  regionId: number;
  regionName: string;
  regionNames: { uz: string; uk: string; ru: string };
  soato: string;
  subject: { id: number; name: string; director: string | null };
}

/** The demo region and subject the scoped demo users are bound to, or null when the demo data has none. */
export async function demoPlace(knex: Knex): Promise<DemoPlace | null> {
  const region = await knex('subject_reports')
    .groupBy('region_id')
    .orderBy('region_id')
    .havingRaw("bool_or(status = 'new') and bool_or(status = 'sent')")
    .first('region_id');
  if (!region) return null;
  const r = await knex('regions').where({ id: region.region_id }).first('id', 'soato', 'name');
  const subject = await knex('subjects as s')
    .where('s.region_id', r.id)
    .whereExists(knex('subject_reports as r').whereRaw('r.subject_id = s.id').where('r.status', 'new'))
    .orderByRaw('(select count(*) from payments p where p.subject_id = s.id) desc')
    .orderBy('s.id')
    .first('s.id', 's.name', 's.director');
  if (!subject) return null;
  const names = { uz: r.name?.uz ?? r.soato, uk: r.name?.uk ?? r.name?.uz ?? r.soato, ru: r.name?.ru ?? r.name?.uz ?? r.soato };
  return {
    regionId: Number(r.id),
    regionName: names.uz,
    regionNames: names,
    soato: r.soato,
    subject: { id: Number(subject.id), name: subject.name, director: subject.director },
  };
}

/**
 * The demo users, each with the demo password and their role, written only if missing (a user of
 * that name is left as it is). Also makes, when the demo region has none yet, its branch with plans,
 * an inspection stack with acts, a protocol and penya for the demo subject, and a place where its
 * residents may plant: what the branch, inspector, subject and population users open first.
 */
export async function seedDemoUsers(knex: Knex, password: string, log: (s: string) => void = () => undefined): Promise<void> {
  const existing = new Set((await knex('users').select('username')).map((u: { username: string }) => u.username.toLowerCase()));
  const missing = DEMO_USERS.filter((u) => !existing.has(u.username.toLowerCase()));
  if (!missing.length) return;
  const place = await demoPlace(knex);
  if (!place) {
    log('demo users: no demo region with reports; not created');
    return;
  }
  const roles = new Map<string, number>(
    (await knex('roles').select('id', 'code')).map((r: { id: number; code: string }) => [r.code, Number(r.id)]),
  );
  const admin = (await knex('users').whereRaw('lower(username) = ?', ['admin']).first('id'))?.id ?? null;
  const hash = await hashPassword(password);
  await knex.transaction(async (trx) => {
    const branchId = await demoBranch(trx, place, admin);
    await demoInspections(trx, place, admin);
    await demoResidentArea(trx, place, admin);
    for (const u of missing) {
      const scope = roleScope(u.role);
      const row: Record<string, unknown> = {
        username: u.username,
        password: hash,
        fio: u.fio || place.subject.director || place.subject.name,
        lang_code: 'uz',
        kind: u.kind,
        region_id: scope === 'region' ? place.regionId : null,
        subject_id: scope === 'subject' ? place.subject.id : null,
        branch_id: scope === 'branch' ? branchId : null,
        organ: u.kind === 'mvd' ? `${place.regionName} IIB` : null,
      };
      const [user] = await trx('users').insert(row).returning('id');
      for (const code of rolesOf(u)) {
        const role = roles.get(code);
        if (role) await trx('user_roles').insert({ user_id: user.id, role_id: role });
      }
    }
  });
  log(
    `demo users: ${missing.map((u) => u.username).join(', ')} (demo password), region ${place.regionName}, subject ${place.subject.name}`,
  );
}

/** The demo region's fund branch (made when the region has none) with this year's plans, if it has none. */
async function demoBranch(trx: Knex.Transaction, place: DemoPlace, admin: number | null): Promise<number> {
  let branch = await trx('branches').where({ region_id: place.regionId }).orderBy('id').first('id');
  if (!branch) {
    [branch] = await trx('branches')
      .insert({
        code: `F-${place.soato}`,
        region_id: place.regionId,
        is_active: true,
        phone: '712000000',
        address: `${place.regionName}, markaz`,
        name: JSON.stringify({
          uz: `${place.regionNames.uz} filiali`,
          uk: `${place.regionNames.uk} филиали`,
          ru: `Филиал: ${place.regionNames.ru}`,
        }),
        created_by: admin,
        updated_by: admin,
      })
      .returning('id');
  }
  const branchId = Number(branch.id);
  if (!(await trx('branch_plans').where({ branch_id: branchId }).first('id'))) {
    const year = Number(todayTashkent().slice(0, 4));
    await trx('branch_plans').insert(
      ['q1', 'q2', 'q3', 'q4', 'year'].map((period, i) => ({
        branch_id: branchId,
        region_id: place.regionId,
        year,
        period,
        plan_amount: period === 'year' ? '1200000000.00' : `${(250 + i * 25) * 1000000}.00`,
        created_by: admin,
        updated_by: admin,
      })),
    );
  }
  return branchId;
}

/** An inspection stack of the demo region with acts of three of its subjects, a protocol stack with a protocol and a penya row for the demo subject. */
async function demoInspections(trx: Knex.Transaction, place: DemoPlace, admin: number | null): Promise<void> {
  // the demo subject's own inspection (other demo data may already have stacks in its region)
  if (await trx('penya').where({ subject_id: place.subject.id }).first('id')) return;
  const category = await trx('stack_akt_categories').orderBy('id').first('id');
  const aktType = await trx('akt_types').orderBy('id').first('id');
  if (!category || !aktType) return;
  const today = todayTashkent();
  const year = Number(today.slice(0, 4)) - 1;
  const by = { created_by: admin, updated_by: admin };
  const [stack] = await trx('akt_stacks')
    .insert({
      number: `DA-${year}-${place.soato}`,
      stack_date: `${year}-05-10`,
      category_id: category.id,
      region_id: place.regionId,
      note: 'Rejali tekshiruvlar',
      ...by,
    })
    .returning('id');
  const subjects = [
    place.subject.id,
    ...(await trx('subjects').where({ region_id: place.regionId }).whereNot({ id: place.subject.id }).orderBy('id').limit(2).pluck('id')),
  ];
  await trx('akts').insert(
    subjects.map((subjectId, i) => ({
      stack_id: stack.id,
      subject_id: subjectId,
      region_id: place.regionId,
      akt_type_id: aktType.id,
      number: `${i + 1}`,
      akt_date: `${year}-05-${12 + i}`,
      amount: `${(i + 1) * 1500000}.00`,
      inspector: DEMO_USERS[0].fio,
      description: 'Chiqindilarni saqlash qoidalari tekshirildi',
      ...by,
    })),
  );
  const protocolCategory = await trx('stack_protocol_categories').orderBy('id').first('id');
  if (!protocolCategory) return;
  const [protocolStack] = await trx('protocol_stacks')
    .insert({
      number: `DB-${year}-${place.soato}`,
      stack_date: `${year}-05-12`,
      category_id: protocolCategory.id,
      region_id: place.regionId,
      note: 'Rejali tekshiruvlar',
      ...by,
    })
    .returning('id');
  const [protocol] = await trx('protocols')
    .insert({
      stack_id: protocolStack.id,
      subject_id: place.subject.id,
      region_id: place.regionId,
      series: 'EK',
      number: '1',
      protocol_date: `${year}-05-12`,
      fine_id: (await trx('fine').where({ code: 'MJtK-91-1' }).first('id'))?.id ?? null,
      fine_multiple: '2',
      offender: place.subject.director,
      description: 'Chiqindilarni belgilanmagan joyda saqlash',
      ...by,
    })
    .returning('id');
  const [penya] = await trx('penya')
    .insert({
      subject_id: place.subject.id,
      region_id: place.regionId,
      debt: '3000000.00',
      due_date: `${year}-07-25`,
      as_of: `${year}-12-31`,
      daily_rate: '0.033',
      ...by,
    })
    .returning('id');
  // the same rules the engine's writes run: the hooks compute, the demo data takes what they computed
  const compute = async (entity: string, table: string, id: number, hook: string) => {
    const row = await trx(table).where({ id }).first();
    const result = await PENALTY_HOOKS[hook]({ trx, row, entity: { name: entity }, repo: entityReads(trx) } as unknown as HookContext);
    if (result) await trx(table).where({ id }).update(result);
  };
  await compute('subject-protocols', 'protocols', protocol.id, 'protocols.fine');
  await compute('penya', 'penya', penya.id, 'penya.calculate');
}

/** A place of the demo region where residents may plant (the population user's one list), if it has none. */
async function demoResidentArea(trx: Knex.Transaction, place: DemoPlace, admin: number | null): Promise<void> {
  if (await trx('resident_planting_areas').where({ region_id: place.regionId }).first('id')) return;
  const centre = await trx('regions').where({ id: place.regionId }).first(trx.raw('centre[0] AS lng'), trx.raw('centre[1] AS lat'));
  if (centre?.lng == null) return;
  const c = { lng: Number(centre.lng) + 0.02, lat: Number(centre.lat) - 0.015 };
  const ha = 2.5;
  const species = await trx('tree_species').where({ is_active: true }).orderBy('id').limit(3).pluck('id');
  const col = (type: string, v: unknown) => toColumnValue(trx, { type } as FieldMeta, v);
  const name = `Aholi ekishi uchun maydon — ${place.regionName}`;
  await trx('resident_planting_areas').insert({
    name: JSON.stringify({ uz: name, uk: latinToCyrillic(name), ru: `Участок для посадок жителей — ${place.regionNames.ru}` }),
    region_id: place.regionId,
    address: `${place.regionName}, markaz`,
    shape: col('polygon', ringAround(random(place.regionId), c.lng, c.lat, ha, 6)),
    location: col('point', c),
    area_ha: ha.toFixed(4),
    capacity: 1000,
    planted: 120,
    recommended_species: col('refs', species),
    status: 'open',
    contact_phone: '712000001',
    info: JSON.stringify({
      uz: 'Koʻchatingizni olib keling: joy, suv va maslahat beriladi.',
      uk: latinToCyrillic('Koʻchatingizni olib keling: joy, suv va maslahat beriladi.'),
      ru: 'Приносите свой саженец: место, вода и консультация предоставляются.',
    }),
    created_by: admin,
    updated_by: admin,
  });
}
