/**
 * Reference data of the smaller books, seeded when a book is empty. Names are Uzbek Latin and
 * Russian; Uzbek Cyrillic is transliterated from the Latin at seed time when not given.
 *
 * Income types follow the spec's section 9 (codes and splits). Where the spec names a code without
 * its meaning, the row is marked "(review)" in its Russian name and given the "other income, 100%
 * to the fund" split: the fund's accountants confirm them on the income-types screen.
 */
type T = { uz: string; ru: string; uk?: string };
type Row = Record<string, unknown> & { name?: T };
const s = (code: string, uz: string, ru: string): Row => ({ code, name: { uz, ru } });

export const REFERENCE_ROWS: Record<string, Row[]> = {
  'subject-categories': [
    { code: 'I', danger_level: 'I', name: { uz: 'I toifa — yuqori xavfli', ru: 'I категория — высокая опасность' } },
    { code: 'II', danger_level: 'II', name: { uz: 'II toifa — oʻrta xavfli', ru: 'II категория — средняя опасность' } },
    { code: 'III', danger_level: 'III', name: { uz: 'III toifa — kam xavfli', ru: 'III категория — низкая опасность' } },
    { code: 'IV', danger_level: 'IV', name: { uz: 'IV toifa — ahamiyatsiz xavfli', ru: 'IV категория — незначительная опасность' } },
  ],
  'income-types': [
    { code: '3450715', group: 'compensation', budget_percent: '26', fund_percent: '74', organisation_percent: '0', name: { uz: 'Atrof-muhitni ifloslantirganlik va chiqindilarni joylashtirganlik uchun kompensatsiya toʻlovlari', ru: 'Компенсационные платежи за загрязнение окружающей среды и размещение отходов' } },
    { code: '3422225', group: 'tree_felling', budget_percent: '26', fund_percent: '74', organisation_percent: '0', name: { uz: 'Daraxtlarni kesganlik uchun kompensatsiya toʻlovlari', ru: 'Компенсационные выплаты за вырубку деревьев' } },
    { code: '3430153', group: 'fine', budget_percent: '26', fund_percent: '74', organisation_percent: '0', name: { uz: 'Ekologik huquqbuzarliklar uchun jarimalar', ru: 'Штрафы за экологические правонарушения (review)' } },
    { code: '3430152', group: 'permit', budget_percent: '60', fund_percent: '0', organisation_percent: '40', name: { uz: 'Ruxsatnomalar berganlik uchun yigʻimlar', ru: 'Сборы за выдачу разрешений (review)' } },
    { code: '3422251', group: 'lawsuit', budget_percent: '60', fund_percent: '0', organisation_percent: '40', name: { uz: 'Daʼvolar boʻyicha undirilgan mablagʻlar', ru: 'Средства, взысканные по искам (review)' } },
    { code: '3422273', group: 'red_book', budget_percent: '88', fund_percent: '12', organisation_percent: '0', name: { uz: 'Qizil kitobga kiritilgan turlarga yetkazilgan zarar uchun toʻlovlar', ru: 'Платежи за вред видам Красной книги (review)' } },
    { code: '6666100', group: 'quota', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Kvota tushumlari (100%)', ru: 'Квотные поступления (100%)' } },
    { code: '7777100', group: 'quota', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Kvota tushumlari (100%)', ru: 'Квотные поступления (100%) (review)' } },
    { code: '4444480', group: 'quota', budget_percent: '20', fund_percent: '80', organisation_percent: '0', name: { uz: 'Kvota tushumlari (80%)', ru: 'Квотные поступления (80%)' } },
    { code: '5555540', group: 'quota', budget_percent: '60', fund_percent: '40', organisation_percent: '0', name: { uz: 'Kvota tushumlari (40%)', ru: 'Квотные поступления (40%)' } },
    { code: '3422207', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (3422207)', ru: 'Прочие поступления (3422207) (review)' } },
    { code: '3422208', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (3422208)', ru: 'Прочие поступления (3422208) (review)' } },
    { code: '3422222', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (3422222)', ru: 'Прочие поступления (3422222) (review)' } },
    { code: '3430902', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (3430902)', ru: 'Прочие поступления (3430902) (review)' } },
    { code: '401010', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (401010)', ru: 'Прочие поступления (401010) (review)' } },
    { code: '99995253', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (99995253)', ru: 'Прочие поступления (99995253) (review)' } },
  ],
  'subject-types': [
    s('STATE', 'Davlat korxonasi', 'Государственное предприятие'), s('PRIVATE', 'Xususiy korxona', 'Частное предприятие'),
    s('JSC', 'Aksiyadorlik jamiyati', 'Акционерное общество'), s('LLC', 'Masʼuliyati cheklangan jamiyat', 'Общество с ограниченной ответственностью'),
    s('FOREIGN', 'Xorijiy investitsiyali korxona', 'Предприятие с иностранными инвестициями'), s('IE', 'Yakka tartibdagi tadbirkor', 'Индивидуальный предприниматель'),
  ],
  'report-categories': [
    s('AIR', 'Atmosfera havosi', 'Атмосферный воздух'), s('WATER', 'Suv resurslari', 'Водные ресурсы'), s('WASTE', 'Chiqindilar', 'Отходы'),
  ],
  'rank': [
    s('LT', 'Leytenant', 'Лейтенант'), s('SLT', 'Katta leytenant', 'Старший лейтенант'), s('CPT', 'Kapitan', 'Капитан'),
    s('MAJ', 'Mayor', 'Майор'), s('LTC', 'Podpolkovnik', 'Подполковник'), s('COL', 'Polkovnik', 'Полковник'),
  ],
  'position': [
    s('CHIEF', 'Boʻlim boshligʻi', 'Начальник отдела'), s('LEAD', 'Yetakchi inspektor', 'Ведущий инспектор'),
    s('SENIOR', 'Bosh inspektor', 'Главный инспектор'), s('INSP', 'Inspektor', 'Инспектор'), s('SPEC', 'Mutaxassis', 'Специалист'),
  ],
  'akt-types': [s('PLAN', 'Rejali tekshiruv dalolatnomasi', 'Акт плановой проверки'), s('UNPLAN', 'Rejadan tashqari tekshiruv dalolatnomasi', 'Акт внеплановой проверки')],
  'stack-akt-categories': [s('INSPECT', 'Tekshiruvlar', 'Проверки'), s('RAID', 'Reydlar', 'Рейды')],
  'stack-protocol-categories': [s('ADM', 'Maʼmuriy bayonnomalar', 'Административные протоколы')],
  'people-fact-statuses': [
    { ...s('NEW', 'Yangi', 'Новое'), color: '#1976d2' }, { ...s('CHECK', 'Tekshirilmoqda', 'На проверке'), color: '#ed6c02' },
    { ...s('CONFIRMED', 'Tasdiqlandi', 'Подтверждено'), color: '#2e7d32' }, { ...s('REJECTED', 'Rad etildi', 'Отклонено'), color: '#d32f2f' },
  ],
  'inspector-lans': [s('uz', 'Oʻzbek (lotin)', 'Узбекский (латиница)'), s('uk', 'Oʻzbek (kirill)', 'Узбекский (кириллица)'), s('ru', 'Rus', 'Русский')],
  'offence-files-type': [s('PHOTO', 'Fotosurat', 'Фотография'), s('VIDEO', 'Video', 'Видео'), s('PASSPORT', 'Pasport nusxasi', 'Копия паспорта'), s('PROTOCOL', 'Bayonnoma', 'Протокол')],
  'given-permit-types': [s('FELLING', 'Daraxt kesishga ruxsatnoma', 'Разрешение на вырубку деревьев'), s('EMISSION', 'Chiqindi tashlashga ruxsatnoma', 'Разрешение на выбросы')],
  'td-field-types': [s('TEXT', 'Matn', 'Текст'), s('NUMBER', 'Son', 'Число'), s('DATE', 'Sana', 'Дата'), s('SELECT', 'Roʻyxat', 'Список')],
  'template-document-types': [s('DECREE', 'Qaror', 'Постановление'), s('PROTOCOL', 'Bayonnoma', 'Протокол'), s('ACT', 'Dalolatnoma', 'Акт')],
  'td-field-reserved-types': [s('FIO', 'F.I.Sh.', 'Ф.И.О.'), s('DATE', 'Sana', 'Дата'), s('ADDRESS', 'Manzil', 'Адрес')],
};
