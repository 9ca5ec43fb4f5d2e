import { useMemo, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import 'dayjs/locale/uz-latn';
import 'dayjs/locale/uz';
import 'dayjs/locale/ru';
import dayjs from 'dayjs';
import { useLang } from './useLang';
import { DAYJS_LOCALE, pickerTexts } from './pickerTexts';

// Uzbek in Cyrillic spells the months as the project does everywhere else (api/domain/words.ts,
// the public site's catalogue): январь, not dayjs's январ
const uzCyrillic = dayjs.Ls.uz as unknown as { months?: string[] } | undefined;
if (uzCyrillic)
  uzCyrillic.months = ['январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'];

/**
 * The one localisation of the date pickers (docs/decisions/0085), around the signed-in back-office
 * (layout/AppLayout.tsx): dayjs's month and day names and MUI X's texts in the language shown,
 * following the language switch. The pickers themselves load with the first form or filter that
 * has a date (generic/DateInput.tsx).
 */
export function DatesProvider({ children }: { children: ReactNode }) {
  const lang = useLang();
  const translate = useTranslate();
  // react-admin keeps one translate across a language switch: the texts are made again for each language
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `translate` answers in the language shown without changing itself: `lang` says when its answers change
  const localeText = useMemo(() => pickerTexts(translate), [translate, lang]);
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={DAYJS_LOCALE[lang]} localeText={localeText}>
      {children}
    </LocalizationProvider>
  );
}
