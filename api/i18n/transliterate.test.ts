import { describe, expect, it } from 'vitest';
import { latinToCyrillic } from './transliterate.ts';
import { readFileSync } from 'node:fs';

describe('Uzbek Latin → Cyrillic', () => {
  it('follows the alphabets\' correspondence', () => {
    expect(latinToCyrillic('Ushbu kiritma majburiy')).toBe('Ушбу киритма мажбурий');
    expect(latinToCyrillic('Sessiya vaqt tugadi')).toBe('Сессия вақт тугади');
    expect(latinToCyrillic('Oʻzbekiston Respublikasi')).toBe('Ўзбекистон Республикаси');
    expect(latinToCyrillic("Fargʻona, Fargʻona, Farg'ona")).toBe('Фарғона, Фарғона, Фарғона');
    expect(latinToCyrillic('Qashqadaryo')).toBe('Қашқадарё');
    expect(latinToCyrillic('maʼlumot')).toBe('маълумот');
    expect(latinToCyrillic('Yoʻq, yoʻl')).toBe('Йўқ, йўл');
    expect(latinToCyrillic('Ekologiya, yer, Shahar, SHAHAR, choy')).toBe('Экология, ер, Шаҳар, ШАҲАР, чой');
  });

  it('writes the ts of loanwords as ц only where they have it', () => {
    expect(latinToCyrillic('Kompensatsiya, moderatsiya, koeffitsient, stansiya')).toBe('Компенсация, модерация, коэффициент, стансия');
    expect(latinToCyrillic('Agar ketsa, tutsa')).toBe('Агар кетса, тутса');
    expect(latinToCyrillic('Tsiyalash')).toBe('Циялаш');
  });

  it('keeps the soft sign of loanwords', () => {
    expect(latinToCyrillic('Parolni kiriting, filtr, Modullar, kalkulyator, Profil')).toBe('Парольни киритинг, фильтр, Модульлар, калькулятор, Профиль');
    expect(latinToCyrillic('aparol')).toBe('апарол');
    expect(latinToCyrillic('Kalit paroli, filtri')).toBe('Калит пароли, фильтри');
  });

  it('keeps placeholders as they are', () => {
    expect(latinToCyrillic('{0} raqamli qator, %{count} ta, {name}')).toBe('{0} рақамли қатор, %{count} та, {name}');
  });

  it('agrees with the reviewed Cyrillic names of the regions', () => {
    const { regions } = JSON.parse(readFileSync(new URL('../../seeds/data/regions.json', import.meta.url), 'utf8'));
    for (const r of regions) expect(latinToCyrillic(r.uz), r.uz).toBe(r.uk);
  });
});
