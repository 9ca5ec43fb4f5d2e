import type { MetaModel } from '../api/meta/types.ts';
import { pluginsOf } from '../api/engine/repository.ts';
import { buildRegistry } from '../api/registry.ts';

/**
 * The model the seeds write through the engine with: as given when start-up bound it to the
 * modules' registry (api/registry.ts), else bound here to every module's (a script or a test that
 * loaded the metadata itself), so the hooks its writes run are found.
 */
export function withModules(model: MetaModel): MetaModel {
  return pluginsOf(model) ? model : buildRegistry().bind(model);
}
