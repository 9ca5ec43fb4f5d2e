import type { Knex } from 'knex';
import { todayTashkent } from '../api/meta/today.ts';
import { addDays } from '../api/domain/dates.ts';
import { fineOfRow } from '../api/modules/fund/fine-rule.ts';
import { entityReads } from './entity-reads.ts';

/**
 * Demo template documents (docs/template-documents.md): an act, a protocol, an offence's decree, a
 * compensation report, a permit and a tree-felling permit in each of the three languages, their
 * placeholders the reserved fields their records fill (and one field of the printer's own); and, where the demo has no acts yet, a stack of acts and protocols
 * in each region to print them from (offenders named in Latin and Cyrillic).
 */
type Lang = 'uz' | 'uk' | 'ru';

/** A placeholder as the editor writes it. */
const f = (code: string, label = code) => `<span data-field="${code}" data-kind="reserved">${label}</span>`;
const own = (code: string, label = code) => `<span data-field="${code}" data-kind="own">${label}</span>`;

const PROTOCOL: Record<Lang, { name: string; body: string; deadline: Record<Lang, string> }> = {
  uz: {
    name: 'Maʼmuriy huquqbuzarlik toʻgʻrisida bayonnoma',
    deadline: { uz: 'Tushuntirish berish muddati', uk: 'Тушунтириш бериш муддати', ru: 'Срок дачи объяснений' },
    body: [
      '<h1>MAʼMURIY HUQUQBUZARLIK TOʻGʻRISIDA BAYONNOMA</h1>',
      `<p>Seriya ${f('SERIES')} № ${f('NUMBER')}</p>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Ekologik nazorat inspektori ${f('INSPECTOR')} ushbu bayonnomani ${f('SUBJECT')} (STIR ${f('SUBJECT_INN')}), manzil: ${f('ADDRESS')} faoliyatini tekshirish natijasida tuzdi.</p>`,
      `<p>Huquqbuzar: <strong>${f('OFFENDER')}</strong></p>`,
      `<p>Huquqbuzarlik mazmuni: ${f('OFFENCE')}</p>`,
      `<p>Jarima miqdori: <strong>${f('AMOUNT')}</strong> soʻm (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Tushuntirish berish muddati: ${own('DEADLINE')}.</p>`,
      '<hr>',
      `<p>Inspektor: ____________ ${f('INSPECTOR')}</p>`,
      `<p>Huquqbuzar: ____________ ${f('OFFENDER')}</p>`,
      `<p><em>Bayonnoma berilgan sana: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  uk: {
    name: 'Маъмурий ҳуқуқбузарлик тўғрисида баённома',
    deadline: { uz: 'Tushuntirish berish muddati', uk: 'Тушунтириш бериш муддати', ru: 'Срок дачи объяснений' },
    body: [
      '<h1>МАЪМУРИЙ ҲУҚУҚБУЗАРЛИК ТЎҒРИСИДА БАЁННОМА</h1>',
      `<p>Серия ${f('SERIES')} № ${f('NUMBER')}</p>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Экологик назорат инспектори ${f('INSPECTOR')} ушбу баённомани ${f('SUBJECT')} (СТИР ${f('SUBJECT_INN')}), манзил: ${f('ADDRESS')} фаолиятини текшириш натижасида тузди.</p>`,
      `<p>Ҳуқуқбузар: <strong>${f('OFFENDER')}</strong></p>`,
      `<p>Ҳуқуқбузарлик мазмуни: ${f('OFFENCE')}</p>`,
      `<p>Жарима миқдори: <strong>${f('AMOUNT')}</strong> сўм (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Тушунтириш бериш муддати: ${own('DEADLINE')}.</p>`,
      '<hr>',
      `<p>Инспектор: ____________ ${f('INSPECTOR')}</p>`,
      `<p>Ҳуқуқбузар: ____________ ${f('OFFENDER')}</p>`,
      `<p><em>Баённома берилган сана: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  ru: {
    name: 'Протокол об административном правонарушении',
    deadline: { uz: 'Tushuntirish berish muddati', uk: 'Тушунтириш бериш муддати', ru: 'Срок дачи объяснений' },
    body: [
      '<h1>ПРОТОКОЛ ОБ АДМИНИСТРАТИВНОМ ПРАВОНАРУШЕНИИ</h1>',
      `<p>Серия ${f('SERIES')} № ${f('NUMBER')}</p>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Инспектор экологического контроля ${f('INSPECTOR')} составил настоящий протокол по итогам проверки деятельности ${f('SUBJECT')} (ИНН ${f('SUBJECT_INN')}), адрес: ${f('ADDRESS')}.</p>`,
      `<p>Нарушитель: <strong>${f('OFFENDER')}</strong></p>`,
      `<p>Содержание нарушения: ${f('OFFENCE')}</p>`,
      `<p>Сумма штрафа: <strong>${f('AMOUNT')}</strong> сум (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Срок дачи объяснений: ${own('DEADLINE')}.</p>`,
      '<hr>',
      `<p>Инспектор: ____________ ${f('INSPECTOR')}</p>`,
      `<p>Нарушитель: ____________ ${f('OFFENDER')}</p>`,
      `<p><em>Дата выдачи протокола: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
};

const ACT: Record<Lang, { name: string; body: string }> = {
  uz: {
    name: 'Tekshiruv dalolatnomasi',
    body: [
      '<h1>TEKSHIRUV DALOLATNOMASI</h1>',
      `<p>№ ${f('NUMBER')}, ${f('DATE')} (${f('DATE_WORDS')}), ${f('REGION')}</p>`,
      `<p>Ekologik nazorat inspektori ${f('INSPECTOR')} ${f('SUBJECT')} (STIR ${f('SUBJECT_INN')}, manzil: ${f('ADDRESS')}) faoliyatini tekshirdi.</p>`,
      `<p>Tekshiruvda aniqlandi: ${f('OFFENCE')}</p>`,
      `<p>Yetkazilgan zarar summasi: <strong>${f('AMOUNT')}</strong> soʻm (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Subyekt rahbari: ${f('OFFENDER')}</p>`,
      '<hr>',
      `<p>Inspektor: ____________ ${f('INSPECTOR')}</p>`,
      `<p>Subyekt rahbari: ____________ ${f('OFFENDER')}</p>`,
    ].join(''),
  },
  uk: {
    name: 'Текширув далолатномаси',
    body: [
      '<h1>ТЕКШИРУВ ДАЛОЛАТНОМАСИ</h1>',
      `<p>№ ${f('NUMBER')}, ${f('DATE')} (${f('DATE_WORDS')}), ${f('REGION')}</p>`,
      `<p>Экологик назорат инспектори ${f('INSPECTOR')} ${f('SUBJECT')} (СТИР ${f('SUBJECT_INN')}, манзил: ${f('ADDRESS')}) фаолиятини текширди.</p>`,
      `<p>Текширувда аниқланди: ${f('OFFENCE')}</p>`,
      `<p>Етказилган зарар суммаси: <strong>${f('AMOUNT')}</strong> сўм (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Субъект раҳбари: ${f('OFFENDER')}</p>`,
      '<hr>',
      `<p>Инспектор: ____________ ${f('INSPECTOR')}</p>`,
      `<p>Субъект раҳбари: ____________ ${f('OFFENDER')}</p>`,
    ].join(''),
  },
  ru: {
    name: 'Акт проверки',
    body: [
      '<h1>АКТ ПРОВЕРКИ</h1>',
      `<p>№ ${f('NUMBER')}, ${f('DATE')} (${f('DATE_WORDS')}), ${f('REGION')}</p>`,
      `<p>Инспектор экологического контроля ${f('INSPECTOR')} провёл проверку деятельности ${f('SUBJECT')} (ИНН ${f('SUBJECT_INN')}, адрес: ${f('ADDRESS')}).</p>`,
      `<p>В ходе проверки установлено: ${f('OFFENCE')}</p>`,
      `<p>Сумма причинённого ущерба: <strong>${f('AMOUNT')}</strong> сум (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Руководитель субъекта: ${f('OFFENDER')}</p>`,
      '<hr>',
      `<p>Инспектор: ____________ ${f('INSPECTOR')}</p>`,
      `<p>Руководитель субъекта: ____________ ${f('OFFENDER')}</p>`,
    ].join(''),
  },
};

const OFFENDERS = [
  'Каримов Жасур Ғайратович',
  'Toʻxtayeva Gulnoza Oʻktamovna',
  'Қўчқоров Ҳамид Шукурович',
  'Raximov Sardor Baxtiyorovich',
  'Ғаниева Мадина Қодировна',
];
/** A decree on an offence (an offence prints it: metadata/entities/ecofund-offences/offences.json). */
const DECREE: Record<Lang, { name: string; body: string }> = {
  uz: {
    name: 'Maʼmuriy jarima qoʻllash toʻgʻrisida qaror',
    body: [
      '<h1>MAʼMURIY JARIMA QOʻLLASH TOʻGʻRISIDA QAROR</h1>',
      `<p>Seriya ${f('SERIES')} № ${f('NUMBER')}</p>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Ekologik nazorat inspektori ${f('INSPECTOR')} ${f('ADDRESS')} manzilida sodir etilgan huquqbuzarlik (${f('OFFENCE')}) ishini koʻrib chiqib, quyidagilarga jarima qoʻlladi: <strong>${f('OFFENDER')}</strong>.</p>`,
      `<p>Jarima miqdori: <strong>${f('AMOUNT')}</strong> soʻm (${f('AMOUNT_WORDS')}).</p>`,
      '<hr>',
      `<p>Inspektor: ____________ ${f('INSPECTOR')}</p>`,
      `<p><em>Qaror berilgan sana: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  uk: {
    name: 'Маъмурий жарима қўллаш тўғрисида қарор',
    body: [
      '<h1>МАЪМУРИЙ ЖАРИМА ҚЎЛЛАШ ТЎҒРИСИДА ҚАРОР</h1>',
      `<p>Серия ${f('SERIES')} № ${f('NUMBER')}</p>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Экологик назорат инспектори ${f('INSPECTOR')} ${f('ADDRESS')} манзилида содир этилган ҳуқуқбузарлик (${f('OFFENCE')}) ишини кўриб чиқиб, қуйидагиларга жарима қўллади: <strong>${f('OFFENDER')}</strong>.</p>`,
      `<p>Жарима миқдори: <strong>${f('AMOUNT')}</strong> сўм (${f('AMOUNT_WORDS')}).</p>`,
      '<hr>',
      `<p>Инспектор: ____________ ${f('INSPECTOR')}</p>`,
      `<p><em>Қарор берилган сана: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  ru: {
    name: 'Постановление о наложении административного штрафа',
    body: [
      '<h1>ПОСТАНОВЛЕНИЕ О НАЛОЖЕНИИ АДМИНИСТРАТИВНОГО ШТРАФА</h1>',
      `<p>Серия ${f('SERIES')} № ${f('NUMBER')}</p>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Инспектор экологического контроля ${f('INSPECTOR')}, рассмотрев дело о правонарушении (${f('OFFENCE')}) по адресу ${f('ADDRESS')}, наложил штраф на: <strong>${f('OFFENDER')}</strong>.</p>`,
      `<p>Сумма штрафа: <strong>${f('AMOUNT')}</strong> сум (${f('AMOUNT_WORDS')}).</p>`,
      '<hr>',
      `<p>Инспектор: ____________ ${f('INSPECTOR')}</p>`,
      `<p><em>Дата вынесения постановления: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
};

/**
 * The issued documents of the fund and the permits (issue 28): a subject's compensation-payments
 * report (subject-report-yearly), a given permit (given-permits) and a tree-felling permit
 * (tree-cutting-permits); each carries its check code and QR code when issued.
 */
const COMPENSATION: Record<Lang, { name: string; body: string }> = {
  uz: {
    name: 'Kompensatsiya toʻlovlari hisoboti',
    body: [
      '<h1>KOMPENSATSIYA TOʻLOVLARI HISOBOTI</h1>',
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Subyekt: <strong>${f('SUBJECT')}</strong> (STIR ${f('SUBJECT_INN')}), manzil: ${f('ADDRESS')}.</p>`,
      `<p>Hisobot davri: ${f('YEAR')} yil, ${f('PERIOD')}.</p>`,
      `<p>Atrof-muhitni ifloslantirganlik va chiqindilarni joylashtirganlik uchun kompensatsiya toʻlovlari summasi: <strong>${f('AMOUNT')}</strong> soʻm (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Hisobotni kechiktirganlik uchun jarima: ${f('LATE_FINE')} soʻm.</p>`,
      '<p>Toʻlov Ekologiya, atrof-muhitni muhofaza qilish va iqlim oʻzgarishi jamgʻarmasi hisob raqamiga oʻtkaziladi.</p>',
      '<hr>',
      '<p>Subyekt rahbari: ____________</p>',
      '<p>Bosh hisobchi: ____________</p>',
      `<p><em>Berilgan sana: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  uk: {
    name: 'Компенсация тўловлари ҳисоботи',
    body: [
      '<h1>КОМПЕНСАЦИЯ ТЎЛОВЛАРИ ҲИСОБОТИ</h1>',
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Субъект: <strong>${f('SUBJECT')}</strong> (СТИР ${f('SUBJECT_INN')}), манзил: ${f('ADDRESS')}.</p>`,
      `<p>Ҳисобот даври: ${f('YEAR')} йил, ${f('PERIOD')}.</p>`,
      `<p>Атроф-муҳитни ифлослантирганлик ва чиқиндиларни жойлаштирганлик учун компенсация тўловлари суммаси: <strong>${f('AMOUNT')}</strong> сўм (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Ҳисоботни кечиктирганлик учун жарима: ${f('LATE_FINE')} сўм.</p>`,
      '<p>Тўлов Экология, атроф-муҳитни муҳофаза қилиш ва иқлим ўзгариши жамғармаси ҳисоб рақамига ўтказилади.</p>',
      '<hr>',
      '<p>Субъект раҳбари: ____________</p>',
      '<p>Бош ҳисобчи: ____________</p>',
      `<p><em>Берилган сана: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  ru: {
    name: 'Отчёт о компенсационных платежах',
    body: [
      '<h1>ОТЧЁТ О КОМПЕНСАЦИОННЫХ ПЛАТЕЖАХ</h1>',
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Субъект: <strong>${f('SUBJECT')}</strong> (ИНН ${f('SUBJECT_INN')}), адрес: ${f('ADDRESS')}.</p>`,
      `<p>Отчётный период: ${f('YEAR')} год, ${f('PERIOD')}.</p>`,
      `<p>Сумма компенсационных платежей за загрязнение окружающей среды и размещение отходов: <strong>${f('AMOUNT')}</strong> сум (${f('AMOUNT_WORDS')}).</p>`,
      `<p>Штраф за несвоевременное представление отчёта: ${f('LATE_FINE')} сум.</p>`,
      '<p>Платёж перечисляется на счёт Фонда экологии, охраны окружающей среды и изменения климата.</p>',
      '<hr>',
      '<p>Руководитель субъекта: ____________</p>',
      '<p>Главный бухгалтер: ____________</p>',
      `<p><em>Дата выдачи: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
};

const PERMIT: Record<Lang, { name: string; body: string }> = {
  uz: {
    name: 'Ruxsatnoma',
    body: [
      `<h1>RUXSATNOMA № ${f('NUMBER')}</h1>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Ruxsatnoma turi: <strong>${f('PERMIT_TYPE')}</strong></p>`,
      `<p>Yuridik shaxs: ${f('SUBJECT')} (STIR ${f('SUBJECT_INN')}), manzil: ${f('ADDRESS')}</p>`,
      `<p>Jismoniy shaxs: ${f('HOLDER')}</p>`,
      `<p>Ruxsat etiladi: ${f('PERMITTED')}</p>`,
      `<p>Amal qilish muddati: ${f('VALID_FROM')} dan ${f('VALID_TO')} gacha.</p>`,
      '<p>Ruxsatnoma shartlari buzilganda u bekor qilinadi.</p>',
      '<hr>',
      '<p>Ekologiya boshqarmasi boshligʻi: ____________</p>',
      `<p><em>Berilgan sana: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  uk: {
    name: 'Рухсатнома',
    body: [
      `<h1>РУХСАТНОМА № ${f('NUMBER')}</h1>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Рухсатнома тури: <strong>${f('PERMIT_TYPE')}</strong></p>`,
      `<p>Юридик шахс: ${f('SUBJECT')} (СТИР ${f('SUBJECT_INN')}), манзил: ${f('ADDRESS')}</p>`,
      `<p>Жисмоний шахс: ${f('HOLDER')}</p>`,
      `<p>Рухсат этилади: ${f('PERMITTED')}</p>`,
      `<p>Амал қилиш муддати: ${f('VALID_FROM')} дан ${f('VALID_TO')} гача.</p>`,
      '<p>Рухсатнома шартлари бузилганда у бекор қилинади.</p>',
      '<hr>',
      '<p>Экология бошқармаси бошлиғи: ____________</p>',
      `<p><em>Берилган сана: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  ru: {
    name: 'Разрешение',
    body: [
      `<h1>РАЗРЕШЕНИЕ № ${f('NUMBER')}</h1>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Вид разрешения: <strong>${f('PERMIT_TYPE')}</strong></p>`,
      `<p>Юридическое лицо: ${f('SUBJECT')} (ИНН ${f('SUBJECT_INN')}), адрес: ${f('ADDRESS')}</p>`,
      `<p>Физическое лицо: ${f('HOLDER')}</p>`,
      `<p>Разрешается: ${f('PERMITTED')}</p>`,
      `<p>Срок действия: с ${f('VALID_FROM')} по ${f('VALID_TO')}.</p>`,
      '<p>При нарушении условий разрешение аннулируется.</p>',
      '<hr>',
      '<p>Начальник управления экологии: ____________</p>',
      `<p><em>Дата выдачи: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
};

const FELLING: Record<Lang, { name: string; body: string }> = {
  uz: {
    name: 'Daraxt kesishga ruxsatnoma',
    body: [
      `<h1>DARAXT KESISHGA RUXSATNOMA № ${f('NUMBER')}</h1>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Ruxsatnoma oluvchi: <strong>${f('HOLDER')}</strong> (STIR/JShShIR ${f('HOLDER_INN')})</p>`,
      `<p>Manzil: ${f('ADDRESS')}</p>`,
      `<p>${f('SPECIES')} turidagi ${f('TREES')} (${f('TREES_WORDS')}) tup daraxtni kesishga ruxsat beriladi. Sabab: ${f('REASON')}.</p>`,
      `<p>Amal qilish muddati: ${f('VALID_FROM')} dan ${f('VALID_TO')} gacha.</p>`,
      `<p>Kompensatsiya toʻlovi: <strong>${f('AMOUNT')}</strong> soʻm (${f('AMOUNT_WORDS')}); kesilgan har bir daraxt oʻrniga yangi koʻchat ekiladi.</p>`,
      '<hr>',
      '<p>Ekologiya boshqarmasi boshligʻi: ____________</p>',
      `<p><em>Berilgan sana: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  uk: {
    name: 'Дарахт кесишга рухсатнома',
    body: [
      `<h1>ДАРАХТ КЕСИШГА РУХСАТНОМА № ${f('NUMBER')}</h1>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Рухсатнома олувчи: <strong>${f('HOLDER')}</strong> (СТИР/ЖШШИР ${f('HOLDER_INN')})</p>`,
      `<p>Манзил: ${f('ADDRESS')}</p>`,
      `<p>${f('SPECIES')} туридаги ${f('TREES')} (${f('TREES_WORDS')}) туп дарахтни кесишга рухсат берилади. Сабаб: ${f('REASON')}.</p>`,
      `<p>Амал қилиш муддати: ${f('VALID_FROM')} дан ${f('VALID_TO')} гача.</p>`,
      `<p>Компенсация тўлови: <strong>${f('AMOUNT')}</strong> сўм (${f('AMOUNT_WORDS')}); кесилган ҳар бир дарахт ўрнига янги кўчат экилади.</p>`,
      '<hr>',
      '<p>Экология бошқармаси бошлиғи: ____________</p>',
      `<p><em>Берилган сана: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
  ru: {
    name: 'Разрешение на вырубку деревьев',
    body: [
      `<h1>РАЗРЕШЕНИЕ НА ВЫРУБКУ ДЕРЕВЬЕВ № ${f('NUMBER')}</h1>`,
      `<p>${f('REGION')}, ${f('DATE')} (${f('DATE_WORDS')})</p>`,
      `<p>Получатель разрешения: <strong>${f('HOLDER')}</strong> (ИНН/ПИНФЛ ${f('HOLDER_INN')})</p>`,
      `<p>Адрес: ${f('ADDRESS')}</p>`,
      `<p>Разрешается вырубка ${f('TREES')} (${f('TREES_WORDS')}) деревьев породы ${f('SPECIES')}. Причина: ${f('REASON')}.</p>`,
      `<p>Срок действия: с ${f('VALID_FROM')} по ${f('VALID_TO')}.</p>`,
      `<p>Компенсационный платёж: <strong>${f('AMOUNT')}</strong> сум (${f('AMOUNT_WORDS')}); взамен каждого вырубленного дерева высаживается новый саженец.</p>`,
      '<hr>',
      '<p>Начальник управления экологии: ____________</p>',
      `<p><em>Дата выдачи: ${f('TODAY')}</em></p>`,
    ].join(''),
  },
};

/** The default template of each document type the demo gives (uz, uk, ru), where the type has none yet. */
const BY_TYPE: Record<string, Record<Lang, { name: string; body: string }>> = { DECREE, COMPENSATION, PERMIT, FELLING };

const OFFENCES = [
  'Chiqindilarni belgilanmagan joyga tashlash',
  'Атмосфера ҳавосига рухсатномасиз ифлослантирувчи моддалар чиқариш',
  'Daraxtlarni ruxsatsiz kesish',
  'Сброс неочищенных сточных вод',
];

export async function seedTemplateDemo(knex: Knex, log: (s: string) => void = () => undefined): Promise<void> {
  if (!(await knex.schema.hasTable('template_documents'))) return;
  const admin = (await knex('users').where({ username: 'admin' }).first('id'))?.id ?? null;
  const types = new Map<string, number>(
    (await knex('template_document_types').select('id', 'code')).map((t: { id: number; code: string }) => [t.code, t.id]),
  );
  const dateType = (await knex('td_field_types').where({ code: 'DATE' }).first('id'))?.id;
  if (!(await knex('template_documents').first('id')) && types.has('PROTOCOL') && types.has('ACT')) {
    await knex.transaction(async (trx) => {
      for (const lang of ['uz', 'uk', 'ru'] as Lang[]) {
        const p = PROTOCOL[lang];
        const [{ id }] = await trx('template_documents')
          .insert({
            type_id: types.get('PROTOCOL'),
            name: p.name,
            language: lang,
            body: p.body,
            is_active: true,
            created_by: admin,
            updated_by: admin,
          })
          .returning('id');
        if (dateType)
          await trx('template_document_fields').insert({
            parent_id: id,
            ordering: 1,
            code: 'DEADLINE',
            name: JSON.stringify(p.deadline),
            field_type_id: dateType,
            required: false,
          });
        const a = ACT[lang];
        await trx('template_documents').insert({
          type_id: types.get('ACT'),
          name: a.name,
          language: lang,
          body: a.body,
          is_active: true,
          created_by: admin,
          updated_by: admin,
        });
      }
    });
    log('demo: 6 template documents');
  }
  for (const [code, book] of Object.entries(BY_TYPE)) {
    const typeId = types.get(code);
    if (!typeId || (await knex('template_documents').where({ type_id: typeId }).first('id'))) continue;
    await knex('template_documents').insert(
      (['uz', 'uk', 'ru'] as Lang[]).map((lang) => ({
        type_id: typeId,
        name: book[lang].name,
        language: lang,
        body: book[lang].body,
        is_active: true,
        created_by: admin,
        updated_by: admin,
      })),
    );
    log(`demo: 3 ${code} templates`);
  }

  // acts and protocols to print from, where the demo has none
  if (await knex('akts').first('id')) return;
  const subjects = await knex('subjects').orderBy('id').select('id', 'region_id');
  const category = (await knex('stack_akt_categories').orderBy('id').first('id'))?.id;
  const aktType = (await knex('akt_types').orderBy('id').first('id'))?.id;
  const protocolCategory = (await knex('stack_protocol_categories').orderBy('id').first('id'))?.id;
  // the fine book's articles (seeds/demo-offences.ts seedFineArticles): each protocol names one, its fine the article's least multiple
  const fines = (await knex('fine').where({ is_active: true }).orderBy('id').select('id', 'min_multiple')) as {
    id: number;
    min_multiple: string;
  }[];
  if (!subjects.length || !category || !aktType || !protocolCategory) return;
  const today = todayTashkent();
  const byRegion = new Map<number, { id: number; region_id: number }[]>();
  for (const s of subjects) byRegion.set(s.region_id, [...(byRegion.get(s.region_id) ?? []), s]);
  let akts = 0;
  let protocols = 0;
  await knex.transaction(async (trx) => {
    for (const [region, list] of byRegion) {
      const [stack] = await trx('akt_stacks')
        .insert({
          number: `AKT-${region}`,
          stack_date: addDays(today, -30),
          category_id: category,
          region_id: region,
          created_by: admin,
          updated_by: admin,
        })
        .returning('id');
      const [protocolStack] = await trx('protocol_stacks')
        .insert({
          number: `BAY-${region}`,
          stack_date: addDays(today, -25),
          category_id: protocolCategory,
          region_id: region,
          created_by: admin,
          updated_by: admin,
        })
        .returning('id');
      for (let i = 0; i < Math.min(2, list.length); i++) {
        const s = list[i];
        const n = akts + 1;
        await trx('akts').insert({
          stack_id: stack.id,
          subject_id: s.id,
          region_id: region,
          akt_type_id: aktType,
          number: `A-${String(n).padStart(4, '0')}`,
          akt_date: addDays(today, -(n % 25) - 1),
          amount: `${(n * 1_375_000).toFixed(0)}.00`,
          inspector: OFFENDERS[(n + 2) % OFFENDERS.length].split(' ').slice(0, 2).join(' '),
          description: OFFENCES[n % OFFENCES.length],
          created_by: admin,
          updated_by: admin,
        });
        akts++;
        const fine = fines.length ? fines[n % fines.length] : null;
        const protocolDate = addDays(today, -(n % 20) - 1);
        const fineAmount = fine
          ? await fineOfRow(entityReads(trx), {
              fineId: fine.id,
              multiple: fine.min_multiple,
              date: protocolDate,
              dateField: 'protocol_date',
            }).catch(() => null)
          : null;
        await trx('protocols').insert({
          stack_id: protocolStack.id,
          subject_id: s.id,
          region_id: region,
          series: 'EK',
          number: String(100000 + n),
          protocol_date: protocolDate,
          fine_id: fine?.id ?? null,
          fine_multiple: fineAmount ? fine!.min_multiple : null,
          fine_amount: fineAmount ?? `${(n * 412_000).toFixed(0)}.00`,
          offender: OFFENDERS[n % OFFENDERS.length],
          description: OFFENCES[(n + 1) % OFFENCES.length],
          created_by: admin,
          updated_by: admin,
        });
        protocols++;
      }
    }
  });
  log(`demo: ${akts} acts and ${protocols} protocols to print from`);
}
