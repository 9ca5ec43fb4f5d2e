import { describe, expect, it } from 'vitest';
import { loadMetadata } from './load.ts';
import { documentPathProblems, resolveDocumentPath } from './document-paths.ts';

const model = loadMetadata();
const protocols = model.entities.get('subject-protocols')!;

describe("the paths a record's documents read", () => {
  it('follow fields, references and the author', () => {
    expect(resolveDocumentPath(model, protocols, 'offender')).toMatchObject([{ kind: 'field', name: 'offender' }]);
    expect(resolveDocumentPath(model, protocols, 'subject_id.region_id.name')).toMatchObject([
      { kind: 'ref', table: 'subjects' },
      { kind: 'ref', table: 'regions' },
      { kind: 'field', name: 'name' },
    ]);
    expect(resolveDocumentPath(model, protocols, 'created_by.fio')).toMatchObject([
      { kind: 'ref', table: 'users' },
      { kind: 'field', name: 'fio' },
    ]);
    expect(resolveDocumentPath(model, model.entities.get('subject')!, 'norms.pollutant')).toMatchObject([
      { kind: 'children', name: 'norms' },
      { kind: 'field', name: 'pollutant' },
    ]);
  });

  it('refuse what names nothing or must not be printed', () => {
    expect(resolveDocumentPath(model, protocols, 'nope')).toBe('"nope" is not a field of subject-protocols');
    expect(resolveDocumentPath(model, protocols, 'offender.name')).toMatch(/is not a reference/);
    expect(resolveDocumentPath(model, protocols, 'created_by')).toMatch(/say which of its fields/);
    expect(resolveDocumentPath(model, protocols, 'created_by.password')).toMatch(/is not a field of users/);
    expect(resolveDocumentPath(model, model.entities.get('subject')!, 'norms')).toMatch(/has rows/);
  });

  it('of the metadata as it stands are all good', () => {
    for (const e of model.entities.values()) expect(documentPathProblems(model, e), e.name).toEqual([]);
  });
});
