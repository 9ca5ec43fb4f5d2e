import type { Hook, HookContext, HookResult } from '../engine/repository.ts';
import type { EntityName, EntityRows } from '../meta/rows.generated.ts';
import type { FormSchemaProvider } from '../engine/forms.ts';
import type { RouteHandler } from '../http/route-context.ts';
import type { Listener } from '../kernel/events.ts';
import type { EngineEvents } from '../engine/events.ts';
import type { JobRun } from '../jobs/queue.ts';

/**
 * The interfaces a module implements, defined where they are called: hooks by the engine
 * (api/engine/repository.ts), form schemas by its forms (api/engine/forms.ts), route handlers by the
 * HTTP layer (api/http/route-context.ts), events by the engine (api/engine/events.ts), job kinds by
 * the jobs' queue (api/jobs/queue.ts). Re-exported here for the modules.
 */
export type { Hook, HookContext, HookResult } from '../engine/repository.ts';
export type { FormSchema, FormSchemaProvider } from '../engine/forms.ts';
export type { RouteContext, RouteHandler } from '../http/route-context.ts';

/** A hook's context with its row (and the row before) typed as the entity's row (api/meta/rows.generated.ts). */
export type RowHookContext<N extends EntityName> = Omit<HookContext, 'row' | 'before'> & {
  row: EntityRows[N];
  before: EntityRows[N] | null;
};

/**
 * A hook of one entity, reading `ctx.row` as that entity's generated row type instead of casting
 * each value. The engine hands a hook the row as it reads it (docs/metadata.md, "Row types"); run
 * for another entity's row the hook throws rather than read a row of another shape.
 */
export function rowHook<N extends EntityName>(entity: N, fn: (ctx: RowHookContext<N>) => Promise<HookResult | void>): Hook {
  return (ctx) => {
    if (ctx.entity.name !== entity) throw new Error(`a hook of ${entity} was run for ${ctx.entity.name}`);
    return fn(ctx as unknown as RowHookContext<N>);
  };
}

/**
 * A module: the behaviour of a part of the domain that metadata cannot say. Its hooks are found by
 * name from entities' `afterWrite` and workflow actions' `hook`; its handlers answer the routes its
 * `metadata/modules/<module>.json` declares. Names are `<group>.<name>`; the loader refuses a name
 * no module defines.
 */
export interface ModuleDef {
  name: string;
  hooks?: Record<string, Hook>;
  handlers?: Record<string, RouteHandler>;
  /** form schemas of `json` fields with a `form`: found by name from the field's `form.schema` */
  forms?: Record<string, FormSchemaProvider>;
  /** listeners of the engine's events (a workflow move's notification), added by the registry */
  on?: { [K in keyof EngineEvents]?: Listener<EngineEvents[K]> };
  /** background job kinds this module runs (docs/jobs.md), registered by the registry */
  jobs?: Record<string, JobRun>;
  /**
   * The module's start-up work beyond names (NocoBase's plugin `load()`): subscribing to another
   * module's or the notification queue's callbacks. The registry calls it once per process, the
   * first time a registry holding the module is built; importing the module does nothing.
   */
  load?: () => void;
}
