/**
 * Reference data of the smaller books, seeded when a book is empty. Names are Uzbek Latin and
 * Russian; Uzbek Cyrillic is transliterated from the Latin at seed time when not given.
 *
 * Income types follow the spec's section 9 (codes and splits). Where the spec names a code without
 * its meaning, the row is flagged `needs_review` (not marked in its name) and given the "other
 * income, 100% to the fund" split: the fund's accountants confirm them on the income-types screen.
 */
type T = { uz: string; ru: string; uk?: string };
type Row = Record<string, unknown> & { name?: T };
const s = (code: string, uz: string, ru: string): Row => ({ code, name: { uz, ru } });

export const REFERENCE_ROWS: Record<string, Row[]> = {
  'tree-species': [
    { code: 'PLA_OR', latin_name: 'Platanus orientalis', kind: 'broadleaf', growth_cm_year: '1.2', name: { uz: 'Chinor', ru: 'Платан восточный' } },
    { code: 'MOR_AL', latin_name: 'Morus alba', kind: 'broadleaf', growth_cm_year: '0.9', name: { uz: 'Oq tut', ru: 'Шелковица белая' } },
    { code: 'ULM_PU', latin_name: 'Ulmus pumila', kind: 'broadleaf', growth_cm_year: '1.0', name: { uz: 'Qayragʻoch', ru: 'Вяз приземистый' } },
    { code: 'SAL_AL', latin_name: 'Salix alba', kind: 'broadleaf', growth_cm_year: '1.2', name: { uz: 'Oq tol', ru: 'Ива белая' } },
    { code: 'POP_AL', latin_name: 'Populus alba', kind: 'broadleaf', growth_cm_year: '1.5', name: { uz: 'Oq terak', ru: 'Тополь белый' } },
    { code: 'JUN_SE', latin_name: 'Juniperus seravschanica', kind: 'conifer', growth_cm_year: '0.3', name: { uz: 'Zarafshon archasi', ru: 'Можжевельник зеравшанский' } },
    { code: 'PIN_EL', latin_name: 'Pinus eldarica', kind: 'conifer', growth_cm_year: '0.7', name: { uz: 'Eldor qaragʻayi', ru: 'Сосна эльдарская' } },
    { code: 'PLT_OR', latin_name: 'Platycladus orientalis', kind: 'conifer', growth_cm_year: '0.4', name: { uz: 'Sharq biotasi', ru: 'Биота восточная' } },
    { code: 'ROB_PS', latin_name: 'Robinia pseudoacacia', kind: 'broadleaf', growth_cm_year: '1.0', name: { uz: 'Oq akatsiya', ru: 'Робиния лжеакация' } },
    { code: 'QUE_RO', latin_name: 'Quercus robur', kind: 'broadleaf', growth_cm_year: '0.6', name: { uz: 'Eman', ru: 'Дуб черешчатый' } },
    { code: 'JUG_RE', latin_name: 'Juglans regia', kind: 'broadleaf', growth_cm_year: '0.8', name: { uz: 'Yongʻoq', ru: 'Орех грецкий' } },
    { code: 'PRU_AR', latin_name: 'Prunus armeniaca', kind: 'broadleaf', growth_cm_year: '0.7', name: { uz: 'Oʻrik', ru: 'Абрикос' } },
    { code: 'MAL_DO', latin_name: 'Malus domestica', kind: 'broadleaf', growth_cm_year: '0.6', name: { uz: 'Olma', ru: 'Яблоня' } },
    { code: 'PRU_DU', latin_name: 'Prunus dulcis', kind: 'broadleaf', growth_cm_year: '0.5', name: { uz: 'Bodom', ru: 'Миндаль' } },
    { code: 'PIS_VE', latin_name: 'Pistacia vera', kind: 'broadleaf', growth_cm_year: '0.4', name: { uz: 'Pista', ru: 'Фисташка настоящая' } },
    { code: 'HAL_AP', latin_name: 'Haloxylon aphyllum', kind: 'shrub', growth_cm_year: '0.3', name: { uz: 'Qora saksovul', ru: 'Саксаул чёрный' } },
    { code: 'SAL_RI', latin_name: 'Salsola richteri', kind: 'shrub', growth_cm_year: '0.2', name: { uz: 'Cherkez', ru: 'Черкез Рихтера' } },
    { code: 'GLE_TR', latin_name: 'Gleditsia triacanthos', kind: 'broadleaf', growth_cm_year: '0.9', name: { uz: 'Gledichiya', ru: 'Гледичия трёхколючковая' } },
    { code: 'FRA_SO', latin_name: 'Fraxinus sogdiana', kind: 'broadleaf', growth_cm_year: '0.8', name: { uz: 'Soʻgʻd shumtoli', ru: 'Ясень согдийский' } },
    { code: 'ACE_TU', latin_name: 'Acer turkestanicum', kind: 'broadleaf', growth_cm_year: '0.7', name: { uz: 'Turkiston zarangi', ru: 'Клён туркестанский' } },
    { code: 'AES_HI', latin_name: 'Aesculus hippocastanum', kind: 'broadleaf', growth_cm_year: '0.7', name: { uz: 'Ot kashtani', ru: 'Конский каштан обыкновенный' } },
    { code: 'AIL_AL', latin_name: 'Ailanthus altissima', kind: 'broadleaf', growth_cm_year: '1.2', name: { uz: 'Aylant', ru: 'Айлант высочайший' } },
    { code: 'PAU_TO', latin_name: 'Paulownia tomentosa', kind: 'broadleaf', growth_cm_year: '1.5', name: { uz: 'Pavloniya', ru: 'Павловния войлочная' } },
    { code: 'ELA_AN', latin_name: 'Elaeagnus angustifolia', kind: 'broadleaf', growth_cm_year: '0.6', name: { uz: 'Jiyda', ru: 'Лох узколистный' } },
    { code: 'PUN_GR', latin_name: 'Punica granatum', kind: 'shrub', growth_cm_year: '0.3', name: { uz: 'Anor', ru: 'Гранат' } },
    { code: 'CAT_BI', latin_name: 'Catalpa bignonioides', kind: 'broadleaf', growth_cm_year: '0.9', name: { uz: 'Katalpa', ru: 'Катальпа бигнониевидная' } },
    { code: 'BET_PE', latin_name: 'Betula pendula', kind: 'broadleaf', growth_cm_year: '0.8', name: { uz: 'Osilib turuvchi qayin', ru: 'Берёза повислая' } },
  ],
  'subject-categories': [
    { code: 'I', danger_level: 'I', name: { uz: 'I toifa — yuqori xavfli', ru: 'I категория — высокая опасность' } },
    { code: 'II', danger_level: 'II', name: { uz: 'II toifa — oʻrta xavfli', ru: 'II категория — средняя опасность' } },
    { code: 'III', danger_level: 'III', name: { uz: 'III toifa — kam xavfli', ru: 'III категория — низкая опасность' } },
    { code: 'IV', danger_level: 'IV', name: { uz: 'IV toifa — ahamiyatsiz xavfli', ru: 'IV категория — незначительная опасность' } },
  ],
  'income-types': [
    { code: '3450715', group: 'compensation', budget_percent: '26', fund_percent: '74', organisation_percent: '0', name: { uz: 'Atrof-muhitni ifloslantirganlik va chiqindilarni joylashtirganlik uchun kompensatsiya toʻlovlari', ru: 'Компенсационные платежи за загрязнение окружающей среды и размещение отходов' } },
    { code: '3422225', group: 'tree_felling', budget_percent: '26', fund_percent: '74', organisation_percent: '0', name: { uz: 'Daraxtlarni kesganlik uchun kompensatsiya toʻlovlari', ru: 'Компенсационные выплаты за вырубку деревьев' } },
    { code: '3430153', group: 'fine', budget_percent: '26', fund_percent: '74', organisation_percent: '0', name: { uz: 'Ekologik huquqbuzarliklar uchun jarimalar', ru: 'Штрафы за экологические правонарушения' }, needs_review: true },
    { code: '3430152', group: 'permit', budget_percent: '60', fund_percent: '0', organisation_percent: '40', name: { uz: 'Ruxsatnomalar berganlik uchun yigʻimlar', ru: 'Сборы за выдачу разрешений' }, needs_review: true },
    { code: '3422251', group: 'lawsuit', budget_percent: '60', fund_percent: '0', organisation_percent: '40', name: { uz: 'Daʼvolar boʻyicha undirilgan mablagʻlar', ru: 'Средства, взысканные по искам' }, needs_review: true },
    { code: '3422273', group: 'red_book', budget_percent: '88', fund_percent: '12', organisation_percent: '0', name: { uz: 'Qizil kitobga kiritilgan turlarga yetkazilgan zarar uchun toʻlovlar', ru: 'Платежи за вред видам Красной книги' }, needs_review: true },
    { code: '6666100', group: 'quota', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Kvota tushumlari (100%)', ru: 'Квотные поступления (100%)' } },
    { code: '7777100', group: 'quota', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Kvota tushumlari (100%)', ru: 'Квотные поступления (100%)' }, needs_review: true },
    { code: '4444480', group: 'quota', budget_percent: '20', fund_percent: '80', organisation_percent: '0', name: { uz: 'Kvota tushumlari (80%)', ru: 'Квотные поступления (80%)' } },
    { code: '5555540', group: 'quota', budget_percent: '60', fund_percent: '40', organisation_percent: '0', name: { uz: 'Kvota tushumlari (40%)', ru: 'Квотные поступления (40%)' } },
    // the spec's quotas of 70 % and 32 % name no code: these follow its quota codes' own scheme (five
    // repeated digits and the fund's percent, as 4444480 and 5555540) and wait for the fund's word (docs/domain-rules.md §2)
    { code: '8888870', group: 'quota', budget_percent: '30', fund_percent: '70', organisation_percent: '0', name: { uz: 'Kvota tushumlari (70%)', ru: 'Квотные поступления (70%)' }, needs_review: true },
    { code: '9999932', group: 'quota', budget_percent: '68', fund_percent: '32', organisation_percent: '0', name: { uz: 'Kvota tushumlari (32%)', ru: 'Квотные поступления (32%)' }, needs_review: true },
    { code: '3422207', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (3422207)', ru: 'Прочие поступления (3422207)' }, needs_review: true },
    { code: '3422208', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (3422208)', ru: 'Прочие поступления (3422208)' }, needs_review: true },
    { code: '3422222', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (3422222)', ru: 'Прочие поступления (3422222)' }, needs_review: true },
    { code: '3430902', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (3430902)', ru: 'Прочие поступления (3430902)' }, needs_review: true },
    { code: '401010', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (401010)', ru: 'Прочие поступления (401010)' }, needs_review: true },
    { code: '99995253', group: 'other', budget_percent: '0', fund_percent: '100', organisation_percent: '0', name: { uz: 'Boshqa tushumlar (99995253)', ru: 'Прочие поступления (99995253)' }, needs_review: true },
  ],
  'subject-types': [
    s('STATE', 'Davlat korxonasi', 'Государственное предприятие'), s('PRIVATE', 'Xususiy korxona', 'Частное предприятие'),
    s('JSC', 'Aksiyadorlik jamiyati', 'Акционерное общество'), s('LLC', 'Masʼuliyati cheklangan jamiyat', 'Общество с ограниченной ответственностью'),
    s('FOREIGN', 'Xorijiy investitsiyali korxona', 'Предприятие с иностранными инвестициями'), s('IE', 'Yakka tartibdagi tadbirkor', 'Индивидуальный предприниматель'),
  ],
  'report-categories': [
    s('AIR', 'Atmosfera havosi', 'Атмосферный воздух'), s('WATER', 'Suv resurslari', 'Водные ресурсы'), s('WASTE', 'Chiqindilar', 'Отходы'),
  ],
  // the activities of the classification of economic activities (OKED, rev. 2) a subject of the fund is most often in; the code is OKED's five digits
  'subject-activities': [
    { ...s('AGRI', 'Don ekinlari, dukkakli va moyli ekinlar yetishtirish', 'Выращивание зерновых, бобовых и масличных культур'), oked: '01110' },
    { ...s('COAL', 'Toshkoʻmir qazib olish', 'Добыча каменного угля'), oked: '05100' },
    { ...s('OIL', 'Xom neft qazib olish', 'Добыча сырой нефти'), oked: '06100' },
    { ...s('GAS', 'Tabiiy gaz qazib olish', 'Добыча природного газа'), oked: '06200' },
    { ...s('ORE', 'Rangli metallar rudalarini qazib olish', 'Добыча руд цветных металлов'), oked: '07290' },
    { ...s('TEXTILE', 'Toʻqimachilik tolalarini tayyorlash va yigirish', 'Подготовка и прядение текстильных волокон'), oked: '13100' },
    { ...s('REFINE', 'Neftni qayta ishlash mahsulotlari ishlab chiqarish', 'Производство продуктов нефтепереработки'), oked: '19200' },
    { ...s('FERTIL', 'Oʻgʻitlar va azot birikmalari ishlab chiqarish', 'Производство удобрений и азотных соединений'), oked: '20150' },
    { ...s('CEMENT', 'Sement ishlab chiqarish', 'Производство цемента'), oked: '23510' },
    { ...s('STEEL', 'Choʻyan, poʻlat va ferroqotishmalar ishlab chiqarish', 'Производство чугуна, стали и ферросплавов'), oked: '24100' },
    { ...s('COPPER', 'Mis ishlab chiqarish', 'Производство меди'), oked: '24440' },
    { ...s('POWER', 'Elektr energiyasi ishlab chiqarish', 'Производство электроэнергии'), oked: '35110' },
    { ...s('WATER', 'Suvni yigʻish, tozalash va taqsimlash', 'Забор, очистка и распределение воды'), oked: '36000' },
    { ...s('WASTE', 'Xavfli boʻlmagan chiqindilarni yigʻish', 'Сбор неопасных отходов'), oked: '38110' },
    { ...s('BUILD', 'Turar joy va noturar joy binolari qurilishi', 'Строительство жилых и нежилых зданий'), oked: '41200' },
    { ...s('TRUCK', 'Avtomobil transportida yuk tashish', 'Грузовые перевозки автомобильным транспортом'), oked: '49410' },
  ],
  // the reports a subject hands the fund, by its report categories (code REPORT_CATEGORY…): the yearly statistical 2-TP forms and the compensation calculations
  'report-types': [
    { ...s('2TP_AIR', '2-TP (havo): atmosfera havosini muhofaza qilish toʻgʻrisida hisobot', '2-ТП (воздух): отчёт об охране атмосферного воздуха'), period: 'year', report_category: 'AIR' },
    { ...s('2TP_WATER', '2-TP (suv xoʻjaligi): suvdan foydalanish toʻgʻrisida hisobot', '2-ТП (водхоз): отчёт об использовании воды'), period: 'year', report_category: 'WATER' },
    { ...s('2TP_WASTE', '2-TP (chiqindilar): chiqindilar hosil boʻlishi va joylashtirilishi toʻgʻrisida hisobot', '2-ТП (отходы): отчёт об образовании и размещении отходов'), period: 'year', report_category: 'WASTE' },
    { ...s('COMP_AIR', 'Atmosferaga chiqarilgan moddalar uchun kompensatsiya toʻlovlari hisob-kitobi', 'Расчёт компенсационных платежей за выбросы в атмосферу'), period: 'q1', report_category: 'AIR' },
    { ...s('COMP_WATER', 'Suv obyektlariga tashlamalar uchun kompensatsiya toʻlovlari hisob-kitobi', 'Расчёт компенсационных платежей за сбросы в водные объекты'), period: 'q1', report_category: 'WATER' },
    { ...s('COMP_WASTE', 'Chiqindilarni joylashtirish uchun kompensatsiya toʻlovlari hisob-kitobi', 'Расчёт компенсационных платежей за размещение отходов'), period: 'q1', report_category: 'WASTE' },
  ],
  // the sections of those reports (report_type: the report type's code, resolved at seed time)
  'child-report-types': [
    { ...s('2TP_AIR_STAT', 'Statsionar manbalardan chiqarilgan moddalar', 'Выбросы от стационарных источников'), report_type: '2TP_AIR' },
    { ...s('2TP_AIR_CLEAN', 'Chang-gaz tozalash uskunalari', 'Пылегазоочистные установки'), report_type: '2TP_AIR' },
    { ...s('2TP_WATER_IN', 'Suv olish', 'Забор воды'), report_type: '2TP_WATER' },
    { ...s('2TP_WATER_OUT', 'Oqova suvlarni tashlash', 'Сброс сточных вод'), report_type: '2TP_WATER' },
    { ...s('2TP_WASTE_GEN', 'Chiqindilar hosil boʻlishi', 'Образование отходов'), report_type: '2TP_WASTE' },
    { ...s('2TP_WASTE_PLACE', 'Chiqindilarni joylashtirish', 'Размещение отходов'), report_type: '2TP_WASTE' },
    { ...s('COMP_AIR_LIMIT', 'Belgilangan me’yor doirasidagi chiqarmalar', 'Выбросы в пределах нормативов'), report_type: 'COMP_AIR' },
    { ...s('COMP_AIR_OVER', 'Me’yordan ortiq chiqarmalar', 'Сверхнормативные выбросы'), report_type: 'COMP_AIR' },
    { ...s('COMP_WATER_OVER', 'Me’yordan ortiq tashlamalar', 'Сверхнормативные сбросы'), report_type: 'COMP_WATER' },
    { ...s('COMP_WASTE_OVER', 'Limitdan ortiq joylashtirilgan chiqindilar', 'Размещение отходов сверх лимита'), report_type: 'COMP_WASTE' },
  ],
  // how the ministry's staff is organised: the groups the users are gathered in
  'user-groups': [
    s('CENTRAL', 'Markaziy apparat', 'Центральный аппарат'), s('REGIONAL', 'Hududiy boshqarmalar', 'Территориальные управления'),
    s('DISTRICT', 'Tuman (shahar) inspeksiyalari', 'Районные (городские) инспекции'), s('FUND', 'Jamgʻarma xodimlari', 'Сотрудники фонда'),
    s('EXTERNAL', 'Tashqi tashkilotlar', 'Внешние организации'),
  ],
  // the kinds of account the spec's roles come in
  'user-types': [
    s('STAFF', 'Vazirlik xodimi', 'Сотрудник министерства'), s('BRANCH', 'Filial xodimi', 'Сотрудник филиала'),
    s('SUBJECT', 'Subyekt (korxona) foydalanuvchisi', 'Пользователь субъекта (предприятия)'), s('MVD', 'Ichki ishlar organlari xodimi', 'Сотрудник органов внутренних дел'),
    s('POPULATION', 'Aholi vakili', 'Представитель населения'),
  ],
  // the actions' groups on the access screen, by what an action does
  'app-action-groups': [
    s('VIEW', 'Koʻrish', 'Просмотр'), s('EDIT', 'Kiritish va tahrirlash', 'Ввод и редактирование'), s('WORKFLOW', 'Holatni oʻzgartirish', 'Смена статуса'),
    s('REPORTS', 'Hisobotlar', 'Отчёты'), s('EXPORT', 'Eksport', 'Экспорт'), s('ADMIN', 'Tizim boshqaruvi', 'Администрирование системы'),
  ],
  // the files the system takes, by kind (docs/uploads: a field's accept and size come from here)
  'resource-types': [
    { ...s('IMAGE', 'Rasmlar', 'Изображения'), mime_patterns: 'image/jpeg,image/png,image/webp', max_size_mb: '10' },
    { ...s('PDF', 'PDF hujjatlar', 'Документы PDF'), mime_patterns: 'application/pdf', max_size_mb: '20' },
    { ...s('OFFICE', 'Word va Excel hujjatlari', 'Документы Word и Excel'), mime_patterns: 'application/vnd.openxmlformats-officedocument.*', max_size_mb: '20' },
    { ...s('VIDEO', 'Video', 'Видео'), mime_patterns: 'video/mp4,video/webm', max_size_mb: '100' },
    { ...s('ARCHIVE', 'Arxivlar', 'Архивы'), mime_patterns: 'application/zip', max_size_mb: '50' },
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
  // one row a state of the facts' workflow, its code the state's in upper case (the migration of people facts writes them too)
  'people-fact-statuses': [
    { ...s('NEW', 'Yangi', 'Новое'), color: '#1976d2' }, { ...s('CHECK', 'Tekshirilmoqda', 'На проверке'), color: '#ed6c02' },
    { ...s('ASSIGNED', 'Inspektorga biriktirilgan', 'Передано инспектору'), color: '#7b1fa2' }, { ...s('REJECTED', 'Rad etildi', 'Отклонено'), color: '#d32f2f' },
    { ...s('OFFENCE', 'Huquqbuzarlik rasmiylashtirilgan', 'Оформлено правонарушение'), color: '#2e7d32' },
  ],
  'inspector-lans': [s('uz', 'Oʻzbek (lotin)', 'Узбекский (латиница)'), s('uk', 'Oʻzbek (kirill)', 'Узбекский (кириллица)'), s('ru', 'Rus', 'Русский')],
  'offence-files-type': [s('PHOTO', 'Fotosurat', 'Фотография'), s('VIDEO', 'Video', 'Видео'), s('PASSPORT', 'Pasport nusxasi', 'Копия паспорта'), s('PROTOCOL', 'Bayonnoma', 'Протокол')],
  'given-permit-types': [s('FELLING', 'Daraxt kesishga ruxsatnoma', 'Разрешение на вырубку деревьев'), s('EMISSION', 'Chiqindi tashlashga ruxsatnoma', 'Разрешение на выбросы')],
  'td-field-types': [s('TEXT', 'Matn', 'Текст'), s('NUMBER', 'Son', 'Число'), s('DATE', 'Sana', 'Дата'), s('SELECT', 'Roʻyxat', 'Список')],
  'template-document-types': [s('DECREE', 'Qaror', 'Постановление'), s('PROTOCOL', 'Bayonnoma', 'Протокол'), s('ACT', 'Dalolatnoma', 'Акт')],
  // the values a record gives its documents (docs/template-documents.md); `_WORDS` spells the amount or date in words
  'td-field-reserved-types': [
    s('NUMBER', 'Hujjat raqami', 'Номер документа'), s('SERIES', 'Seriya', 'Серия'),
    s('DATE', 'Hujjat sanasi', 'Дата документа'), s('DATE_WORDS', 'Hujjat sanasi (soʻz bilan)', 'Дата документа прописью'),
    s('TODAY', 'Berilgan sana', 'Дата выдачи'), s('TODAY_WORDS', 'Berilgan sana (soʻz bilan)', 'Дата выдачи прописью'),
    s('OFFENDER', 'Huquqbuzar (F.I.Sh.)', 'Нарушитель (Ф.И.О.)'), s('OFFENCE', 'Huquqbuzarlik mazmuni', 'Содержание нарушения'),
    { code: 'SUBJECT', name: { uz: 'Subyekt', uk: 'Субъект', ru: 'Субъект' } },
    { code: 'SUBJECT_INN', name: { uz: 'Subyekt STIR', uk: 'Субъект СТИР', ru: 'ИНН субъекта' } },
    s('ADDRESS', 'Manzil', 'Адрес'), s('REGION', 'Hudud', 'Регион'), s('INSPECTOR', 'Inspektor', 'Инспектор'),
    s('AMOUNT', 'Summa', 'Сумма'), s('AMOUNT_WORDS', 'Summa (soʻz bilan)', 'Сумма прописью'),
  ],
  'publication-types': [
    { name: { uz: 'Yangiliklar', ru: 'Новости' } },
    { name: { uz: 'Eʼlonlar', ru: 'Объявления' } },
    { name: { uz: 'Qarorlar va farmonlar', ru: 'Постановления и указы' } },
  ],
};

/**
 * The organisations that plant (planting-orgs): ministries, the regions' khokimiyats (the Council
 * of Ministers in Karakalpakstan) and forestry farms. Regions are named by SOATO and resolved at
 * seed time.
 */
export const PLANTING_ORGS: { kind: 'ministry' | 'khokimiyat' | 'forestry'; region_soato?: string; name: T }[] = [
  { kind: 'ministry', name: { uz: 'Ekologiya, atrof-muhitni muhofaza qilish va iqlim oʻzgarishi vazirligi', ru: 'Министерство экологии, охраны окружающей среды и изменения климата' } },
  { kind: 'ministry', name: { uz: 'Qishloq xoʻjaligi vazirligi', ru: 'Министерство сельского хозяйства' } },
  { kind: 'ministry', name: { uz: 'Suv xoʻjaligi vazirligi', ru: 'Министерство водного хозяйства' } },
  { kind: 'ministry', name: { uz: 'Qurilish va uy-joy kommunal xoʻjaligi vazirligi', ru: 'Министерство строительства и жилищно-коммунального хозяйства' } },
  { kind: 'ministry', name: { uz: 'Maktabgacha va maktab taʼlimi vazirligi', ru: 'Министерство дошкольного и школьного образования' } },
  { kind: 'ministry', name: { uz: 'Oliy taʼlim, fan va innovatsiyalar vazirligi', ru: 'Министерство высшего образования, науки и инноваций' } },
  { kind: 'ministry', name: { uz: 'Transport vazirligi', ru: 'Министерство транспорта' } },
  { kind: 'ministry', name: { uz: 'Sogʻliqni saqlash vazirligi', ru: 'Министерство здравоохранения' } },
  { kind: 'khokimiyat', region_soato: '1735', name: { uz: 'Qoraqalpogʻiston Respublikasi Vazirlar Kengashi', ru: 'Совет Министров Республики Каракалпакстан' } },
  { kind: 'khokimiyat', region_soato: '1703', name: { uz: 'Andijon viloyati hokimligi', ru: 'Хокимият Андижанской области' } },
  { kind: 'khokimiyat', region_soato: '1706', name: { uz: 'Buxoro viloyati hokimligi', ru: 'Хокимият Бухарской области' } },
  { kind: 'khokimiyat', region_soato: '1708', name: { uz: 'Jizzax viloyati hokimligi', ru: 'Хокимият Джизакской области' } },
  { kind: 'khokimiyat', region_soato: '1710', name: { uz: 'Qashqadaryo viloyati hokimligi', ru: 'Хокимият Кашкадарьинской области' } },
  { kind: 'khokimiyat', region_soato: '1712', name: { uz: 'Navoiy viloyati hokimligi', ru: 'Хокимият Навоийской области' } },
  { kind: 'khokimiyat', region_soato: '1714', name: { uz: 'Namangan viloyati hokimligi', ru: 'Хокимият Наманганской области' } },
  { kind: 'khokimiyat', region_soato: '1718', name: { uz: 'Samarqand viloyati hokimligi', ru: 'Хокимият Самаркандской области' } },
  { kind: 'khokimiyat', region_soato: '1722', name: { uz: 'Surxondaryo viloyati hokimligi', ru: 'Хокимият Сурхандарьинской области' } },
  { kind: 'khokimiyat', region_soato: '1724', name: { uz: 'Sirdaryo viloyati hokimligi', ru: 'Хокимият Сырдарьинской области' } },
  { kind: 'khokimiyat', region_soato: '1726', name: { uz: 'Toshkent shahar hokimligi', ru: 'Хокимият города Ташкента' } },
  { kind: 'khokimiyat', region_soato: '1727', name: { uz: 'Toshkent viloyati hokimligi', ru: 'Хокимият Ташкентской области' } },
  { kind: 'khokimiyat', region_soato: '1730', name: { uz: 'Fargʻona viloyati hokimligi', ru: 'Хокимият Ферганской области' } },
  { kind: 'khokimiyat', region_soato: '1733', name: { uz: 'Xorazm viloyati hokimligi', ru: 'Хокимият Хорезмской области' } },
  { kind: 'forestry', region_soato: '1708', name: { uz: 'Zomin oʻrmon xoʻjaligi', ru: 'Заминское лесное хозяйство' } },
  { kind: 'forestry', region_soato: '1727', name: { uz: 'Boʻstonliq oʻrmon xoʻjaligi', ru: 'Бостанлыкское лесное хозяйство' } },
  { kind: 'forestry', region_soato: '1735', name: { uz: 'Orolboʻyi oʻrmon xoʻjaligi', ru: 'Приаральское лесное хозяйство' } },
];
