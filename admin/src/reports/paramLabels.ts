import { i18n } from '../i18n';
import type { ReportParamDef } from './types';

/** The first of `keys` the catalogues have (the last one when none has: it is ours and exists). */
function firstKey(keys: (string | undefined)[]): string {
  const present = keys.filter((k): k is string => !!k);
  return present.find((k) => i18n.exists(k)) ?? present[present.length - 1];
}

/** The caption key of a report parameter: its declared caption, the field of the same name, or ours. */
export function paramLabelKey(name: string, def: ReportParamDef): string {
  return firstKey([def.caption, `fields.${name}`, `admin.report.params.${name}`, 'admin.report.params.value']);
}

/** The caption key of an enum parameter's value: the API's enum caption, ours (periods), the report's own (`report.<param>_<value>`, which the loader requires), or the value. */
export function enumValueKey(name: string, value: string): string | undefined {
  const key = [`enums.${name}.${value}`, `admin.report.values.${value}`, `report.${name}_${value}`].find((k) => i18n.exists(k));
  return key;
}
