import type { ModuleDef } from '../types.ts';
import { ZONE_HOOKS } from './hooks.ts';
import { ZONE_HANDLERS } from './routes.ts';
import { zoneValuesForm } from './forms.ts';

/** Control zones (a folder tree, fields defined per folder, values filled in the generated form) and given permits (metadata/modules/zones.json). */
export const zonesModule: ModuleDef = {
  name: 'zones',
  hooks: ZONE_HOOKS,
  handlers: ZONE_HANDLERS,
  forms: { 'zones.values': zoneValuesForm },
};
