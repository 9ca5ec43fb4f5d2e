import type { ModuleDef } from './types.ts';
import { systemModule } from './system/index.ts';
import { accessModule } from './access/index.ts';
import { fundModule } from './fund/index.ts';
import { registryModule } from './registry/index.ts';
import { publicSiteModule } from './public-site/index.ts';
import { offencesModule } from './offences/index.ts';
import { zonesModule } from './zones/index.ts';
import { siteContentModule } from './site-content/index.ts';
import { chatModule } from './chat/index.ts';
import { notificationsModule } from './notifications/index.ts';
import { jobsModule } from './jobs/index.ts';
import { personalDataModule } from './personal-data/index.ts';
import { dashboardModule } from './dashboard/index.ts';
import { fieldModule } from './field/index.ts';
import { searchModule } from './search/index.ts';

/**
 * Every module of the system. A module is a folder `api/modules/<module>/` of one shape: `index.ts`
 * (its ModuleDef), its hooks and route handlers, their tests; its routes are declared in
 * `metadata/modules/<module>.json`. Hooks and handlers are found by name; a name the metadata uses
 * that no module defines stops start-up
 * (api/registry.ts: the registry built from this list, checked once and handed to the engine).
 */
export const MODULES: ModuleDef[] = [
  systemModule,
  accessModule,
  fundModule,
  registryModule,
  publicSiteModule,
  offencesModule,
  zonesModule,
  siteContentModule,
  chatModule,
  notificationsModule,
  jobsModule,
  personalDataModule,
  dashboardModule,
  fieldModule,
  searchModule,
];
