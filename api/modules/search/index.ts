import type { ModuleDef } from '../types.ts';
import { SEARCH_HANDLERS } from './search.ts';

/** The back-office's global search over the entities the caller may read (metadata/modules/search.json, docs/global-search.md). */
export const searchModule: ModuleDef = {
  name: 'search',
  handlers: SEARCH_HANDLERS,
};
