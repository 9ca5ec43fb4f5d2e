import uz from './i18n/uz.json';
import uk from './i18n/uk.json';
import ru from './i18n/ru.json';

/** The app's three languages: uz (Uzbek, Latin, the default), uk (Uzbek, Cyrillic), ru. */
export type Lang = 'uz' | 'uk' | 'ru';
export const LANGS: { code: Lang; label: string }[] = [
  { code: 'uz', label: 'Oʻzbekcha' },
  { code: 'uk', label: 'Ўзбекча' },
  { code: 'ru', label: 'Русский' },
];
const CATALOGUES: Record<Lang, Record<string, string>> = { uz, uk, ru };
const KEY = 'ecofond.field.lang';

export function savedLang(): Lang {
  const v = localStorage.getItem(KEY);
  return v === 'uk' || v === 'ru' ? v : 'uz';
}
export function saveLang(l: Lang): void {
  localStorage.setItem(KEY, l);
  document.documentElement.lang = l === 'uk' ? 'uz-Cyrl' : l;
}

export type T = (key: string, args?: Record<string, string | number>) => string;

/** The caption of `key` in `lang` ({{name}} filled from args), the Latin one where a catalogue lacks it. */
export function translator(lang: Lang): T {
  return (key, args) => {
    const text = CATALOGUES[lang][key] ?? CATALOGUES.uz[key] ?? key;
    return args ? text.replace(/\{\{(\w+)\}\}/g, (_, n: string) => String(args[n] ?? '')) : text;
  };
}

/** A reference row's name in the language shown (text3: {uz, uk, ru}). */
export function nameOf(row: { name?: unknown } | undefined, lang: Lang): string {
  const n = row?.name;
  if (n && typeof n === 'object') {
    const m = n as Record<string, string | null>;
    return m[lang] || m.uz || '';
  }
  return typeof n === 'string' ? n : '';
}
