import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import uz from './uz.json';
import uk from './uk.json';
import ru from './ru.json';

/**
 * The site's captions in three languages, by hand: `uk` is Uzbek CYRILLIC on the wire, never
 * Ukrainian, so no i18n library and no `Intl` call ever sees it (inside it is `uz-Cyrl`).
 * uz is the default and the fallback. A key missing everywhere renders as nothing, is recorded in
 * `window.__ecofondMissingKeys` and logged, and the browser tests fail on it.
 */
export type Lang = 'uz' | 'uk' | 'ru';
export type Key = keyof typeof uz;
export type Params = Record<string, string | number>;

const DICTS: Record<Lang, Record<string, string>> = { uz, uk, ru };
const STORAGE_KEY = 'ecofond.lang'; // shared with the back-office (same origin)

export const LANGS: { code: Lang; short: string; name: string; html: string }[] = [
  { code: 'uz', short: 'uz', name: 'Oʻzbekcha', html: 'uz-Latn' },
  { code: 'uk', short: 'Ўз', name: 'Ўзбекча', html: 'uz-Cyrl' },
  { code: 'ru', short: 'ru', name: 'Русский', html: 'ru' },
];

export interface MissingKey {
  lng: string;
  key: string;
}

function recordMissing(lng: string, key: string): void {
  const w = window as unknown as { __ecofondMissingKeys?: MissingKey[] };
  const list = (w.__ecofondMissingKeys ??= []);
  if (!list.some((m) => m.lng === lng && m.key === key)) {
    list.push({ lng, key });
    console.error(`[i18n] missing caption "${key}" (${lng})`);
  }
}

/** The caption of `key` in `lang`, falling back to uz; `{name}` placeholders filled from params. */
export function translate(lang: Lang, key: string, params?: Params): string {
  let text = DICTS[lang][key];
  if (text === undefined) {
    recordMissing(lang, key);
    text = DICTS.uz[key];
    if (text === undefined) return '';
  }
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** True when the key exists (for captions chosen from data, such as enum values). */
export function hasKey(key: string): key is Key {
  return key in DICTS.uz;
}

export function rememberedLang(): Lang {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    if (v === 'uz' || v === 'uk' || v === 'ru') return v;
  } catch {
    /* private mode */
  }
  return 'uz';
}

export type T = (key: Key, params?: Params) => string;

interface I18n {
  lang: Lang;
  setLang: (l: Lang) => void;
  t: T;
}
const Ctx = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(rememberedLang);
  const setLang = useCallback((l: Lang) => {
    setLangState(l);
    try {
      localStorage.setItem(STORAGE_KEY, l);
    } catch {
      /* private mode */
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = LANGS.find((l) => l.code === lang)!.html;
  }, [lang]);
  const value = useMemo<I18n>(() => ({ lang, setLang, t: (key, params) => translate(lang, key, params) }), [lang, setLang]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const v = useContext(Ctx);
  if (!v) throw new Error('useI18n outside I18nProvider');
  return v;
}

/** A name given in the three languages by the API ({uz, uk, ru}), in the current one. */
export function pick(name: Partial<Record<Lang, string>> | null | undefined, lang: Lang): string {
  if (!name) return '';
  return name[lang] || name.uz || name.ru || name.uk || '';
}
