import { todayTashkent } from '../validate';
import { Input, RegionArea, Select, type FormDef, type Kit } from './kit';

const VIOLATOR_KINDS = ['person', 'organisation'];

/** A felling violation (`tree-cutting-violations`): when and where, the violator, the species and trees felled. */
function FellingFields({ kit }: { kit: Kit }) {
  const { t } = kit;
  return (
    <>
      <Input kit={kit} name="found_on" label={t('f.found_on')} type="date" extra={{ max: todayTashkent() }} />
      <RegionArea kit={kit} />
      <Input kit={kit} name="address" label={t('f.address')} />
      <Select kit={kit} name="violator_kind" label={t('f.violator_kind')} values={VIOLATOR_KINDS} prefix="f.offender_kind." required />
      <Input kit={kit} name="violator_name" label={t('f.full_name')} />
      <Input kit={kit} name="violator_inn" label={t('f.violator_inn')} extra={{ inputMode: 'numeric' }} />
      <Select kit={kit} name="species_id" label={t('f.species_id')} rows={kit.book('tree-species')} />
      <Input kit={kit} name="trees" label={t('f.trees')} type="number" extra={{ min: 1 }} />
      <Input kit={kit} name="protocol_number" label={t('f.protocol_number')} />
      <Input kit={kit} name="description" label={t('f.description')} />
    </>
  );
}

export const FELLING_FORM: FormDef = {
  kind: 'tree-cutting-violations',
  title: 'nav.felling',
  tab: 'nav.felling.tab',
  testId: 'nav-felling',
  point: true,
  blank: (ref) => ({
    found_on: todayTashkent(),
    region_id: ref?.books.regions?.length === 1 ? ref.books.regions[0].id : undefined,
    violator_kind: 'person',
    trees: 1,
  }),
  label: (d) => String(d.violator_name ?? ''),
  Fields: FellingFields,
};
