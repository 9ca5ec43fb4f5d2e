import { describe, expect, it } from 'vitest';
import { I18N_CODE, createI18nProvider } from '../i18n';
import { describeFileLimits, describeFileTypes } from './fileTypes';

describe('file types in words', () => {
  it('says what a file field accepts in each language, never a MIME type', async () => {
    const provider = await createI18nProvider('uz');
    const t = provider.translate as (k: string, o?: Record<string, unknown>) => string;
    const cases: [string[] | undefined, number | undefined][] = [
      [['image/png', 'image/jpeg', 'image/svg+xml'], 2],
      [['application/pdf', 'image/*'], 20],
      [['image/*'], 10],
      [undefined, undefined],
      [['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '.csv'], 5],
      [['application/pdf', 'image/png'], 1.5],
    ];
    const say = () => cases.map(([a, mb]) => describeFileLimits(a, mb, t));
    expect(say()).toEqual([
      'PNG, JPEG yoki SVG rasm, 2 MB gacha',
      'PDF yoki rasm, 20 MB gacha',
      'Rasm, 10 MB gacha',
      'Istalgan fayl, 20 MB gacha',
      'Excel yoki CSV, 5 MB gacha',
      'PDF yoki PNG, 1,5 MB gacha',
    ]);
    await provider.changeLocale(I18N_CODE.uk);
    expect(say()).toEqual([
      'PNG, JPEG ёки SVG расм, 2 МБ гача',
      'PDF ёки расм, 20 МБ гача',
      'Расм, 10 МБ гача',
      'Исталган файл, 20 МБ гача',
      'Excel ёки CSV, 5 МБ гача',
      'PDF ёки PNG, 1,5 МБ гача',
    ]);
    await provider.changeLocale(I18N_CODE.ru);
    expect(say()).toEqual([
      'Изображение PNG, JPEG или SVG, до 2 МБ',
      'PDF или изображение, до 20 МБ',
      'Изображение, до 10 МБ',
      'Любой файл, до 20 МБ',
      'Excel или CSV, до 5 МБ',
      'PDF или PNG, до 1,5 МБ',
    ]);
    for (const s of say()) expect(s).not.toMatch(/\w+\/[\w.+*-]+/);
    expect(describeFileTypes(['image/png'], t)).toBe('изображение PNG');
    // a people fact's photos and short videos
    expect(describeFileTypes(['image/*', 'video/mp4', 'video/webm', 'video/quicktime'], t)).toBe('MP4, WebM, MOV или изображение');
  });
});
