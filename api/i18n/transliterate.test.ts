import { describe, expect, it } from 'vitest';
import { latinToCyrillic } from './transliterate.ts';
import { readFileSync } from 'node:fs';

describe('Uzbek Latin → Cyrillic', () => {
  it("follows the alphabets' correspondence", () => {
    expect(latinToCyrillic('Ushbu kiritma majburiy')).toBe('Ушбу киритма мажбурий');
    expect(latinToCyrillic('Sessiya vaqti tugadi')).toBe('Сессия вақти тугади');
    expect(latinToCyrillic('Oʻzbekiston Respublikasi')).toBe('Ўзбекистон Республикаси');
    expect(latinToCyrillic("Fargʻona, Fargʻona, Farg'ona")).toBe('Фарғона, Фарғона, Фарғона');
    expect(latinToCyrillic('Qashqadaryo')).toBe('Қашқадарё');
    expect(latinToCyrillic('maʼlumot')).toBe('маълумот');
    expect(latinToCyrillic('Yoʻq, yoʻl')).toBe('Йўқ, йўл');
    expect(latinToCyrillic('Ekologiya, yer, Shahar, SHAHAR, choy')).toBe('Экология, ер, Шаҳар, ШАҲАР, чой');
  });

  it('writes the ts of loanwords as ц only where they have it', () => {
    expect(latinToCyrillic('Kompensatsiya, moderatsiya, koeffitsient, stansiya')).toBe('Компенсация, модерация, коэффициент, станция');
    expect(latinToCyrillic('Agar ketsa, tutsa')).toBe('Агар кетса, тутса');
    expect(latinToCyrillic('Tsiyalash')).toBe('Циялаш');
  });

  it('keeps the soft sign of loanwords', () => {
    expect(latinToCyrillic('Parolni kiriting, filtr, Modullar, kalkulyator, Profil')).toBe(
      'Парольни киритинг, фильтр, Модульлар, калькулятор, Профиль',
    );
    expect(latinToCyrillic('aparol')).toBe('апарол');
    expect(latinToCyrillic('Kalit paroli, filtri')).toBe('Калит пароли, фильтри');
  });

  it('keeps placeholders as they are', () => {
    expect(latinToCyrillic('{0} raqamli qator, %{count} ta, {name}')).toBe('{0} рақамли қатор, %{count} та, {name}');
    expect(latinToCyrillic('{{smart_count}} ta yozuv, <b>Subyekt</b>')).toBe('{{smart_count}} та ёзув, <b>Субъект</b>');
  });

  // What a native reader of Uzbek Cyrillic expects (issue 11): source → Cyrillic
  const WORDS: [string, string][] = [
    ['Subyekt', 'Субъект'],
    ['Subyektlar', 'Субъектлар'],
    ['subyektga', 'субъектга'],
    ['SUBYEKTLAR', 'СУБЪЕКТЛАР'],
    ['Obyekt nomi', 'Объект номи'],
    ['Boʻlim (obyekt)', 'Бўлим (объект)'],
    ['obyom', 'объём'],
    ['kompyuter', 'компьютер'],
    ['Ekoinspeksiya maʼlumotnomalari', 'Экоинспекция маълумотномалари'],
    ['inspeksiya', 'инспекция'],
    ['Aksiyadorlik jamiyati', 'Акциядорлик жамияти'],
    ['aksiya', 'акция'],
    ['funksiya', 'функция'],
    ['Rekonstruksiya', 'Реконструкция'],
    ['aksioner', 'акционер'],
    ['aksiz', 'акциз'],
    ['stansiya', 'станция'],
    ['kvitansiya', 'квитанция'],
    ['konferensiya', 'конференция'],
    ['pensiya', 'пенсия'],
    ['Sessiya', 'Сессия'],
    ['versiya', 'версия'],
    ['Kompensatsiya', 'Компенсация'],
    ['Koeffitsiyent 1', 'Коэффициент 1'],
    ['kliyent', 'клиент'],
    ['tsentr', 'центр'],
    ['protsent', 'процент'],
    ['litsenziya', 'лицензия'],
    ['Oq akatsiya', 'Оқ акация'],
    ['I toifa', 'I тоифа'],
    ['II toifa', 'II тоифа'],
    ['III toifa', 'III тоифа'],
    ['IV toifa — ahamiyatsiz xavfli', 'IV тоифа — аҳамиятсиз хавфли'],
    ['Excel', 'Excel'],
    ['GeoJSON', 'GeoJSON'],
    ['Excelga yuklash', 'Excel’га юклаш'],
    ['Telegramda', 'Telegram’да'],
    ['Fayl Excel (.xlsx) formatida', 'Файл Excel (.xlsx) форматида'],
    ['IP manzil', 'IP манзил'],
    ['Yozuv ID', 'Ёзув ID'],
    ['ID', 'ID'],
    ['Eng katta hajm, MB', 'Энг катта ҳажм, МБ'],
    ['(PDF, rasm, Excel yoki Word)', '(PDF, расм, Excel ёки Word)'],
    ['JPEG, PNG, GIF yoki WebP', 'JPEG, PNG, GIF ёки WebP'],
    ['Turi (MIME)', 'Тури (MIME)'],
    ['image/png, image/svg+xml yoki application/pdf', 'image/png, image/svg+xml ёки application/pdf'],
    ['Kalit fayli (.pfx, .p12)', 'Калит файли (.pfx, .p12)'],
    ['E-IMZO dasturi', 'E-IMZO дастури'],
    ['QR kodni skanerlang', 'QR кодни сканерланг'],
    ['Toʻplangan CO₂, kg', 'Тўпланган CO₂, кг'],
    ['yomgʻir suvi, m³/yil', 'ёмғир суви, м³/йил'],
    ['A4 varaq', 'A4 варақ'],
    ['i-Tree Streets (USDA Forest Service)', 'i-Tree Streets (USDA Forest Service)'],
    ['NUL yoki Unicode belgisi', 'NUL ёки Unicode белгиси'],
    ['https://ecofond.uz/tree/12 sahifasi', 'https://ecofond.uz/tree/12 саҳифаси'],
    ['info@ecofond.uz manzili', 'info@ecofond.uz манзили'],
    ['Pasport AA 1234567', 'Паспорт AA 1234567'],
    ['Alt+bosing', 'Alt+босинг'],
    ['SMS', 'SMS'],
    ['STIR/JShShIR', 'СТИР/ЖШШИР'],
    ['ERI bilan imzolangan', 'ЭРИ билан имзоланган'],
    ['IIVga yuborish', 'ИИВга юбориш'],
    ['PDFga aylantirish', 'PDF’га айлантириш'],
    ['IFUT (OKED)', 'ИФУТ (ОКЭД)'],
    ['BHM', 'БҲМ'],
    ['F.I.Sh.', 'Ф.И.Ш.'],
    ['01/1-85 hisoboti', '01/1-85 ҳисоботи'],
    ['3-chorak', '3-чорак'],
    ['Maʼlumotnoma hisoboti', 'Маълумотнома ҳисоботи'],
    ['Ekkan', 'Эккан'],
    ['Eʼlonlar', 'Эълонлар'],
    ['Reyestr', 'Реестр'],
    ['Yanvar', 'Январь'],
    ['Fevral', 'Февраль'],
    ['Aprel', 'Апрель'],
    ['Iyun', 'Июнь'],
    ['Iyul', 'Июль'],
    ['Sentabr', 'Сентябрь'],
    ['Oktabr', 'Октябрь'],
    ['Noyabr', 'Ноябрь'],
    ['Dekabr', 'Декабрь'],
    ['sentabrda', 'сентябрьда'],
    ['Mart, May, Avgust', 'Март, Май, Август'],
    ['Mayor', 'Майор'],
    ['Volontyor', 'Волонтёр'],
    ['Byudjetga', 'Бюджетга'],
    ['Menyu', 'Меню'],
    ['model', 'модель'],
  ];

  it.each(WORDS)('%s → %s', (uz, uk) => {
    expect(latinToCyrillic(uz)).toBe(uk);
  });

  it('agrees with the reviewed Cyrillic names of the regions', () => {
    const { regions } = JSON.parse(readFileSync(new URL('../../seeds/data/regions.json', import.meta.url), 'utf8'));
    for (const r of regions) expect(latinToCyrillic(r.uz), r.uz).toBe(r.uk);
  });
});
