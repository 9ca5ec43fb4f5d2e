import { createInstance, type i18n as I18next } from 'i18next';
import { convertRaTranslationsToI18next, getI18nProvider } from 'ra-i18n-i18next';
import type { I18nProvider } from 'react-admin';
import type { Lang } from '../meta/types';
import raRussian from 'ra-language-russian';
import raUz from './ra-uz.json';
import raUk from './ra-uk.json';
import raRuExtra from './ra-ru-extra.json';
import appUz from './uz.json';
import appUk from './uk.json';
import appRu from './ru.json';

/**
 * Translations of the back-office: react-admin's own messages (ra.*), the app's captions (admin.*)
 * and, once the user has signed in, the captions of /api/meta (entity.*, fields.*, menu.*, enums.*,
 * validation.*…) with the generated `resources.<name>.name` keys.
 *
 * `uk` on the wire is Uzbek Cyrillic; inside, i18next knows it as `uz-Cyrl` so that no Ukrainian
 * plural rules or Intl names ever apply. Uzbek Latin (uz) is the fallback of everything.
 *
 * Keys are flat (`keySeparator: false`): the API's caption keys already contain dots and dashes.
 */

/** The languages as the API spells them (its own `Lang`). */
export type WireLang = Lang;
export const WIRE_LANGS: WireLang[] = ['uz', 'uk', 'ru'];
export const I18N_CODE: Record<WireLang, string> = { uz: 'uz', uk: 'uz-Cyrl', ru: 'ru' };

export function wireLangOf(code: string | undefined | null): WireLang {
  if (code === 'uz-Cyrl' || code === 'uk') return 'uk';
  if (code === 'ru') return 'ru';
  return 'uz';
}

type Tree = { [k: string]: string | Tree };

/** `{a: {b: "x"}}` → `{"a.b": "x"}` */
export function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out[key] = v;
    else Object.assign(out, flatten(v, key));
  }
  return out;
}

/**
 * Russian has three plural forms where polyglot writes `one |||| few |||| many`; i18next wants
 * `_one`, `_few`, `_many` (and `_other` for fractions). Two-form messages serve few and many alike.
 */
export function splitRussianPlurals(tree: Tree): Tree {
  const out: Tree = {};
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v !== 'string') {
      out[k] = splitRussianPlurals(v);
      continue;
    }
    const forms = v.split(' |||| ');
    if (forms.length === 1) {
      out[k] = v;
      continue;
    }
    out[`${k}_one`] = forms[0];
    out[`${k}_few`] = forms[1];
    out[`${k}_many`] = forms[2] ?? forms[1];
    out[`${k}_other`] = forms[1];
  }
  return out;
}

/** The API's captions write placeholders as `{name}`; i18next reads `{{name}}`. */
export function apiCaptionsToI18next(captions: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(captions)) out[k] = v.replace(/(^|[^{])\{(\w+)\}(?!\})/g, '$1{{$2}}');
  return out;
}

function deepMerge(a: Tree, b: Tree): Tree {
  const out: Tree = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    out[k] = typeof v === 'object' && typeof cur === 'object' ? deepMerge(cur, v) : v;
  }
  return out;
}

const ra = (tree: Tree) => flatten(convertRaTranslationsToI18next(tree) as Tree);

/** Everything the bundle knows before /api/meta answers, by i18next language code. */
export const STATIC_RESOURCES: Record<string, Record<string, string>> = {
  uz: { ...ra(raUz as Tree), ...flatten(appUz as Tree) },
  'uz-Cyrl': { ...ra(raUk as Tree), ...flatten(appUk as Tree) },
  ru: { ...ra(splitRussianPlurals(deepMerge(raRussian as unknown as Tree, raRuExtra as Tree))), ...flatten(appRu as Tree) },
};

export interface MissingKey {
  lng: string;
  key: string;
  soft: boolean;
}

declare global {
  interface Window {
    __ecofondMissingKeys?: MissingKey[];
  }
}

/**
 * Keys asked for and found in no language. A key asked for with a default (react-admin's `_`)
 * still shows a text and is "soft"; one without renders raw and is a bug. The browser tests read
 * the list from `window.__ecofondMissingKeys` and fail on the bugs.
 */
export const missingKeys: MissingKey[] = typeof window !== 'undefined' ? (window.__ecofondMissingKeys ??= []) : [];

export const i18n: I18next = createInstance();

/**
 * The page follows the language shown: `<html lang>` (a screen reader reads each language with its
 * own voice and rules: uz-Latn, uz-Cyrl, ru) and the tab's title, from the first render on.
 */
if (typeof document !== 'undefined')
  i18n.on('languageChanged', (code: string) => {
    document.documentElement.lang = code === 'uz' ? 'uz-Latn' : code;
    document.title = `${i18n.t('admin.title')} — ${i18n.t('admin.subtitle')}`;
  });

export async function createI18nProvider(lang: WireLang): Promise<I18nProvider> {
  return getI18nProvider(
    i18n,
    {
      lng: I18N_CODE[lang],
      fallbackLng: 'uz',
      supportedLngs: ['uz', 'uz-Cyrl', 'ru'],
      keySeparator: false,
      nsSeparator: false,
      returnNull: false,
      returnEmptyString: false,
      interpolation: { escapeValue: false },
      resources: Object.fromEntries(Object.entries(STATIC_RESOURCES).map(([l, r]) => [l, { translation: r }])),
      saveMissing: true,
      missingKeyHandler: (
        lngs: readonly string[],
        _ns: string,
        key: string,
        _fallback: string,
        _update: boolean,
        options?: { defaultValue?: unknown },
      ) => {
        const lng = lngs.join(',');
        const soft = options?.defaultValue !== undefined && options.defaultValue !== '';
        if (!missingKeys.some((m) => m.key === key && m.lng === lng)) missingKeys.push({ lng, key, soft });
      },
    },
    WIRE_LANGS.map((l) => ({ locale: I18N_CODE[l], name: appUz.admin.lang[l] })),
  );
}

/** Adds the captions of an /api/meta answer (flat keys) to a language. */
export function addCaptions(code: string, captions: Record<string, string>): void {
  i18n.addResources(code, 'translation', captions);
}

/** The i18next code of the language now shown. */
export function currentCode(): string {
  return i18n.language || 'uz';
}
