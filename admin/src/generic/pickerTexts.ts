import type { PickersLocaleText } from '@mui/x-date-pickers/locales';
import type { Lang } from './format';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * dayjs's locale of each language: month and day names, the week's first day. `uz` is dayjs's
 * Uzbek **Cyrillic** and `uz-latn` its Latin: our `uk` (Uzbek Cyrillic, never Ukrainian) is dayjs's `uz`.
 */
export const DAYJS_LOCALE: Record<Lang, string> = { uz: 'uz-latn', uk: 'uz', ru: 'ru' };

/**
 * Every text of MUI X's pickers, from the back-office's catalogue (`admin.picker.*`) in the language
 * shown: the field's placeholders (kk.oo.yyyy, кк.оо.йййй, дд.мм.гггг), the buttons, the toolbar's
 * titles and what screen readers are told. MUI's ukUA is Ukrainian and is never used.
 */
export function pickerTexts(translate: Translate): PickersLocaleText {
  const t = (key: string, options?: Record<string, unknown>) => translate(`admin.picker.${key}`, options);
  const view = (v: string) => t(v === 'hours' || v === 'minutes' || v === 'seconds' || v === 'meridiem' ? v : 'day');
  return {
    previousMonth: t('previous_month'),
    nextMonth: t('next_month'),
    openPreviousView: t('open_previous_view'),
    openNextView: t('open_next_view'),
    calendarViewSwitchingButtonAriaLabel: (v) => (v === 'year' ? t('switch_to_calendar') : t('switch_to_years')),
    start: t('start'),
    end: t('end'),
    startDate: t('start_date'),
    startTime: t('start_time'),
    endDate: t('end_date'),
    endTime: t('end_time'),
    cancelButtonLabel: t('cancel'),
    clearButtonLabel: t('clear'),
    okButtonLabel: t('ok'),
    todayButtonLabel: t('today'),
    nextStepButtonLabel: t('next_step'),
    datePickerToolbarTitle: t('toolbar_date'),
    dateTimePickerToolbarTitle: t('toolbar_datetime'),
    timePickerToolbarTitle: t('toolbar_time'),
    dateRangePickerToolbarTitle: t('toolbar_range'),
    timeRangePickerToolbarTitle: t('toolbar_time'),
    clockLabelText: (v, time) => `${t('select_view', { view: view(v) })}. ${time ? t('time_chosen', { time }) : t('no_time')}`,
    hoursClockNumberText: (n) => t('hours_n', { n }),
    minutesClockNumberText: (n) => t('minutes_n', { n }),
    secondsClockNumberText: (n) => t('seconds_n', { n }),
    selectViewText: (v) => t('select_view', { view: view(v) }),
    calendarWeekNumberHeaderLabel: t('week_number'),
    calendarWeekNumberHeaderText: t('week_number_short'),
    calendarWeekNumberAriaLabelText: (n) => t('week_n', { n }),
    calendarWeekNumberText: (n) => String(n),
    openDatePickerDialogue: (date) => (date ? t('open_date_chosen', { date }) : t('open_date')),
    openTimePickerDialogue: (time) => (time ? t('open_time_chosen', { time }) : t('open_time')),
    openRangePickerDialogue: (range) => (range ? t('open_range_chosen', { range }) : t('open_range')),
    fieldClearLabel: t('field_clear'),
    timeTableLabel: t('time_table'),
    dateTableLabel: t('date_table'),
    fieldYearPlaceholder: (p) => t('ph_year').charAt(0).repeat(p.digitAmount),
    fieldMonthPlaceholder: (p) => (p.contentType === 'letter' ? t('ph_month_letter') : t('ph_month')),
    fieldDayPlaceholder: () => t('ph_day'),
    fieldWeekDayPlaceholder: () => t('ph_week_day'),
    fieldHoursPlaceholder: () => t('ph_hours'),
    fieldMinutesPlaceholder: () => t('ph_minutes'),
    fieldSecondsPlaceholder: () => t('ph_seconds'),
    fieldMeridiemPlaceholder: () => t('ph_meridiem'),
    year: t('year'),
    month: t('month'),
    day: t('day'),
    weekDay: t('week_day'),
    hours: t('hours'),
    minutes: t('minutes'),
    seconds: t('seconds'),
    meridiem: t('meridiem'),
    empty: t('empty'),
  };
}
