import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { contacts } from '../config';
import { LANGS, useI18n } from '../i18n';
import { MENU, siteMenu } from '../nav';
import { useLangApi, type EntityPage, type SiteMenuItem } from '../api';
import { href } from '../router';
import { scrollToElement } from '../scroll';
import { Icon } from './ui';
import { ChatSlot } from '../chat/ChatSlot';

/** Header (50 px, sticky) with the main links, the language switcher and the full menu; footer. */
export function Layout({ path, children }: { path: string; children: ReactNode }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setOpen(false);
  }, [path]);
  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  // the menu is the back-office's (`menu`); the built-in one while it loads or if it cannot be read
  const fromSite = useLangApi<EntityPage<SiteMenuItem>>('/public/entities/menu?perPage=100');
  const groups = fromSite.data
    ? siteMenu(fromSite.data.rows, t)
    : MENU.map((g) => ({ title: t(g.title), items: g.items.map((i) => ({ path: i.path, caption: t(i.title) })) }));
  const current = (p: string) => (p === '/' ? path === '/' : path === p || path.startsWith(`${p}/`));
  const isStats = path.endsWith('-statistics');

  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          const main = document.getElementById('main');
          if (main) {
            void scrollToElement(main, { duration: 0 });
            main.focus({ preventScroll: true });
          }
        }}
      >
        {t('a11y.skip')}
      </a>
      <header className="site-header">
        <div className="header-inner">
          <a className="brand" href={href('/')} aria-label={`${t('app.name')} — ${t('nav.home')}`}>
            <Icon name="leaf" className="brand-icon" />
            <span className="brand-name">{t('app.name')}</span>
          </a>
          <nav className="top-nav" aria-label={t('nav.main')}>
            <a href={href('/map')} aria-current={current('/map') ? 'page' : undefined}>
              {t('nav.map')}
            </a>
            <a href={href('/region-plantings-statistics')} aria-current={isStats ? 'page' : undefined}>
              {t('nav.statistics')}
            </a>
            <a href={href('/news')} aria-current={current('/news') ? 'page' : undefined}>
              {t('nav.news')}
            </a>
            <a className="cta" href={href('/population-seedlings')} aria-current={current('/population-seedlings') ? 'page' : undefined}>
              {t('nav.plant')}
            </a>
          </nav>
          <LanguageSwitcher />
          <button
            ref={button}
            type="button"
            className="icon-btn menu-btn"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={open ? t('nav.close') : t('nav.menu')}
            onClick={() => setOpen((o) => !o)}
            data-testid="menu-button"
          >
            <Icon name={open ? 'close' : 'menu'} />
          </button>
        </div>
        <div ref={panel} id={menuId} className="menu-panel" hidden={!open}>
          <nav aria-label={t('nav.menu')} className="menu-groups">
            {groups.map((g) => (
              <section key={g.title} className="menu-group">
                <h2>{g.title}</h2>
                <ul>
                  {g.items.map((i) => (
                    <li key={`${i.path}:${i.caption}`}>
                      {/^https:/.test(i.path) ? (
                        <a href={i.path} target="_blank" rel="noopener">
                          {i.caption}
                          <span className="visually-hidden"> {t('common.new_window')}</span>
                        </a>
                      ) : (
                        <a href={href(i.path)} aria-current={current(i.path) ? 'page' : undefined}>
                          {i.caption}
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
              </section>
            ))}
            {!groups.length && (
              <p className="muted" data-testid="menu-empty">
                {t('menu.empty')}
              </p>
            )}
          </nav>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="footer-inner">
          <p>{t('footer.about')}</p>
          <ul className="footer-links">
            <li>
              <a href={href('/about')}>{t('page.about')}</a>
            </li>
            <li>
              <a href={href('/contacts')}>{t('page.contacts')}</a>
            </li>
            <li>
              <a href={href('/verify')} data-testid="footer-verify">
                {t('page.verify')}
              </a>
            </li>
            {contacts().hotline && (
              <li>
                {t('footer.hotline')}: {contacts().tel ? <a href={`tel:${contacts().tel}`}>{contacts().hotline}</a> : contacts().hotline}
              </li>
            )}
          </ul>
          <p>
            © {new Date().getFullYear()} {t('app.fund')} · <a href="/admin/">{t('footer.staff')}</a>
          </p>
        </div>
      </footer>
      <ChatSlot />
    </>
  );
}

export function LanguageSwitcher() {
  const { lang, setLang, t } = useI18n();
  return (
    <div className="lang-switch" role="group" aria-label={t('lang.label')}>
      {LANGS.map((l) => (
        <button
          key={l.code}
          type="button"
          lang={l.html}
          aria-pressed={lang === l.code}
          title={l.name}
          // what it shows, then the language's name ("uz — Oʻzbekcha"): the visible words are in the name
          aria-label={`${l.short} — ${l.name}`}
          onClick={() => setLang(l.code)}
          data-testid={`lang-${l.code}`}
        >
          {l.short}
        </button>
      ))}
    </div>
  );
}
