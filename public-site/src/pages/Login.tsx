import { useId, useState, type FormEvent } from 'react';
import { call, useApi, type Region } from '../api';
import { Icon, PageTitle } from '../components/ui';
import { FieldBox, sendErrors } from '../components/form';
import { pick, useI18n } from '../i18n';
import { href, navigate } from '../router';
import { clearSession, getSession, setSession, type Session } from '../account';

/**
 * /login and /sing-up (one page, spec §2): a resident signs in — with the password, or with a code
 * sent to their e-mail or phone — or registers: the e-mail or phone first, confirmed by the code sent
 * to it, then the name, region and password (docs/accounts.md). The answers never tell whether an
 * address has an account. Staff go on to the back-office.
 */
type Tab = 'signin' | 'signup' | 'forgot';

/** A phone typed with its mask is the nine digits accounts are named by; anything else stays as typed. */
export const loginName = (v: string) => {
  const s = v.trim();
  const digits = s.replace(/[\s()\-+]/g, '');
  return /^\d+$/.test(digits) && digits.length >= 9 ? digits.slice(-9) : s;
};

export default function Login({ path }: { path?: string }) {
  const { t } = useI18n();
  const [tab, setTab] = useState<Tab>(path === '/sing-up' ? 'signup' : 'signin');
  const [session, setSessionState] = useState<Session | null>(getSession);
  const signedIn = (s: Session) => {
    setSession(s);
    setSessionState(s);
    navigate('/my-gardens');
  };

  if (session) {
    return (
      <div className="container narrow">
        <PageTitle>{t('page.login')}</PageTitle>
        <section className="card center" data-testid="signed-in">
          <Icon name="check" className="empty-icon ok" />
          <p>{t('account.signed_in_as', { name: session.user.fio || session.user.username })}</p>
          <p>
            <a className="btn primary" href={href('/my-gardens')}>
              {t('page.my_gardens')}
            </a>
          </p>
          <p>
            <button
              type="button"
              className="btn"
              onClick={() => {
                clearSession();
                setSessionState(null);
              }}
              data-testid="sign-out"
            >
              {t('account.sign_out')}
            </button>
          </p>
        </section>
      </div>
    );
  }
  return (
    <div className="container narrow">
      <PageTitle>{t('page.login')}</PageTitle>
      <div className="tabs" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'signin'}
          className={`btn${tab === 'signin' ? ' primary' : ''}`}
          onClick={() => setTab('signin')}
          data-testid="tab-signin"
        >
          {t('account.sign_in')}
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'signup'}
          className={`btn${tab === 'signup' ? ' primary' : ''}`}
          onClick={() => setTab('signup')}
          data-testid="tab-signup"
        >
          {t('account.sign_up')}
        </button>
      </div>
      {tab === 'signin' && <SignIn done={signedIn} forgot={() => setTab('forgot')} />}
      {tab === 'signup' && <SignUp done={signedIn} />}
      {tab === 'forgot' && <Forgot done={signedIn} back={() => setTab('signin')} />}
      <section className="card">
        <h2>{t('login.register_title')}</h2>
        <p>{t('login.text')}</p>
        <p>
          <a className="btn" href="/admin/" data-testid="admin-link">
            {t('login.button')}
          </a>
        </p>
      </section>
    </div>
  );
}

function useForm<F extends string>(order: readonly F[]) {
  const { t } = useI18n();
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const [general, setGeneral] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setErrors({});
    setGeneral('');
    try {
      await fn();
    } catch (err) {
      const e = sendErrors(err, order, order[0], t);
      setErrors(e.fields);
      setGeneral(e.general);
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, general, busy, run };
}

const SIGN_IN = ['username', 'password', 'code'] as const;

function SignIn({ done, forgot }: { done: (s: Session) => void; forgot: () => void }) {
  const { t, lang } = useI18n();
  const uid = useId();
  const [byCode, setByCode] = useState<'no' | 'ask' | 'sent'>('no');
  const [v, setV] = useState({ username: '', password: '', code: '' });
  const f = useForm(SIGN_IN);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void f.run(async () => {
      const username = loginName(v.username);
      if (!username) {
        f.setErrors({ username: t('v.required') });
        return;
      }
      if (byCode === 'ask') {
        await call('/admin/auth/send-confirm', { method: 'POST', body: { username }, lang });
        setByCode('sent');
      } else if (byCode === 'sent') {
        done(await call<Session>('/admin/auth/check-code', { method: 'POST', body: { username, code: v.code.trim() }, lang }));
      } else {
        done(await call<Session>('/admin/auth/login', { method: 'POST', body: { username, password: v.password }, lang }));
      }
    });
  };
  const input = (name: 'username' | 'password' | 'code', label: string, type = 'text', auto = '') => (
    <FieldBox id={`${uid}-${name}`} label={label} required error={f.errors[name]}>
      <input
        id={`${uid}-${name}`}
        name={name}
        type={type}
        autoComplete={auto || undefined}
        value={v[name]}
        disabled={name === 'username' && byCode === 'sent'}
        onChange={(e) => setV({ ...v, [name]: e.target.value })}
        aria-invalid={!!f.errors[name]}
      />
    </FieldBox>
  );
  return (
    <form className="card form" noValidate onSubmit={submit} data-testid="signin-form">
      {f.general && (
        <p className="error" role="alert" data-testid="form-error">
          {f.general}
        </p>
      )}
      {byCode === 'sent' && (
        <p className="muted" role="status" data-testid="code-sent">
          {t('account.code_sent')}
        </p>
      )}
      {input('username', t('account.username'), 'text', 'username')}
      {byCode === 'no' && input('password', t('account.password'), 'password', 'current-password')}
      {byCode === 'sent' && input('code', t('account.code'), 'text', 'one-time-code')}
      <div className="actions">
        <button type="submit" className="btn primary big" disabled={f.busy} data-testid="signin-submit">
          {t(byCode === 'ask' ? 'account.send_code' : 'account.sign_in')}
        </button>
        <button type="button" className="btn" onClick={() => setByCode(byCode === 'no' ? 'ask' : 'no')}>
          {t(byCode === 'no' ? 'account.with_code' : 'account.with_password')}
        </button>
        <button type="button" className="btn link" onClick={forgot} data-testid="forgot-link">
          {t('account.forgot')}
        </button>
      </div>
    </form>
  );
}

const FORGOT = ['username', 'code', 'password', 'password_repeat'] as const;

/**
 * "Forgot password?": the name (or phone, or e-mail) → a code sent by the notification queue
 * (`forgot-password`, the same answer whether or not the name has an account) → the code and the
 * new password twice (`set-new-password`, which ends every session) → signed in with it.
 */
function Forgot({ done, back }: { done: (s: Session) => void; back: () => void }) {
  const { t, lang } = useI18n();
  const uid = useId();
  const [sent, setSent] = useState(false);
  const [v, setV] = useState({ username: '', code: '', password: '', password_repeat: '' });
  const f = useForm(FORGOT);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void f.run(async () => {
      const username = loginName(v.username);
      if (!username) {
        f.setErrors({ username: t('v.required') });
        return;
      }
      if (!sent) {
        await call('/admin/auth/forgot-password', { method: 'POST', body: { username }, lang });
        setSent(true);
        return;
      }
      if (v.password !== v.password_repeat) {
        f.setErrors({ password_repeat: t('account.repeat_mismatch') });
        return;
      }
      await call('/admin/auth/set-new-password', {
        method: 'POST',
        lang,
        body: { username, code: v.code.trim(), password: v.password, password_repeat: v.password_repeat },
      });
      done(await call<Session>('/admin/auth/login', { method: 'POST', body: { username, password: v.password }, lang }));
    });
  };
  const field = (name: keyof typeof v, label: string, type: string, auto: string, hint?: string) => (
    <FieldBox id={`${uid}-${name}`} label={label} required error={f.errors[name]} hint={hint}>
      <input
        id={`${uid}-${name}`}
        name={name}
        type={type}
        autoComplete={auto}
        inputMode={name === 'code' ? 'numeric' : undefined}
        value={v[name]}
        disabled={name === 'username' && sent}
        onChange={(e) => setV({ ...v, [name]: e.target.value })}
        aria-invalid={!!f.errors[name]}
      />
    </FieldBox>
  );
  return (
    <form className="card form" noValidate onSubmit={submit} data-testid="forgot-form">
      <h2>{t('account.forgot_title')}</h2>
      {f.general && (
        <p className="error" role="alert" data-testid="form-error">
          {f.general}
        </p>
      )}
      <p className={sent ? 'muted' : undefined} role={sent ? 'status' : undefined} data-testid={sent ? 'code-sent' : undefined}>
        {t(sent ? 'account.code_sent' : 'account.forgot_lead')}
      </p>
      {field('username', t('account.username'), 'text', 'username')}
      {sent && (
        <>
          {field('code', t('account.code'), 'text', 'one-time-code')}
          {field('password', t('account.new_password'), 'password', 'new-password', t('account.password_hint'))}
          {field('password_repeat', t('account.password_repeat'), 'password', 'new-password')}
        </>
      )}
      <div className="actions">
        <button type="submit" className="btn primary big" disabled={f.busy} data-testid="forgot-submit">
          {t(sent ? 'account.set_password' : 'account.send_code')}
        </button>
        <button type="button" className="btn" onClick={sent ? () => setSent(false) : back}>
          {t(sent ? 'account.change_name' : 'account.back_to_sign_in')}
        </button>
      </div>
    </form>
  );
}

const SIGN_UP = ['contact', 'code', 'fio', 'region_id', 'password', 'password_repeat'] as const;

function SignUp({ done }: { done: (s: Session) => void }) {
  const { t, lang } = useI18n();
  const uid = useId();
  const regions = useApi<Region[]>('/public/regions');
  const [sent, setSent] = useState(false);
  const [v, setV] = useState({ contact: '', code: '', fio: '', region_id: '', password: '', password_repeat: '' });
  const f = useForm(SIGN_UP);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void f.run(async () => {
      if (!v.contact.trim()) {
        f.setErrors({ contact: t('v.required') });
        return;
      }
      if (!sent) {
        await call('/admin/auth/sign-up', { method: 'POST', body: { contact: v.contact.trim() }, lang });
        setSent(true);
        return;
      }
      if (v.password !== v.password_repeat) {
        f.setErrors({ password_repeat: t('account.repeat_mismatch') });
        return;
      }
      done(
        await call<Session>('/admin/auth/sign-up/confirm', {
          method: 'POST',
          lang,
          body: {
            contact: v.contact.trim(),
            code: v.code.trim(),
            fio: v.fio.trim(),
            region_id: v.region_id ? Number(v.region_id) : null,
            password: v.password,
            password_repeat: v.password_repeat,
            lang_code: lang,
          },
        }),
      );
    });
  };
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const box = (name: keyof typeof v, label: string, el: React.ReactElement, hint?: string) => (
    <FieldBox id={`${uid}-${name}`} label={label} required error={f.errors[name]} hint={hint}>
      {el}
    </FieldBox>
  );
  const attrs = (name: keyof typeof v) => ({
    id: `${uid}-${name}`,
    name,
    value: v[name],
    onChange: set(name),
    'aria-invalid': !!f.errors[name],
  });
  return (
    <form className="card form" noValidate onSubmit={submit} data-testid="signup-form">
      {f.general && (
        <p className="error" role="alert" data-testid="form-error">
          {f.general}
        </p>
      )}
      {box(
        'contact',
        t('account.contact'),
        <input {...attrs('contact')} autoComplete="email" disabled={sent} />,
        t('account.contact_hint'),
      )}
      {sent && (
        <>
          <p className="muted" role="status" data-testid="code-sent">
            {t('account.code_sent_signup')}
          </p>
          {box('code', t('account.code'), <input {...attrs('code')} autoComplete="one-time-code" inputMode="numeric" />)}
          {box('fio', t('account.fio'), <input {...attrs('fio')} autoComplete="name" maxLength={255} />)}
          {box(
            'region_id',
            t('account.region'),
            <select {...attrs('region_id')}>
              <option value="">{t('account.region_choose')}</option>
              {(regions.data ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {pick(r.name, lang)}
                </option>
              ))}
            </select>,
          )}
          {box(
            'password',
            t('account.password'),
            <input {...attrs('password')} type="password" autoComplete="new-password" />,
            t('account.password_hint'),
          )}
          {box(
            'password_repeat',
            t('account.password_repeat'),
            <input {...attrs('password_repeat')} type="password" autoComplete="new-password" />,
          )}
        </>
      )}
      <div className="actions">
        <button type="submit" className="btn primary big" disabled={f.busy} data-testid="signup-submit">
          {t(sent ? 'account.register' : 'account.send_code')}
        </button>
        {sent && (
          <button type="button" className="btn" onClick={() => setSent(false)}>
            {t('account.change_contact')}
          </button>
        )}
      </div>
    </form>
  );
}
