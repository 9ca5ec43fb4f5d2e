import type { WireLang } from './i18n';

/** The language the user last chose in this browser (uz until they choose). */
const KEY = 'ecofond.lang';

export function rememberedLang(): WireLang | null {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'uz' || v === 'uk' || v === 'ru' ? v : null;
  } catch {
    return null;
  }
}

export function rememberLang(lang: WireLang): void {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    /* private mode */
  }
}
