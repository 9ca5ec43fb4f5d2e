import { useLocaleState } from 'react-admin';
import { wireLangOf } from '../i18n';
import type { Lang } from './format';

/** The language shown, as the API spells it. */
export function useLang(): Lang {
  const [locale] = useLocaleState();
  return wireLangOf(locale);
}
