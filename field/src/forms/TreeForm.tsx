import { todayTashkent } from '../validate';
import { Input, RegionArea, Select, type FormDef, type Kit } from './kit';

const PLACE_TYPES = ['street', 'park', 'garden', 'school', 'roadside', 'forest', 'yard', 'riverbank', 'other'];

/** A tree passport (`plantings`): species, planting date, count, place, height and trunk. */
function TreeFields({ kit }: { kit: Kit }) {
  const { t } = kit;
  return (
    <>
      <Select kit={kit} name="species_id" label={t('f.species_id')} rows={kit.book('tree-species')} required />
      <Input kit={kit} name="planted_on" label={t('f.planted_on')} type="date" extra={{ max: todayTashkent() }} />
      <Input kit={kit} name="count" label={t('f.count')} type="number" extra={{ min: 1 }} />
      <RegionArea kit={kit} />
      <Select kit={kit} name="place_type" label={t('f.place_type')} values={PLACE_TYPES} prefix="place." required />
      <Input kit={kit} name="place" label={t('f.place')} />
      <Input kit={kit} name="height_m" label={t('f.height_m')} extra={{ inputMode: 'decimal' }} />
      <Input kit={kit} name="circumference_cm" label={t('f.circumference_cm')} extra={{ inputMode: 'decimal' }} />
    </>
  );
}

export const TREE_FORM: FormDef = {
  kind: 'plantings',
  title: 'nav.tree',
  tab: 'nav.tree',
  testId: 'nav-tree',
  point: true,
  blank: (ref) => ({
    planted_on: todayTashkent(),
    count: 1,
    region_id: ref?.books.regions?.length === 1 ? ref.books.regions[0].id : undefined,
    place_type: 'street',
  }),
  label: (d) => String(d.place ?? ''),
  Fields: TreeFields,
};
