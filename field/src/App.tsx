import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { getSession, HttpError, login, logout, type Session } from './api';
import { clearAll, photos, records, tidy, type FieldRecord } from './db';
import { LANGS, savedLang, saveLang, translator, type Lang, type T } from './i18n';
import { cachedReference, refreshReference, type Reference } from './reference';
import { sync } from './sync';
import { RecordForm } from './RecordForm';
import { FORMS, formOf } from './forms';

/** A moment as Tashkent's (UTC+5) day and time, dd.mm.yyyy hh:mm, whatever the phone's zone. */
function tashkent(ms: number): string {
  const [d, time] = new Date(ms + 5 * 3600_000).toISOString().slice(0, 16).split('T');
  return `${d.split('-').reverse().join('.')} ${time}`;
}

type View = { name: 'list' } | { name: 'form'; kind: FieldRecord['kind']; id?: string; at?: number };

function useOnline(): boolean {
  return useSyncExternalStore(
    (fn) => {
      window.addEventListener('online', fn);
      window.addEventListener('offline', fn);
      return () => {
        window.removeEventListener('online', fn);
        window.removeEventListener('offline', fn);
      };
    },
    () => navigator.onLine,
  );
}

function useSync() {
  return useSyncExternalStore(
    (fn) => sync.subscribe(fn),
    () => sync.status,
  );
}

function LangSwitch(props: { lang: Lang; onChange: (l: Lang) => void; t: T }) {
  return (
    <select
      aria-label={props.t('lang.label')}
      className="lang"
      value={props.lang}
      onChange={(e) => props.onChange(e.target.value as Lang)}
      data-testid="lang"
    >
      {LANGS.map((l) => (
        <option key={l.code} value={l.code}>
          {l.label}
        </option>
      ))}
    </select>
  );
}

function Login(props: { t: T; lang: Lang; onLang: (l: Lang) => void; onIn: (s: Session) => void }) {
  const { t } = props;
  const [error, setError] = useState('');
  const online = useOnline();
  return (
    <main className="login">
      <div className="card">
        <div className="top">
          <h1>{t('app.name')}</h1>
          <LangSwitch lang={props.lang} onChange={props.onLang} t={t} />
        </div>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            setError('');
            login(String(f.get('username')), String(f.get('password')), props.lang)
              .then(props.onIn)
              .catch((err: unknown) => setError(err instanceof HttpError ? err.message : t('login.offline')));
          }}
        >
          <h2>{t('login.title')}</h2>
          <label className="field">
            <span className="label">{t('login.username')}</span>
            <input name="username" autoComplete="username" required />
          </label>
          <label className="field">
            <span className="label">{t('login.password')}</span>
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          {!online && <p className="note">{t('login.offline')}</p>}
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit">{t('login.submit')}</button>
        </form>
      </div>
    </main>
  );
}

function Records(props: {
  t: T;
  items: FieldRecord[];
  counts: Record<string, number>;
  open: (r: FieldRecord) => void;
  remove: (r: FieldRecord) => void;
}) {
  const { t } = props;
  if (!props.items.length) return <p className="empty">{t('list.empty')}</p>;
  return (
    <ul className="records" data-testid="records">
      {props.items.map((r) => (
        <li key={r.id} className={`record state-${r.state}`} data-testid="record" data-state={r.state}>
          <div className="what">
            <strong>{t(`kind.${r.kind}`)}</strong> {formOf(r.kind).label(r.data)}
            <span className={`badge ${r.state}`}>{t(`state.${r.state}`)}</span>
          </div>
          <div className="meta">
            {tashkent(r.updatedAt)} · {t('record.photos', { n: r.photoCount ?? props.counts[r.id] ?? 0 })}
            {r.serverId && <> · {t('record.server', { id: r.serverId })}</>}
          </div>
          {r.state === 'error' && r.error && (
            <div className="error" role="alert">
              {r.error.message}
              {r.error.fields && Object.keys(r.error.fields).length > 0 && (
                <ul>
                  {Object.entries(r.error.fields).map(([k, v]) => (
                    <li key={k}>{v}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="actions">
            <button type="button" className="link" onClick={() => props.open(r)}>
              {t('list.open')}
            </button>
            {r.state !== 'sent' && r.state !== 'sending' && (
              <button type="button" className="link danger" onClick={() => props.remove(r)}>
                {t('list.delete')}
              </button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

export function App() {
  const [lang, setLang] = useState<Lang>(savedLang);
  const t = translator(lang);
  const [session, setSess] = useState<Session | null>(getSession);
  const [ref, setRef] = useState<Reference | undefined>();
  const [view, setView] = useState<View>({ name: 'list' });
  const [items, setItems] = useState<FieldRecord[]>([]);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const online = useOnline();
  const status = useSync();
  const changeLang = (l: Lang) => {
    saveLang(l);
    setLang(l);
  };
  sync.lang = lang;

  const reload = useCallback(async () => {
    if (!session) return;
    const mine = (await records.all()).filter((r) => r.userId === session.user.id).sort((a, b) => b.createdAt - a.createdAt);
    setItems(mine);
    setCounts(Object.fromEntries(await Promise.all(mine.map(async (r) => [r.id, (await photos.of(r.id)).length] as const))));
  }, [session]);

  useEffect(() => {
    document.title = t('app.name');
    saveLang(lang);
  }, [lang]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!session) return;
    void (async () => {
      setRef(await cachedReference(session.user.id));
      setRef(await refreshReference(session.user.id, lang));
    })();
    void tidy().finally(() => sync.start());
  }, [session]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    void reload();
  }, [reload, status, view]);
  useEffect(() => {
    if (online && session) void refreshReference(session.user.id, lang).then((r) => r && setRef(r));
  }, [online]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!session) return <Login t={t} lang={lang} onLang={changeLang} onIn={(s) => setSess(s)} />;

  const n = (s: FieldRecord['state']) => items.filter((r) => r.state === s).length;
  // the forms of what the user may create: those the server sent a create schema of (from their actions)
  const forms = FORMS.filter((f) => ref?.schemas[f.kind]);
  return (
    <div className="app">
      <header>
        <h1>{t('app.short')}</h1>
        <LangSwitch lang={lang} onChange={changeLang} t={t} />
        <button
          type="button"
          className="link"
          onClick={() => {
            const unsent = items.some((r) => r.state !== 'sent');
            if (unsent && !confirm(t('logout.confirm'))) return;
            void (async () => {
              if (!unsent) await clearAll();
              await logout(lang);
              setSess(null);
            })();
          }}
        >
          {t('logout')}
        </button>
      </header>
      <p className={`net ${online ? 'on' : 'off'}`} data-testid="net" role="status">
        {online ? t('net.online') : t('net.offline')}
      </p>
      <nav>
        <button
          type="button"
          className={view.name === 'list' ? 'on' : ''}
          onClick={() => setView({ name: 'list' })}
          data-testid="nav-records"
        >
          {t('nav.records')}
        </button>
        {forms.map((f) => (
          <button
            key={f.kind}
            type="button"
            className={view.name === 'form' && view.kind === f.kind ? 'on' : ''}
            onClick={() => setView({ name: 'form', kind: f.kind, at: Date.now() })}
            data-testid={f.testId}
          >
            {t(f.tab)}
          </button>
        ))}
      </nav>
      <main>
        {view.name === 'form' ? (
          <RecordForm
            key={`${view.kind}-${view.id ?? view.at}`}
            kind={view.kind}
            id={view.id}
            t={t}
            lang={lang}
            ref={ref}
            userId={session.user.id}
            onDone={() => setView({ name: 'list' })}
          />
        ) : (
          <>
            <section className="card sync" data-testid="sync">
              <h2>{t('sync.title')}</h2>
              <p data-testid="sync-counts">
                {t('sync.counts', { queued: n('queued'), sending: n('sending'), error: n('error'), sent: n('sent') })}
              </p>
              {status.running && status.total > 0 && (
                <>
                  <progress max={status.total} value={status.done} />
                  <p>{t('sync.progress', { done: status.done, total: status.total })}</p>
                </>
              )}
              {!status.running && status.nextAt && <p>{t('sync.next', { time: tashkent(status.nextAt).slice(11) })}</p>}
              {status.signIn && <p className="error">{t('sync.signin')}</p>}
              {!ref && <p className="note">{t('ref.none')}</p>}
              {ref && <p className="hint">{t('ref.updated', { time: tashkent(ref.checkedAt) })}</p>}
              <button type="button" className="secondary" disabled={!online || status.running} onClick={() => void sync.run(true)}>
                {t('sync.now')}
              </button>
            </section>
            <Records
              t={t}
              items={items}
              counts={counts}
              open={(r) => setView({ name: 'form', kind: r.kind, id: r.id })}
              remove={(r) => {
                if (!confirm(t('list.delete.confirm'))) return;
                void records.remove(r.id).then(reload);
              }}
            />
          </>
        )}
      </main>
    </div>
  );
}
