import type { FormSchemaProvider, Hook, ModuleDef, RouteHandler } from './types.ts';
import type { MetaModel } from '../meta/types.ts';
import type { MetaProblem } from '../meta/load.ts';
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

/**
 * Every module of the system. A module is a folder `api/modules/<module>/` of one shape: `index.ts`
 * (its ModuleDef), its hooks and route handlers, their tests; its routes are declared in
 * `metadata/modules/<module>.json`. Hooks and handlers are found by name; a name the metadata uses
 * that no module defines stops start-up (checkModules).
 */
export const MODULES: ModuleDef[] = [systemModule, accessModule, fundModule, registryModule, publicSiteModule, offencesModule, zonesModule, siteContentModule, chatModule, notificationsModule, jobsModule];

function collect<T>(kind: 'hooks' | 'handlers' | 'forms'): Record<string, T> {
  const out: Record<string, T> = {};
  for (const m of MODULES) {
    for (const [name, fn] of Object.entries((m[kind] ?? {}) as Record<string, T>)) {
      if (name in out) throw new Error(`${kind.slice(0, -1)} "${name}" of module ${m.name} is defined twice`);
      out[name] = fn;
    }
  }
  return out;
}

export const HOOKS: Record<string, Hook> = collect<Hook>('hooks');
export const HANDLERS: Record<string, RouteHandler> = collect<RouteHandler>('handlers');
export const FORMS: Record<string, FormSchemaProvider> = collect<FormSchemaProvider>('forms');

/** Every hook and handler the metadata names exists in a module: else the file, the JSON pointer and the name. */
export function checkModules(model: MetaModel): MetaProblem[] {
  const problems: MetaProblem[] = [];
  for (const e of model.entities.values()) {
    if (e.afterWrite && !HOOKS[e.afterWrite]) problems.push({ file: e.file, pointer: '/afterWrite', message: `no module defines the hook "${e.afterWrite}"` });
    if (e.beforeDelete && !HOOKS[e.beforeDelete]) problems.push({ file: e.file, pointer: '/beforeDelete', message: `no module defines the hook "${e.beforeDelete}"` });
    for (const [name, a] of Object.entries(e.workflow?.actions ?? {})) {
      if (a.hook && !HOOKS[a.hook]) problems.push({ file: e.file, pointer: `/workflow/actions/${name}/hook`, message: `no module defines the hook "${a.hook}"` });
    }
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.computedBy && !HOOKS[f.computedBy]) problems.push({ file: e.file, pointer: `/fields/${name}/computedBy`, message: `no module defines the hook "${f.computedBy}"` });
      if (f.form && !FORMS[f.form.schema]) problems.push({ file: e.file, pointer: `/fields/${name}/form/schema`, message: `no module defines the form schema "${f.form.schema}"` });
    }
  }
  const index = new Map<string, number>();
  for (const r of model.routes) {
    const i = index.get(r.file) ?? 0;
    index.set(r.file, i + 1);
    if (!HANDLERS[r.handler]) problems.push({ file: r.file, pointer: `/routes/${i}/handler`, message: `no module defines the handler "${r.handler}"` });
  }
  return problems;
}
