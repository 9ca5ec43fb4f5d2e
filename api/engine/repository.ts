/**
 * The generic repository (docs/decisions/0015-one-generic-repository.md), the entry its callers
 * import. The class is built in layers, one file a seam, each extending the one before:
 * `repository/scope.ts` (the context, the caller's rights and row scope as SQL, a list's filters and
 * order), `repository/read.ts` (list, count, a row, snapshots), `repository/audit.ts` (a row's
 * history, notes), `repository/checks.ts` (a write's validation: references, files, `within`,
 * derived fields) and `repository/write.ts` (`Repository`: the one write path, hooks and plug-ins).
 */
export { type EngineContext } from './repository/scope.ts';
export { EXACT_COUNT_LIMIT, DEFERRED_OFFSET } from './repository/read.ts';
export {
  Repository,
  repository,
  repositoryOf,
  bindPlugins,
  pluginsOf,
  type HookContext,
  type HookResult,
  type Hook,
  type EnginePlugins,
  type WriteOptions,
  type RowChunk,
  type RowChange,
  type ChangeKind,
} from './repository/write.ts';
