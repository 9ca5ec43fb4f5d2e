import { describe, expect, it } from 'vitest';
import { isDataError, translateDbError } from './db-errors.ts';
import { loadMetadata } from '../meta/load.ts';
import { ApiError } from '../kernel/errors.ts';

const model = loadMetadata();
const reports = model.entities.get('subject-report-yearly')!;
const pg = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`pg ${code}`), { code, ...extra });
const fields = (err: unknown) => Object.keys((err as ApiError).fieldErrors ?? {});

describe('PostgreSQL errors of a write', () => {
  it('are data errors when a value caused them (classes 22 and 54), not otherwise', () => {
    for (const code of ['22P02', '22003', '22021', '22P05', '22007', '22008', '54000']) expect(isDataError(pg(code)), code).toBe(true);
    for (const code of ['23505', '42P01', '08006', '40001']) expect(isDataError(pg(code)), code).toBe(false);
    expect(isDataError(new Error('x'))).toBe(false);
    expect(isDataError(null)).toBe(false);
  });

  it('name the field a data error is about, and never id by default', () => {
    const bad = translateDbError(pg('22P02'), reports) as ApiError;
    expect(bad).toBeInstanceOf(ApiError);
    expect(bad.status).toBe(400);
    expect(bad.messageKey).toBe('errors.bad_value');
    expect(bad.fieldErrors).toBeUndefined();
    expect(fields(translateDbError(pg('22003', { table: 'subject_reports', column: 'year' }), reports))).toEqual(['year']);
    // a child table's column is the children field's error
    expect(fields(translateDbError(pg('22003', { table: 'subject_report_ingredients', column: 'mass' }), reports))).toEqual([
      'ingredients',
    ]);
    expect(
      fields(
        translateDbError(
          pg('54000', { message: 'index row size 4016 exceeds btree version 4 maximum 2704 for index "subject_reports_comment_idx"' }),
          { ...reports, fields: { ...reports.fields, comment: { type: 'text' } } },
        ),
      ),
    ).toEqual(['comment']);
    expect(fields(translateDbError(pg('23502', { table: 'subject_report_ingredients', column: 'pollutant' }), reports))).toEqual([
      'ingredients',
    ]);
    // a trigger's aggregate refusing a null the row brought: the row's field of that name
    const plantings = model.entities.get('plantings')!;
    const trigger = translateDbError(pg('23502', { table: 'planting_facts', column: 'irrigation' }), plantings) as ApiError;
    expect(trigger.fieldErrors).toEqual({ irrigation: { key: 'validation.required' } });
    expect(fields(translateDbError(pg('23502', { table: 'planting_facts', column: 'dbh_class' }), plantings))).toEqual([]);
    expect(
      fields(translateDbError(pg('23505', { table: 'subject_reports', constraint: 'subject_reports_no_such_unique' }), reports)),
    ).toEqual([]);
  });

  it('leave other errors to be system errors', () => {
    const other = pg('42P01');
    expect(translateDbError(other, reports)).toBe(other);
  });
});
