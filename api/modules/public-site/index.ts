import type { ModuleDef } from '../types.ts';
import { PUBLIC_HANDLERS } from './routes.ts';

/** The public site's own calls (metadata/modules/public-site.json); entities' public blocks and public reports are the engine's. */
export const publicSiteModule: ModuleDef = { name: 'public-site', handlers: PUBLIC_HANDLERS };
