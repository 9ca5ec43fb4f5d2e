import type { Hook } from '../types.ts';
import { validationError } from '../../kernel/errors.ts';

const day = (v: unknown) => (v == null ? '' : String(v).slice(0, 10));

/**
 * Control-zone folders form a tree (no folder under itself); a field's code is unique in its
 * folder and a choice field has options with distinct values. Given permits: extending moves the
 * end of validity later, terminating is dated within it.
 */
export const ZONE_HOOKS: Record<string, Hook> = {
  'zones.folderTree': async ({ repo, row }) => {
    const folders = repo('control-zones-folders');
    let parent = row.parent_id as number | null;
    for (let i = 0; parent != null && i < 100; i++) {
      if (Number(parent) === Number(row.id)) throw validationError({ parent_id: { key: 'validation.folder_cycle' } });
      parent = (await folders.scoped('read').where('t.id', parent).first('t.parent_id'))?.parent_id ?? null;
    }
  },
  'zones.fieldOptions': async ({ repo, row }) => {
    const twin = await repo('control-zone-fields')
      .scoped('read')
      .where({ 't.folder_id': row.folder_id, 't.code': row.code })
      .whereNot('t.id', row.id as number)
      .first('t.id');
    if (twin) throw validationError({ code: { key: 'validation.unique' } });
    const options = (row.options as { value: string }[] | null) ?? [];
    const choice = row.field_kind === 'select' || row.field_kind === 'multiselect';
    if (choice && !options.length) throw validationError({ options: { key: 'validation.zone_field_options' } });
    if (!choice && options.length) throw validationError({ options: { key: 'validation.zone_field_no_options' } });
    const seen = new Set<string>();
    for (const [i, o] of options.entries()) {
      if (seen.has(o.value)) throw validationError({ [`options.${i}.value`]: { key: 'validation.unique' } });
      seen.add(o.value);
    }
  },
  'zones.permitExtend': async ({ row, before }) => {
    if (day(row.valid_to) <= day(before?.valid_to)) {
      throw validationError({ valid_to: { key: 'validation.extend_later', args: { date: day(before?.valid_to) } } });
    }
  },
  'zones.permitTerminate': async ({ row }) => {
    const on = day(row.terminated_on);
    if (on < day(row.issued_on) || on > day(row.valid_to)) {
      throw validationError({ terminated_on: { key: 'validation.interval', args: { min: day(row.issued_on), max: day(row.valid_to) } } });
    }
  },
};
