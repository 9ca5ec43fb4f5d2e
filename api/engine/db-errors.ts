import type { EntityMeta } from '../meta/types.ts';
import { ApiError, validationError } from '../kernel/errors.ts';
import { isPartitionOf } from '../db/partitions.ts';

interface PgError {
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  message?: string;
}

/**
 * Turns a PostgreSQL error raised by a write into the API's answer: a unique or check violation
 * becomes a field error, a row still referenced elsewhere a 409, a serialization failure a 409,
 * and a value the database cannot take (a data exception, class 22, or a value too large for an
 * index, class 54) a 400 — under its field when the error tells which, never under `id` by
 * default. The payload schema refuses such values first; this is the last line, not the check.
 * Anything else goes on as it is (and becomes a logged -201).
 */
export function translateDbError(err: unknown, e: EntityMeta, op: 'write' | 'delete' = 'write'): unknown {
  if (err instanceof ApiError) return err;
  const raw = err as PgError;
  const pg: PgError = {
    code: raw.code,
    constraint: raw.constraint,
    table: ownTable(e, raw.table),
    column: raw.column,
    message: raw.message,
  };
  const constraint = pg.constraint ?? '';
  switch (pg.code) {
    case '23505': {
      const field = fieldByName(e, pg.table, constraint, 'unique');
      return field
        ? validationError({ [field]: { key: 'validation.unique' } })
        : new ApiError('validation', 'errors.validation', {}, undefined, 'validation.unique');
    }
    case '23001':
      return new ApiError('inUse', 'errors.in_use');
    case '23503': {
      if (op === 'delete' || (pg.table && pg.table !== e.table && !isChildTable(e, pg.table)))
        return new ApiError('inUse', 'errors.in_use');
      // knex names foreign keys <table>_<column>_foreign
      const field = fieldByName(e, pg.table, constraint, 'foreign');
      return field
        ? validationError({ [field]: { key: 'validation.ref_not_found' } })
        : new ApiError('validation', 'errors.validation', {}, undefined, 'validation.ref_not_found');
    }
    case '23514': {
      const c = (e.constraints ?? []).find((x) => constraint === `${e.table}_${x.name}`);
      if (c) return validationError(Object.fromEntries(c.fields.map((f) => [f, { key: c.message }])));
      const field = fieldByName(e, pg.table, constraint, 'enum');
      return field
        ? validationError({ [field]: { key: 'validation.wrong_value' } })
        : new ApiError('validation', 'errors.validation', {}, undefined, 'validation.wrong_value');
    }
    case '23502': {
      // a trigger's aggregate (planting_facts) refusing the null a row brought names the row's field of that name
      const field = columnField(e, pg.table, pg.column) ?? copiedField(e, pg.table, pg.column);
      return field
        ? validationError({ [field]: { key: 'validation.required' } })
        : new ApiError('validation', 'errors.validation', {}, undefined, 'validation.required');
    }
    case '40001':
    case '40P01':
      return new ApiError('stale', 'errors.stale');
    default:
      if (isDataError(err)) {
        const field = columnField(e, pg.table, pg.column) ?? indexField(e, pg.message);
        return field ? validationError({ [field]: { key: 'validation.wrong_format' } }) : new ApiError('badRequest', 'errors.bad_value');
      }
      return err;
  }
}

/**
 * A PostgreSQL error a value caused: class 22 (data exception: out of range, bad syntax, NUL,
 * bad Unicode escape in jsonb…) or 54 (program limit exceeded: a value too large for an index).
 */
export function isDataError(err: unknown): boolean {
  const code = (err as PgError | null)?.code;
  return typeof code === 'string' && /^(22|54)[0-9A-Z]{3}$/.test(code);
}

/** A partition of the entity's table (api/db/partitions.ts) raises its errors under its own name: they are the entity's table's. */
function ownTable(e: EntityMeta, table: string | undefined): string | undefined {
  return table && isPartitionOf(table, e.table) ? e.table : table;
}

function isChildTable(e: EntityMeta, table: string): boolean {
  return Object.values(e.fields).some((f) => f.type === 'children' && f.table === table);
}

/** The field (`name`, or `lines` for a child table's column) a constraint `<table>_<column>_<suffix>` is about. */
function fieldByName(e: EntityMeta, table: string | undefined, constraint: string, suffix: string): string | undefined {
  const own = Object.keys(e.fields).find((f) => constraint === `${e.table}_${f}_${suffix}`);
  if (own) return own;
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type !== 'children' || (table && table !== f.table)) continue;
    if (Object.keys(f.fields ?? {}).some((c) => constraint === `${f.table}_${c}_${suffix}`)) return name;
  }
  return undefined;
}

/** The field a column of the entity's table (or of a child table: the children field) is. */
function columnField(e: EntityMeta, table: string | undefined, column: string | undefined): string | undefined {
  if (!column) return undefined;
  if ((!table || table === e.table) && e.fields[column]) return column;
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.type === 'children' && f.table === table && f.fields?.[column]) return name;
  }
  return undefined;
}

/**
 * The field a column of another table (not the entity's nor a child table's) is named after: a
 * statement trigger copies the row's columns into an aggregate's under their own names, so a NOT
 * NULL there is the field's. The metadata says such fields are required (docs/metadata.md), so
 * this is the last line, not the check.
 */
function copiedField(e: EntityMeta, table: string | undefined, column: string | undefined): string | undefined {
  if (!table || !column || table === e.table || isChildTable(e, table)) return undefined;
  const f = e.fields[column];
  return f && f.type !== 'children' && !f.through ? column : undefined;
}

/** `… for index "<table>_<column>_idx"` (a value too large for a btree index) → the column's field. */
function indexField(e: EntityMeta, message: string | undefined): string | undefined {
  const index = /index "([^"]+)"/.exec(message ?? '')?.[1];
  if (!index) return undefined;
  return Object.keys(e.fields).find((f) => [`${e.table}_${f}_idx`, `${e.table}_${f}_unique`, `${e.table}_${f}_search`].includes(index));
}
