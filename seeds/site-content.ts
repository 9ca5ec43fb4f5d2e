import type { Knex } from 'knex';
import type { MetaModel } from '../api/meta/types.ts';

/**
 * The public site's menu, sections and texts (docs/site-content.md): seeded once, when the books
 * are empty, with what the site showed when its texts were fixed in code; edited in the back-office
 * from then on (the seed never overwrites a row). Rich texts are HTML of the editor's allow-list.
 */
type T = { uz: string; uk: string; ru: string };
const t = (uz: string, uk: string, ru: string): string => JSON.stringify({ uz, uk, ru } satisfies T);
const p = (...paragraphs: string[]) => paragraphs.map((x) => `<p>${x}</p>`).join('');

export const SITE_SECTIONS: { code: string; name: string; ordering: number }[] = [
  { code: 'about', name: t('Loyiha haqida', 'Лойиҳа ҳақида', 'О проекте'), ordering: 10 },
  { code: 'contacts', name: t('Ishonch telefoni va aloqa', 'Ишонч телефони ва алоқа', 'Горячая линия и контакты'), ordering: 20 },
  { code: 'landing', name: t('Bosh sahifa', 'Бош саҳифа', 'Главная'), ordering: 30 },
];

export const SITE_CONTENTS: { section: string; code: string; title: string; body: string; ordering: number }[] = [
  {
    section: 'about',
    code: 'about-project',
    ordering: 10,
    title: t('«Yashil makon» umummilliy loyihasi', '«Яшил макон» умуммиллий лойиҳаси', 'Общенациональный проект «Яшил макон»'),
    body: JSON.stringify({
      uz: p(
        '«Yashil makon» — Oʻzbekiston Respublikasi Prezidentining 2021-yil 30-dekabrdagi PF-46-son Farmoni bilan boshlangan umummilliy loyiha. Uning maqsadi — mamlakatni koʻkalamzorlashtirish ishlarini jadallashtirish, daraxtlarni asrash va shahar hamda qishloqlarda yashil hududlarni koʻpaytirish.',
        'Loyiha doirasida butun mamlakat boʻylab har yili 200 million tup daraxt va buta ekish koʻzda tutilgan. Ekishlarda hududlar, vazirlik va idoralar, tashkilotlar, oʻrmon xoʻjaliklari, volontyorlar va aholi ishtirok etadi.',
      ),
      uk: p(
        '«Яшил макон» — Ўзбекистон Республикаси Президентининг 2021 йил 30 декабрдаги ПФ-46-сон Фармони билан бошланган умуммиллий лойиҳа. Унинг мақсади — мамлакатни кўкаламзорлаштириш ишларини жадаллаштириш, дарахтларни асраш ва шаҳар ҳамда қишлоқларда яшил ҳудудларни кўпайтириш.',
        'Лойиҳа доирасида бутун мамлакат бўйлаб ҳар йили 200 миллион туп дарахт ва бута экиш кўзда тутилган. Экишларда ҳудудлар, вазирлик ва идоралар, ташкилотлар, ўрмон хўжаликлари, волонтёрлар ва аҳоли иштирок этади.',
      ),
      ru: p(
        '«Яшил макон» («Зелёное пространство») — общенациональный проект, начатый Указом Президента Республики Узбекистан от 30 декабря 2021 года № УП-46. Его цель — ускорить озеленение страны, сберечь деревья и увеличить зелёные зоны в городах и сёлах.',
        'В рамках проекта по всей стране ежегодно предусмотрена посадка 200 миллионов деревьев и кустарников. В посадках участвуют регионы, министерства и ведомства, организации, лесные хозяйства, волонтёры и жители.',
      ),
    }),
  },
  {
    section: 'about',
    code: 'about-site',
    ordering: 20,
    title: t('Ushbu sayt nimani koʻrsatadi', 'Ушбу сайт нимани кўрсатади', 'Что показывает этот сайт'),
    body: JSON.stringify({
      uz: p(
        'Sayt loyiha natijalarini ochiq koʻrsatadi: yil davomida ekilgan daraxtlar soni va yillik maqsadning bajarilishi, daraxtlar xaritasi va har bir ekishning pasporti, hududlar, daraxt turlari va tashkilotlar boʻyicha statistika, bogʻlar va parklar, daraxt kesishga berilgan ruxsatnomalar hamda noqonuniy kesish holatlari.',
        'Daraxt ekdingizmi? «Men daraxt ekdim» shakli orqali xabar bering: moderator tekshirgach, daraxtingiz xaritada va statistikada koʻrinadi. Aholi daraxt ekishi mumkin boʻlgan hududlar alohida sahifada koʻrsatilgan.',
      ),
      uk: p(
        'Сайт лойиҳа натижаларини очиқ кўрсатади: йил давомида экилган дарахтлар сони ва йиллик мақсаднинг бажарилиши, дарахтлар харитаси ва ҳар бир экишнинг паспорти, ҳудудлар, дарахт турлари ва ташкилотлар бўйича статистика, боғлар ва парклар, дарахт кесишга берилган рухсатномалар ҳамда ноқонуний кесиш ҳолатлари.',
        'Дарахт экдингизми? «Мен дарахт экдим» шакли орқали хабар беринг: модератор текширгач, дарахтингиз харитада ва статистикада кўринади. Аҳоли дарахт экиши мумкин бўлган ҳудудлар алоҳида саҳифада кўрсатилган.',
      ),
      ru: p(
        'Сайт открыто показывает результаты проекта: число деревьев, посаженных за год, и выполнение годовой цели, карту деревьев и паспорт каждой посадки, статистику по регионам, породам деревьев и организациям, сады и парки, разрешения на вырубку деревьев и случаи незаконной вырубки.',
        'Посадили дерево? Сообщите через форму «Я посадил дерево»: после проверки модератором ваше дерево появится на карте и в статистике. Территории, где жители могут сажать деревья, показаны на отдельной странице.',
      ),
    }),
  },
  {
    section: 'about',
    code: 'about-decree',
    ordering: 30,
    title: t('', '', ''),
    body: JSON.stringify({
      uz: p(
        'Farmonning rasmiy matni Oʻzbekiston Respublikasi Qonunchilik maʼlumotlari milliy bazasida eʼlon qilingan: <a href="https://lex.uz" rel="noopener noreferrer">lex.uz</a>',
      ),
      uk: p(
        'Фармоннинг расмий матни Ўзбекистон Республикаси Қонунчилик маълумотлари миллий базасида эълон қилинган: <a href="https://lex.uz" rel="noopener noreferrer">lex.uz</a>',
      ),
      ru: p(
        'Официальный текст указа опубликован в Национальной базе данных законодательства Республики Узбекистан: <a href="https://lex.uz" rel="noopener noreferrer">lex.uz</a>',
      ),
    }),
  },
  {
    section: 'contacts',
    code: 'contacts-hotline',
    ordering: 10,
    title: t('Ishonch telefoni', 'Ишонч телефони', 'Горячая линия'),
    body: JSON.stringify({
      uz: p('Noqonuniy daraxt kesish holatlari, koʻkalamzorlashtirish va sayt ishlashi boʻyicha qoʻngʻiroq qiling.'),
      uk: p('Ноқонуний дарахт кесиш ҳолатлари, кўкаламзорлаштириш ва сайт ишлаши бўйича қўнғироқ қилинг.'),
      ru: p('Звоните по вопросам незаконной вырубки, озеленения и работы сайта.'),
    }),
  },
  {
    section: 'contacts',
    code: 'contacts-write',
    ordering: 20,
    title: t('Elektron pochta', 'Электрон почта', 'Электронная почта'),
    body: JSON.stringify({
      uz: p('Yozma murojaatlar elektron pochta orqali qabul qilinadi.'),
      uk: p('Ёзма мурожаатлар электрон почта орқали қабул қилинади.'),
      ru: p('Письменные обращения принимаются по электронной почте.'),
    }),
  },
  {
    section: 'landing',
    code: 'landing-suggest',
    ordering: 10,
    title: t('Taklifingiz bormi?', 'Таклифингиз борми?', 'Есть предложение?'),
    body: JSON.stringify({
      uz: p(
        'Koʻkalamzorlashtirish, daraxtlarni asrash yoki sayt ishi boʻyicha taklif va murojaatlaringizni yuboring — mutaxassislar javob beradi.',
      ),
      uk: p('Кўкаламзорлаштириш, дарахтларни асраш ёки сайт иши бўйича таклиф ва мурожаатларингизни юборинг — мутахассислар жавоб беради.'),
      ru: p('Присылайте предложения и обращения об озеленении, сохранении деревьев или работе сайта — специалисты ответят.'),
    }),
  },
];

/** The public site's menu as it was fixed in code, plus the suggestion form. */
export const SITE_MENU: [group: string, path: string, uz: string, uk: string, ru: string][] = [
  ['main', '/', 'Bosh sahifa', 'Бош саҳифа', 'Главная'],
  ['main', '/map', 'Daraxtlar xaritasi', 'Дарахтлар харитаси', 'Карта деревьев'],
  ['main', '/news', 'Yangiliklar', 'Янгиликлар', 'Новости'],
  ['main', '/about', 'Loyiha haqida', 'Лойиҳа ҳақида', 'О проекте'],
  ['main', '/contacts', 'Ishonch telefoni va aloqa', 'Ишонч телефони ва алоқа', 'Горячая линия и контакты'],
  ['main', '/login', 'Kirish', 'Кириш', 'Вход'],
  [
    'statistics',
    '/region-plantings-statistics',
    'Hududlar kesimida ekilgan daraxtlar',
    'Ҳудудлар кесимида экилган дарахтлар',
    'Посадки по регионам',
  ],
  ['statistics', '/trees-types-statistics', 'Daraxt turlari boʻyicha', 'Дарахт турлари бўйича', 'По видам деревьев'],
  [
    'statistics',
    '/region-trees-types-statistics',
    'Hududlar kesimida daraxt turlari',
    'Ҳудудлар кесимида дарахт турлари',
    'Виды деревьев по регионам',
  ],
  [
    'statistics',
    '/to-do-pantings-statistics',
    'Ekish rejasi va uning bajarilishi',
    'Экиш режаси ва унинг бажарилиши',
    'План посадок и его выполнение',
  ],
  [
    'statistics',
    '/region-ministries-statistics',
    'Vazirlik va idoralar kesimida',
    'Вазирлик ва идоралар кесимида',
    'По министерствам и ведомствам',
  ],
  [
    'statistics',
    '/region-inventories-statistics',
    'Hududlar boʻyicha xatlov (inventarizatsiya)',
    'Ҳудудлар бўйича хатлов (инвентаризация)',
    'Инвентаризация по регионам',
  ],
  [
    'statistics',
    '/eco-info-by-regions-statistics',
    'Hududlar boʻyicha ekologik maʼlumotlar',
    'Ҳудудлар бўйича экологик маълумотлар',
    'Экологическая информация по регионам',
  ],
  ['statistics', '/forestry-perort-statistics', 'Oʻrmon xoʻjaliklari hisoboti', 'Ўрмон хўжаликлари ҳисоботи', 'Отчёт лесных хозяйств'],
  ['statistics', '/irrigation-statistics', 'Sugʻorish boʻyicha statistika', 'Суғориш бўйича статистика', 'Статистика полива'],
  ['statistics', '/volunteer-statistics', 'Volontyorlar statistikasi', 'Волонтёрлар статистикаси', 'Статистика волонтёров'],
  ['green', '/green-area-garden-park', 'Yashil bogʻlar va parklar', 'Яшил боғлар ва парклар', 'Зелёные сады и парки'],
  [
    'green',
    '/resident-planting-areas',
    'Aholi daraxt ekishi mumkin boʻlgan hududlar',
    'Аҳоли дарахт экиши мумкин бўлган ҳудудлар',
    'Территории для посадки деревьев жителями',
  ],
  ['control', '/permits', 'Daraxt kesishga ruxsatnomalar', 'Дарахт кесишга рухсатномалар', 'Разрешения на вырубку деревьев'],
  ['control', '/illegal-loggers', 'Noqonuniy daraxt kesish holatlari', 'Ноқонуний дарахт кесиш ҳолатлари', 'Случаи незаконной вырубки'],
  ['community', '/population-seedlings', 'Men daraxt ekdim', 'Мен дарахт экдим', 'Я посадил дерево'],
  ['community', '/people-facts', 'Qoidabuzarlik haqida xabar bering', 'Қоидабузарлик ҳақида хабар беринг', 'Сообщить о нарушении'],
  ['community', '/suggestion', 'Taklif yuborish', 'Таклиф юбориш', 'Отправить предложение'],
  ['community', '/volunteer-statistics', 'Volontyorlar statistikasi', 'Волонтёрлар статистикаси', 'Статистика волонтёров'],
];

async function isEmpty(knex: Knex, table: string): Promise<boolean> {
  if (!(await knex.schema.hasTable(table))) return false;
  const [{ n }] = await knex(table).count<{ n: number }[]>({ n: '*' });
  return Number(n) === 0;
}

/** Fills the site's sections, texts and menu where they are empty (every install: the public site reads them). */
export async function seedSiteContent(knex: Knex, model: MetaModel, log: (s: string) => void): Promise<void> {
  const table = (name: string) => model.entities.get(name)?.table;
  const sections = table('site-section');
  const contents = table('site-content');
  const menu = table('menu');
  if (sections && (await isEmpty(knex, sections))) {
    await knex(sections).insert(SITE_SECTIONS.map((s) => ({ ...s, is_active: true })));
    log(`site-section: ${SITE_SECTIONS.length} rows`);
  }
  if (sections && contents && (await isEmpty(knex, contents))) {
    const ids = new Map<string, number>(
      (await knex(sections).select('id', 'code')).map((r: { id: number; code: string }) => [r.code, Number(r.id)]),
    );
    const rows = SITE_CONTENTS.filter((c) => ids.has(c.section)).map(({ section, ...c }) => ({
      ...c,
      section_id: ids.get(section),
      section_code: section,
      is_published: true,
    }));
    if (rows.length) await knex(contents).insert(rows);
    log(`site-content: ${rows.length} rows`);
  }
  if (menu && (await isEmpty(knex, menu))) {
    await knex(menu).insert(
      SITE_MENU.map(([menu_group, path, uz, uk, ru], i) => ({
        menu_group,
        path,
        caption: t(uz, uk, ru),
        ordering: (i + 1) * 10,
        is_visible: true,
      })),
    );
    log(`menu: ${SITE_MENU.length} rows`);
  }
}
