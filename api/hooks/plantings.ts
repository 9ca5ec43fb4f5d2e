import type { WorkflowHook } from './index.ts';

/** An approved public planting joins the registry (source "public"): it then counts on the map and in the statistics. */
export const PLANTING_HOOKS: Record<string, WorkflowHook> = {
  'plantings.approvePublic': async ({ trx, row }) => {
    // copied in SQL, so the point and the photo travel as PostgreSQL values
    const inserted = await trx.raw(
      `insert into plantings (species_id, count, planted_on, region_id, location, place_type, responsible, source, images)
       select species_id, count, planted_on, region_id, location, 'other', first_name || ' ' || last_name, 'public',
              case when photo is null then null else array[photo] end
         from public_plantings where id = ?
       returning id`, [row.id as number]);
    await trx('public_plantings').where({ id: row.id }).update({ planting_id: inserted.rows[0].id });
  },
};
