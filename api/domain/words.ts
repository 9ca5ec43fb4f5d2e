import { parseTiyin, TIYIN_PER_SOM } from './money.ts';
import { assertIsoDate } from './dates.ts';
import { latinToCyrillic } from '../i18n/transliterate.ts';

/**
 * Amounts and dates in words, as printed documents write them (a fine of "bir million ikki yuz
 * ming soʻm 00 tiyin"), in the three languages of the system: `uz` Uzbek Latin, `uk` Uzbek
 * Cyrillic, `ru` Russian. Pure functions of exact values: an amount is a money string
 * ("1200000.50"), never a float; a date is "YYYY-MM-DD".
 */
export type WordsLang = 'uz' | 'uk' | 'ru';

// ------------------------------------------------------------------ Uzbek (Latin; Cyrillic by transliteration)

const UZ_ONES = ['', 'bir', 'ikki', 'uch', 'toʻrt', 'besh', 'olti', 'yetti', 'sakkiz', 'toʻqqiz'];
const UZ_TENS = ['', 'oʻn', 'yigirma', 'oʻttiz', 'qirq', 'ellik', 'oltmish', 'yetmish', 'sakson', 'toʻqson'];
const UZ_SCALES = ['', 'ming', 'million', 'milliard', 'trillion', 'kvadrillion'];

function uzBelowThousand(n: number): string[] {
  const out: string[] = [];
  const h = Math.floor(n / 100);
  if (h) out.push(...(h === 1 ? ['bir', 'yuz'] : [UZ_ONES[h], 'yuz']));
  const t = Math.floor((n % 100) / 10);
  if (t) out.push(UZ_TENS[t]);
  if (n % 10) out.push(UZ_ONES[n % 10]);
  return out;
}

/** A whole number in Uzbek Latin words: 1200 → "bir ming ikki yuz". */
export function uzNumber(n: bigint): string {
  if (n === 0n) return 'nol';
  const groups = thousands(n);
  const out: string[] = [];
  for (let i = groups.length - 1; i >= 0; i--) {
    if (!groups[i]) continue;
    out.push(...uzBelowThousand(groups[i]));
    if (UZ_SCALES[i]) out.push(UZ_SCALES[i]);
  }
  return out.join(' ');
}

/** An Uzbek ordinal: "yigirma toʻrt" → "yigirma toʻrtinchi", "olti" → "oltinchi". */
function uzOrdinal(words: string): string {
  return /[aeiouoʻ]$/.test(words) ? `${words}nchi` : `${words}inchi`;
}

const UZ_MONTHS = ['yanvar', 'fevral', 'mart', 'aprel', 'may', 'iyun', 'iyul', 'avgust', 'sentabr', 'oktabr', 'noyabr', 'dekabr'];
const UK_MONTHS = ['январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'];

// ------------------------------------------------------------------ Russian

const RU_ONES_M = ['', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const RU_ONES_F = ['', 'одна', 'две', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const RU_TEENS = [
  'десять',
  'одиннадцать',
  'двенадцать',
  'тринадцать',
  'четырнадцать',
  'пятнадцать',
  'шестнадцать',
  'семнадцать',
  'восемнадцать',
  'девятнадцать',
];
const RU_TENS = ['', '', 'двадцать', 'тридцать', 'сорок', 'пятьдесят', 'шестьдесят', 'семьдесят', 'восемьдесят', 'девяносто'];
const RU_HUNDREDS = ['', 'сто', 'двести', 'триста', 'четыреста', 'пятьсот', 'шестьсот', 'семьсот', 'восемьсот', 'девятьсот'];
/** [one, few, many] of each scale and whether it is feminine */
const RU_SCALES: { forms: [string, string, string]; feminine: boolean }[] = [
  { forms: ['', '', ''], feminine: false },
  { forms: ['тысяча', 'тысячи', 'тысяч'], feminine: true },
  { forms: ['миллион', 'миллиона', 'миллионов'], feminine: false },
  { forms: ['миллиард', 'миллиарда', 'миллиардов'], feminine: false },
  { forms: ['триллион', 'триллиона', 'триллионов'], feminine: false },
  { forms: ['квадриллион', 'квадриллиона', 'квадриллионов'], feminine: false },
];

/** The Russian plural form for a count: 1 тысяча, 2 тысячи, 5 тысяч (11–14 тысяч). */
export function ruPlural(n: bigint | number, forms: [string, string, string]): string {
  const x = Number(BigInt(n) % 100n);
  if (x >= 11 && x <= 14) return forms[2];
  if (x % 10 === 1) return forms[0];
  if (x % 10 >= 2 && x % 10 <= 4) return forms[1];
  return forms[2];
}

function ruBelowThousand(n: number, feminine: boolean): string[] {
  const out: string[] = [];
  if (Math.floor(n / 100)) out.push(RU_HUNDREDS[Math.floor(n / 100)]);
  const r = n % 100;
  if (r >= 10 && r < 20) out.push(RU_TEENS[r - 10]);
  else {
    if (Math.floor(r / 10)) out.push(RU_TENS[Math.floor(r / 10)]);
    if (r % 10) out.push((feminine ? RU_ONES_F : RU_ONES_M)[r % 10]);
  }
  return out;
}

/** A whole number in Russian words: 2021 → "две тысячи двадцать один". */
export function ruNumber(n: bigint): string {
  if (n === 0n) return 'ноль';
  const groups = thousands(n);
  const out: string[] = [];
  for (let i = groups.length - 1; i >= 0; i--) {
    if (!groups[i]) continue;
    out.push(...ruBelowThousand(groups[i], RU_SCALES[i].feminine));
    if (i) out.push(ruPlural(groups[i], RU_SCALES[i].forms));
  }
  return out.join(' ');
}

const RU_ORD_UNITS = ['', 'перв', 'втор', 'трет', 'четвёрт', 'пят', 'шест', 'седьм', 'восьм', 'девят'];
const RU_ORD_TEENS = [
  'десят',
  'одиннадцат',
  'двенадцат',
  'тринадцат',
  'четырнадцат',
  'пятнадцат',
  'шестнадцат',
  'семнадцат',
  'восемнадцат',
  'девятнадцат',
];
const RU_ORD_TENS = ['', '', 'двадцат', 'тридцат', 'сороков', 'пятидесят', 'шестидесят', 'семидесят', 'восьмидесят', 'девяност'];
const RU_ORD_HUNDREDS = ['', 'сот', 'двухсот', 'трёхсот', 'четырёхсот', 'пятисот', 'шестисот', 'семисот', 'восьмисот', 'девятисот'];
const RU_ORD_THOUSANDS = [
  '',
  'тысячн',
  'двухтысячн',
  'трёхтысячн',
  'четырёхтысячн',
  'пятитысячн',
  'шеститысячн',
  'семитысячн',
  'восьмитысячн',
  'девятитысячн',
];

/** The ending of a Russian ordinal stem: neuter nominative ("-ое") or genitive ("-ого"); "трет" takes "-ье"/"-ьего". */
function ruOrdinalEnding(stem: string, kase: 'neuter' | 'genitive'): string {
  if (stem === 'трет') return kase === 'neuter' ? 'третье' : 'третьего';
  return stem + (kase === 'neuter' ? 'ое' : 'ого');
}

/** A Russian ordinal 1–9999: the cardinal words before its last non-zero part, that part an ordinal. */
export function ruOrdinal(n: number, kase: 'neuter' | 'genitive'): string {
  if (!Number.isInteger(n) || n < 1 || n > 9999) throw new RangeError(`ordinal out of range: ${n}`);
  const th = Math.floor(n / 1000);
  const rest = n % 1000;
  if (!rest) return ruOrdinalEnding(RU_ORD_THOUSANDS[th], kase);
  const head = th ? `${ruNumber(BigInt(th * 1000))} ` : '';
  const h = Math.floor(rest / 100);
  const r = rest % 100;
  if (!r) return head + ruOrdinalEnding(RU_ORD_HUNDREDS[h], kase);
  const hw = h ? `${RU_HUNDREDS[h]} ` : '';
  if (r >= 10 && r < 20) return head + hw + ruOrdinalEnding(RU_ORD_TEENS[r - 10], kase);
  if (r % 10 === 0) return head + hw + ruOrdinalEnding(RU_ORD_TENS[r / 10], kase);
  const tw = Math.floor(r / 10) ? `${RU_TENS[Math.floor(r / 10)]} ` : '';
  return head + hw + tw + ruOrdinalEnding(RU_ORD_UNITS[r % 10], kase);
}

const RU_MONTHS_GEN = [
  'января',
  'февраля',
  'марта',
  'апреля',
  'мая',
  'июня',
  'июля',
  'августа',
  'сентября',
  'октября',
  'ноября',
  'декабря',
];

// ------------------------------------------------------------------ shared

function thousands(n: bigint): number[] {
  if (n < 0n) throw new RangeError('a negative number has no words here');
  const groups: number[] = [];
  for (let x = n; x > 0n; x /= 1000n) groups.push(Number(x % 1000n));
  if (groups.length > UZ_SCALES.length) throw new RangeError('number too large');
  return groups;
}

/** A whole number in words in a language. */
export function numberInWords(n: bigint | number, lang: WordsLang): string {
  const b = BigInt(n);
  if (lang === 'ru') return ruNumber(b);
  return lang === 'uk' ? latinToCyrillic(uzNumber(b)) : uzNumber(b);
}

/**
 * A money amount in words: the soʻm in words, the tiyin as two digits.
 * "1200000.50" → uz "bir million ikki yuz ming soʻm 50 tiyin",
 * uk "бир миллион икки юз минг сўм 50 тийин", ru "один миллион двести тысяч сум 50 тийин".
 */
export function amountInWords(amount: string, lang: WordsLang): string {
  const tiyin = parseTiyin(amount, { allowNegative: false, name: 'amount' });
  const som = tiyin / TIYIN_PER_SOM;
  const rest = String(tiyin % TIYIN_PER_SOM).padStart(2, '0');
  if (lang === 'ru') return `${ruNumber(som)} сум ${rest} тийин`;
  const uz = `${uzNumber(som)} soʻm ${rest} tiyin`;
  return lang === 'uk' ? latinToCyrillic(uz) : uz;
}

/**
 * A date in words.
 * "2026-11-24" → uz "ikki ming yigirma oltinchi yil yigirma toʻrtinchi noyabr",
 * uk "икки минг йигирма олтинчи йил йигирма тўртинчи ноябрь",
 * ru "двадцать четвёртое ноября две тысячи двадцать шестого года".
 */
export function dateInWords(date: string, lang: WordsLang): string {
  assertIsoDate(date);
  const [y, m, d] = date.split('-').map(Number);
  if (lang === 'ru') return `${ruOrdinal(d, 'neuter')} ${RU_MONTHS_GEN[m - 1]} ${ruOrdinal(y, 'genitive')} года`;
  const year = `${uzOrdinal(uzNumber(BigInt(y)))} yil`;
  const day = uzOrdinal(uzNumber(BigInt(d)));
  if (lang === 'uk') return `${latinToCyrillic(year)} ${latinToCyrillic(day)} ${UK_MONTHS[m - 1]}`;
  return `${year} ${day} ${UZ_MONTHS[m - 1]}`;
}
