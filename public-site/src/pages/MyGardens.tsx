import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Icon, PageTitle } from '../components/ui';
import { FieldBox, LocationFieldset, placeOf, sendErrors } from '../components/form';
import { useI18n } from '../i18n';
import { href } from '../router';
import { authed, clearSession, getSession } from '../account';
import { fmtDate, fmtInt } from '../format';

/**
 * /my-gardens: the signed-in resident's own side (docs/accounts.md) — the gardens they registered
 * ("my gardens") and a form for another, their volunteer record or a form to become one, and the
 * areas where residents may plant. Read and written through the back-office's API with the
 * resident's token: the `own` row sets keep each resident to their own rows.
 */
interface Garden {
  id: number;
  owner_name: string;
  address: string | null;
  area_ha: string | null;
  trees: number | null;
  fruit_trees: number | null;
}
interface Volunteer {
  id: number;
  full_name: string;
  phone: string | null;
  organisation: string | null;
  joined_on: string | null;
}
const P = '/ecofund-plantings';

export default function MyGardens() {
  const { t, lang } = useI18n();
  const session = getSession();
  const [gardens, setGardens] = useState<Garden[] | null>(null);
  const [volunteers, setVolunteers] = useState<Volunteer[] | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(() => {
    if (!getSession()) return;
    authed<Garden[]>(`${P}/my-gardens`, { lang }).then(setGardens, (e: Error) => setError(e.message || t('err.system')));
    authed<Volunteer[]>(`${P}/volunteers`, { lang }).then(setVolunteers, () => setVolunteers([]));
  }, [lang, t]);
  useEffect(load, [load]);

  if (!session) {
    return (
      <div className="container narrow">
        <PageTitle>{t('page.my_gardens')}</PageTitle>
        <section className="card center">
          <Icon name="lock" className="empty-icon" />
          <p>{t('account.sign_in_first')}</p>
          <p>
            <a className="btn primary" href={href('/login')}>
              {t('account.sign_in')}
            </a>{' '}
            <a className="btn" href={href('/sing-up')}>
              {t('account.sign_up')}
            </a>
          </p>
        </section>
      </div>
    );
  }
  return (
    <div className="container narrow">
      <PageTitle sub={t('account.signed_in_as', { name: session.user.fio || session.user.username })}>{t('page.my_gardens')}</PageTitle>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <section className="card" data-testid="my-gardens">
        <h2>{t('page.my_gardens')}</h2>
        {gardens === null ? (
          <p className="muted">…</p>
        ) : gardens.length === 0 ? (
          <p className="muted">{t('account.no_gardens')}</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>№</th>
                <th>{t('account.owner_name')}</th>
                <th>{t('account.address')}</th>
                <th>{t('account.trees')}</th>
                <th>{t('account.fruit_trees')}</th>
                <th>{t('account.area_ha')}</th>
              </tr>
            </thead>
            <tbody>
              {gardens.map((g) => (
                <tr key={g.id}>
                  <td>{g.id}</td>
                  <td>{g.owner_name}</td>
                  <td>{g.address ?? ''}</td>
                  <td>{g.trees ?? ''}</td>
                  <td>{g.fruit_trees ?? ''}</td>
                  <td>{g.area_ha ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <GardenForm owner={session.user.fio ?? ''} saved={load} />
      <section className="card" data-testid="my-volunteering">
        <h2>{t('account.volunteering')}</h2>
        {volunteers && volunteers.length > 0 ? (
          volunteers.map((v) => (
            <div key={v.id}>
              <p>
                {t('account.volunteer_since', { name: v.full_name, date: v.joined_on ?? '' })}
                {v.organisation ? ` — ${v.organisation}` : ''}{' '}
                {/* their place in the public rating: the volunteers-rating report, searched by their name */}
                <a href={href(`/volunteer-statistics?period=all&q=${encodeURIComponent(v.full_name)}`)} data-testid="my-rating">
                  {t('account.my_rating')}
                </a>
              </p>
              <VolunteerPlantings id={v.id} />
            </div>
          ))
        ) : (
          <VolunteerForm name={session.user.fio ?? ''} phone={session.user.phone ?? ''} saved={load} />
        )}
        <p>
          <a href={href('/volunteer-statistics')}>{t('page.volunteers')}</a> ·{' '}
          <a href={href('/resident-planting-areas')}>{t('page.resident_areas')}</a>
        </p>
      </section>
      <p>
        <button
          type="button"
          className="btn"
          onClick={() => {
            clearSession();
            window.location.hash = '#/login';
          }}
        >
          {t('account.sign_out')}
        </button>
      </p>
    </div>
  );
}

const GARDEN = ['owner_name', 'address', 'trees', 'fruit_trees', 'area_ha', 'location'] as const;
type GardenField = (typeof GARDEN)[number];

function GardenForm({ owner, saved }: { owner: string; saved: () => void }) {
  const { t, lang } = useI18n();
  const uid = useId();
  const id = (f: string) => `${uid}-${f}`;
  const [v, setV] = useState({ owner_name: owner, address: '', trees: '', fruit_trees: '', area_ha: '', lat: '', lng: '' });
  const [errors, setErrors] = useState<Partial<Record<GardenField, string>>>({});
  const [general, setGeneral] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const location = placeOf(v);
    if (!v.owner_name.trim()) {
      setErrors({ owner_name: t('v.required') });
      return;
    }
    if (!location) {
      setErrors({ location: t('v.location_required') });
      return;
    }
    setBusy(true);
    setErrors({});
    setGeneral('');
    setDone(false);
    try {
      const num = (s: string) => (s.trim() === '' ? null : Number(s));
      await authed(`${P}/my-gardens`, {
        method: 'POST',
        lang,
        body: {
          owner_name: v.owner_name.trim(),
          address: v.address.trim() || null,
          trees: num(v.trees),
          fruit_trees: num(v.fruit_trees),
          area_ha: v.area_ha.trim() || null,
          location,
        },
      });
      setDone(true);
      setV({ ...v, address: '', trees: '', fruit_trees: '', area_ha: '', lat: '', lng: '' });
      saved();
    } catch (err) {
      const x = sendErrors(err, GARDEN, 'owner_name', t);
      setErrors(x.fields);
      setGeneral(x.general);
    } finally {
      setBusy(false);
    }
  };
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const field = (name: Exclude<GardenField, 'location'>, label: string, props: Record<string, unknown> = {}) => (
    <FieldBox id={id(name)} label={label} required={name === 'owner_name'} optional={name !== 'owner_name'} error={errors[name]}>
      <input id={id(name)} name={name} value={v[name]} onChange={set(name)} aria-invalid={!!errors[name]} {...props} />
    </FieldBox>
  );
  return (
    <form className="card form" noValidate onSubmit={submit} data-testid="garden-form">
      <h2>{t('account.add_garden')}</h2>
      {general && (
        <p className="error" role="alert">
          {general}
        </p>
      )}
      {done && (
        <p className="muted" role="status" data-testid="garden-saved">
          {t('account.garden_saved')}
        </p>
      )}
      {field('owner_name', t('account.owner_name'), { maxLength: 200 })}
      {field('address', t('account.address'), { maxLength: 500 })}
      <div className="row-2">
        {field('trees', t('account.trees'), { type: 'number', min: 0, step: 1, inputMode: 'numeric' })}
        {field('fruit_trees', t('account.fruit_trees'), { type: 'number', min: 0, step: 1, inputMode: 'numeric' })}
      </div>
      {field('area_ha', t('account.area_ha'), { inputMode: 'decimal' })}
      <LocationFieldset
        idOf={id}
        value={{ lat: v.lat, lng: v.lng }}
        legend="account.garden_location"
        hint="form.location_hint"
        mapLabel="form.map_label"
        required
        error={errors.location}
        onChange={(p) => {
          setV((o) => ({ ...o, ...p }));
          setErrors((o) => ({ ...o, location: undefined }));
        }}
      />
      <div className="actions">
        <button type="submit" className="btn primary big" disabled={busy} data-testid="garden-submit">
          {t('form.submit')}
        </button>
      </div>
    </form>
  );
}

const VOLUNTEER = ['full_name', 'phone', 'organisation'] as const;

function VolunteerForm({ name, phone, saved }: { name: string; phone: string; saved: () => void }) {
  const { t, lang } = useI18n();
  const uid = useId();
  const [v, setV] = useState({ full_name: name, phone, organisation: '' });
  const [errors, setErrors] = useState<Partial<Record<(typeof VOLUNTEER)[number], string>>>({});
  const [general, setGeneral] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!v.full_name.trim()) {
      setErrors({ full_name: t('v.required') });
      return;
    }
    setBusy(true);
    setErrors({});
    setGeneral('');
    try {
      await authed(`${P}/volunteers`, {
        method: 'POST',
        lang,
        body: { full_name: v.full_name.trim(), phone: v.phone.trim() || null, organisation: v.organisation.trim() || null },
      });
      saved();
    } catch (err) {
      const x = sendErrors(err, VOLUNTEER, 'full_name', t);
      setErrors(x.fields);
      setGeneral(x.general);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form" noValidate onSubmit={submit} data-testid="volunteer-form">
      <p>{t('account.volunteer_lead')}</p>
      {general && (
        <p className="error" role="alert">
          {general}
        </p>
      )}
      {VOLUNTEER.map((f) => (
        <FieldBox
          key={f}
          id={`${uid}-${f}`}
          label={t(`account.${f}`)}
          required={f === 'full_name'}
          optional={f !== 'full_name'}
          error={errors[f]}
        >
          <input
            id={`${uid}-${f}`}
            name={f}
            value={v[f]}
            onChange={(e) => setV({ ...v, [f]: e.target.value })}
            aria-invalid={!!errors[f]}
          />
        </FieldBox>
      ))}
      <div className="actions">
        <button type="submit" className="btn primary" disabled={busy} data-testid="volunteer-submit">
          {t('account.become_volunteer')}
        </button>
      </div>
    </form>
  );
}

interface Standing {
  rank: number | null;
  of: number;
  plantings: number;
  trees: number;
}
interface OwnPlanting {
  id: number;
  species: string | null;
  count: number | null;
  planted_on: string | null;
  place: string | null;
}

/** A volunteer's own plantings and their place in the public rating (`GET …/volunteers/:id/plantings`). */
function VolunteerPlantings({ id }: { id: number }) {
  const { t, lang } = useI18n();
  const [data, setData] = useState<{ plantings: OwnPlanting[]; standing: Standing } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    authed<{ plantings: OwnPlanting[]; standing: Standing }>(`${P}/volunteers/${id}/plantings`, { lang }).then(setData, () =>
      setFailed(true),
    );
  }, [id, lang]);
  if (failed) return <p className="error">{t('err.system')}</p>;
  if (!data) return <p className="muted">…</p>;
  const s = data.standing;
  return (
    <div data-testid="my-plantings">
      <p data-testid="my-standing">
        {s.rank == null
          ? t('account.standing_none')
          : t('account.standing', { rank: fmtInt(s.rank), of: fmtInt(s.of), trees: fmtInt(s.trees), plantings: fmtInt(s.plantings) })}
      </p>
      <h3>{t('account.my_plantings')}</h3>
      {data.plantings.length === 0 ? (
        <p className="muted">{t('account.no_plantings')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t('account.planted_on')}</th>
              <th>{t('account.species')}</th>
              <th>{t('account.count')}</th>
              <th>{t('account.place')}</th>
            </tr>
          </thead>
          <tbody>
            {data.plantings.map((p) => (
              <tr key={p.id}>
                <td>{fmtDate(p.planted_on)}</td>
                <td>{p.species ?? ''}</td>
                <td>{fmtInt(p.count)}</td>
                <td>{p.place ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
