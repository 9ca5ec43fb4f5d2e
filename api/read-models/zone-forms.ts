import type { Knex } from 'knex';
import type { ZoneFieldDef } from '../domain/control-zone-form.ts';

/**
 * The field definitions that apply to a zone: those of its folder and of the folders above it
 * (an upper folder's fields first), active ones only, with their options in order. The system's own
 * read to build the form a write of the zone's row is checked against (api/engine/forms.ts), which
 * hands its form providers a connection, not a caller: the definitions are configuration, the same
 * for every reader, and say nothing of any row but the zone's folder.
 */
export async function zoneFieldDefs(db: Knex | Knex.Transaction, zoneId: number): Promise<ZoneFieldDef[] | null> {
  const zone = await db('control_zones').where({ id: zoneId }).first('folder_id');
  if (!zone) return null;
  const chain = await db.raw(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM control_zone_folders WHERE id = ?
       UNION ALL
       SELECT f.id, f.parent_id, up.depth + 1 FROM control_zone_folders f JOIN up ON f.id = up.parent_id WHERE up.depth < 50
     ) SELECT id, depth FROM up`,
    [zone.folder_id],
  );
  const depthOf = new Map<number, number>((chain.rows as { id: string | number; depth: number }[]).map((r) => [Number(r.id), r.depth]));
  const maxDepth = Math.max(0, ...depthOf.values());
  const rows = await db('control_zone_fields')
    .whereIn('folder_id', [...depthOf.keys()])
    .where('is_active', true)
    .select('id', 'folder_id', 'code', 'caption', 'field_kind', 'required', 'ordering', 'min', 'max', 'max_length', 'hint');
  const options = rows.length
    ? await db('control_zone_field_options')
        .whereIn(
          'parent_id',
          rows.map((r) => r.id),
        )
        .orderBy(['parent_id', 'ordering', 'id'])
        .select('parent_id', 'value', 'caption')
    : [];
  return rows.map((r) => ({
    code: r.code,
    caption: r.caption ?? {},
    kind: r.field_kind,
    required: r.required,
    // the folder above first, then the field's own order
    ordering: (maxDepth - depthOf.get(Number(r.folder_id))!) * 1_000_000 + (r.ordering ?? 0),
    min: r.min,
    max: r.max,
    max_length: r.max_length,
    hint: r.hint,
    options: options.filter((o) => Number(o.parent_id) === Number(r.id)).map((o) => ({ value: o.value, caption: o.caption ?? {} })),
  }));
}
