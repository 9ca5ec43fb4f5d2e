/**
 * Uzbek Latin → Uzbek Cyrillic, the fixed correspondence of the two official alphabets plus the
 * Cyrillic orthography of loanwords, so that `uk` captions and data names can be derived from the
 * Latin ones. What is not Uzbek stays as it is:
 *  - placeholders ({0}, {name}, {{name}}, %{count}) and text in <angle brackets>;
 *  - URLs, e-mail addresses, MIME types (image/png) and file extensions (.xlsx, .p12);
 *  - words with digits (CO₂, A4, p12), international abbreviations in capitals (ID, IP, PDF, QR,
 *    JPEG, SMS) and Roman numerals (I, II, IV), while Uzbek abbreviations are written in Cyrillic
 *    (STIR → СТИР, JShShIR → ЖШШИР, IIVga → ИИВга);
 *  - Latin-script names (Excel, Word, WebP, Unicode, E-IMZO; Excelga → Excel’га), and words with letters the Uzbek
 *    Latin alphabet does not use (w, c outside ch).
 * Loanwords follow the Cyrillic spelling: ц (kompensatsiya → компенсация, aksiya → акция,
 * stansiya → станция), ъ (subyekt → субъект, obyekt → объект), ь (parol → пароль, oktabr →
 * октябрь), э at the start of a word and after a vowel (ekologiya → экология, koeffitsient →
 * коэффициент), й (mayor → майор).
 */
const APOS = "ʻ'’‘`";
const TUTUQ = 'ʼ';

const PAIRS: [string, string][] = [
  ['sh', 'ш'],
  ['ch', 'ч'],
  ['yo', 'ё'],
  ['yu', 'ю'],
  ['ya', 'я'],
  ['ye', 'е'],
];
const SINGLE: Record<string, string> = {
  a: 'а',
  b: 'б',
  d: 'д',
  e: 'е',
  f: 'ф',
  g: 'г',
  h: 'ҳ',
  i: 'и',
  j: 'ж',
  k: 'к',
  l: 'л',
  m: 'м',
  n: 'н',
  o: 'о',
  p: 'п',
  q: 'қ',
  r: 'р',
  s: 'с',
  t: 'т',
  u: 'у',
  v: 'в',
  x: 'х',
  y: 'й',
  z: 'з',
  c: 'с',
  w: 'в',
};

/** Latin-script names kept as they are (an Uzbek suffix after them is transliterated after an apostrophe: Excelga → Excel’га). */
export const LATIN_NAMES = [
  'Excel',
  'Word',
  'WebP',
  'Unicode',
  'E-IMZO',
  'i-Tree',
  'Streets',
  'Interior',
  'West',
  'Forest',
  'Service',
  'Alt',
  'Ctrl',
  'Shift',
  'Enter',
  'Esc',
  'Tab',
  'OpenStreetMap',
  'Leaflet',
  'Google',
  'Chromium',
  'Telegram',
  'Windows',
  'GeoJSON',
];

/**
 * Abbreviations of Uzbek words, written in Cyrillic (the rest of the words in capitals are
 * international ones and stay Latin). Units of measure are written in Cyrillic too (MB → МБ).
 */
export const UZBEK_ABBREVIATIONS: Record<string, string> = {
  STIR: 'СТИР',
  JShShIR: 'ЖШШИР',
  ERI: 'ЭРИ',
  IIV: 'ИИВ',
  BHM: 'БҲМ',
  MFO: 'МФО',
  MHOBT: 'МҲОБТ',
  OKED: 'ОКЭД',
  SOATO: 'СОАТО',
  VMQ: 'ВМҚ',
  IFUT: 'ИФУТ',
  MChJ: 'МЧЖ',
  YaTT: 'ЯТТ',
  DUK: 'ДУК',
  QQS: 'ҚҚС',
  AJ: 'АЖ',
  XK: 'ХК',
  FHDYo: 'ФҲДЁ',
  'F.I.Sh.': 'Ф.И.Ш.',
  MB: 'МБ',
  KB: 'КБ',
  GB: 'ГБ',
};

/**
 * Loanword spellings, applied to the Cyrillic of a whole lower-case word (then cased like the
 * source): [pattern, replacement]. Patterns anchored at ^ are stems at the start of the word.
 */
const LOANWORDS: [RegExp, string][] = [
  // ъ: субъект, объект, объём
  [/^(суб|об)е(кт)/, '$1ъе$2'],
  [/^обём/, 'объём'],
  // ь in the middle: компьютер, батальон, павильон
  [/^компют/, 'компьют'],
  [/^батал[её]н/, 'батальон'],
  [/^павил[её]н/, 'павильон'],
  // й before о: майор, район
  [/^маёр/, 'майор'],
  [/^раён/, 'район'],
  // ц: акция, инспекция, функция, секция (Latin -ksiya), акциядор, акционер
  [/кси(я|он|ядор)/, 'кци$1'],
  // ц: станция, инстанция, тенденция, конференция, компетенция, квитанция, резиденция, дистанция
  [/(ста|тенде|конфере|компете|квита|резиде|диста)нси(я|о)/, '$1нци$2'],
  // ц: центр, цемент, цех, цифр (ts at the start of a word), процент, процесс, лицензия, доцент, концерт, акциз
  [/^тс/, 'ц'],
  [/^про(тс)е(нт|сс)/, 'проце$2'],
  [/^литсенз/, 'лиценз'],
  [/^дотсент/, 'доцент'],
  [/^контсерт/, 'концерт'],
  [/^аксиз/, 'акциз'],
  // the months (сентабр → сентябрь)
  [/^сентабр/, 'сентябр'],
  [/^октабр/, 'октябр'],
  // soft signs of Russian loanwords: a final one is written before consonants and at the end, not
  // before a vowel (пароль, парольни, but пароли; фильтр, фильтри)
  ...softSigns({
    январ: 'январь',
    феврал: 'февраль',
    апрел: 'апрель',
    июн: 'июнь',
    июл: 'июль',
    сентябр: 'сентябрь',
    октябр: 'октябрь',
    ноябр: 'ноябрь',
    декабр: 'декабрь',
    парол: 'пароль',
    филтр: 'фильтр',
    модул: 'модуль',
    калкулятор: 'калькулятор',
    профил: 'профиль',
    модел: 'модель',
    филм: 'фильм',
    албом: 'альбом',
    стил: 'стиль',
  }),
];

function softSigns(stems: Record<string, string>): [RegExp, string][] {
  return Object.entries(stems).map(([plain, soft]) => [new RegExp(`^${plain}${soft.endsWith('ь') ? '(?![аеёиоуэюяўы])' : ''}`), soft]);
}

function isUpper(s: string): boolean {
  return s !== s.toLowerCase() && s === s.toUpperCase();
}
function isLetter(ch: string | undefined): boolean {
  return !!ch && /\p{L}/u.test(ch);
}

function caseLike(src: string, out: string, nextUpper: boolean): string {
  if (!isUpper(src[0])) return out;
  // "Sh" → "Ш"; "SH" inside an upper-case word → "Ш" too
  return out.length === 1 || nextUpper ? out.toUpperCase() : out[0].toUpperCase() + out.slice(1);
}

function letters(w: string): string {
  let out = '';
  let i = 0;
  while (i < w.length) {
    const ch = w[i];
    const lower = ch.toLowerCase();
    const next = w[i + 1] ?? '';
    const prev = w[i - 1];
    // oʻ and gʻ
    if ((lower === 'o' || lower === 'g') && next && APOS.includes(next)) {
      const c = lower === 'o' ? 'ў' : 'ғ';
      out += isUpper(ch) ? c.toUpperCase() : c;
      i += 2;
      continue;
    }
    if (ch === TUTUQ || (APOS.includes(ch) && isLetter(prev) && isLetter(next))) {
      out += 'ъ';
      i += 1;
      continue;
    }
    // ts of loanwords before -iya, -ion, -ient, -ial is ц (Kompensatsiya → Компенсация), not т + с (ketsa → кетса)
    if ((ch + next).toLowerCase() === 'ts' && /^i(ya|on|ent|al)/i.test(w.slice(i + 2))) {
      out += isUpper(ch) ? 'Ц' : 'ц';
      i += 2;
      continue;
    }
    // "yoʻ" is y + oʻ (Yoʻq → Йўқ), not yo + ʻ
    const pair = PAIRS.find(
      ([lat]) => (ch + next).toLowerCase() === lat && !(lat === 'yo' && w[i + 2] !== undefined && APOS.includes(w[i + 2])),
    );
    if (pair) {
      out += caseLike(ch + next, pair[1], isUpper(w[i + 2] ?? '') && isUpper(next));
      i += 2;
      continue;
    }
    // e at the start of a word and after a, o, u is э (Ekologiya → Экология, aeroport → аэропорт; but dieta → диета)
    if (lower === 'e' && (!isLetter(prev) || 'aouAOU'.includes(prev))) {
      out += isUpper(ch) ? 'Э' : 'э';
      i += 1;
      continue;
    }
    const cyr = SINGLE[lower];
    out += cyr ? (isUpper(ch) ? cyr.toUpperCase() : cyr) : ch;
    i += 1;
  }
  return out;
}

/** Casing of `src` (all capitals, first capital, lower case) carried over to the Cyrillic `out`. */
function recase(src: string, out: string): string {
  const letters = src.replace(/[^\p{L}]/gu, '');
  if (letters.length > 1 && isUpper(letters)) return out.toUpperCase();
  return isUpper(src[0]) ? out[0].toUpperCase() + out.slice(1) : out;
}

/** One Uzbek word (no digits, no spaces). */
function uzbekWord(w: string): string {
  // -iyent of loanwords is -иент (koeffitsiyent → коэффициент, kliyent → клиент)
  const src = w.replace(/iyent/g, 'ient').replace(/IYENT/g, 'IENT');
  const lower = letters(src.toLowerCase());
  let fixed = lower;
  for (const [re, to] of LOANWORDS) fixed = fixed.replace(re, to);
  if (fixed === lower) return letters(src);
  return recase(src, fixed);
}

const ROMAN = /^(?=[IVXLCDM])M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$/;

/** A word of letters (and apostrophes); words with digits never get here. */
function word(w: string): string {
  if (w in UZBEK_ABBREVIATIONS) return UZBEK_ABBREVIATIONS[w];
  if (LATIN_NAMES.includes(w) || ROMAN.test(w)) return w;
  for (const name of LATIN_NAMES) {
    // a suffix after a Latin-script name is set off by an apostrophe, as the Cyrillic press writes it (Telegram’да)
    if (w.startsWith(name) && /^[a-zʻʼ'’‘`]+$/.test(w.slice(name.length))) return `${name}’${uzbekWord(w.slice(name.length))}`;
  }
  // capitals with an Uzbek suffix: IIVga → ИИВга; a Latin one takes an apostrophe: PDFga → PDF’га
  const abbr = /^([A-Z]{2,})([a-zʻʼ'’‘`]+)$/.exec(w);
  if (abbr) {
    const head = word(abbr[1]);
    return head === abbr[1] ? `${head}’${uzbekWord(abbr[2])}` : head + uzbekWord(abbr[2]);
  }
  // an international abbreviation (ID, IP, PDF, QR, JPEG, NUL, USDA); longer words in capitals are Uzbek words (SHAHAR)
  if (w.length > 1 && w.length < 6 && /^[A-Z]+$/.test(w)) return w;
  // letters the Uzbek Latin alphabet does not use: a foreign name (Service, Unicode, West)
  if (/w|c(?!h)/i.test(w)) return w;
  return uzbekWord(w);
}

/** Parts kept as they are: placeholders, tags, URLs, e-mails, MIME types, file extensions, multi-part Latin names. */
const KEEP = new RegExp(
  [
    String.raw`%?\{\{?[^{}]*\}?\}`,
    String.raw`<[^>]*>`,
    String.raw`https?:\/\/[^\s)»"]+`,
    String.raw`www\.[^\s)»"]+`,
    String.raw`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`,
    String.raw`\b(?:application|image|text|audio|video|font|multipart|model)\/[\w.+*-]+`,
    String.raw`(?<![\p{L}\p{N}])\.[A-Za-z][A-Za-z0-9]{1,4}\b`,
    String.raw`(?<![\p{L}\p{N}])(?:E-IMZO|i-Tree|F\.I\.Sh\.)`,
  ].join('|'),
  'gu',
);

/** Words: letters with the apostrophes of oʻ, gʻ and the tutuq belgisi inside, and digits. */
const WORD = /[\p{L}\p{N}]+(?:[ʻʼ'’‘`][\p{L}\p{N}]+)*[ʻ'’‘`]?/gu;

function plain(text: string): string {
  return text.replace(WORD, (w) => {
    // units with a power are Uzbek (m³ → м³, km² → км²); other words with digits stay (CO₂, A4, p12)
    if (/^[a-z]+[²³]$/.test(w)) return uzbekWord(w.slice(0, -1)) + w.slice(-1);
    if (/\p{N}/u.test(w)) return w;
    // an apostrophe after the word that is not the one of oʻ / gʻ is a quote
    const m = /^(.*?)([ʻ'’‘`]?)$/u.exec(w)!;
    if (m[2] && !/[oOgG]$/.test(m[1])) return word(m[1]) + m[2];
    return word(w);
  });
}

export function latinToCyrillic(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(KEEP)) {
    out += plain(text.slice(last, m.index));
    out += m[0] === 'F.I.Sh.' ? UZBEK_ABBREVIATIONS['F.I.Sh.'] : m[0];
    last = m.index! + m[0].length;
  }
  return out + plain(text.slice(last));
}

const LEGACY_SOFT: [RegExp, string][] = [
  ['парол', 'пароль'],
  ['филтр', 'фильтр'],
  ['модул', 'модуль'],
  ['калкулятор', 'калькулятор'],
  ['профил', 'профиль'],
].map(([plain, soft]) => [new RegExp(`(?<![\\p{L}])(${plain})${soft.endsWith('ь') ? '(?![аеёиоуэюяўы])' : ''}`, 'giu'), soft]);

/**
 * What the earlier letter-by-letter transliteration wrote (Субект, ИД, Эхсел, .хлсх): a value equal
 * to it was derived, not written by a person, and may be derived again (i18n:fill-uk, migrations).
 */
export function legacyLatinToCyrillic(text: string): string {
  return text
    .split(/(%?\{[^}]*\}|<[^>]*>)/g)
    .map((part, i) => {
      if (i % 2) return part;
      let out = letters(part);
      for (const [re, soft] of LEGACY_SOFT)
        out = out.replace(re, (m: string) => (m[0] === m[0].toUpperCase() ? soft[0].toUpperCase() + soft.slice(1) : soft));
      return out;
    })
    .join('');
}
