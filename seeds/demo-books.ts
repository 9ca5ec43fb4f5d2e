import type { Knex } from 'knex';
import { storeBytes } from '../api/engine/files.ts';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';
import { todayTashkent } from '../api/meta/today.ts';
import { addDays } from '../api/domain/dates.ts';
import { random } from './random.ts';

/**
 * The demo's rows for the screens the rest of the demo leaves empty (issue 32): charity
 * foundations, practical applications, expertise requests, main organisations with branches,
 * trees the public added (and the population's plan execution they feed), the operator's chats and
 * the files screen. Each part is written once, when its table is empty. The foundations are real
 * ones of Uzbekistan; their INNs and accounts are the demo's own, not theirs.
 */
const t3 = (uz: string, ru: string) => JSON.stringify({ uz, uk: latinToCyrillic(uz), ru });

const FOUNDATIONS: { uz: string; ru: string; address: string }[] = [
  {
    uz: '«Mahalla» xayriya jamoat fondi',
    ru: 'Благотворительный общественный фонд «Махалла»',
    address: 'Toshkent sh., Mustaqillik maydoni, 5',
  },
  { uz: '«Nuroniy» jamgʻarmasi', ru: 'Фонд «Нуроний»', address: 'Toshkent sh., Navoiy koʻchasi, 30' },
  {
    uz: '«Sen yolgʻiz emassan» respublika jamoat fondi',
    ru: 'Республиканский общественный фонд «Ты не одинок»',
    address: 'Toshkent sh., Shayxontohur tumani, Zarqaynar koʻchasi, 3',
  },
  {
    uz: '«Soglom avlod uchun» xalqaro xayriya jamgʻarmasi',
    ru: 'Международный благотворительный фонд «Соглом авлод учун»',
    address: 'Toshkent sh., Yunusobod tumani, Amir Temur koʻchasi, 107',
  },
  {
    uz: '«Ekosan» xalqaro ekologiya va salomatlik jamgʻarmasi',
    ru: 'Международный фонд экологии и здоровья «Экосан»',
    address: 'Toshkent sh., Mirobod tumani, Afrosiyob koʻchasi, 12',
  },
];

const APPLICATIONS: { uz: string; ru: string; duz: string; dru: string }[] = [
  {
    uz: 'Koʻchat ekish va parvarishlash boʻyicha amaliy tavsiyalar',
    ru: 'Практические рекомендации по посадке и уходу за саженцами',
    duz: 'Ekish muddatlari, chuqur oʻlchami, sugʻorish meʼyorlari va birinchi yilgi parvarish.',
    dru: 'Сроки посадки, размер ямы, нормы полива и уход в первый год.',
  },
  {
    uz: 'Tomchilatib sugʻorish tizimini oʻrnatish',
    ru: 'Установка системы капельного орошения',
    duz: 'Yashil hududlarda suvni tejaydigan sugʻorish tizimini loyihalash va oʻrnatish tartibi.',
    dru: 'Порядок проектирования и установки водосберегающего орошения на зелёных территориях.',
  },
  {
    uz: 'Chiqindilarni manbada saralash',
    ru: 'Сортировка отходов у источника',
    duz: 'Korxona va mahallada chiqindilarni turlarga ajratib yigʻishni tashkil etish.',
    dru: 'Организация раздельного сбора отходов на предприятии и в махалле.',
  },
  {
    uz: 'Yashil hududlarni xatlovdan oʻtkazish',
    ru: 'Инвентаризация зелёных насаждений',
    duz: 'Daraxtlarni oʻlchash, pasportlashtirish va xaritaga tushirish boʻyicha qoʻllanma.',
    dru: 'Руководство по обмеру, паспортизации и нанесению деревьев на карту.',
  },
  {
    uz: 'Shoʻrlangan yerlarda daraxt turlarini tanlash',
    ru: 'Подбор древесных пород для засолённых земель',
    duz: 'Orolboʻyi va choʻl hududlari uchun saksovul, cherkez va jiyda ekish tajribasi.',
    dru: 'Опыт посадки саксаула, черкеза и лоха в Приаралье и пустынных районах.',
  },
];

const EXPERTISE_OBJECTS = [
  'Sement zavodining yangi pechi',
  'Oqova suv tozalash inshooti',
  'Qattiq maishiy chiqindilar poligoni',
  'Issiqlik elektr stansiyasi bloki',
  'Avtomobilga yonilgʻi quyish shoxobchasi',
  'Toʻqimachilik fabrikasining boʻyoq sexi',
  'Parrandachilik fermasi',
  'Gʻisht zavodi',
];

const NAMES: [string, string][] = [
  ['Aziza', 'Karimova'],
  ['Bekzod', 'Toʻxtayev'],
  ['Dilshod', 'Rashidov'],
  ['Gulnora', 'Saidova'],
  ['Jasur', 'Qodirov'],
  ['Kamola', 'Ergasheva'],
  ['Laziz', 'Nurmatov'],
  ['Madina', 'Yoʻldosheva'],
  ['Nodir', 'Abdullayev'],
  ['Oygul', 'Hasanova'],
];

/** A 1×1 PNG and a one-page PDF: the demo's photo and document. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

const empty = async (knex: Knex, table: string) => (await knex.schema.hasTable(table)) && !(await knex(table).first('id'));

export async function seedBooksDemo(knex: Knex, log: (s: string) => void): Promise<void> {
  const rnd = random(20261205);
  const today = todayTashkent();
  const year = Number(today.slice(0, 4));
  const admin = (await knex('users').whereRaw('lower(username) = ?', ['admin']).first('id'))?.id ?? null;

  if (await empty(knex, 'charity_foundation')) {
    await knex('charity_foundation').insert(
      FOUNDATIONS.map((f, i) => ({
        name: t3(f.uz, f.ru),
        inn: String(205_000_101 + i * 1_111),
        mfo: '00014',
        account: `2021200090${String(1_000_000 + i * 7_919).padStart(10, '0')}`,
        address: f.address,
        phone: `71${String(2_000_000 + i * 13_131).padStart(7, '0')}`,
        is_active: true,
      })),
    );
    log(`demo: ${FOUNDATIONS.length} charity foundations`);
  }

  if (await empty(knex, 'practical_applications')) {
    await knex('practical_applications').insert(
      APPLICATIONS.map((a, i) => ({
        name: t3(a.uz, a.ru),
        description: t3(a.duz, a.dru),
        published_on: addDays(today, -30 * (i + 1)),
        is_active: true,
      })),
    );
    log(`demo: ${APPLICATIONS.length} practical applications`);
  }

  const subjects = await knex('subjects').whereNull('parent_id').orderBy('id').limit(40).select('id', 'region_id', 'category_id');
  if ((await empty(knex, 'expertise_requests')) && subjects.length) {
    const pdf = await storeBytes(knex, { name: 'ekspertiza-xulosasi.pdf', mime: 'application/pdf', body: PDF, userId: admin });
    const statuses = ['new', 'in_review', 'approved', 'rejected'];
    await knex('expertise_requests').insert(
      EXPERTISE_OBJECTS.map((object_name, i) => {
        const s = subjects[(i * 3) % subjects.length];
        const status = statuses[i % statuses.length];
        return {
          subject_id: s.id,
          region_id: s.region_id,
          category_id: s.category_id,
          number: `EK-${year}-${String(i + 1).padStart(3, '0')}`,
          request_date: addDays(today, -rnd.int(5, 200)),
          object_name,
          status,
          conclusion:
            status === 'approved'
              ? 'Loyiha ekologik talablarga mos.'
              : status === 'rejected'
                ? 'Chang-gaz tozalash uskunalari loyihada yoʻq.'
                : null,
          files: status === 'approved' ? knex.raw('ARRAY[?]::bigint[]', [pdf.id]) : null,
          created_by: admin,
          updated_by: admin,
        };
      }),
    );
    log(`demo: ${EXPERTISE_OBJECTS.length} expertise requests`);
  }

  // three main organisations with two branches each, in their own region (as "attach as branch" leaves them)
  if (!(await knex('subjects').whereNotNull('parent_id').first('id')) && subjects.length > 12) {
    let made = 0;
    for (const main of subjects.slice(0, 3)) {
      const branches = subjects
        .slice(3)
        .filter((s: { id: number; region_id: number }) => s.region_id === main.region_id && s.id !== main.id)
        .slice(0, 2);
      for (const b of branches) {
        await knex('subjects').where({ id: b.id }).update({ parent_id: main.id });
        made++;
      }
    }
    log(`demo: ${made} subjects made branches`);
  }

  // the trees the public added on the site, this year and last, in each state of their review
  if (await empty(knex, 'public_plantings')) {
    const regions = await knex('regions')
      .where({ is_active: true })
      .orderBy('ordering')
      .select('id', knex.raw('centre[0] AS lng'), knex.raw('centre[1] AS lat'));
    const species = await knex('tree_species').orderBy('id').limit(12).pluck('id');
    const photo = await storeBytes(knex, { name: 'koʻchat.png', mime: 'image/png', body: PNG, userId: null });
    const rows = [];
    for (let i = 0; i < 60 && regions.length && species.length; i++) {
      const r = regions[i % regions.length];
      const [first_name, last_name] = NAMES[i % NAMES.length];
      const status = i % 5 === 4 ? 'rejected' : i % 3 === 2 ? 'pending' : 'approved';
      const planted_on = i % 4 === 3 ? `${year - 1}-${String(3 + (i % 8)).padStart(2, '0')}-15` : addDays(today, -rnd.int(0, 60));
      rows.push({
        first_name,
        last_name,
        species_id: species[i % species.length],
        count: rnd.int(1, 25),
        planted_on,
        status,
        location: knex.raw('point(?, ?)', [
          Number(r.lng ?? 69.24) + (rnd.next() - 0.5) * 0.1,
          Number(r.lat ?? 41.3) + (rnd.next() - 0.5) * 0.1,
        ]),
        region_id: r.id,
        photo: i % 6 === 0 ? photo.id : null,
        ip: `10.20.${i % 250}.${(i * 7) % 250}`,
      });
    }
    if (rows.length) await knex('public_plantings').insert(rows);
    log(`demo: ${rows.length} trees from the public`);
  }

  // the operator's chats: one open, answered; one closed
  if (await empty(knex, 'chats')) {
    const chats: { status: string; visitor_name: string; lang: string; lines: [string, string][] }[] = [
      {
        status: 'open',
        visitor_name: 'Shahnoza',
        lang: 'uz',
        lines: [
          ['visitor', 'Assalomu alaykum! Mahallamizda daraxt kesilmoqda, qayerga murojaat qilsam boʻladi?'],
          ['operator', 'Vaalaykum assalom! Manzilni yozing, inspektorimiz bugun borib koʻradi.'],
          ['visitor', 'Chilonzor tumani, 9-kvartal, 14-uy oldida.'],
        ],
      },
      {
        status: 'closed',
        visitor_name: 'Игорь',
        lang: 'ru',
        lines: [
          ['visitor', 'Здравствуйте, как добавить посаженное дерево на карту?'],
          ['operator', 'Откройте на сайте раздел «Посадить дерево», укажите вид, количество и место на карте.'],
          ['visitor', 'Спасибо, получилось!'],
        ],
      },
    ];
    for (const [i, c] of chats.entries()) {
      const at = new Date(Date.now() - (i + 1) * 3_600_000);
      const [chat] = await knex('chats')
        .insert({
          status: c.status,
          visitor_name: c.visitor_name,
          lang: c.lang,
          ip: `10.30.0.${i + 1}`,
          created_at: at,
          updated_at: at,
          closed_at: c.status === 'closed' ? new Date(at.getTime() + 1_200_000) : null,
          closed_by: c.status === 'closed' ? admin : null,
        })
        .returning('id');
      await knex('messages').insert(
        c.lines.map(([author, body], j) => ({
          chat_id: chat.id,
          author,
          body,
          created_at: new Date(at.getTime() + j * 120_000),
          updated_at: new Date(at.getTime() + j * 120_000),
        })),
      );
    }
    log(`demo: ${chats.length} operator chats`);
  }
}
