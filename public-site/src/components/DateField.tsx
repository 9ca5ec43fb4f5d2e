import { useEffect, useRef, useState } from 'react';
import { useI18n, type Key } from '../i18n';
import { dmyToIso, isoToDmy, maskDate, normaliseDmy } from '../dates';

/**
 * A date typed as DD.MM.YYYY in the page's language (docs/decisions/0085), in place of the
 * browser's `<input type="date">`, which follows the browser's locale (mm/dd/yyyy). Its
 * placeholder says the order in the language (kk.oo.yyyy, кк.оо.йййй, дд.мм.гггг); the dots come by
 * themselves; the date once whole is spelled out under it with its month's name, so a day and a
 * month typed the wrong way round are seen. `onChange` gets `YYYY-MM-DD` for a whole, real date
 * and what is typed otherwise (the form's check names it). No calendar: the public site carries
 * no UI library, and typing eight digits is the quicker way for a date one knows.
 */
export function DateField({
  id,
  name,
  value,
  onChange,
  max,
  required,
  invalid,
  describedBy,
  testId,
}: {
  id: string;
  name?: string;
  /** `YYYY-MM-DD`, or what was typed */
  value: string;
  onChange: (value: string) => void;
  /** the last day allowed, `YYYY-MM-DD` (the form checks it; kept on the input for tests and readers of the page) */
  max?: string;
  required?: boolean;
  invalid?: boolean;
  describedBy?: string;
  testId?: string;
}) {
  const { t } = useI18n();
  const [text, setText] = useState(() => isoToDmy(value));
  // the value this field gave last: another one came from elsewhere (a link, a reset) and is shown
  const given = useRef(value);
  useEffect(() => {
    if (value === given.current) return;
    given.current = value;
    setText(isoToDmy(value));
  }, [value]);

  const emit = (s: string) => {
    const next = dmyToIso(s) ?? s;
    setText(s);
    if (next === given.current) return;
    given.current = next;
    onChange(next);
  };
  const iso = dmyToIso(text);
  const spelledId = `${id}-spelled`;
  return (
    <>
      <input
        id={id}
        name={name}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        maxLength={10}
        placeholder={t('date.placeholder')}
        value={text}
        data-max={max}
        data-testid={testId}
        required={required}
        aria-invalid={invalid}
        aria-describedby={[describedBy, spelledId].filter(Boolean).join(' ')}
        onChange={(e) => emit(maskDate(e.target.value, text))}
        onBlur={() => {
          const n = normaliseDmy(text);
          if (n !== text) emit(n);
        }}
        className="date-input"
      />
      <p id={spelledId} className="hint date-spelled" data-testid={testId ? `${testId}-spelled` : undefined}>
        {iso ? spell(iso, t) : t('date.format')}
      </p>
    </>
  );
}

function spell(iso: string, t: (k: Key, p?: Record<string, string | number>) => string): string {
  const [y, m, d] = iso.split('-');
  return t('date.spelled', { year: y, month: t(`date.m${Number(m)}` as Key), day: Number(d) });
}
