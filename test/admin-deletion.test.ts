import { describe, expect, it } from 'vitest';
import {
  consequences,
  deletable,
  fold,
  shortName,
  typedBulk,
  typedMatches,
  type DeletingAction,
  type DeletionEntity,
} from '../admin/src/generic/deletion.ts';

/**
 * The back-office's rules of a safe delete (admin/src/generic/deletion.ts, docs/decisions/0066):
 * when a delete is offered, what a typed confirmation accepts, what the dialog says goes with the
 * row. Here because vitest runs `test/` (admin/src's own test files are not in its include).
 */
type Field = DeletionEntity['fields'][number];
const field = (name: string, type: string, extra: Partial<Field> = {}): Field => ({ name, type, label: `fields.${name}`, ...extra });

const can = { read: true, create: true, update: true, delete: true, export: true };
const entity = (over: Partial<DeletionEntity> = {}): DeletionEntity => ({
  fields: [field('name', 'string'), field('is_system', 'boolean')],
  can,
  ...over,
});

describe('when a delete is offered', () => {
  it('needs the right, a state that lets the row change, and no mark of a row the system needs', () => {
    expect(deletable(entity(), { id: 1, is_system: true })).toBe(true);
    expect(deletable(entity({ can: { ...can, delete: false } }), { id: 1 })).toBe(false);
    const roles = entity({ undeletable: 'is_system' });
    expect(deletable(roles, { id: 1, is_system: true })).toBe(false);
    expect(deletable(roles, { id: 2, is_system: false })).toBe(true);
    const reports = entity({ fields: [field('status', 'enum')], workflow: { field: 'status', editable: ['new'] } });
    expect(deletable(reports, { id: 1, status: 'new' })).toBe(true);
    expect(deletable(reports, { id: 1, status: 'sent' })).toBe(false);
  });

  it('asks for the count typed past ten rows', () => {
    expect(typedBulk(10)).toBe(false);
    expect(typedBulk(11)).toBe(true);
  });
});

describe('a typed confirmation', () => {
  it('takes the name as a person types it: case, spaces, quotes and apostrophes aside', () => {
    expect(typedMatches('chinor mchj', '«Chinor» MChJ')).toBe(true);
    expect(typedMatches("Gʻallaorol o'rmon xo`jaligi", 'Gʻallaorol oʻrmon xoʻjaligi')).toBe(true);
    expect(typedMatches('  ЧИНОР  ', 'Чинор')).toBe(true);
    expect(typedMatches('25', '25')).toBe(true);
  });

  it('refuses another name, a part of it, and an empty expectation', () => {
    expect(typedMatches('chinor', '«Chinor» MChJ')).toBe(false);
    expect(typedMatches('chinor mchj 2', '«Chinor» MChJ')).toBe(false);
    expect(typedMatches('24', '25')).toBe(false);
    expect(typedMatches('', '')).toBe(false);
    expect(typedMatches('«»', '«»')).toBe(false);
    expect(fold('Oʻ-zbek')).toBe('ozbek');
  });

  it('cuts a long name on the button only', () => {
    expect(shortName('Chinor')).toBe('Chinor');
    const long = 'Toshkent shahar obodonlashtirish boshqarmasi qoshidagi korxona';
    expect(shortName(long)).toHaveLength(32);
    expect(shortName(long).endsWith('…')).toBe(true);
  });
});

describe('what goes with a row', () => {
  const subject = entity({
    fields: [
      field('name', 'string'),
      field('norms', 'children'),
      field('certificates', 'children'),
      field('scans', 'files'),
      field('logo', 'image'),
      field('secret', 'files', { hidden: true }),
    ],
  });
  it('names its child rows and files it holds, with their counts, and leaves out what it holds none of', () => {
    expect(consequences(subject, { id: 1, norms: [{}, {}], certificates: [], scans: [5], logo: 7, secret: [1] })).toEqual([
      { caption: 'fields.norms', count: 2 },
      { caption: 'fields.scans', count: 1 },
      { caption: 'fields.logo', count: 1 },
    ]);
    expect(consequences(subject, { id: 1 })).toEqual([]);
  });

  it("adds the entities a deleting action's hook takes with it, by their captions", () => {
    const action: DeletingAction = { removes: ['penya', 'users'] };
    const captions: Record<string, string> = { penya: 'entity.penya', users: 'entity.users' };
    expect(consequences(subject, { id: 1, norms: [{}] }, action, (n) => captions[n])).toEqual([
      { caption: 'fields.norms', count: 1 },
      { caption: 'entity.penya' },
      { caption: 'entity.users' },
    ]);
  });
});
