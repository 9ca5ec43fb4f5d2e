import { EmptyState, ErrorState, Icon, Loading, PageTitle } from '../components/ui';
import { RichText } from '../components/RichText';
import { contacts } from '../config';
import { useLangApi, type EntityPage, type SiteContent } from '../api';
import { useI18n } from '../i18n';
import { href } from '../router';

/**
 * /about (the "Yashil makon" nationwide project and the decree it started with) and /contacts
 * (the hotline). Their texts are the back-office's site content (`site-content`, sections `about`
 * and `contacts`, docs/site-content.md), read in the caller's language: a change there shows here
 * without a redeploy. The hotline and e-mail come from the settings (config.ts).
 */
export default function Info({ path }: { path: string }) {
  return path === '/contacts' ? <Contacts /> : <About />;
}

/** The published texts of a section of the site, in their order. */
function useSection(code: string) {
  return useLangApi<EntityPage<SiteContent>>(`/public/entities/site-content?section_code=${code}&perPage=100`);
}

function Texts({ rows, testId }: { rows: SiteContent[]; testId: string }) {
  return (
    <>
      {rows.map((s) => (
        <section key={s.id} className="card prose" data-testid={`${testId}-${s.code}`}>
          {s.title && <h2>{s.title}</h2>}
          <RichText html={s.body} />
        </section>
      ))}
    </>
  );
}

function About() {
  const { t } = useI18n();
  const texts = useSection('about');
  return (
    <article className="container narrow prose-page" data-testid="about">
      <PageTitle sub={t('about.lead')}>{t('page.about')}</PageTitle>
      {texts.loading && <Loading />}
      {texts.error && <ErrorState error={texts.error} retry={texts.reload} />}
      {texts.data &&
        (texts.data.rows.length ? (
          <Texts rows={texts.data.rows} testId="about" />
        ) : (
          <EmptyState title={t('content.empty')} testId="about-empty" />
        ))}
      <section className="card prose">
        <p className="row-gap">
          <a className="btn primary" href={href('/population-seedlings')}>
            {t('page.planting_form')}
          </a>
          <a className="btn" href={href('/map')}>
            {t('page.map')}
          </a>
          <a className="btn" href={href('/contacts')}>
            {t('page.contacts')}
          </a>
        </p>
      </section>
    </article>
  );
}

function Contacts() {
  const { t } = useI18n();
  const c = contacts();
  const texts = useSection('contacts');
  const text = (code: string) => texts.data?.rows.find((r) => r.code === code);
  const hotline = text('contacts-hotline');
  const write = text('contacts-write');
  const others = texts.data?.rows.filter((r) => r !== hotline && r !== write) ?? [];
  return (
    <div className="container narrow" data-testid="contacts">
      <PageTitle sub={t('contacts.lead')}>{t('page.contacts')}</PageTitle>
      {texts.error && <ErrorState error={texts.error} retry={texts.reload} />}
      {/* a contact the deployment has not set is left out, never made up (config.ts) */}
      {(c.hotline || hotline?.body) && (
        <section className="card hotline">
          <Icon name="phone" className="empty-icon" />
          <h2>{hotline?.title || t('contacts.hotline')}</h2>
          {c.hotline && (
            <p className="hotline-number">
              {c.tel ? (
                <a href={`tel:${c.tel}`} data-testid="hotline">
                  {c.hotline}
                </a>
              ) : (
                <span data-testid="hotline">{c.hotline}</span>
              )}
            </p>
          )}
          {hotline?.body && <RichText html={hotline.body} className="muted" />}
        </section>
      )}
      {(c.email || write?.body) && (
        <section className="card">
          <h2>{write?.title || t('contacts.write')}</h2>
          {c.email && (
            <p>
              <Icon name="mail" />{' '}
              <a href={`mailto:${c.email}`} data-testid="email">
                {c.email}
              </a>
            </p>
          )}
          {write?.body && <RichText html={write.body} className="muted" />}
        </section>
      )}
      <Texts rows={others} testId="contacts" />
      <section className="card">
        <h2>{t('contacts.other')}</h2>
        <ul className="link-list">
          <li>
            <a href={href('/suggestion')}>{t('page.suggestion')}</a>
          </li>
          <li>
            <a href={href('/illegal-loggers')}>{t('page.illegal_loggers')}</a>
          </li>
          <li>
            <a href={href('/population-seedlings')}>{t('page.planting_form')}</a>
          </li>
          <li>
            <a href={href('/about')}>{t('page.about')}</a>
          </li>
          <li>
            <a href="/admin/">{t('footer.staff')}</a>
          </li>
        </ul>
      </section>
    </div>
  );
}
