import { nameOf } from '../i18n';
import { todayTashkent } from '../validate';
import { ChildRows, Input, RegionArea, RowInput, Select, type FormDef, type Kit } from './kit';

/** A new administrative offence (`offences`): the protocol, the article with its fine interval, offenders and witnesses. */
function OffenceFields({ kit }: { kit: Kit }) {
  const { t, lang } = kit;
  const fine = kit.book('fine').find((f) => f.id === kit.data.fine_id);
  return (
    <>
      <Input kit={kit} name="number" label={t('f.number')} />
      <Input kit={kit} name="offence_date" label={t('f.offence_date')} type="date" extra={{ max: todayTashkent() }} />
      <RegionArea kit={kit} />
      <Input kit={kit} name="address" label={t('f.address')} />
      <Select
        kit={kit}
        name="fine_id"
        label={t('f.fine_id')}
        rows={kit.book('fine')}
        render={(f) => `${[f.article, f.part, f.item].filter(Boolean).join('.')} — ${nameOf(f, lang)}`}
      />
      <Input kit={kit} name="fine_multiple" label={t('f.fine_multiple')} extra={{ inputMode: 'decimal' }} />
      {fine && <p className="hint">{t('f.fine_range', { min: String(fine.min_multiple), max: String(fine.max_multiple) })}</p>}
      <ChildRows
        kit={kit}
        name="offenders"
        legend={t('f.offenders')}
        add={t('f.offender.add')}
        blank={{ offender_kind: 'person', full_name: '' }}
        min={1}
        testId="offender"
      >
        {(row, set, path) => (
          <>
            <label className={`field${kit.errors[`${path}.offender_kind`] ? ' invalid' : ''}`}>
              <span className="label">{t('f.offender_kind')}</span>
              <select
                name={`${path}.offender_kind`}
                value={String(row.offender_kind ?? 'person')}
                disabled={kit.readOnly}
                onChange={(e) => set('offender_kind', e.target.value)}
              >
                <option value="person">{t('f.offender_kind.person')}</option>
                <option value="organisation">{t('f.offender_kind.organisation')}</option>
              </select>
            </label>
            <RowInput kit={kit} row={row} set={set} path={path} name="full_name" label={t('f.full_name')} />
          </>
        )}
      </ChildRows>
      <ChildRows kit={kit} name="witnesses" legend={t('f.witnesses')} add={t('f.witness.add')} blank={{ full_name: '' }} testId="witness">
        {(row, set, path) => (
          <>
            <RowInput kit={kit} row={row} set={set} path={path} name="full_name" label={t('f.witness_name')} />
            <RowInput
              kit={kit}
              row={row}
              set={set}
              path={path}
              name="passport"
              label={t('f.passport')}
              extra={{ placeholder: 'AA 1234567' }}
            />
            <RowInput
              kit={kit}
              row={row}
              set={set}
              path={path}
              name="phone"
              label={t('f.phone')}
              extra={{ inputMode: 'tel', placeholder: '(90) 123-45-67' }}
            />
            <RowInput kit={kit} row={row} set={set} path={path} name="address" label={t('f.address')} />
          </>
        )}
      </ChildRows>
      <Input kit={kit} name="description" label={t('f.description')} />
    </>
  );
}

export const OFFENCE_FORM: FormDef = {
  kind: 'offences',
  title: 'nav.offence',
  tab: 'nav.offence.tab',
  testId: 'nav-offence',
  point: true,
  blank: (ref) => ({
    offence_date: todayTashkent(),
    region_id: ref?.books.regions?.length === 1 ? ref.books.regions[0].id : undefined,
    offenders: [{ offender_kind: 'person', full_name: '' }],
    witnesses: [],
  }),
  label: (d) => String(d.number ?? ''),
  Fields: OffenceFields,
};
