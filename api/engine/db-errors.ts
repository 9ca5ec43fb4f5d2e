import type { EntityMeta } from '../meta/types.ts';
import { ApiError, validationError } from '../http/errors.ts';

interface PgError { code?: string; constraint?: string; table?: string; column?: string }

/**
 * Turns a PostgreSQL error raised by a write into the API's answer: a unique or check violation
 * becomes a field error, a row still referenced elsewhere a 409, a serialization failure a 409.
 * Anything else goes on as it is (and becomes a logged -201).
 */
export function translateDbError(err: unknown, e: EntityMeta, op: 'write' | 'delete' = 'write'): unknown {
  if (err instanceof ApiError) return err;
  const pg = err as PgError;
  const constraint = pg.constraint ?? '';
  switch (pg.code) {
    case '23505': {
      const field = Object.keys(e.fields).find((f) => constraint === `${e.table}_${f}_unique`) ?? 'id';
      return validationError({ [field]: { key: 'validation.unique' } });
    }
    case '23001': return new ApiError('inUse', 'errors.in_use');
    case '23503':
      if (op === 'delete' || (pg.table && pg.table !== e.table)) return new ApiError('inUse', 'errors.in_use');
      return validationError({ [fkField(e, constraint)]: { key: 'validation.ref_not_found' } });
    case '23514': {
      const c = (e.constraints ?? []).find((x) => constraint === `${e.table}_${x.name}`);
      if (c) return validationError(Object.fromEntries(c.fields.map((f) => [f, { key: c.message }])));
      const field = Object.keys(e.fields).find((f) => constraint === `${e.table}_${f}_enum`) ?? 'id';
      return validationError({ [field]: { key: 'validation.wrong_value' } });
    }
    case '23502': return validationError({ [pg.column ?? 'id']: { key: 'validation.required' } });
    case '22001': case '22003': case '22P02': case '22007': case '22008':
      return validationError({ [pg.column ?? 'id']: { key: 'validation.wrong_format' } });
    case '40001': case '40P01': return new ApiError('stale', 'errors.stale');
    default: return err;
  }
}

function fkField(e: EntityMeta, constraint: string): string {
  // knex names foreign keys <table>_<column>_foreign
  return Object.keys(e.fields).find((f) => constraint === `${e.table}_${f}_foreign`) ?? 'id';
}
