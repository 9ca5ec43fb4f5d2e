import type { Knex } from 'knex';
import type { FieldMeta } from '../api/meta/types.ts';
import { toColumnValue } from '../api/engine/sql.ts';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { ringAround } from './demo-greening.ts';
import { random } from './random.ts';

const t3 = (uz: string, ru: string) => ({ uz, uk: latinToCyrillic(uz), ru });
const j = (v: unknown) => JSON.stringify(v);
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

type FieldSeed = {
  code: string;
  caption: ReturnType<typeof t3>;
  field_kind: string;
  required?: boolean;
  min?: string;
  max?: string;
  max_length?: number;
  options?: [string, string, string][];
};

/** The folder tree and the fields each folder defines (an upper folder's fields hold for the folders under it). */
const FOLDERS: { code: string; name: ReturnType<typeof t3>; parent?: string; fields: FieldSeed[] }[] = [
  {
    code: 'WATER',
    name: t3('Suv obyektlari', 'Водные объекты'),
    fields: [
      { code: 'area_ha', caption: t3('Maydoni (ga)', 'Площадь (га)'), field_kind: 'number', required: true, min: '0', max: '100000' },
      { code: 'protected', caption: t3('Muhofaza zonasi belgilangan', 'Установлена охранная зона'), field_kind: 'boolean' },
    ],
  },
  {
    code: 'WATER-LAKES',
    parent: 'WATER',
    name: t3('Koʻllar va suv omborlari', 'Озёра и водохранилища'),
    fields: [
      { code: 'depth_m', caption: t3('Eng katta chuqurligi (m)', 'Наибольшая глубина (м)'), field_kind: 'integer', min: '0', max: '200' },
      {
        code: 'water',
        caption: t3('Suv holati', 'Состояние воды'),
        field_kind: 'select',
        required: true,
        options: [
          ['clean', 'Toza', 'Чистая'],
          ['turbid', 'Loyqa', 'Мутная'],
          ['polluted', 'Ifloslangan', 'Загрязнённая'],
        ],
      },
    ],
  },
  {
    code: 'WATER-RIVERS',
    parent: 'WATER',
    name: t3('Daryolar va kanallar', 'Реки и каналы'),
    fields: [{ code: 'bank_state', caption: t3('Qirgʻoq holati', 'Состояние берега'), field_kind: 'text', max_length: 1000 }],
  },
  {
    code: 'FOREST',
    name: t3('Oʻrmon va yashil hududlar', 'Леса и зелёные зоны'),
    fields: [
      {
        code: 'trees',
        caption: t3('Daraxtlar soni', 'Количество деревьев'),
        field_kind: 'integer',
        required: true,
        min: '0',
        max: '10000000',
      },
      {
        code: 'threats',
        caption: t3('Xavflar', 'Угрозы'),
        field_kind: 'multiselect',
        options: [
          ['felling', 'Noqonuniy kesish', 'Незаконная вырубка'],
          ['fire', 'Yongʻin', 'Пожар'],
          ['grazing', 'Mol boqish', 'Выпас скота'],
          ['waste', 'Chiqindi', 'Мусор'],
        ],
      },
      { code: 'last_fire', caption: t3('Oxirgi yongʻin sanasi', 'Дата последнего пожара'), field_kind: 'date' },
    ],
  },
  {
    code: 'WASTE',
    name: t3('Chiqindi poligonlari', 'Полигоны отходов'),
    fields: [
      {
        code: 'operator',
        caption: t3('Foydalanuvchi tashkilot', 'Эксплуатирующая организация'),
        field_kind: 'string',
        required: true,
        max_length: 300,
      },
      { code: 'fill_percent', caption: t3('Toʻlganlik (%)', 'Заполненность (%)'), field_kind: 'number', min: '0', max: '100' },
    ],
  },
];

/**
 * Control-zone and given-permit demo: the folder tree with its fields, two or three zones a region
 * with outlines near the region's centre and a few filled forms each (values that meet their
 * fields' rules), and permits of both types in every region — active, extended and terminated,
 * with their flow rows. Written only when there are no folders yet.
 */
export async function seedZonesDemo(knex: Knex, log: (s: string) => void = () => undefined): Promise<void> {
  if (!(await knex.schema.hasTable('control_zone_folders')) || (await knex('control_zone_folders').first('id'))) return;
  const rnd = random(20261125);
  const today = todayTashkent();
  const admin = (await knex('users').where({ username: 'admin' }).first('id'))?.id ?? null;
  const by = { created_by: admin, updated_by: admin };
  const regions = await knex('regions')
    .where({ is_active: true })
    .orderBy('ordering')
    .select('id', 'soato', 'name', knex.raw('centre[0] AS lng'), knex.raw('centre[1] AS lat'));
  const polygon = (ring: [number, number][]) => toColumnValue(knex, { type: 'polygon' } as FieldMeta, ring);

  await knex.transaction(async (trx) => {
    const folderIds = new Map<string, number>();
    const fieldsOf = new Map<string, FieldSeed[]>();
    for (const [i, f] of FOLDERS.entries()) {
      const [row] = await trx('control_zone_folders')
        .insert({ code: f.code, name: j(f.name), parent_id: f.parent ? folderIds.get(f.parent) : null, ordering: i, ...by })
        .returning('id');
      folderIds.set(f.code, row.id);
      fieldsOf.set(f.code, [...(f.parent ? fieldsOf.get(f.parent)! : []), ...f.fields]);
      for (const [k, d] of f.fields.entries()) {
        const [field] = await trx('control_zone_fields')
          .insert({
            folder_id: row.id,
            code: d.code,
            caption: j(d.caption),
            field_kind: d.field_kind,
            required: d.required ?? false,
            ordering: (k + 1) * 10,
            min: d.min ?? null,
            max: d.max ?? null,
            max_length: d.max_length ?? null,
            ...by,
          })
          .returning('id');
        if (d.options)
          await trx('control_zone_field_options').insert(
            d.options.map(([value, uz, ru], o) => ({ parent_id: field.id, ordering: o, value, caption: j(t3(uz, ru)) })),
          );
      }
    }
    const leaves = ['WATER-LAKES', 'WATER-RIVERS', 'FOREST', 'WASTE'];
    const valuesFor = (folder: string): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const d of fieldsOf.get(folder)!) {
        if (!d.required && rnd.next() < 0.2) continue;
        switch (d.field_kind) {
          case 'number':
            out[d.code] = Math.round(rnd.real(Number(d.min ?? 0), Math.min(Number(d.max ?? 1000), 900)) * 10) / 10;
            break;
          case 'integer':
            out[d.code] = rnd.int(Number(d.min ?? 0), Math.min(Number(d.max ?? 1000), 5000));
            break;
          case 'boolean':
            out[d.code] = rnd.next() < 0.6;
            break;
          case 'select':
            out[d.code] = rnd.pick(d.options!)[0];
            break;
          case 'multiselect':
            out[d.code] = d.options!.filter(() => rnd.next() < 0.4).map((o) => o[0]);
            break;
          case 'date':
            out[d.code] = addDays(today, -rnd.int(30, 900));
            break;
          case 'text':
            out[d.code] = rnd.pick(['Qirgʻoq mustahkamlangan', 'Qirgʻoqda chiqindi bor', 'Qirgʻoq yuvilmoqda']);
            break;
          default:
            out[d.code] = rnd.pick(['“Toza hudud” DUK', '“Ekologiya xizmati” MChJ', 'Tuman obodonlashtirish boshqarmasi']);
        }
      }
      return out;
    };
    let zones = 0;
    let fillings = 0;
    for (const [ri, r] of regions.entries()) {
      const city = (r.name?.uz ?? r.soato) as string;
      for (let z = 0; z < 2 + (ri % 2); z++) {
        const folder = leaves[(ri + z) % leaves.length];
        const folderName = FOLDERS.find((f) => f.code === folder)!.name;
        const lng = Number(r.lng) + rnd.real(-0.2, 0.2);
        const lat = Number(r.lat) + rnd.real(-0.15, 0.15);
        const [zone] = await trx('control_zones')
          .insert({
            folder_id: folderIds.get(folder),
            code: `NZ-${r.soato}-${z + 1}`,
            region_id: r.id,
            name: j(
              t3(`${city}: ${folderName.uz.toLowerCase()} №${z + 1}`, `${r.name?.ru ?? city}: ${folderName.ru.toLowerCase()} №${z + 1}`),
            ),
            address: `${city}, ${rnd.int(1, 40)}-mavze`,
            outline: polygon(ringAround(rnd, lng, lat, rnd.int(20, 400), 7)),
            is_active: true,
            ...by,
          })
          .returning('id');
        zones++;
        for (let k = 0; k < 2; k++) {
          await trx('control_zone_field_values').insert({
            zone_id: zone.id,
            region_id: r.id,
            folder_id: folderIds.get(folder),
            filled_on: addDays(today, -rnd.int(1, 300)),
            values: j(valuesFor(folder)),
            ...by,
          });
          fillings++;
        }
      }
    }
    log(`demo: ${zones} control zones in ${FOLDERS.length} folders, ${fillings} filled forms`);

    const types = await trx('given_permit_types').orderBy('id').pluck('id');
    const subjects = await trx('subjects').orderBy('id').select('id', 'region_id', 'name');
    let permits = 0;
    for (const [ri, r] of regions.entries()) {
      const ofRegion = subjects.filter((s: { region_id: number }) => Number(s.region_id) === Number(r.id));
      for (let p = 0; p < 4; p++) {
        const issued = addDays(today, -rnd.int(60, 700));
        const subject = p % 2 === 0 && ofRegion.length ? rnd.pick(ofRegion) : null;
        const validTo = addDays(issued, 365);
        const [permit] = await trx('given_permits')
          .insert({
            type_id: types.length ? types[(ri + p) % types.length] : null,
            number: `RN-${r.soato}-${String(p + 1).padStart(3, '0')}`,
            issued_on: issued,
            holder_kind: subject ? 'subject' : 'person',
            subject_id: subject?.id ?? null,
            person_name: subject
              ? null
              : rnd.pick(['Karimov Anvar', 'Yusupova Dilnoza', 'Saidov Jasur', 'Rahimova Malika', 'Nazarov Rustam', 'Ergasheva Gulnora']),
            region_id: r.id,
            object: rnd.pick(['Suv olish inshooti', 'Ishlab chiqarish sexi', 'Qurilish maydoni', 'Ov xoʻjaligi', 'Baliqchilik hovuzi']),
            valid_from: issued,
            valid_to: validTo,
            status: 'active',
            ...by,
          })
          .returning('id');
        permits++;
        if (p === 1) {
          const extended = addDays(validTo, 365);
          await trx('given_permits').where({ id: permit.id }).update({ valid_to: extended, version: 2 });
          await trx('flows').insert({
            entity: 'given-permits',
            record_id: permit.id,
            action: 'extend-validity',
            from_state: 'active',
            to_state: 'active',
            comment: 'Egasining arizasi asosida',
            user_id: admin,
          });
        }
        if (p === 3) {
          const on = addDays(issued, rnd.int(30, 200));
          await trx('given_permits')
            .where({ id: permit.id })
            .update({ status: 'terminated', terminated_on: on < today ? on : today, version: 2 });
          await trx('flows').insert({
            entity: 'given-permits',
            record_id: permit.id,
            action: 'terminate-validity',
            from_state: 'active',
            to_state: 'terminated',
            comment: 'Ruxsatnoma shartlari buzilgan',
            user_id: admin,
          });
        }
      }
    }
    log(`demo: ${permits} given permits`);
  });
}
