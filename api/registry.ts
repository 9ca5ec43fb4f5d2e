import type { MetaModel } from './meta/types.ts';
import type { MetaProblem } from './meta/load.ts';
import { Events, type Listener } from './kernel/events.ts';
import { bindPlugins, type EnginePlugins, type Hook } from './engine/repository.ts';
import type { EngineEvents } from './engine/events.ts';
import type { FormSchemaProvider } from './engine/forms.ts';
import type { RouteHandler } from './http/route-context.ts';
import { registerJobKind, type JobRun } from './jobs/queue.ts';
import { EXPORT_JOB_KINDS } from './jobs/export-kinds.ts';
import { IMPORT_JOB_KINDS } from './jobs/import-kinds.ts';
import type { ModuleDef } from './modules/types.ts';
import { MODULES } from './modules/index.ts';

/**
 * The modules' registry, built once at start-up (api/app.ts, api/workers.ts, the CLI, the test
 * helpers) and handed to what calls the modules: NocoBase's plugin `load()` and Directus's services
 * taking their dependencies are the models. It holds every module's hooks, route handlers, form
 * schemas, job kinds and event listeners, each name once; `check` finds the names the metadata
 * gives that no module defines, `bind` hands a model to the engine with them (api/engine reads its
 * hooks, forms and events from the model it is given: pluginsOf). The engine, the metadata, the
 * database and auth import nothing of the modules (`npm run lint:deps`).
 */
export interface Registry extends EnginePlugins {
  modules: readonly ModuleDef[];
  handlers: Readonly<Record<string, RouteHandler>>;
  /** every job kind: the core ones (exports, imports) and the modules' */
  jobs: Readonly<Record<string, JobRun>>;
}

/** The core's job kinds: list and report exports, entity imports (docs/jobs.md). */
const CORE_JOBS: Record<string, JobRun> = { ...EXPORT_JOB_KINDS, ...IMPORT_JOB_KINDS };

/** The modules whose `load()` has run in this process. */
const LOADED = new WeakSet<ModuleDef>();

/** The modules' names alone (no job kinds registered, no listeners): what checkModules asks of. */
function collectOnly(modules: readonly ModuleDef[] = MODULES): Pick<Registry, 'hooks' | 'handlers' | 'forms'> {
  const all = <T>(kind: 'hooks' | 'handlers' | 'forms') => Object.assign({}, ...modules.map((m) => m[kind] ?? {})) as Record<string, T>;
  return { hooks: all<Hook>('hooks'), handlers: all<RouteHandler>('handlers'), forms: all<FormSchemaProvider>('forms') };
}

/** The registry of these modules (default: every module of the system); a name defined twice stops it. */
export function buildRegistry(modules: readonly ModuleDef[] = MODULES): Registry {
  const collect = <T>(kind: 'hooks' | 'handlers' | 'forms' | 'jobs', core: Record<string, T> = {}): Record<string, T> => {
    const out: Record<string, T> = { ...core };
    for (const m of modules) {
      for (const [name, fn] of Object.entries((m[kind] ?? {}) as Record<string, T>)) {
        if (name in out)
          throw new Error(`${kind === 'jobs' ? 'job kind' : kind.slice(0, -1)} "${name}" of module ${m.name} is defined twice`);
        out[name] = fn;
      }
    }
    return out;
  };
  const hooks = collect<Hook>('hooks');
  const handlers = collect<RouteHandler>('handlers');
  const forms = collect<FormSchemaProvider>('forms');
  const jobs = collect<JobRun>('jobs', CORE_JOBS);
  const events = new Events<EngineEvents>();
  for (const m of modules) {
    for (const [name, fn] of Object.entries(m.on ?? {}) as [keyof EngineEvents, Listener<EngineEvents[keyof EngineEvents]>][])
      events.on(name, fn);
  }
  // each module's own start-up work, once per process however many registries are built (tests build several)
  for (const m of modules) {
    if (m.load && !LOADED.has(m)) {
      LOADED.add(m);
      m.load();
    }
  }
  // the jobs' worker and the routes that queue a job find a kind by its name in the queue's table
  for (const [kind, run] of Object.entries(jobs)) registerJobKind(kind, run);
  const registry: Registry = {
    modules,
    hooks,
    handlers,
    forms,
    jobs,
    events,
    check: (model) => checkModules(model, registry),
    bind: (model) => bindPlugins(model, registry),
  };
  return registry;
}

/**
 * Every hook, handler and form schema the metadata names exists in a module (of the registry given,
 * default every module's): else the file, the JSON pointer and the name.
 */
export function checkModules(model: MetaModel, r: Pick<Registry, 'hooks' | 'handlers' | 'forms'> = collectOnly()): MetaProblem[] {
  const problems: MetaProblem[] = [];
  for (const e of model.entities.values()) {
    if (e.afterWrite && !r.hooks[e.afterWrite])
      problems.push({ file: e.file, pointer: '/afterWrite', message: `no module defines the hook "${e.afterWrite}"` });
    if (e.beforeDelete && !r.hooks[e.beforeDelete])
      problems.push({ file: e.file, pointer: '/beforeDelete', message: `no module defines the hook "${e.beforeDelete}"` });
    for (const [name, a] of Object.entries(e.workflow?.actions ?? {})) {
      if (a.hook && !r.hooks[a.hook])
        problems.push({ file: e.file, pointer: `/workflow/actions/${name}/hook`, message: `no module defines the hook "${a.hook}"` });
    }
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.computedBy && !r.hooks[f.computedBy])
        problems.push({ file: e.file, pointer: `/fields/${name}/computedBy`, message: `no module defines the hook "${f.computedBy}"` });
      if (f.form && !r.forms[f.form.schema])
        problems.push({
          file: e.file,
          pointer: `/fields/${name}/form/schema`,
          message: `no module defines the form schema "${f.form.schema}"`,
        });
    }
  }
  const index = new Map<string, number>();
  for (const r0 of model.routes) {
    const i = index.get(r0.file) ?? 0;
    index.set(r0.file, i + 1);
    if (!r.handlers[r0.handler])
      problems.push({ file: r0.file, pointer: `/routes/${i}/handler`, message: `no module defines the handler "${r0.handler}"` });
  }
  return problems;
}
