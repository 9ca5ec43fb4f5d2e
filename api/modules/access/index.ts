import type { ModuleDef } from '../types.ts';
import { ACCESS_HANDLERS } from './routes.ts';
import { USER_HOOKS } from './hooks.ts';

/** Users, roles and access managing (metadata/modules/access.json). */
export const accessModule: ModuleDef = { name: 'access', hooks: USER_HOOKS, handlers: ACCESS_HANDLERS };
