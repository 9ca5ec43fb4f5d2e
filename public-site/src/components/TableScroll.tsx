import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useI18n } from '../i18n';

/**
 * A table's card that scrolls sideways when the table is wider than the screen (a phone), and
 * says so: a line above it names the columns off-screen to the right ("2 more columns →: Plan,
 * Done") and a button scrolls to them; the first column stays (sticky, styles.css). Nothing shows
 * when the whole table fits.
 */
export function TableScroll({ children, busy, testId }: { children: ReactNode; busy?: boolean; testId?: string }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState<string[]>([]);
  // a table that scrolls sideways is a tab stop, so that the keyboard's arrows scroll it
  const [scrolls, setScrolls] = useState(false);
  const measure = useCallback(() => {
    const el = box.current;
    if (!el) return;
    setScrolls(el.scrollWidth > el.clientWidth + 1);
    const right = el.getBoundingClientRect().right - 4;
    const heads = Array.from(el.querySelectorAll<HTMLElement>('thead th'));
    const off =
      el.scrollWidth > el.clientWidth + 1
        ? heads
            .filter((th) => th.offsetParent !== null && th.getBoundingClientRect().right > right + 1)
            .map((th) => (th.textContent ?? '').trim())
        : [];
    setHidden((old) => (old.join('\u0000') === off.join('\u0000') ? old : off));
  }, []);
  useEffect(() => {
    measure();
    const el = box.current;
    if (!el) return undefined;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    const table = el.querySelector('table');
    if (table) ro.observe(table);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, [measure, children]);
  return (
    <section className="card table-scroll" aria-busy={busy} data-testid={testId}>
      {hidden.length > 0 && (
        <p className="table-more small" data-testid="table-more">
          <span>{t('table.more_columns', { n: hidden.length, names: hidden.join(', ') })}</span>
          <button
            type="button"
            className="link-button"
            onClick={() => box.current?.scrollBy({ left: box.current.clientWidth * 0.8, behavior: 'smooth' })}
          >
            {t('table.scroll_right')}
          </button>
        </p>
      )}
      <div className="table-wrap" ref={box} tabIndex={scrolls ? 0 : undefined}>
        {children}
      </div>
    </section>
  );
}
