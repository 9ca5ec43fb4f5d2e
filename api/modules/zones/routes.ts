import type { RouteHandler } from '../types.ts';
import { zoneValuesForm } from './forms.ts';

/** `GET …/control-zone/:id/values-schema`: the zone's form (JSON Schema and layout) in the caller's language, for the back-office. */
export const ZONE_HANDLERS: Record<string, RouteHandler> = {
  'zones.valuesSchema': async (ctx, rc) => {
    const form = await zoneValuesForm(rc.knex, rc.id!, rc.lang);
    ctx.body = { schema: form?.schema ?? { type: 'object', properties: {} }, uiSchema: form?.uiSchema ?? {} };
  },
};
