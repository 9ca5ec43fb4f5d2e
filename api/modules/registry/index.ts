import type { ModuleDef } from '../types.ts';
import { PLANTING_HOOKS } from './plantings.ts';
import { SPECIES_HOOKS } from './species-benefits.ts';

/** The greening registry: public plantings joining it, species' benefits. */
export const registryModule: ModuleDef = { name: 'registry', hooks: { ...PLANTING_HOOKS, ...SPECIES_HOOKS } };
