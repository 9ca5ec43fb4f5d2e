import type { ModuleDef } from '../types.ts';
import { PLANTING_HOOKS } from './plantings.ts';
import { SPECIES_HOOKS } from './species-benefits.ts';
import { VOLUNTEER_HANDLERS } from './volunteers.ts';

/** The greening registry: public plantings joining it, species' benefits, a volunteer's own plantings (metadata/modules/registry.json). */
export const registryModule: ModuleDef = { name: 'registry', hooks: { ...PLANTING_HOOKS, ...SPECIES_HOOKS }, handlers: VOLUNTEER_HANDLERS };
