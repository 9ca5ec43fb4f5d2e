import { describe, expect, it } from 'vitest';
import { amountInWords, dateInWords, numberInWords, ruOrdinal, ruPlural } from './words.ts';

describe('numbers in words', () => {
  it('spells Uzbek Latin with the ʻ letter', () => {
    expect(numberInWords(0, 'uz')).toBe('nol');
    expect(numberInWords(14, 'uz')).toBe('oʻn toʻrt');
    expect(numberInWords(199, 'uz')).toBe('bir yuz toʻqson toʻqqiz');
    expect(numberInWords(1_200_000, 'uz')).toBe('bir million ikki yuz ming');
    expect(numberInWords(2_026, 'uz')).toBe('ikki ming yigirma olti');
    expect(numberInWords(3_000_000_001n, 'uz')).toBe('uch milliard bir');
  });
  it('spells Uzbek Cyrillic with ў қ ғ ҳ', () => {
    expect(numberInWords(94, 'uk')).toBe('тўқсон тўрт');
    expect(numberInWords(40, 'uk')).toBe('қирқ');
  });
  it('spells Russian with genders and plural forms', () => {
    expect(numberInWords(1_000, 'ru')).toBe('одна тысяча');
    expect(numberInWords(2_021, 'ru')).toBe('две тысячи двадцать один');
    expect(numberInWords(5_000_000, 'ru')).toBe('пять миллионов');
    expect(numberInWords(11_000, 'ru')).toBe('одиннадцать тысяч');
    expect(numberInWords(342_112, 'ru')).toBe('триста сорок две тысячи сто двенадцать');
    expect(ruPlural(22, ['тысяча', 'тысячи', 'тысяч'])).toBe('тысячи');
    expect(ruPlural(111, ['тысяча', 'тысячи', 'тысяч'])).toBe('тысяч');
  });
});

describe('amounts in words', () => {
  it('writes soʻm in words and tiyin as two digits, exactly', () => {
    expect(amountInWords('1200000.50', 'uz')).toBe('bir million ikki yuz ming soʻm 50 tiyin');
    expect(amountInWords('1200000.50', 'uk')).toBe('бир миллион икки юз минг сўм 50 тийин');
    expect(amountInWords('1200000.50', 'ru')).toBe('один миллион двести тысяч сум 50 тийин');
    expect(amountInWords('375000', 'ru')).toBe('триста семьдесят пять тысяч сум 00 тийин');
    expect(amountInWords('0.07', 'uz')).toBe('nol soʻm 07 tiyin');
    // a value a float cannot hold stays exact
    expect(amountInWords('9007199254740993.99', 'uz')).toMatch(/ toʻqson uch soʻm 99 tiyin$/);
  });
  it('refuses what is not an amount', () => {
    expect(() => amountInWords('-1', 'uz')).toThrow();
    expect(() => amountInWords('1.005', 'uz')).toThrow();
    expect(() => amountInWords('abc', 'ru')).toThrow();
  });
});

describe('dates in words', () => {
  it('writes the year and the day as ordinals', () => {
    expect(dateInWords('2026-11-24', 'uz')).toBe('ikki ming yigirma oltinchi yil yigirma toʻrtinchi noyabr');
    expect(dateInWords('2026-11-24', 'uk')).toBe('икки минг йигирма олтинчи йил йигирма тўртинчи ноябрь');
    expect(dateInWords('2026-11-24', 'ru')).toBe('двадцать четвёртое ноября две тысячи двадцать шестого года');
    expect(dateInWords('2000-03-01', 'ru')).toBe('первое марта двухтысячного года');
    expect(dateInWords('2023-02-03', 'ru')).toBe('третье февраля две тысячи двадцать третьего года');
    expect(dateInWords('2010-05-10', 'uz')).toBe('ikki ming oʻninchi yil oʻninchi may');
    expect(dateInWords('2030-12-30', 'uz')).toBe('ikki ming oʻttizinchi yil oʻttizinchi dekabr');
  });
  it('forms Russian ordinals', () => {
    expect(ruOrdinal(12, 'neuter')).toBe('двенадцатое');
    expect(ruOrdinal(1999, 'genitive')).toBe('одна тысяча девятьсот девяносто девятого');
    expect(ruOrdinal(2100, 'genitive')).toBe('две тысячи сотого');
    expect(ruOrdinal(1940, 'genitive')).toBe('одна тысяча девятьсот сорокового');
  });
  it('refuses what is not a date', () => {
    expect(() => dateInWords('2023-02-29', 'uz')).toThrow();
  });
});
