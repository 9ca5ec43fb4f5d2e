import type { Knex } from 'knex';
import { ApiError, validationError } from '../../kernel/errors.ts';
import { checkFineMultiple, fineOn } from '../../domain/fines.ts';
import { formatTiyin } from '../../domain/money.ts';

/**
 * What the rule reads its two books through: a hook's `ctx.repo` (the write's own trusted read, in
 * its transaction); the demo seeds, which write before any model is bound, read the same tables.
 */
export type BookReader = (entity: 'fine' | 'min-oklads') => { scoped(op: 'read'): Knex.QueryBuilder };

/** What a row's fine is computed from: its article (the `fine` book), the chosen multiple and the date it is reckoned on. */
export interface FineInput {
  fineId: number | null;
  /** a decimal's exact text; null or '' when none is chosen */
  multiple: string | null;
  /** 'YYYY-MM-DD' */
  date: string;
  /** the row's date field, named in the error when no base value is in force on it */
  dateField: string;
  /** the row's multiple field, named in the interval warning */
  multipleField?: string;
}

/**
 * The one fine rule of protocols and offences (spec §5, §9): the multiple must lie in the chosen
 * article's (part's, item's) interval — outside it the form is answered with the interval beside the
 * multiple (`validation.interval`, {min, max}) — and the fine is that multiple of the base value in
 * force on the row's date (api/domain/fines.ts). Null when no multiple is chosen.
 */
export async function fineOfRow(repo: BookReader, o: FineInput): Promise<string | null> {
  if (o.multiple === null || o.multiple === '') return null;
  const multipleField = o.multipleField ?? 'fine_multiple';
  if (o.fineId) {
    const article = await repo('fine').scoped('read').where({ 't.id': o.fineId }).first('t.min_multiple', 't.max_multiple');
    const warning = article ? checkFineMultiple(o.multiple, article) : null;
    if (warning) throw validationError({ [multipleField]: { key: warning.key, args: warning.args } });
  }
  try {
    const fine = fineOn(o.multiple, await repo('min-oklads').scoped('read').select('t.start_date', 't.amount'), o.date);
    return formatTiyin(fine.amount);
  } catch (err) {
    if (err instanceof RangeError)
      throw new ApiError('validation', 'errors.base_value_missing', {}, { [o.dateField]: { key: 'errors.base_value_missing' } });
    throw err;
  }
}
