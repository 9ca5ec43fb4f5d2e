import type { ReactElement } from 'react';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  NullableBooleanInput,
  NumberInput,
  ReferenceArrayInput,
  ReferenceInput,
  SearchInput,
  SelectArrayInput,
  SelectInput,
  TextInput,
} from 'react-admin';
import type { MetaModel } from '../meta/model';
import type { EntityMeta, FilterMeta } from '../meta/types';
import { titleOf } from './titleOf';
import type { Lang } from './format';
import { i18n } from '../i18n';
import { DateInput } from './DateInput';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The filter inputs of a list, by each filter's op and its field's kind: a search box; an equality
 * (a reference as an autocomplete, an enum as a select, a flag as yes/no); a range as two inputs
 * named `from_<name>` and `to_<name>` (what the API reads); a yes/no flag; a set of values.
 */
export function filterInputs(
  e: EntityMeta,
  model: MetaModel,
  translate: Translate,
  lang: Lang,
  exclude: ReadonlySet<string> = new Set(),
  custom: Record<string, (f: FilterMeta) => ReactElement> = {},
): ReactElement[] {
  const out: ReactElement[] = [];
  // a filter the route or the page already applies has no input; a special screen may give its own
  for (const f of e.list.filters) {
    if (exclude.has(f.name)) continue;
    const meta = { ...f, label: labelKey(f) };
    if (custom[f.name]) out.push(custom[f.name](meta));
    else if (f.op === 'search') out.push(searchInput(meta, translate(meta.label), searchLabel(e, f, model, translate)));
    else out.push(...filterInput(meta, model, translate, lang));
  }
  return out;
}

/**
 * The caption key of a filter. The API names a filter that is not a declared field
 * `filters.<name>`; for a system column (created_at…) that key may not exist while
 * `fields.<name>` does.
 */
function labelKey(f: FilterMeta): string {
  if (i18n.exists(f.label) || !i18n.exists(`fields.${f.name}`)) return f.label;
  return `fields.${f.name}`;
}

/**
 * What a reference input over entity `ref` needs: its resource, its list's sort, the title of an
 * option and the search filter typing goes to (null when the user may not read the entity).
 */
export function refProps(ref: string | undefined, model: MetaModel, lang: Lang) {
  const reference = model.resourceOf(ref);
  const target = ref ? model.byName.get(ref) : undefined;
  if (!reference || !target) return null;
  const search = target.list.filters.find((x) => x.op === 'search')?.name;
  return {
    reference,
    sort: { field: target.list.sort[0], order: target.list.sort[1].toUpperCase() as 'ASC' | 'DESC' },
    optionText: (r: Record<string, unknown>) => titleOf(target, r as never, lang),
    filterToQuery: (q: string) => (search && q ? { [search]: q } : {}),
  };
}

/**
 * The search box: besides its placeholder it has a label screen readers say, naming what it
 * searches ("Qidirish: Kod, Nomi").
 */
function searchInput(f: FilterMeta, placeholder: string, label: string): ReactElement {
  return (
    <SearchInput
      key={f.name}
      source={f.name}
      alwaysOn={f.alwaysOn ?? false}
      placeholder={placeholder}
      slotProps={{ htmlInput: { 'aria-label': label } }}
      data-testid={`filter-${f.name}`}
    />
  );
}

function searchLabel(e: EntityMeta, f: FilterMeta, model: MetaModel, translate: Translate): string {
  const fields = (f.fields ?? [])
    .map((n) => model.field(e, n))
    .filter((x) => !!x)
    .map((x) => translate(x!.label));
  return fields.length ? translate('admin.action.search_label', { label: fields.join(', ') }) : translate(f.label);
}

function filterInput(f: FilterMeta, model: MetaModel, translate: Translate, lang: Lang): ReactElement[] {
  const alwaysOn = f.alwaysOn ?? false;
  const key = f.name;
  switch (f.op) {
    case 'search':
      return [searchInput(f, translate(f.label), translate(f.label))];
    case 'bool':
      return [<NullableBooleanInput key={key} source={f.name} label={f.label} alwaysOn={alwaysOn} />];
    case 'range': {
      const label = translate(f.label);
      const from = <>{translate('admin.filter.from', { label })}</>;
      const to = <>{translate('admin.filter.to', { label })}</>;
      if (f.fieldType === 'date' || f.fieldType === 'datetime') {
        return [
          <DateInput key={`from_${key}`} source={`from_${f.name}`} label={from} alwaysOn={alwaysOn} partial="null" />,
          <DateInput key={`to_${key}`} source={`to_${f.name}`} label={to} alwaysOn={alwaysOn} partial="null" />,
        ];
      }
      return [
        <NumberInput key={`from_${key}`} source={`from_${f.name}`} label={from} alwaysOn={alwaysOn} />,
        <NumberInput key={`to_${key}`} source={`to_${f.name}`} label={to} alwaysOn={alwaysOn} />,
      ];
    }
    case 'in': {
      if (f.fieldType === 'ref' || f.fieldType === 'refs') {
        const p = refProps(f.ref, model, lang);
        // the label on the outer input too: the "add filter" menu reads it there, else it shows the field's name
        if (p) {
          return [
            <ReferenceArrayInput key={key} source={f.name} label={f.label} reference={p.reference} sort={p.sort} alwaysOn={alwaysOn}>
              <AutocompleteArrayInput label={f.label} optionText={p.optionText} filterToQuery={p.filterToQuery} />
            </ReferenceArrayInput>,
          ];
        }
      }
      if (f.values) {
        return [
          <SelectArrayInput
            key={key}
            source={f.name}
            label={f.label}
            alwaysOn={alwaysOn}
            choices={f.values.map((v) => ({ id: v, name: `enums.${f.name}.${v}` }))}
          />,
        ];
      }
      return [<TextInput key={key} source={f.name} label={f.label} alwaysOn={alwaysOn} />];
    }
    case 'eq':
    default: {
      if (f.fieldType === 'ref' || f.fieldType === 'refs') {
        const p = refProps(f.ref, model, lang);
        if (p) {
          return [
            <ReferenceInput key={key} source={f.name} label={f.label} reference={p.reference} sort={p.sort} alwaysOn={alwaysOn}>
              <AutocompleteInput label={f.label} optionText={p.optionText} filterToQuery={p.filterToQuery} sx={{ minWidth: 240 }} />
            </ReferenceInput>,
          ];
        }
        return [<NumberInput key={key} source={f.name} label={f.label} alwaysOn={alwaysOn} />];
      }
      if (f.fieldType === 'enum' && f.values) {
        return [
          <SelectInput
            key={key}
            source={f.name}
            label={f.label}
            alwaysOn={alwaysOn}
            choices={f.values.map((v) => ({ id: v, name: `enums.${f.name}.${v}` }))}
            sx={{ minWidth: 200 }}
          />,
        ];
      }
      if (f.fieldType === 'boolean') return [<NullableBooleanInput key={key} source={f.name} label={f.label} alwaysOn={alwaysOn} />];
      if (f.fieldType === 'integer') return [<NumberInput key={key} source={f.name} label={f.label} alwaysOn={alwaysOn} />];
      if (f.fieldType === 'date') return [<DateInput key={key} source={f.name} label={f.label} alwaysOn={alwaysOn} partial="null" />];
      return [<TextInput key={key} source={f.name} label={f.label} alwaysOn={alwaysOn} />];
    }
  }
}
