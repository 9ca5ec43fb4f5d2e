import { describe, expect, it } from 'vitest';
import raEnglish from 'ra-language-english';
import { flatten, I18N_CODE, STATIC_RESOURCES, apiCaptionsToI18next, createI18nProvider, i18n, missingKeys } from './index';
import raUz from './ra-uz.json';
import raUk from './ra-uk.json';
import appUz from './uz.json';
import appUk from './uk.json';
import appRu from './ru.json';

type Tree = { [k: string]: string | Tree };
const keys = (t: unknown) => Object.keys(flatten(t as Tree)).sort();
const placeholders = (s: string) => (s.match(/%\{\w+\}|\{\{\w+\}\}/g) ?? []).sort();

describe('translations of the back-office', () => {
  it('the Uzbek Latin catalogue has every message react-admin has', () => {
    expect(keys(raUz)).toEqual(keys(raEnglish));
  });

  it('the Uzbek Cyrillic catalogue has the same keys, placeholders and plural forms, in Cyrillic', () => {
    expect(keys(raUk)).toEqual(keys(raUz));
    const uz = flatten(raUz as Tree);
    for (const [k, v] of Object.entries(flatten(raUk as Tree))) {
      expect(placeholders(v), k).toEqual(placeholders(uz[k]));
      expect(v.split(' |||| ').length, k).toBe(uz[k].split(' |||| ').length);
      expect(v.replace(/%\{\w+\}/g, ''), k).not.toMatch(/[A-Za-z]/);
    }
  });

  it('the app captions have identical key sets and placeholders in uz, uk and ru', () => {
    expect(keys(appUk)).toEqual(keys(appUz));
    expect(keys(appRu)).toEqual(keys(appUz));
    const uz = flatten(appUz as Tree);
    for (const t of [appUk, appRu]) {
      for (const [k, v] of Object.entries(flatten(t as Tree))) expect(placeholders(v), k).toEqual(placeholders(uz[k]));
    }
  });

  it("names a field as its caption is written: no lowered first letter, which mangles acronyms ('iD', 'sTIR')", () => {
    for (const lang of Object.keys(STATIC_RESOURCES))
      for (const [k, v] of Object.entries(STATIC_RESOURCES[lang])) expect(String(v), `${lang} ${k}`).not.toContain('_lower_first');
  });

  it('Russian covers every react-admin message, with three plural forms', () => {
    const ru = STATIC_RESOURCES.ru;
    for (const k of Object.keys(STATIC_RESOURCES.uz)) {
      const base = k.replace(/_(one|other)$/, '');
      expect(k in ru || `${base}_one` in ru, k).toBe(true);
    }
    expect(ru['ra.notification.deleted_few']).toMatch(/\{\{smart_count\}\}/);
    expect(ru['ra.message.delete_content']).toBe('Удалить строку с номером {{id}}?');
  });

  it("names the first spinner (App.tsx, before the provider is made) from each catalogue's ra.page.loading", () => {
    expect(Object.fromEntries(Object.values(I18N_CODE).map((c) => [c, STATIC_RESOURCES[c]['ra.page.loading']]))).toEqual({
      uz: 'Yuklanmoqda',
      'uz-Cyrl': 'Юкланмоқда',
      ru: 'Загрузка',
    });
  });

  it('turns the API placeholders {name} into {{name}}', () => {
    expect(apiCaptionsToI18next({ a: 'Koʻpi bilan {limit} ta', b: '{{x}} {0}' })).toEqual({
      a: 'Koʻpi bilan {{limit}} ta',
      b: '{{x}} {{0}}',
    });
  });

  it('translates in each language without missing keys, uk as uz-Cyrl', async () => {
    const provider = await createI18nProvider('uz');
    const t = provider.translate;
    expect(t('ra.action.save')).toBe('Saqlash');
    expect(t('ra.notification.deleted', { smart_count: 1 })).toBe('Yozuv oʻchirildi');
    expect(t('ra.notification.deleted', { smart_count: 3 })).toBe('3 ta yozuv oʻchirildi');
    expect(t('ra.message.delete_content', { id: 12 })).toBe('12 raqamli qatorni oʻchirasizmi?');
    expect(t('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 25, total: 319 })).toBe('1–25, jami 319');
    await provider.changeLocale(I18N_CODE.uk);
    expect(i18n.language).toBe('uz-Cyrl');
    expect(t('ra.action.save')).toBe('Сақлаш');
    expect(t('ra.boolean.false')).toBe('Йўқ');
    expect(t('ra.action.bulk_actions', { smart_count: 2 })).toBe('2 та қатор танланди');
    await provider.changeLocale(I18N_CODE.ru);
    expect(t('ra.action.save')).toBe('Сохранить');
    expect(t('ra.notification.deleted', { smart_count: 1 })).toBe('Элемент удален');
    expect(t('ra.notification.deleted', { smart_count: 3 })).toBe('3 удалено');
    expect(t('ra.notification.deleted', { smart_count: 5 })).toBe('5 удалено');
    expect(t('admin.errors.connection')).toBe('Ошибка соединения');
    expect(missingKeys).toEqual([]);
    t('no.such.key');
    expect(missingKeys).toEqual([{ lng: 'uz', key: 'no.such.key', soft: false }]);
    t('no.such.key2', { _: 'default' });
    expect(missingKeys[1]).toMatchObject({ key: 'no.such.key2', soft: true });
  });
});
