import { Chip } from '@mui/material';
import { useGetOne, useTranslate } from 'react-admin';
import { i18n } from '../i18n';
import { titleOf } from '../generic/titleOf';
import { useLang } from '../generic/useLang';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';

/**
 * One value of a list's fixed filter as "Caption: value": a reference as its row's title, an enum as
 * its caption; a range's end (`from_paid_on`, `to_paid_on` of a report's drill link) as its field's
 * caption with ≥ or ≤.
 */
export function FilterChip({ entity, name, value }: { entity: EntityMeta; name: string; value: unknown }) {
  const model = useMeta();
  const translate = useTranslate();
  const lang = useLang();
  const filter = entity.list.filters.find((f) => f.name === name);
  const field = model.field(entity, name);
  const ref = filter?.ref ?? field?.ref;
  const resource = model.resourceOf(ref);
  const { data } = useGetOne(
    resource ?? '-',
    { id: value as number },
    { enabled: !!resource && (field?.type === 'ref' || filter?.fieldType === 'ref') },
  );
  const range = !filter && !field ? /^(from|to)_(.+)$/.exec(name) : null;
  const ranged = range ? model.field(entity, range[2]) : undefined;
  const labelKey = [filter?.label, field?.label, ranged?.label, `fields.${range && ranged ? range[2] : name}`].find(
    (k) => k && i18n.exists(k),
  );
  const label = labelKey ? `${translate(labelKey)}${range && ranged ? (range[1] === 'from' ? ' ≥' : ' ≤') : ''}` : name;
  let text = String(value);
  if (data) text = titleOf(ref ? model.byName.get(ref) : undefined, data, lang);
  else if ((field?.type === 'enum' || filter?.fieldType === 'enum') && i18n.exists(`enums.${name}.${text}`))
    text = translate(`enums.${name}.${text}`);
  return <Chip size="small" variant="outlined" label={`${label}: ${text}`} data-testid={`fixed-filter-${name}`} />;
}
