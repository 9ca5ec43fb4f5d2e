import type { ModuleDef } from '../types.ts';
import { SUGGESTION_HANDLERS, SUGGESTION_HOOKS } from './suggestions.ts';

/**
 * The public site's content edited in the back-office (menu, site sections and texts, news — the
 * entities of the `notification` folder, read by the public site through their `public` blocks)
 * and the public's suggestions (metadata/modules/site-content.json, docs/site-content.md).
 */
export const siteContentModule: ModuleDef = {
  name: 'site-content',
  hooks: { ...SUGGESTION_HOOKS },
  handlers: { ...SUGGESTION_HANDLERS },
};
