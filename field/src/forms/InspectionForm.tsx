import { todayTashkent } from '../validate';
import { Input, RegionArea, Select, type FormDef, type Kit } from './kit';

const RESULTS = ['ok', 'deficiencies', 'violation'];

/**
 * An inspector's finding on a planting (`planting-inspections`): when, where, the tree passport
 * inspected (its number, as on the plate or the registry), the trees checked, alive and dead, the
 * result and the findings. The entity has no point of its own: the photos carry the place.
 */
function InspectionFields({ kit }: { kit: Kit }) {
  const { t } = kit;
  return (
    <>
      <Input kit={kit} name="inspected_on" label={t('f.inspected_on')} type="date" extra={{ max: todayTashkent() }} />
      <RegionArea kit={kit} />
      <Input kit={kit} name="planting_id" label={t('f.planting_id')} type="number" extra={{ min: 1, inputMode: 'numeric' }} />
      <div className="row">
        <Input kit={kit} name="trees_checked" label={t('f.trees_checked')} type="number" extra={{ min: 0 }} />
        <Input kit={kit} name="trees_alive" label={t('f.trees_alive')} type="number" extra={{ min: 0 }} />
        <Input kit={kit} name="trees_dead" label={t('f.trees_dead')} type="number" extra={{ min: 0 }} />
      </div>
      <Select kit={kit} name="result" label={t('f.result')} values={RESULTS} prefix="result." />
      <Input kit={kit} name="findings" label={t('f.findings')} />
    </>
  );
}

export const INSPECTION_FORM: FormDef = {
  kind: 'planting-inspections',
  title: 'nav.inspection',
  tab: 'nav.inspection.tab',
  testId: 'nav-inspection',
  point: false,
  blank: (ref, userId) => ({
    inspected_on: todayTashkent(),
    region_id: ref?.books.regions?.length === 1 ? ref.books.regions[0].id : undefined,
    inspector_id: userId,
  }),
  label: (d) => String(d.findings ?? '').slice(0, 40),
  Fields: InspectionFields,
};
