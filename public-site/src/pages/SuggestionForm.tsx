import { useEffect, useId, useRef, useState } from 'react';
import { call, useLangApi, type EntityPage, type SiteContent } from '../api';
import { Icon, PageTitle } from '../components/ui';
import { ErrorSummary, FieldBox, sendErrors } from '../components/form';
import { RichText } from '../components/RichText';
import { useI18n, type Key } from '../i18n';
import { phoneDigits } from './PeopleFactForm';
import { FileButton } from '../components/FileButton';

/**
 * /suggestion: anyone sends a suggestion (a topic, the text, how to get the answer — e-mail or
 * SMS — and an optional photo). Checked here first as the server checks; the photo goes to
 * `/public/uploads`, the suggestion to `/public/suggestions` (limited per address). Staff answer in
 * the back-office; the answer reaches the sender the way they chose (docs/site-content.md).
 */
type Field = 'topic' | 'text' | 'photo' | 'sender_name' | 'reply_method' | 'email' | 'phone';
type Errors = Partial<Record<Field, string>>;
const ORDER: Field[] = ['topic', 'text', 'photo', 'sender_name', 'reply_method', 'email', 'phone'];
const TOPICS = ['greening', 'felling', 'cleanliness', 'site', 'other'] as const;
const ROUTE = '/suggestion';
const MAX_IMAGE = 5 * 1024 * 1024;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Values {
  topic: string;
  text: string;
  sender_name: string;
  reply_method: 'email' | 'sms';
  email: string;
  phone: string;
}
const EMPTY: Values = { topic: '', text: '', sender_name: '', reply_method: 'email', email: '', phone: '' };

export default function SuggestionForm() {
  const { t, lang } = useI18n();
  const uid = useId();
  const id = (f: string) => `${uid}-${f}`;
  const intro = useLangApi<EntityPage<SiteContent>>('/public/entities/site-content?code=landing-suggest');
  const [v, setV] = useState<Values>(EMPTY);
  const [photo, setPhoto] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<{ file: File; id: number } | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<number | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const thanks = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (done) thanks.current?.focus();
  }, [done]);

  const set = (f: keyof Values) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setV((o) => ({ ...o, [f]: value }));
    if (errors[f]) setErrors((o) => ({ ...o, [f]: undefined }));
  };

  function check(): Errors {
    const e: Errors = {};
    if (!v.topic) e.topic = t('v.required');
    const text = v.text.trim();
    if (!text) e.text = t('v.required');
    else if (text.length < 10) e.text = t('v.min_length', { limit: 10 });
    else if (text.length > 5000) e.text = t('v.max_length', { limit: 5000 });
    const name = v.sender_name.trim();
    if (!name) e.sender_name = t('v.required');
    else if (name.length < 2) e.sender_name = t('v.min_length', { limit: 2 });
    if (v.reply_method === 'email') {
      if (!v.email.trim()) e.email = t('v.required');
      else if (!EMAIL.test(v.email.trim())) e.email = t('v.email');
    } else if (!v.phone.trim()) e.phone = t('v.required');
    else if (!phoneDigits(v.phone)) e.phone = t('v.phone');
    if (v.reply_method === 'sms' && v.email.trim() && !EMAIL.test(v.email.trim())) e.email = t('v.email');
    if (photo && !photo.type.startsWith('image/')) e.photo = t('v.fact_file_type', { name: photo.name });
    else if (photo && photo.size > MAX_IMAGE) e.photo = t('v.fact_file_size', { name: photo.name });
    return e;
  }
  const showErrors = (e: Errors, g = '') => {
    setErrors(e);
    setGeneral(g);
    requestAnimationFrame(() => summary.current?.focus());
  };

  async function submit(ev: React.FormEvent) {
    ev.preventDefault();
    if (busy) return;
    const e = check();
    if (Object.keys(e).length) return showErrors(e);
    setErrors({});
    setGeneral('');
    setBusy(true);
    try {
      let photoId: number | null = null;
      if (photo) {
        if (uploaded?.file === photo) photoId = uploaded.id;
        else {
          const r = await call<{ id: number }>(`/public/uploads?name=${encodeURIComponent(photo.name || 'photo')}`, {
            method: 'POST',
            blob: photo,
            lang,
            timeout: 120_000,
          });
          setUploaded({ file: photo, id: r.id });
          photoId = r.id;
        }
      }
      const body = {
        topic: v.topic,
        text: v.text.trim(),
        sender_name: v.sender_name.trim(),
        reply_method: v.reply_method,
        email: v.email.trim() || null,
        phone: v.phone.trim() ? phoneDigits(v.phone) : null,
        photo: photoId,
      };
      const r = await call<{ id: number }>('/public/suggestions', { method: 'POST', body, lang });
      setDone(r.id);
    } catch (err) {
      const sent = sendErrors(err, ORDER, 'photo', t);
      showErrors(sent.fields, sent.general);
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <div className="container narrow">
        <PageTitle>{t('page.suggestion')}</PageTitle>
        <div ref={thanks} className="card thanks" role="status" tabIndex={-1} data-testid="suggestion-thanks">
          <Icon name="check" className="empty-icon ok" />
          <h2>{t('suggestion.thanks_title')}</h2>
          <p>{t('suggestion.thanks_text', { number: done })}</p>
          <p>
            <button
              type="button"
              className="btn primary"
              onClick={() => {
                setDone(null);
                setV((o) => ({ ...EMPTY, sender_name: o.sender_name, reply_method: o.reply_method, email: o.email, phone: o.phone }));
                setPhoto(null);
              }}
            >
              {t('suggestion.again')}
            </button>
          </p>
        </div>
      </div>
    );
  }

  const describe = (f: Field, hint?: boolean) =>
    [hint ? id(`${f}-hint`) : '', errors[f] ? id(`${f}-error`) : ''].filter(Boolean).join(' ') || undefined;
  const labelOf: Record<Field, Key> = {
    topic: 'suggestion.topic',
    text: 'suggestion.text',
    photo: 'suggestion.photo',
    sender_name: 'fact.name',
    reply_method: 'suggestion.reply_method',
    email: 'fact.email',
    phone: 'fact.phone',
  };
  const lead = intro.data?.rows[0];
  return (
    <div className="container narrow">
      <PageTitle sub={t('suggestion.lead')}>{t('page.suggestion')}</PageTitle>
      {lead?.body && (
        <div className="card prose" data-testid="suggestion-intro">
          <RichText html={lead.body} />
        </div>
      )}
      <ErrorSummary
        summaryRef={summary}
        general={general}
        fields={ORDER}
        errors={errors}
        labelOf={(f) => t(labelOf[f])}
        target={(f) => id(f)}
        route={ROUTE}
      />
      <form className="card form" noValidate onSubmit={submit} aria-busy={busy} data-testid="suggestion-form">
        <p className="muted small">{t('form.required_note')}</p>
        <FieldBox id={id('topic')} label={t('suggestion.topic')} required error={errors.topic}>
          <select
            id={id('topic')}
            name="topic"
            required
            value={v.topic}
            onChange={set('topic')}
            aria-invalid={!!errors.topic}
            aria-describedby={describe('topic')}
          >
            <option value="">{t('suggestion.topic_choose')}</option>
            {TOPICS.map((x) => (
              <option key={x} value={x}>
                {t(`suggestion.topic_${x}` as Key)}
              </option>
            ))}
          </select>
        </FieldBox>
        <FieldBox id={id('text')} label={t('suggestion.text')} required error={errors.text}>
          <textarea
            id={id('text')}
            name="text"
            rows={6}
            maxLength={5000}
            required
            value={v.text}
            onChange={set('text')}
            aria-invalid={!!errors.text}
            aria-describedby={describe('text')}
          />
        </FieldBox>
        <FieldBox id={id('photo')} label={t('suggestion.photo')} optional error={errors.photo}>
          <FileButton
            inputRef={fileInput}
            id={id('photo')}
            name="photo"
            accept="image/*"
            files={photo ? [photo] : []}
            onFiles={(files) => {
              setPhoto(files[0] ?? null);
              setErrors((o) => ({ ...o, photo: undefined }));
            }}
            invalid={!!errors.photo}
            describedBy={describe('photo')}
          />
        </FieldBox>
        <fieldset className="field contact">
          <legend>{t('suggestion.contact')}</legend>
          <FieldBox id={id('sender_name')} label={t('fact.name')} required error={errors.sender_name}>
            <input
              id={id('sender_name')}
              name="sender_name"
              value={v.sender_name}
              onChange={set('sender_name')}
              maxLength={255}
              autoComplete="name"
              required
              aria-invalid={!!errors.sender_name}
              aria-describedby={describe('sender_name')}
            />
          </FieldBox>
          <div className="choice-group" role="radiogroup" aria-labelledby={id('reply_method-label')} id={id('reply_method')}>
            <span className="label" id={id('reply_method-label')}>
              {t('suggestion.reply_method')}
            </span>
            <div className="choice-row">
              {(['email', 'sms'] as const).map((m) => (
                <label key={m} className="radio">
                  <input
                    type="radio"
                    name="reply_method"
                    value={m}
                    checked={v.reply_method === m}
                    data-testid={`reply-${m}`}
                    onChange={(e) => {
                      set('reply_method')(e);
                      setErrors((o) => ({ ...o, email: undefined, phone: undefined, reply_method: undefined }));
                    }}
                  />
                  {t(`suggestion.reply_${m}` as Key)}
                </label>
              ))}
            </div>
          </div>
          <div className="row-2">
            <FieldBox
              id={id('email')}
              label={t('fact.email')}
              required={v.reply_method === 'email'}
              optional={v.reply_method !== 'email'}
              error={errors.email}
            >
              <input
                id={id('email')}
                name="email"
                type="email"
                value={v.email}
                onChange={set('email')}
                maxLength={255}
                autoComplete="email"
                aria-invalid={!!errors.email}
                aria-describedby={describe('email')}
              />
            </FieldBox>
            <FieldBox
              id={id('phone')}
              label={t('fact.phone')}
              required={v.reply_method === 'sms'}
              optional={v.reply_method !== 'sms'}
              error={errors.phone}
            >
              <input
                id={id('phone')}
                name="phone"
                type="tel"
                inputMode="tel"
                value={v.phone}
                onChange={set('phone')}
                maxLength={20}
                autoComplete="tel-national"
                aria-invalid={!!errors.phone}
                aria-describedby={describe('phone')}
              />
            </FieldBox>
          </div>
        </fieldset>
        <div className="actions">
          <button type="submit" className="btn primary big" disabled={busy} data-testid="suggestion-submit">
            {busy ? t('form.sending') : t('form.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}
