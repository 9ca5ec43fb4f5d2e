import { useId, useState, type FormEvent } from 'react';
import { useApi, type Loaded, type Names } from '../api';
import { FieldBox } from '../components/form';
import { ErrorState, Icon, Loading, PageTitle } from '../components/ui';
import { pick, useI18n } from '../i18n';
import { navigate } from '../router';

/** What the public check of an issued document answers (GET /api/public/documents/:code, decision 0075). */
interface Checked {
  code: string;
  kind: Names | null;
  title: string;
  language: string;
  issued_at: string;
  office: Names | null;
  sha256: string | null;
  signature: 'paper';
  status: 'valid' | 'withdrawn';
}

/** A code as typed: capitals without spaces or hyphens (the API reads it the same way). */
const cleaned = (v: string) => v.toUpperCase().replace(/[\s\-–—_.]/g, '');
/** A code as printed: two groups of five. */
const grouped = (code: string) => (code.length === 10 ? `${code.slice(0, 5)}-${code.slice(5)}` : code);

/** A moment as Tashkent's day and time (UTC+5): "02.12.2026 15:41". */
export function tashkentDateTime(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Tashkent',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '';
  return `${p('day')}.${p('month')}.${p('year')} ${p('hour')}:${p('minute')}`;
}

/**
 * /verify and /verify/:code: anyone holding a printed act, protocol or decree checks it — the QR
 * code on its foot opens this page with its code, or the code is typed in the form. The answer says
 * what was issued, by which office, when (Tashkent time), the PDF's SHA-256, the signature, and
 * whether it still stands or was withdrawn; never a name or a number of a person.
 */
export default function Verify({ params }: { params: Record<string, string> }) {
  const { t } = useI18n();
  const uid = useId();
  const code = params.code ? cleaned(params.code) : '';
  const [typed, setTyped] = useState(code ? grouped(code) : '');
  const [error, setError] = useState('');
  const valid = /^[2-9A-HJKMNP-TV-Z]{10}$/.test(code);
  const doc = useApi<Checked>(valid ? `/public/documents/${code}` : null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const c = cleaned(typed);
    if (!c) {
      setError(t('v.required'));
      return;
    }
    setError('');
    navigate(`/verify/${c}`);
  };
  return (
    <div className="container narrow" data-testid="verify-page">
      <PageTitle>{t('page.verify')}</PageTitle>
      <form className="card form" noValidate onSubmit={submit} data-testid="verify-form">
        <p>{t('verify.lead')}</p>
        <FieldBox
          id={`${uid}-code`}
          label={t('verify.code')}
          required
          error={error}
          hint={t('verify.code_hint', { example: 'K7MQ2-X9RTD' })}
        >
          <input
            id={`${uid}-code`}
            name="code"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            aria-invalid={!!error}
          />
        </FieldBox>
        <div className="actions">
          <button type="submit" className="btn primary big" data-testid="verify-submit">
            {t('verify.check')}
          </button>
        </div>
      </form>
      {code && <Result valid={valid} doc={doc} code={code} />}
    </div>
  );
}

function Result({ valid, doc, code }: { valid: boolean; doc: Loaded<Checked>; code: string }) {
  const { t, lang } = useI18n();
  if (!valid || doc.error?.status === 404)
    return (
      <section className="card verify-result bad" role="alert" data-testid="verify-not-found">
        <p className="verify-status">
          <Icon name="alert" /> {t('verify.not_found', { code: grouped(code) })}
        </p>
        <p className="muted">{t('verify.not_found_text')}</p>
      </section>
    );
  if (doc.error) return <ErrorState error={doc.error} retry={doc.reload} />;
  if (!doc.data) return <Loading height={240} />;
  const d = doc.data;
  const withdrawn = d.status === 'withdrawn';
  const rows: [string, React.ReactNode][] = [
    [t('verify.kind'), d.kind ? pick(d.kind, lang) : '—'],
    [t('verify.title'), d.title],
    [t('verify.office'), d.office ? pick(d.office, lang) : '—'],
    [t('verify.issued_at'), t('verify.tashkent_time', { time: tashkentDateTime(d.issued_at) })],
    [t('verify.code'), grouped(d.code)],
    [t('verify.signature'), t(`verify.signature.${d.signature}`)],
    [
      t('verify.sha256'),
      <code key="h" className="hash" data-testid="verify-sha256">
        {d.sha256 ?? '—'}
      </code>,
    ],
  ];
  return (
    <section className={`card verify-result ${withdrawn ? 'bad' : 'ok'}`} data-testid="verify-result" data-status={d.status}>
      <p className="verify-status" role="status" data-testid="verify-status">
        <Icon name={withdrawn ? 'alert' : 'check'} /> {t(withdrawn ? 'verify.withdrawn' : 'verify.valid')}
      </p>
      <p className="muted">{t(withdrawn ? 'verify.withdrawn_text' : 'verify.valid_text')}</p>
      <dl className="props">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <p className="small muted">{t('verify.hash_hint')}</p>
    </section>
  );
}
