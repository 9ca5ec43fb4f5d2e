import { Icon, PageTitle } from '../components/ui';
import { useI18n } from '../i18n';
import { href } from '../router';

/** /login and /sing-up: staff sign in to the back-office; the public need no account to report a tree. */
export default function Login() {
  const { t } = useI18n();
  return (
    <div className="container narrow">
      <PageTitle>{t('page.login')}</PageTitle>
      <section className="card center">
        <Icon name="lock" className="empty-icon" />
        <p>{t('login.text')}</p>
        <p><a className="btn primary" href="/admin/" data-testid="admin-link">{t('login.button')}</a></p>
      </section>
      <section className="card">
        <h2>{t('login.register_title')}</h2>
        <p>{t('login.register')}</p>
        <p><a className="btn" href={href('/population-seedlings')}>{t('nav.plant')}</a></p>
      </section>
    </div>
  );
}
